// Package jsregexp compiles and runs JavaScript regular expressions on UTF-16 strings.
//
// Patterns are checked against the ECMAScript grammar where it differs from the engine's, in
// the order V8 parses them so that errors carry V8's messages, then translated and compiled
// with github.com/dlclark/regexp2/v2 in its ECMAScript mode. v-flag classes (nested classes,
// intersection, subtraction, \q{...}) are rewritten into lookaheads and alternatives, as
// regexp2 has no set notation.
//
// Inputs are UTF-16 code unit slices: without the u (or v) flag every code unit is one
// character, as in JavaScript, so "." matches half of a surrogate pair; with it, surrogate
// pairs are combined into code points and match indices are mapped back to UTF-16.
//
// Two costs of regexp2 are avoided around it: with the i flag, sets spanning much of Unicode
// reach it already closed under case folding (casefold.go), as it would fold them one
// character at a time; and a pattern whose every alternative begins with ^ is tried only
// where it can match, at the start of the input or of each line (linesearch.go), where
// regexp2 would start its backtracker at every position.
//
// Every match runs under a deadline so a catastrophic backtracking pattern ends with
// ErrTimeout instead of hanging the interpreter, inputs are bounded by MaxInput, and the
// backtracking stack by MaxBacktrackSlots. Compile keeps recent compilations (CacheSize).
// Substitute expands replacement templates ("$1", "$<name>", ...).
//
// ES2025 pattern modifiers ((?i:...), (?-s:...), flags i, m and s) pass through to regexp2,
// which gives their bodies JavaScript's meaning, after their early errors are checked.
// Duplicate named groups are allowed in alternatives that cannot both take part in a match;
// GroupNames lists such a name once per group, and \k<name> refers to each in turn.
//
// Where V8 20 departs from the specification this package follows the specification: a
// search never starts inside a surrogate pair in unicode mode, and v-flag [^] matches any
// code point. Unicode property tables are those of the Go toolchain (Unicode 15 for Go 1.26).
package jsregexp

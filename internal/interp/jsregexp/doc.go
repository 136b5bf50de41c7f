// Package jsregexp compiles and runs JavaScript regular expressions on UTF-16 strings.
//
// Patterns are checked against the ECMAScript grammar where it differs from the engine's
// (groups, names, named references), translated, and compiled with github.com/dlclark/regexp2/v2
// in its ECMAScript mode. Inputs are UTF-16 code unit slices: without the u (or v) flag every
// code unit is one character, as in JavaScript, so "." matches half of a surrogate pair; with it,
// surrogate pairs are combined into code points and match indices are mapped back to UTF-16.
//
// Every match runs under a deadline so a catastrophic backtracking pattern ends with ErrTimeout
// instead of hanging the interpreter, and inputs are bounded by MaxInput.
package jsregexp

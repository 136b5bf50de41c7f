package jsregexp

import (
	"errors"
	"fmt"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

const (
	// MaxInput is the longest input Exec accepts, in UTF-16 code units (16 Mi units, 32 MiB).
	MaxInput = 1 << 24
	// MaxBacktrackSlots bounds the backtracking stack of one match (integer slots, 8 bytes each:
	// 32 MiB); a match needing more fails with ErrBacktrackLimit.
	MaxBacktrackSlots = 1 << 22
	// TimeoutCheckPeriod is how often regexp2's shared clock ticks while any match with a
	// deadline runs; a match overruns its deadline by at most about this much.
	TimeoutCheckPeriod = 10 * time.Millisecond
)

func init() {
	// regexp2 reads its clock period when a deadline is first used; set it before any match.
	regexp2.SetTimeoutCheckPeriod(TimeoutCheckPeriod)
}

// Regexp is a compiled JavaScript regular expression. It is immutable and safe for concurrent
// use; lastIndex and other per-object state belong to the caller.
type Regexp struct {
	re     *regexp2.Regexp
	flags  Flags
	names  []string
	source string
	// anchored reports that re is the sticky form "(?:P)|()": it always matches at the
	// search start, and the extra last group is set exactly when P did not match there.
	anchored bool
	engines  timedEngines // copies of re with a time limit
	// lines is set when a match can only start at the start of a line (linesearch.go).
	lines *lineSearch
	// simple is set when the pattern is of the form simple.go matches directly.
	simple *simplePattern
}

// Match is the result of one successful Exec. All positions are UTF-16 code unit indices.
type Match struct {
	Start, End int      // the whole match: input[Start:End]
	Groups     [][2]int // per capture group 1..n: [start, end], {-1, -1} when it did not participate
	Names      []string // group names by index ("" = unnamed), same length as Groups
}

// Compile compiles source (the pattern's UTF-16 code units, as between the slashes of a
// literal) under flags. A pattern that is not valid JavaScript is a *SyntaxError whose message
// follows V8's. The last CacheSize successful compilations are reused.
func Compile(source []uint16, flags Flags) (*Regexp, error) {
	if re := cache.get(lookupKeyOf(source, flags)); re != nil {
		return re, nil
	}
	re, err := compile(source, flags)
	if err != nil {
		return nil, err
	}
	cache.put(keyOf(source, flags), re)
	return re, nil
}

// compile is Compile without the cache.
func compile(source []uint16, flags Flags) (*Regexp, error) {
	tr, err := translate(source, flags)
	if err != nil {
		return nil, newSyntaxError(source, flags, err)
	}
	opts := regexp2.ECMAScript
	if flags.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if flags.Multiline {
		opts |= regexp2.Multiline
	}
	if flags.DotAll {
		opts |= regexp2.Singleline
	}
	if flags.unicodeMode() {
		opts |= regexp2.Unicode
	}
	re, err := regexp2.Compile(tr.pattern, opts, regexp2.OptionMaxBacktrackingStackSize(MaxBacktrackSlots))
	if err != nil {
		return nil, newSyntaxError(source, flags, err)
	}
	anchored := false
	if flags.Sticky && tr.maxDecimalEscape <= len(tr.names) {
		// A sticky match must start at lastIndex. Rather than let regexp2 scan the rest of the
		// input for a start, give it an empty fallback that always matches there, and mark it
		// with a trailing group. The pattern is known to be valid, so wrapping cannot change
		// its syntax; an extra last group cannot capture a \N that meant an octal escape
		// (maxDecimalEscape says there is none).
		sticky, err := regexp2.Compile("(?:"+tr.pattern+")|()", opts, regexp2.OptionMaxBacktrackingStackSize(MaxBacktrackSlots))
		if err == nil && len(sticky.GetGroupNumbers())-1 == len(tr.names)+1 {
			re, anchored = sticky, true
		}
	}
	if got := len(re.GetGroupNumbers()) - 1; anchored && got != len(tr.names)+1 || !anchored && got != len(tr.names) {
		return nil, fmt.Errorf("compile /%s/: engine counted %d groups, pattern has %d: %w",
			sourceString(source), got, len(tr.names), newSyntaxError(source, flags, errMessage("Invalid group")))
	}
	r := &Regexp{re: re, flags: flags, names: tr.names, source: sourceString(source), anchored: anchored}
	if len(tr.names) == 0 {
		r.simple = parseSimple(source, flags)
	}
	if flags.Multiline && !flags.Sticky && tr.maxDecimalEscape <= len(tr.names) && startsLines(source) {
		r.lines = &lineSearch{pattern: tr.pattern, opts: opts, groups: len(tr.names)}
	}
	return r, nil
}

// Flags returns the flags the expression was compiled with.
func (r *Regexp) Flags() Flags { return r.flags }

// NumGroups returns the number of capture groups (not counting the whole match).
func (r *Regexp) NumGroups() int { return len(r.names) }

// GroupNames returns the name of each capture group 1..n ("" when unnamed). The slice is
// shared: do not modify it.
func (r *Regexp) GroupNames() []string { return r.names }

// Exec finds the first match starting at or after lastIndex (a UTF-16 index; with the sticky
// flag the match must start exactly there). It returns nil, nil when there is none, including
// when lastIndex is beyond the input. A zero deadline means no time limit; once the deadline
// passes the match stops with ErrTimeout. Inputs longer than MaxInput fail with
// ErrInputTooLarge. The caller applies RegExpBuiltinExec's lastIndex rules (pass 0 unless the
// g or y flag is set), and advances past empty matches. With the u or v flag a lastIndex
// inside a surrogate pair searches from the pair's start, as the specification says.
func (r *Regexp) Exec(input []uint16, lastIndex int, deadline time.Time) (*Match, error) {
	in, err := NewInput(input, r.flags.unicodeMode())
	if err != nil {
		return nil, err
	}
	return r.ExecInput(in, lastIndex, deadline)
}

// ExecInput is Exec on an Input prepared once, for callers that match the same string many
// times (global replace, split, matchAll). The Input must have been made with the same
// unicode mode as the expression (u or v flag); otherwise it is converted again. The Match
// returned is the caller's to keep.
func (r *Regexp) ExecInput(in *Input, lastIndex int, deadline time.Time) (*Match, error) {
	if deadline.IsZero() {
		return r.NewMatcher().Exec(in, lastIndex, 0)
	}
	timeout := time.Until(deadline)
	if timeout <= 0 {
		return nil, ErrTimeout
	}
	// A deadline's time limit is used once: give it its own engine copy rather than a
	// place among the kept ones.
	engine := *r.re
	engine.MatchTimeout = timeout
	return r.NewMatcher().exec(&engine, in, lastIndex, timeout, false)
}

// collect copies a match out of the engine's storage into m, in UTF-16 indices, reusing
// m.Groups. anchored tells whether the engine is the sticky form "(?:P)|()"; collect reports
// false when only its fallback matched.
func (r *Regexp) collect(v regexp2.MatchView, in *Input, m *Match, anchored bool) bool {
	if anchored {
		if _, _, ok := v.GroupRange(len(r.names) + 1); ok {
			return false // only the fallback matched: no match at lastIndex
		}
	}
	idx, length, _ := v.GroupRange(0)
	m.Start, m.End, m.Names = in.unitIndex(idx), in.unitIndex(idx+length), r.names
	if m.Groups == nil || cap(m.Groups) < len(r.names) {
		m.Groups = make([][2]int, len(r.names))
	}
	m.Groups = m.Groups[:len(r.names)]
	for i := range m.Groups {
		gi, gl, ok := v.GroupRange(i + 1)
		if !ok {
			m.Groups[i] = [2]int{-1, -1}
			continue
		}
		m.Groups[i] = [2]int{in.unitIndex(gi), in.unitIndex(gi + gl)}
	}
	return true
}

// newSyntaxError turns a translation or regexp2 error into a SyntaxError with V8's wording.
func newSyntaxError(source []uint16, flags Flags, err error) *SyntaxError {
	msg := err.Error()
	var me messageError
	var pe *syntax.Error
	switch {
	case errors.As(err, &me):
		msg = string(me)
	case errors.As(err, &pe):
		msg = v8Message(pe.Code)
	}
	return &SyntaxError{Source: sourceString(source), Flags: flags.String(), Message: msg}
}

// v8Message maps a regexp2 parse error to the message V8 gives for the same mistake.
func v8Message(code syntax.ErrorCode) string {
	switch code {
	case syntax.ErrMissingParen:
		return "Unterminated group"
	case syntax.ErrUnexpectedParen:
		return "Unmatched ')'"
	case syntax.ErrInvalidRepeatOp, syntax.ErrMissingRepeatArgument:
		return "Nothing to repeat"
	case syntax.ErrQuantifiedAssertion:
		return "Invalid quantifier"
	case syntax.ErrInvalidRepeatSize:
		return "numbers out of order in {} quantifier"
	case syntax.ErrReversedCharRange, syntax.ErrInvalidCharRange:
		return "Range out of order in character class"
	case syntax.ErrBadClassInCharRange, syntax.ErrShorthandClassInCharRange:
		return "Invalid character class"
	case syntax.ErrUnterminatedBracket:
		return "Unterminated character class"
	case syntax.ErrIllegalEndEscape:
		return `\ at end of pattern`
	case syntax.ErrMalformedSlashP, syntax.ErrIncompleteSlashP, syntax.ErrUnknownSlashP:
		return "Invalid property name"
	case syntax.ErrTooFewHex, syntax.ErrInvalidHex:
		return "Invalid Unicode escape"
	case syntax.ErrInvalidECMAGroupName, syntax.ErrInvalidGroupName:
		return "Invalid capture group name"
	case syntax.ErrDuplicateGroupName:
		return "Duplicate capture group name"
	case syntax.ErrUndefinedNameRef:
		return "Invalid named capture referenced"
	case syntax.ErrMalformedNameRef:
		return "Invalid named reference"
	case syntax.ErrUnrecognizedGrouping:
		return "Invalid group"
	case syntax.ErrMissingBrace:
		return "Incomplete quantifier"
	case syntax.ErrUnrecognizedEscape, syntax.ErrUndefinedBackRef, syntax.ErrCaptureGroupOutOfRange,
		syntax.ErrMissingControl, syntax.ErrUnrecognizedControl:
		return "Invalid escape"
	}
	return string(code)
}

package jsregexp

import (
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// Patterns that can only match at the start of a line.
//
// With the m flag a pattern whose every alternative begins with ^ can only match where a line
// begins. regexp2 does not use that to find where to try: it runs its matcher at every
// position of the input, each attempt failing at once on ^ but costing a setup of the
// backtracker, so that a search through a document costs per character what a match costs.
// Markdown converters search documents with dozens of such patterns. For them the matcher
// looks for line starts itself and runs the sticky form of the pattern ("(?:P)|()", which
// always matches where it is tried, its last group telling whether P did) once at each
// whose first character can begin a match (the set regexp2 computes for its own search).

// lineSearchMinLength is the shortest rest of an input for which the matcher finds line
// starts itself: below it one search by the engine costs less than the attempts.
const lineSearchMinLength = 64

// lineSearch holds the sticky form of a pattern that only matches at line starts, compiled
// when it is first needed.
type lineSearch struct {
	pattern string               // the translated pattern
	opts    regexp2.RegexOptions // its options
	groups  int                  // its number of capture groups
	once    sync.Once
	re      *regexp2.Regexp // nil if the sticky form did not compile
	// first is the set of characters a match can begin with, nil when a match can be empty or
	// the set is not known.
	first   *syntax.CharSet
	engines timedEngines // copies of re with a time limit
}

// engine returns the sticky form with its time limit set to timeout (none when 0), or nil
// when there is none; keep tells whether a copy made for that limit may be kept.
func (ls *lineSearch) engine(timeout time.Duration, keep bool) *regexp2.Regexp {
	ls.once.Do(func() {
		re, err := regexp2.Compile("(?:"+ls.pattern+")|()", ls.opts, regexp2.OptionMaxBacktrackingStackSize(MaxBacktrackSlots))
		if err != nil || len(re.GetGroupNumbers())-1 != ls.groups+1 {
			return
		}
		ls.re = re
		tree, err := syntax.Parse(ls.pattern, syntax.ParseOptions{RegexOptions: syntax.RegexOptions(ls.opts)})
		if err != nil {
			return
		}
		if code, err := syntax.Write(tree); err == nil && code.FcPrefix != nil && !code.FcPrefix.CaseInsensitive {
			first := code.FcPrefix.PrefixSet.Copy()
			ls.first = &first
		}
	})
	if ls.re == nil {
		return nil
	}
	return ls.engines.get(ls.re, timeout, keep)
}

// searchLines finds the first match at a line start at or after the rune index start with
// the sticky form, engine (the whole search runs under timeout when it is not 0: its
// deadline is checked between attempts, and each attempt has the time limit). It sets m.found
// and m.match as the engine's callback does.
func (m *Matcher) searchLines(ls *lineSearch, engine *regexp2.Regexp, in *Input, start int, timeout time.Duration) error {
	if engine == nil {
		return m.re.re.FindRunesMatches(in.runes, start, m.yield)
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	runes := in.runes
	pos := start
	if pos > 0 && !isLineTerminator(runes[pos-1]) {
		pos = nextLineStart(runes, pos)
	}
	for pos <= len(runes) {
		if ls.first == nil || pos < len(runes) && ls.first.CharIn(runes[pos]) {
			if err := engine.FindRunesMatches(runes, pos, m.yieldAnchored); err != nil || m.found {
				return err
			}
		}
		if pos = nextLineStart(runes, pos); pos > len(runes) {
			return nil
		}
		if timeout > 0 && time.Now().After(deadline) {
			return ErrTimeout
		}
	}
	return nil
}

// nextLineStart returns the index after the first line terminator at or after pos, or
// len(runes)+1 when there is none.
func nextLineStart(runes []rune, pos int) int {
	for i := pos; i < len(runes); i++ {
		if isLineTerminator(runes[i]) {
			return i + 1
		}
	}
	return len(runes) + 1
}

// isLineTerminator reports whether r ends a line for ^ and $ with the m flag.
func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// startsLines reports whether every top-level alternative of the pattern src begins with ^.
func startsLines(src []uint16) bool {
	depth := 0
	atStart := true // at the start of a top-level alternative
	for i := 0; i < len(src); i++ {
		c := src[i]
		if atStart && c != '^' {
			return false
		}
		atStart = false
		switch c {
		case '\\':
			i++
		case '[':
			for i++; i < len(src) && src[i] != ']'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			atStart = depth == 0
		}
	}
	return !atStart
}

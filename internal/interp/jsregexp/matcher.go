package jsregexp

import (
	"errors"
	"fmt"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// Matcher runs one Regexp for one caller at a time, such as one RegExp object of a VM. It
// keeps one Match that every Exec refills, so a repeated match allocates nothing once the
// engine's buffers have grown. A Matcher is not safe for concurrent use; make one per
// goroutine (a Regexp is shared freely).
type Matcher struct {
	re    *Regexp
	yield func(regexp2.MatchView) bool
	// yieldAnchored is yield for the sticky form of the expression (lineSearch).
	yieldAnchored func(regexp2.MatchView) bool

	in    *Input // the input of the Exec in progress, for yield
	match Match
	found bool
}

// NewMatcher returns a Matcher for r.
func (r *Regexp) NewMatcher() *Matcher {
	m := &Matcher{re: r}
	m.yield = m.collect
	if r.lines != nil {
		m.yieldAnchored = m.collectAnchored
	}
	return m
}

// engine returns the compiled engine with its time limit set to timeout (none when 0).
func (r *Regexp) engine(timeout time.Duration) *regexp2.Regexp {
	return r.engines.get(r.re, timeout, true)
}

// Regexp returns the expression m runs.
func (m *Matcher) Regexp() *Regexp { return m.re }

// collect is the engine's callback: it copies the first match and stops the search.
func (m *Matcher) collect(v regexp2.MatchView) bool {
	m.found = m.re.collect(v, m.in, &m.match, m.re.anchored)
	return false
}

// collectAnchored is collect for the sticky form of the expression.
func (m *Matcher) collectAnchored(v regexp2.MatchView) bool {
	m.found = m.re.collect(v, m.in, &m.match, true)
	return false
}

// Exec is Regexp.Exec on a prepared Input with a time limit instead of a deadline: it finds
// the first match starting at or after lastIndex (exactly there with the sticky flag) and
// returns nil, nil when there is none. A zero timeout means no limit; a match running longer
// than timeout (give or take TimeoutCheckPeriod) stops with ErrTimeout. The Match returned
// belongs to m and is overwritten by the next Exec: copy what must outlive it.
func (m *Matcher) Exec(in *Input, lastIndex int, timeout time.Duration) (*Match, error) {
	if m.re.simple != nil {
		// the engine is only wanted when the direct matcher gives up
		return m.exec(nil, in, lastIndex, timeout, true)
	}
	return m.exec(m.re.engine(timeout), in, lastIndex, timeout, true)
}

// exec is Exec on engine, a form of the expression's engine with its time limit set to
// timeout (none when 0), or nil to get that form when needed; keep tells whether engine
// copies made for that limit may be kept.
func (m *Matcher) exec(engine *regexp2.Regexp, in *Input, lastIndex int, timeout time.Duration, keep bool) (*Match, error) {
	timed := timeout > 0
	r := m.re
	if !in.fits(r.flags.unicodeMode()) {
		var err error
		if in, err = NewInput(in.units, r.flags.unicodeMode()); err != nil {
			return nil, err
		}
	}
	if lastIndex < 0 {
		lastIndex = 0
	}
	if lastIndex > in.Len() {
		return nil, nil
	}
	start := in.runeIndex(lastIndex)
	if r.simple != nil {
		s, e, res := r.simple.exec(in.runes, start, r.flags.Sticky)
		switch res {
		case simpleNoMatch:
			return nil, nil
		case simpleFound:
			m.match.Start, m.match.End, m.match.Names = in.unitIndex(s), in.unitIndex(e), r.names
			if m.match.Groups == nil {
				m.match.Groups = [][2]int{}
			}
			m.match.Groups = m.match.Groups[:0]
			return &m.match, nil
		}
	}
	if engine == nil {
		engine = r.engine(timeout)
	}
	m.in, m.found = in, false
	var err error
	if r.lines != nil && len(in.runes)-start >= lineSearchMinLength {
		err = m.searchLines(r.lines, r.lines.engine(timeout, keep), in, start, timeout)
	} else {
		// FindRunesMatches lends the engine's capture storage to the callback instead of
		// allocating a regexp2.Match; the first match is all Exec needs.
		err = engine.FindRunesMatches(in.runes, start, m.yield)
	}
	m.in = nil
	switch {
	case errors.Is(err, regexp2.ErrBacktrackingStackLimit):
		return nil, fmt.Errorf("exec /%s/: %w", r.source, ErrBacktrackLimit)
	case err != nil && timed:
		return nil, ErrTimeout
	case err != nil:
		return nil, fmt.Errorf("exec /%s/: %w", r.source, err)
	case !m.found:
		return nil, nil
	}
	if r.flags.Sticky && m.match.Start != in.unitIndex(start) {
		return nil, nil
	}
	return &m.match, nil
}

package jsregexp

import (
	"maps"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// maxEngines bounds how many time limits a timedEngines keeps an engine copy for.
const maxEngines = 8

// timedEngines keeps copies of a compiled engine by time limit. MatchTimeout is a field of
// the engine value, so each limit needs its own copy; the copies share the compiled program
// and runner pool, and the first maxEngines limits asked for are kept (callers use a few fixed
// time slices), published copy-on-write for lock-free reads.
type timedEngines struct {
	byLimit atomic.Pointer[map[time.Duration]*regexp2.Regexp]
}

// get returns re with its time limit set to timeout (re itself when timeout is 0); keep tells
// whether a copy made for that limit may be kept.
func (t *timedEngines) get(re *regexp2.Regexp, timeout time.Duration, keep bool) *regexp2.Regexp {
	if timeout <= 0 {
		return re
	}
	old := t.byLimit.Load()
	if old != nil {
		if e, ok := (*old)[timeout]; ok {
			return e
		}
	}
	cp := *re
	cp.MatchTimeout = timeout
	if keep && (old == nil || len(*old) < maxEngines) {
		next := make(map[time.Duration]*regexp2.Regexp, maxEngines)
		if old != nil {
			maps.Copy(next, *old)
		}
		next[timeout] = &cp
		t.byLimit.CompareAndSwap(old, &next) // a lost race only loses the cache entry
	}
	return &cp
}

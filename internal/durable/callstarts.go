package durable

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/toolcall"
)

// CallStartDelay is how long a new call's row waits before it is written on its own. A call
// that settles sooner is recorded, start and outcome, by the one journal transaction of its
// settlement: a single round trip and commit per call where there were two. Writing the start
// later loses nothing: if the worker dies before it, the re-drive makes the call again under
// the same idempotency key, as it does when the worker dies during any call. A call that runs
// longer has its row written then, so that the run's calls show it while it runs.
const CallStartDelay = 100 * time.Millisecond

// unwrittenCall is a started call whose row is not written yet. Whoever removes it from
// Lease.unwritten under Lease.mu writes it: the settlement, a fenced transaction, or its timer.
type unwrittenCall struct {
	start CallStart
	args  json.RawMessage
	at    time.Time
	timer *time.Timer
	// done is closed when the timer's own write ended, with err.
	done chan struct{}
	err  error
}

// insertArgs are the arguments of CallInsertFenced for u.
func (l *Lease) insertArgs(u *unwrittenCall) []any {
	return []any{l.runID, u.start.CallID, toolcall.Key(l.runID, int64(u.start.CallID)), u.start.Toolset, u.start.Path,
		u.args, u.start.Durable, l.fence}
}

// deferCallRow registers a new call's row, to be written by the call's settlement or by
// whatever fenced write comes first, or by itself after CallStartDelay.
func (l *Lease) deferCallRow(c CallStart, args json.RawMessage) {
	u := &unwrittenCall{start: c, args: args, at: time.Now(), done: make(chan struct{})}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.unwritten == nil {
		l.unwritten = map[int]*unwrittenCall{}
	}
	l.unwritten[c.CallID] = u
	u.timer = time.AfterFunc(l.store.cfg.CallStartDelay, func() { l.writeCallRow(u) })
}

// writeCallRow is the timer's write of a call still running after CallStartDelay.
func (l *Lease) writeCallRow(u *unwrittenCall) {
	l.mu.Lock()
	if l.unwritten[u.start.CallID] != u {
		l.mu.Unlock()
		return // claimed by another write
	}
	delete(l.unwritten, u.start.CallID)
	if l.timerWrites == nil {
		l.timerWrites = map[int]*unwrittenCall{}
	}
	l.timerWrites[u.start.CallID] = u
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), l.store.cfg.LeaseTTL)
	defer cancel()
	u.err = l.oneShot(ctx, nil, func(b *pgx.Batch) error {
		b.Queue(q("CallInsertFenced"), l.insertArgs(u)...)
		return nil
	})
	close(u.done)
}

// claimCallRow takes the call's unwritten row for the caller to write, waiting for its timer's
// write if that began; nil when the row is written.
func (l *Lease) claimCallRow(callID int) *unwrittenCall {
	l.mu.Lock()
	if u, ok := l.unwritten[callID]; ok {
		delete(l.unwritten, callID)
		l.mu.Unlock()
		if u.timer != nil {
			u.timer.Stop()
		}
		return u
	}
	u, ok := l.timerWrites[callID]
	delete(l.timerWrites, callID)
	l.mu.Unlock()
	if !ok {
		return nil
	}
	<-u.done
	if u.err != nil {
		return u // the timer's write failed: the caller writes the row
	}
	return nil
}

// claimCallRows takes every unwritten call row, for a fenced transaction to write first: a
// checkpoint or a suspension never commits while a started call has no row.
func (l *Lease) claimCallRows() []*unwrittenCall {
	l.mu.Lock()
	ids := make([]int, 0, len(l.unwritten)+len(l.timerWrites))
	for id := range l.unwritten {
		ids = append(ids, id)
	}
	for id := range l.timerWrites {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	var out []*unwrittenCall
	for _, id := range ids {
		if u := l.claimCallRow(id); u != nil {
			out = append(out, u)
		}
	}
	return out
}

// restoreCallRows puts back rows a failed transaction did not write; the next write writes
// them (no timer).
func (l *Lease) restoreCallRows(us []*unwrittenCall) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.unwritten == nil {
		l.unwritten = map[int]*unwrittenCall{}
	}
	for _, u := range us {
		if u == nil {
			continue
		}
		u.timer = nil
		l.unwritten[u.start.CallID] = u
	}
}

// dropCallRows forgets the rows of calls still running when the run ends: a finished run has
// no running calls to show.
func (l *Lease) dropCallRows() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, u := range l.unwritten {
		if u.timer != nil {
			u.timer.Stop()
		}
		delete(l.unwritten, id)
	}
}

// plainText reports whether PostgreSQL stores s as text: valid UTF-8 without U+0000.
func plainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

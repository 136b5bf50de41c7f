package durable

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// runStatusChannel is the notification channel a trigger (migration 00003) announces every
// run status change on, with "<run id> <new status>" as payload.
const runStatusChannel = "codemode_run_status"

// runEventsChannel is the notification channel a trigger (migration 00016) announces the run
// of every transaction that appended events on, with the run id as payload. Its waiters are
// kept under eventsKey(run id), beside the status waiters.
const runEventsChannel = "codemode_run_events"

// eventsKey is the waiters key of a run's event notifications.
func eventsKey(id string) string { return "events " + id }

// watchIdle is how long the listener stays connected with nobody waiting, so that a client
// waiting on runs one after another does not reconnect for each.
const watchIdle = 10 * time.Second

// watchReadyTimeout bounds how long a waiter waits for the listener to connect; after it the
// waiter polls (and still gets notifications once the listener is up).
const watchReadyTimeout = 2 * time.Second

// runWatch fans out run status notifications to the waiters of each run. It keeps one
// dedicated connection (outside the pool, so it takes no pool slot) listening while anybody
// waits, and for watchIdle after; it reconnects with backoff when the connection fails and
// then wakes every waiter, since notifications sent while it was away are lost.
type runWatch struct {
	pool *pgxpool.Pool

	mu      sync.Mutex
	waiters map[string]map[chan string]struct{} // by run id; no empty sets
	running bool                                // the listener goroutine runs
	ready   chan struct{}                       // closed once the current listener is listening
	idle    *time.Timer                         // stops the listener when nobody waits
	stop    context.CancelFunc
}

func newRunWatch(pool *pgxpool.Pool) *runWatch {
	return &runWatch{pool: pool, waiters: map[string]map[chan string]struct{}{}}
}

// subscribe returns a channel that receives run id's new status whenever it changes (only
// the latest when the receiver lags; "" when it may have changed unseen, after the listener
// reconnected), and the function that ends the subscription. It returns once the listener
// listens, or after watchReadyTimeout (or ctx's end) if it cannot connect.
func (w *runWatch) subscribe(ctx context.Context, id string) (<-chan string, func()) {
	ch, _, unsubscribe := w.subscribeListening(ctx, id)
	return ch, unsubscribe
}

// subscribeListening is subscribe, also reporting whether the listener listens: then every
// later change of the run is announced on the channel (or, after a reconnection, ""), and
// the subscriber need not poll.
func (w *runWatch) subscribeListening(ctx context.Context, id string) (<-chan string, bool, func()) {
	ch := make(chan string, 1)
	w.mu.Lock()
	set := w.waiters[id]
	if set == nil {
		set = map[chan string]struct{}{}
		w.waiters[id] = set
	}
	set[ch] = struct{}{}
	if w.idle != nil {
		w.idle.Stop()
		w.idle = nil
	}
	if !w.running {
		w.running = true
		w.ready = make(chan struct{})
		lctx, cancel := context.WithCancel(context.Background())
		w.stop = cancel
		go w.listen(lctx, w.ready)
	}
	ready := w.ready
	w.mu.Unlock()
	timer := time.NewTimer(watchReadyTimeout)
	defer timer.Stop()
	listening := false
	select {
	case <-ready:
		listening = true
	case <-timer.C:
	case <-ctx.Done():
	}
	return ch, listening, func() { w.unsubscribe(id, ch) }
}

// listening reports whether the listener listens now, so that a subscription would not wait.
func (w *runWatch) listening() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.running {
		return false
	}
	select {
	case <-w.ready:
		return true
	default:
		return false
	}
}

func (w *runWatch) unsubscribe(id string, ch chan string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	set := w.waiters[id]
	if _, ok := set[ch]; !ok {
		return
	}
	delete(set, ch)
	if len(set) == 0 {
		delete(w.waiters, id)
	}
	if len(w.waiters) == 0 && w.running {
		w.idle = time.AfterFunc(watchIdle, w.stopIfIdle)
	}
}

// stopIfIdle stops the listener if still nobody waits.
func (w *runWatch) stopIfIdle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.waiters) == 0 && w.running {
		w.stop()
		w.running = false
		w.idle = nil
	}
}

// wake gives status to the waiters of run id, or "" to every waiter when id is "". A
// waiter that has not taken the previous status gets the new one in its place.
func (w *runWatch) wake(id, status string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	signal := func(set map[chan string]struct{}) {
		for ch := range set {
			select {
			case <-ch:
			default:
			}
			ch <- status // cannot block: the buffer of one was just emptied, and only wake sends
		}
	}
	if id != "" {
		signal(w.waiters[id])
		return
	}
	for _, set := range w.waiters {
		signal(set)
	}
}

// listen holds the listening connection until ctx ends, reconnecting after failures; it
// closes ready once it first listens.
func (w *runWatch) listen(ctx context.Context, ready chan struct{}) {
	backoff := 100 * time.Millisecond
	announced := false
	for ctx.Err() == nil {
		err := w.listenOnce(ctx, func() {
			backoff = 100 * time.Millisecond
			if !announced {
				announced = true
				close(ready) // waiters read their run after this: nothing was missed
				return
			}
			w.wake("", "") // changes made while not listening were not announced
		})
		if ctx.Err() != nil || err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// listenOnce connects, listens, calls listening, and dispatches notifications until the
// connection fails or ctx ends.
func (w *runWatch) listenOnce(ctx context.Context, listening func()) error {
	conn, err := pgx.ConnectConfig(ctx, w.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, channel := range []string{runStatusChannel, runEventsChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
			return err
		}
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel == runEventsChannel {
			w.wake(eventsKey(n.Payload), "events")
			continue
		}
		id, status, _ := strings.Cut(n.Payload, " ")
		w.wake(id, status)
	}
}

// watchSafetyPoll is how often a waiter rereads its run while the listener listens: only a
// safety net, since every change is announced.
const watchSafetyPoll = 15 * time.Second

// announce wakes this process's waiters on run id, which just committed status and events:
// they need not wait for PostgreSQL's notification of the change, which follows (and wakes
// them, or the waiters of other processes, again).
func (s *Store) announce(id, status string) {
	s.watch.wake(id, status)
	s.watch.wake(eventsKey(id), "events")
}

// close stops the listener at once.
func (w *runWatch) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle != nil {
		w.idle.Stop()
		w.idle = nil
	}
	if w.running {
		w.stop()
		w.running = false
	}
}

// eventsWatchFor is how long a mark of a run's events as watched lasts, and eventsWatchRenew
// how often a live watch renews it (see migration 00022): a renewal may fail or come late
// twice before a mark lapses.
const (
	eventsWatchFor   = time.Minute
	eventsWatchRenew = eventsWatchFor / 3
)

// WatchEvents returns a channel that receives a value whenever events may have been added to
// run id's timeline (announced by PostgreSQL when the adding transaction commits, or after the
// listener reconnected), and the function that ends the watch. It returns once the listener
// listens (see runWatch.subscribe) and the run is marked watched: events added after that are
// announced. The mark (only watched runs' events are announced) is renewed until the watch
// ends; should a renewal fail, the watch is woken once one succeeds again, in case an
// announcement was missed meanwhile.
func (s *Store) WatchEvents(ctx context.Context, id string) (<-chan string, func()) {
	ch, unsubscribe := s.watch.subscribe(ctx, eventsKey(id))
	marked := s.markEventsWatched(ctx, id) == nil
	wctx, stop := context.WithCancel(ctx)
	go func() {
		renew := time.NewTimer(s.eventsWatchRenew(marked))
		defer renew.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-renew.C:
			}
			ok := s.markEventsWatched(wctx, id) == nil
			if ok && !marked {
				s.watch.wake(eventsKey(id), "events")
			}
			marked = ok
			renew.Reset(s.eventsWatchRenew(marked))
		}
	}()
	return ch, func() {
		stop()
		unsubscribe()
	}
}

// eventsWatchRenew is when a watch next renews its mark: soon after a failure.
func (s *Store) eventsWatchRenew(marked bool) time.Duration {
	if !marked {
		return time.Second
	}
	if s.eventsWatchFor > 0 {
		return s.eventsWatchFor / 3
	}
	return eventsWatchRenew
}

// markEventsWatched marks run id's events watched for eventsWatchFor more.
func (s *Store) markEventsWatched(ctx context.Context, id string) error {
	d := eventsWatchFor
	if s.eventsWatchFor > 0 {
		d = s.eventsWatchFor
	}
	_, err := s.pool.Exec(ctx, q("RunMarkEventsWatched"), id, d.String())
	return err
}

// drivenRuns are the runs this process drives: from the moment a drive here holds a run's
// lease to its end, every change of the run's status is made by that drive (announced here as
// it commits) or, made elsewhere (a cancel from another process, a lease lost), ends the drive
// at its next heartbeat, and the drive's end wakes the run's waiters here (Store.endDriveHere).
// A wait on such a run need not mark it waited on, and it learns how the drive ended the run
// without reading it again (Store.waitRun).
type drivenRuns struct {
	mu   sync.Mutex
	runs map[string]*drivenRun
}

// drivenRun is one run's drives here and the waits that would take its end.
type drivenRun struct {
	drives int
	ends   map[chan runEnd]struct{}
	// view is the run as the transaction that leased it for a direct resume left it, read
	// with its pending calls and lineage (recordOutcomeDirect); nil: not read.
	view *Run
}

// runEnd is the end a drive of this process committed for its run (Lease.finish).
type runEnd struct {
	status string
	result json.RawMessage
	at     time.Time // finished_at and updated_at
	seq    int       // snapshot_seq
}

// apply returns run as the end left it: finished, with no pending call.
func (e runEnd) apply(run Run) Run {
	at := e.at
	run.Status, run.Result, run.FinishedAt, run.UpdatedAt, run.SnapshotSeq = e.status, e.result, &at, at, e.seq
	run.Pending = nil
	return run
}

// add begins a drive of run id here; view, when not nil, is the run as the drive's lease left
// it (see drivenRun.view).
func (d *drivenRuns) add(id string, view *Run) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.runs == nil {
		d.runs = map[string]*drivenRun{}
	}
	r := d.runs[id]
	if r == nil {
		r = &drivenRun{}
		d.runs[id] = r
	}
	r.drives++
	if view != nil {
		r.view = view
	}
}

// view returns the run as the lease of its drive here left it, when that was read.
func (d *drivenRuns) view(id string) (Run, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.runs[id]; r != nil && r.view != nil {
		return *r.view, true
	}
	return Run{}, false
}

// remove ends a drive of run id and reports whether it was the last one here.
func (d *drivenRuns) remove(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.runs[id]
	if r == nil {
		return false
	}
	if r.drives--; r.drives > 0 {
		return false
	}
	delete(d.runs, id)
	return true
}

// watchEnd returns a channel that receives run id's end if a drive here commits it, and the
// function that stops watching; nil when no drive here holds the run.
func (d *drivenRuns) watchEnd(id string) (<-chan runEnd, func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.runs[id]
	if r == nil {
		return nil, nil
	}
	ch := make(chan runEnd, 1)
	if r.ends == nil {
		r.ends = map[chan runEnd]struct{}{}
	}
	r.ends[ch] = struct{}{}
	return ch, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(r.ends, ch)
	}
}

// ended hands run id's end to the waits watching for it.
func (d *drivenRuns) ended(id string, e runEnd) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.runs[id]; r != nil {
		for ch := range r.ends {
			ch <- e // cannot block: one end per run, one buffered slot per wait
		}
		r.ends = nil
	}
}

// endDriveHere ends a drive of run id in this process (drivenRuns); when it was the last, the
// run's waiters here read the run again.
func (s *Store) endDriveHere(id string) {
	if s.drivenHere.remove(id) {
		s.watch.wake(id, "")
	}
}

package durable

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// journalGroup commits the one-shot journal writes of many leases together (group commit).
// A worker driving many runs at once makes many small fenced writes, one per tool call; each
// on its own costs a round trip and a commit, which dominate their cost in PostgreSQL. While
// one group is on its way, the writes that arrive queue up and go next as one batch: one
// round trip and one implicit transaction for all of them.
//
// Every write of a group is a oneShot batch: its first statement locks its run under the
// lease's fence and returns a row (no row: the lease is lost, and the write's other
// statements, fenced themselves, change nothing), and its other statements return nothing
// to read. A write whose lease is lost therefore leaves the others alone. A statement that
// fails aborts the whole transaction, which then writes nothing: each write of the group is
// sent again on its own, so that only the failing one fails. A failure of the connection
// itself (the group may or may not have committed) is every write's error, as it would be
// for a write sent alone.
//
// The first writer to find no group on its way leads: it sends what is queued, its own write
// included, and reads the results. Before it wakes that group's writers, it sends the writes
// that queued meanwhile, on the same connection, and then hands their results to the first of
// them, who leads in turn; so no goroutine waits on another's later groups, none is kept
// running between groups, and the database has the next group as soon as it is done with one.
type journalGroup struct {
	pool *pgxpool.Pool

	mu      sync.Mutex
	queue   []*journalWrite
	sending bool // a leader is sending; queued writes wait for it
}

// journalWrite is one lease's batch in a journalGroup, and its outcome.
type journalWrite struct {
	ctx    context.Context
	batch  *pgx.Batch
	locked bool  // the first statement found the lease
	err    error // set with locked before done is signalled
	// wake receives true when the write is done, false when its writer leads the next group.
	wake chan bool
	// flight is the group this write's writer leads, already sent, when it is woken to lead.
	flight *groupFlight
}

// groupFlight is a group sent to PostgreSQL whose results are still to be read.
type groupFlight struct {
	group        []*journalWrite
	rest         []*journalWrite // sent statement by statement, in this order
	mergedWrites []*journalWrite // sent as one merged statement, after rest
	conn         *pgxpool.Conn
	acquired     time.Time // when conn was taken from the pool, by this group or one before
	results      pgx.BatchResults
	cancel       context.CancelFunc
	err          error // the group could not be sent
}

// groupConnHold is how long consecutive groups keep sending on one connection before it goes
// back to the pool (which checks it against the pool's lifetimes there).
const groupConnHold = time.Second

// groupSendTimeout bounds a group's round trip, which does not end with the context of the
// writer that leads it (its writes belong to other writers too).
const groupSendTimeout = time.Minute

// send writes batch (see journalGroup) and reports whether its first statement found the
// lease.
func (g *journalGroup) send(ctx context.Context, batch *pgx.Batch) (locked bool, err error) {
	w := &journalWrite{ctx: ctx, batch: batch, wake: make(chan bool, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, w)
	lead := !g.sending
	g.sending = true
	g.mu.Unlock()
	if !lead && <-w.wake {
		return w.locked, w.err
	}
	f := w.flight // sent by the previous leader
	if f == nil {
		g.mu.Lock()
		group := g.queue // w among them
		g.queue = nil
		g.mu.Unlock()
		f = g.start(group, nil)
	}
	reuse := g.finish(f)

	// The writes queued meanwhile are sent before this group's writers are woken, on the
	// connection just read: the database works on them while the wake-ups run, instead of
	// waiting for the next leader to be scheduled behind them.
	g.mu.Lock()
	next := g.queue
	g.queue = nil
	if len(next) == 0 {
		g.sending = false
	}
	g.mu.Unlock()
	var nextFlight *groupFlight
	if len(next) > 0 {
		var prev *groupFlight
		if reuse {
			prev = f
		}
		nextFlight = g.start(next, prev)
	} else if reuse {
		f.conn.Release()
	}

	// The lead is handed on last. A goroutine woken by a channel send goes to the waker's
	// processor as the goroutine it runs next, and each later wake-up takes that place and
	// sends the one before to the back of the queue: woken before the group's writers, the
	// next leader would wait behind all of them to read its group's results.
	for _, m := range f.group {
		if m != w {
			m.wake <- true
		}
	}
	if nextFlight != nil {
		next[0].flight = nextFlight
		next[0].wake <- false // reads the group sent and leads the one after
	}
	return w.locked, w.err
}

// start sends the writes of group as one batch, on the connection of prev (a group whose
// results were read, that finish let keep its connection) or, with prev nil, one from the
// pool, without waiting for its results. A group of one write is sent under its writer's
// context; a larger one under a context of its own (bounded by groupSendTimeout), which does
// not end with any one writer's.
func (g *journalGroup) start(group []*journalWrite, prev *groupFlight) *groupFlight {
	f := &groupFlight{group: group, rest: group, cancel: func() {}}
	ctx := group[0].ctx
	var merged []SettledCall
	if len(group) > 1 {
		ctx, f.cancel = context.WithTimeout(context.WithoutCancel(ctx), groupSendTimeout)
		merged, f.mergedWrites, f.rest = mergeSettledCalls(group)
	}
	combined := &pgx.Batch{}
	for _, w := range f.rest {
		queueCopies(combined, w.batch)
	}
	if len(merged) > 0 {
		queueMerged(combined, merged) // last: see queueMerged
	}
	if prev != nil {
		f.conn, f.acquired = prev.conn, prev.acquired
	} else {
		conn, err := g.pool.Acquire(ctx)
		if err != nil {
			f.err = err
			return f
		}
		f.conn, f.acquired = conn, time.Now()
	}
	f.results = f.conn.SendBatch(ctx, combined)
	return f
}

// finish reads the results of a group start sent and sets each write's outcome. It reports
// whether the group's connection may carry the next group (the group went through, and the
// connection has not been held for groupConnHold): the caller then sends on it or releases
// it. Otherwise the connection is back in the pool.
func (g *journalGroup) finish(f *groupFlight) (reuse bool) {
	defer f.cancel()
	if f.err != nil {
		for _, w := range f.group {
			w.err = f.err
		}
		return false
	}
	var failed error
	for _, w := range f.rest {
		if w.locked, failed = readJournalWrite(f.results, len(w.batch.QueuedQueries)); failed != nil {
			break
		}
	}
	if failed == nil && len(f.mergedWrites) > 0 {
		failed = readMerged(f.results, f.mergedWrites)
	}
	closeErr := f.results.Close()
	if failed == nil && closeErr == nil {
		if time.Since(f.acquired) < groupConnHold {
			return true
		}
		f.conn.Release()
		return false
	}
	f.conn.Release()
	var pgErr *pgconn.PgError
	switch {
	case failed != nil && len(f.group) > 1 && errors.As(failed, &pgErr):
		// A statement failed: the transaction wrote nothing. Each write goes on its own.
		for _, w := range f.group {
			g.sendNow([]*journalWrite{w})
		}
	case failed != nil:
		for _, w := range f.group {
			w.locked, w.err = false, failed
		}
	case closeErr != nil:
		for _, w := range f.group {
			w.locked, w.err = false, closeErr
		}
	}
	return false
}

// mergeSettledCalls picks the writes of group that are each one call's settled record
// (settledCallOf) and can go in one statement together (see groupmerge.go): their records
// (merged) and writes (mergedWrites), in the same order, and the other writes (rest), in the
// group's order. Fewer than two such writes are left in rest.
func mergeSettledCalls(group []*journalWrite) (merged []SettledCall, mergedWrites, rest []*journalWrite) {
	for _, w := range group {
		if len(w.batch.QueuedQueries) == 1 {
			if rec, ok := settledCallOf(w.batch.QueuedQueries[0]); ok && rec.mergeable(merged) {
				merged, mergedWrites = append(merged, rec), append(mergedWrites, w)
				continue
			}
		}
		rest = append(rest, w)
	}
	if len(merged) < 2 {
		return nil, nil, group
	}
	return merged, mergedWrites, rest
}

// readMerged reads the results of queueMerged's statements: the planner settings, then the
// numbers of the writes whose lease was found.
func readMerged(br pgx.BatchResults, writes []*journalWrite) error {
	if _, err := br.Exec(); err != nil {
		return err
	}
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if n < 1 || n > len(writes) {
			return fmt.Errorf("merged records: record %d of %d", n, len(writes))
		}
		writes[n-1].locked = true
	}
	return rows.Err()
}

// queueCopies queues copies of the statements of from in to. Sending a batch records on its
// statements the prepared statements they ran as, which a failed batch deallocates: a write
// sent again after its group failed must be sent as new statements.
func queueCopies(to, from *pgx.Batch) {
	for _, qq := range from.QueuedQueries {
		to.Queue(qq.SQL, qq.Arguments...)
	}
}

// sendNow sends group as one group, outside the queue, and waits for its outcomes.
func (g *journalGroup) sendNow(group []*journalWrite) {
	if f := g.start(group, nil); g.finish(f) {
		f.conn.Release()
	}
}

// readJournalWrite reads the results of one write's n statements from br: the lock's row
// (none: the lease is lost), then nothing.
func readJournalWrite(br pgx.BatchResults, n int) (locked bool, err error) {
	var seq int
	switch err := br.QueryRow().Scan(&seq); {
	case isNoRows(err):
	case err != nil:
		return false, fmt.Errorf("lock: %w", err)
	default:
		locked = true
	}
	for range n - 1 {
		if _, err := br.Exec(); err != nil {
			return false, err
		}
	}
	return locked, nil
}

// JournalGroup is the group commit of the worker's journal (journalGroup) on a pool of the
// caller's, for measuring what the journal's writes cost with nothing else of the service
// around them (cmd/loadgen's calls ceiling).
type JournalGroup struct{ group journalGroup }

// NewJournalGroup returns a JournalGroup sending on pool.
func NewJournalGroup(pool *pgxpool.Pool) *JournalGroup {
	return &JournalGroup{group: journalGroup{pool: pool}}
}

// Send writes batch together with the writes of other goroutines sent meanwhile, as a lease's
// one-shot write goes. The batch's first statement must return one row or none (found reports
// which) and its others nothing.
func (j *JournalGroup) Send(ctx context.Context, batch *pgx.Batch) (found bool, err error) {
	return j.group.send(ctx, batch)
}

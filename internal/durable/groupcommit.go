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
// included, and then hands the lead to the first writer that queued meanwhile, so no
// goroutine waits on another's later groups, and none is kept running between groups.
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
}

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
	g.mu.Lock()
	group := g.queue // w among them
	g.queue = nil
	g.mu.Unlock()

	g.sendGroup(group)

	// The lead is handed on last. A goroutine woken by a channel send goes to the waker's
	// processor as the goroutine it runs next, and each later wake-up takes that place and
	// sends the one before to the back of the queue: woken before the group's writers, the
	// next leader would wait behind all of them, and the writes queued meanwhile with it,
	// while the database has no group to work on.
	for _, m := range group {
		if m != w {
			m.wake <- true
		}
	}
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].wake <- false // leads the next group
	} else {
		g.sending = false
	}
	g.mu.Unlock()
	return w.locked, w.err
}

// sendGroup sends the writes of group as one batch and sets each one's outcome.
func (g *journalGroup) sendGroup(group []*journalWrite) {
	if len(group) == 1 {
		w := group[0]
		w.locked, w.err = g.sendAlone(w.ctx, w.batch)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(group[0].ctx), groupSendTimeout)
	defer cancel()
	combined := &pgx.Batch{}
	merged, mergedWrites, rest := mergeSettledCalls(group)
	for _, w := range rest {
		queueCopies(combined, w.batch)
	}
	if len(merged) > 0 {
		queueMerged(combined, merged) // last: see queueMerged
	}
	conn, err := g.pool.Acquire(ctx)
	if err != nil {
		for _, w := range group {
			w.err = err
		}
		return
	}
	defer conn.Release()
	br := conn.SendBatch(ctx, combined)
	var failed error
	for _, w := range rest {
		if w.locked, failed = readJournalWrite(br, len(w.batch.QueuedQueries)); failed != nil {
			break
		}
	}
	if failed == nil && len(merged) > 0 {
		failed = readMerged(br, mergedWrites)
	}
	closeErr := br.Close()
	var pgErr *pgconn.PgError
	switch {
	case failed != nil && errors.As(failed, &pgErr):
		// A statement failed: the transaction wrote nothing. Each write goes on its own.
		for _, w := range group {
			w.locked, w.err = g.sendAlone(w.ctx, w.batch)
		}
	case failed != nil:
		for _, w := range group {
			w.locked, w.err = false, failed
		}
	case closeErr != nil:
		for _, w := range group {
			w.locked, w.err = false, closeErr
		}
	}
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

// sendAlone sends one write as a batch of its own.
func (g *journalGroup) sendAlone(ctx context.Context, write *pgx.Batch) (bool, error) {
	conn, err := g.pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	batch := &pgx.Batch{}
	queueCopies(batch, write)
	br := conn.SendBatch(ctx, batch)
	locked, err := readJournalWrite(br, len(batch.QueuedQueries))
	if closeErr := br.Close(); err == nil {
		err = closeErr
	}
	return locked, err
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

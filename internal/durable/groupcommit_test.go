package durable

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

// batchCounter counts the batches sent through a pool.
type batchCounter struct{ n atomic.Int64 }

func (c *batchCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}
func (c *batchCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *batchCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *batchCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *batchCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func groupCommitPool(t *testing.T) (*pgxpool.Pool, *batchCounter) {
	t.Helper()
	_, url := pgtest.NewDB(t)
	cfg, err := pgxpool.ParseConfig(url)
	require.NoError(t, err)
	counter := &batchCounter{}
	cfg.ConnConfig.Tracer = counter
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	_, err = pool.Exec(context.Background(), "CREATE TABLE journal_rows (id int PRIMARY KEY)")
	require.NoError(t, err)
	return pool, counter
}

// journalBatch is a write as oneShot makes it: a lock returning a row when lease is held,
// then statements returning nothing.
func journalBatch(lease bool, statements ...string) *pgx.Batch {
	b := &pgx.Batch{}
	if lease {
		b.Queue("SELECT 1")
	} else {
		b.Queue("SELECT 1 WHERE false")
	}
	for _, s := range statements {
		b.Queue(s)
	}
	return b
}

func journalRows(t *testing.T, pool *pgxpool.Pool) []int {
	t.Helper()
	rows, err := pool.Query(context.Background(), "SELECT id FROM journal_rows ORDER BY id")
	require.NoError(t, err)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int])
	require.NoError(t, err)
	return ids
}

// In a group, a write whose lease is lost writes nothing and leaves the others alone, and a
// write whose statement fails fails alone: the others are written all the same.
func TestJournalGroupIsolatesItsWrites(t *testing.T) {
	t.Parallel()
	pool, _ := groupCommitPool(t)
	ctx := context.Background()
	g := &journalGroup{pool: pool}
	write := func(b *pgx.Batch) *journalWrite { return &journalWrite{ctx: ctx, batch: b} }
	ok := write(journalBatch(true, "INSERT INTO journal_rows VALUES (1)"))
	lost := write(journalBatch(false, "INSERT INTO journal_rows SELECT 2 WHERE false"))
	failing := write(journalBatch(true, "INSERT INTO journal_rows VALUES (3)", "INSERT INTO journal_rows VALUES (1)"))
	last := write(journalBatch(true, "INSERT INTO journal_rows VALUES (4)"))
	g.sendNow([]*journalWrite{ok, lost, failing, last})

	require.NoError(t, ok.err)
	require.True(t, ok.locked)
	require.NoError(t, lost.err)
	require.False(t, lost.locked, "the lost lease is reported")
	var pgErr *pgconn.PgError
	require.True(t, errors.As(failing.err, &pgErr), "the failing write gets its own error: %v", failing.err)
	require.Equal(t, "23505", pgErr.Code)
	require.NoError(t, last.err)
	require.True(t, last.locked)
	require.Equal(t, []int{1, 4}, journalRows(t, pool), "the failing write wrote nothing, the others everything")
}

// Writes that arrive while a group is on its way go together in the next one: one batch
// for all of them, sent before the first group's writer goes on.
func TestJournalGroupSendsQueuedWritesTogether(t *testing.T) {
	t.Parallel()
	pool, counter := groupCommitPool(t)
	ctx := context.Background()
	g := &journalGroup{pool: pool}
	const writers = 20

	slow := make(chan error, 1)
	batchesWhenSlowReturned := make(chan int64, 1)
	go func() {
		_, err := g.send(ctx, journalBatch(true, "SELECT pg_sleep(0.5)", "INSERT INTO journal_rows VALUES (0)"))
		batchesWhenSlowReturned <- counter.n.Load()
		slow <- err
	}()
	require.Eventually(t, func() bool { return counter.n.Load() == 1 }, 10*time.Second, time.Millisecond)

	var wg sync.WaitGroup
	locked := make([]bool, writers)
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			b := journalBatch(true, "INSERT INTO journal_rows VALUES ("+string(rune('0'+i/10))+string(rune('0'+i%10))+" + 1)")
			locked[i], errs[i] = g.send(ctx, b)
		})
	}
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.queue) == writers
	}, 10*time.Second, time.Millisecond, "every writer queues behind the slow group")
	wg.Wait()
	require.NoError(t, <-slow)
	require.Equal(t, int64(2), <-batchesWhenSlowReturned,
		"the writes queued behind the first group are on their way before its writer goes on")
	for i := range writers {
		require.NoError(t, errs[i])
		require.True(t, locked[i])
	}
	require.Len(t, journalRows(t, pool), writers+1)
	require.Equal(t, int64(2), counter.n.Load(), "the writes queued behind the first group went as one")
}

// A group that went through leaves its connection to the next group, until the connection has
// been held for groupConnHold: then it goes back to the pool, which checks its lifetimes.
func TestJournalGroupKeepsItsConnectionForAWhile(t *testing.T) {
	t.Parallel()
	pool, _ := groupCommitPool(t)
	ctx := context.Background()
	g := &journalGroup{pool: pool}
	write := func(id int) []*journalWrite {
		return []*journalWrite{{ctx: ctx, batch: journalBatch(true, fmt.Sprintf("INSERT INTO journal_rows VALUES (%d)", id))}}
	}

	first := g.start(write(1), nil)
	require.True(t, g.finish(first), "a fresh connection carries the next group")
	require.EqualValues(t, 1, pool.Stat().AcquiredConns())
	second := g.start(write(2), first)
	require.Same(t, first.conn, second.conn, "the next group is sent on the same connection")

	second.acquired = time.Now().Add(-groupConnHold)
	require.False(t, g.finish(second), "a connection held for groupConnHold goes back")
	require.EqualValues(t, 0, pool.Stat().AcquiredConns())
	require.Equal(t, []int{1, 2}, journalRows(t, pool))

	failing := g.start(write(1), nil) // a duplicate key: the group fails
	require.False(t, g.finish(failing), "a group that failed gives its connection back")
	require.Error(t, failing.group[0].err)
	require.EqualValues(t, 0, pool.Stat().AcquiredConns())
}

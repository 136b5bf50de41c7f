package durable

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// timeline is what a run's records hold, without what differs from run to run (ids, times).
func (b *testBundle) timeline(t *testing.T, runID string) (events []string, calls []string) {
	t.Helper()
	evs, err := b.store.ListEvents(b.ctx, runID, 0, 100)
	require.NoError(t, err)
	for _, e := range evs {
		var data map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &data))
		delete(data, "worker")
		delete(data, "durationMs")
		events = append(events, fmt.Sprintf("%d %s %v", e.Seq, e.Type, data))
	}
	cs, err := b.store.ListCalls(b.ctx, runID)
	require.NoError(t, err)
	for _, c := range cs {
		require.Equal(t, toolcall.Key(runID, int64(c.CallID)), c.Key)
		require.NotNil(t, c.SettledAt)
		outcome, err := json.Marshal(c.Outcome)
		require.NoError(t, err)
		calls = append(calls, fmt.Sprintf("%d %s %s %s %s %v %s", c.CallID, c.Toolset, c.Path, c.Args, c.Status, c.Durable, outcome))
	}
	return events, calls
}

// Settled calls of several runs recorded while a group is on its way go in the next group as
// one statement, and write what each would have written alone; a stale driver's record among
// them writes nothing and is refused.
func TestSettledCallsOfAGroupGoAsOneStatement(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const runs = 4
	leases := make([]*Lease, runs)
	for i := range leases {
		_, leases[i] = b.leasedRun(t)
	}
	staleRun, stale := b.leasedRun(t)
	_, err := b.store.pool.Exec(b.ctx, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", staleRun.ID)
	require.NoError(t, err)
	_, _, err = b.store.acquire(b.ctx, staleRun.ID, 2, 0)
	require.NoError(t, err)
	// The reference: the same calls, recorded alone.
	_, alone := b.leasedRun(t)
	record := func(l *Lease, callID int) error {
		_, err := l.CallStarted(b.ctx, CallStart{CallID: callID, Toolset: "t", Path: "t.add", Args: json.RawMessage(`[1,2]`)})
		if err != nil {
			return err
		}
		value := json.RawMessage(fmt.Sprint(callID))
		o := toolcall.Outcome{OK: true, Value: value}
		if callID == 2 {
			o = toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "no"}}
		}
		return l.CallSettled(b.ctx, callID, o)
	}
	for callID := 1; callID <= 2; callID++ {
		require.NoError(t, record(alone, callID))
	}
	wantEvents, wantCalls := b.timeline(t, alone.runID)

	g := &b.store.journal
	for callID := 1; callID <= 2; callID++ {
		// A slow write holds the group, so the records queue behind it.
		slow := make(chan error, 1)
		go func() {
			_, err := g.send(b.ctx, journalBatch(true, "SELECT pg_sleep(0.3)"))
			slow <- err
		}()
		require.Eventually(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.sending }, 10*time.Second, time.Millisecond)
		var wg sync.WaitGroup
		errs := make([]error, runs+1)
		for i, l := range append(leases[:runs:runs], stale) {
			wg.Go(func() { errs[i] = record(l, callID) })
		}
		// Each queued record is the statement the group merges.
		require.Eventually(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.queue) == runs+1 }, 10*time.Second, time.Millisecond)
		g.mu.Lock()
		merged, _, rest := mergeSettledCalls(g.queue)
		g.mu.Unlock()
		require.Len(t, merged, runs+1, "every record is merged")
		require.Empty(t, rest)
		wg.Wait()
		require.NoError(t, <-slow)
		for i := range runs {
			require.NoError(t, errs[i])
		}
		require.ErrorIs(t, errs[runs], ErrLeaseLost)
	}
	for _, l := range leases {
		events, calls := b.timeline(t, l.runID)
		require.Equal(t, wantEvents, events)
		require.Equal(t, wantCalls, calls)
	}
	staleCalls, err := b.store.ListCalls(b.ctx, staleRun.ID)
	require.NoError(t, err)
	require.Empty(t, staleCalls, "the stale driver wrote nothing")
}

// A merged statement that fails (here a record of a call already written) fails none of the
// records it merged but the failing one: each is sent again on its own.
func TestMergedRecordThatFailsFailsAlone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	settled := func(l *Lease, callID int) *journalWrite {
		lock := []any{l.runID, []string{EventCallSettled}, []string{fmt.Sprintf(`{"callId":%d}`, callID)}, l.fence,
			b.store.cfg.LeaseTTL.String(), b.store.journalCommitMode()}
		sql, args := settledCallStatement(lock, callID, toolcall.Key(l.runID, int64(callID)), "t", "t.a",
			json.RawMessage(`{}`), false, time.Now(), CallSucceeded, []byte(`{"ok":true}`))
		batch := &pgx.Batch{}
		batch.Queue(sql, args...)
		return &journalWrite{ctx: b.ctx, batch: batch}
	}
	_, first := b.leasedRun(t)
	_, second := b.leasedRun(t)
	g := &b.store.journal
	g.sendNow([]*journalWrite{settled(first, 1)})
	group := []*journalWrite{settled(second, 1), settled(first, 1), settled(second, 2)}
	merged, _, _ := mergeSettledCalls(group)
	require.Len(t, merged, 2, "a second record of the same run is not merged")
	g.sendNow(group)

	require.NoError(t, group[0].err)
	require.True(t, group[0].locked)
	var pgErr *pgconn.PgError
	require.True(t, errors.As(group[1].err, &pgErr), "the record of a call already written fails: %v", group[1].err)
	require.Equal(t, "23505", pgErr.Code)
	require.NoError(t, group[2].err)
	require.True(t, group[2].locked)
	for l, want := range map[*Lease]int{first: 1, second: 2} {
		calls, err := b.store.ListCalls(b.ctx, l.runID)
		require.NoError(t, err)
		require.Len(t, calls, want)
	}
}

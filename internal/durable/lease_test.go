package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolcall"
)

// leasedRun creates a run and takes its lease as job 1.
func (b *testBundle) leasedRun(t *testing.T) (Run, *Lease) {
	t.Helper()
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	lease, seq, err := b.store.acquire(b.ctx, run.ID, 1, 0)
	require.NoError(t, err)
	require.Zero(t, seq)
	return run, lease
}

// suspendedRun returns a run suspended on durable call 2 after a settled plain call 1.
func (b *testBundle) suspendedRun(t *testing.T) Run {
	t.Helper()
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.add", Args: json.RawMessage(`[1,2]`)})
	require.NoError(t, err)
	require.NoError(t, lease.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`3`)}))
	_, err = lease.CallStarted(b.ctx, CallStart{CallID: 2, Toolset: "t", Path: "t.wait", Durable: true})
	require.NoError(t, err)
	require.NoError(t, lease.CallPending(b.ctx, 2, json.RawMessage(`{"job":7}`)))
	require.NoError(t, lease.suspend(b.ctx, Snapshot{State: []byte("snap-1")}, false))
	run, err = b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, run.Status)
	return run
}

func TestStaleDriverWritesAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, stale := b.leasedRun(t)

	_, _, err := b.store.acquire(b.ctx, run.ID, 2, 0)
	require.ErrorIs(t, err, errNoLease, "a live lease of another job is not taken over")

	// The first driver's lease expires (it hung or crashed); job 2 takes over.
	_, err = b.store.pool.Exec(b.ctx, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", run.ID)
	require.NoError(t, err)
	fresh, _, err := b.store.acquire(b.ctx, run.ID, 2, 0)
	require.NoError(t, err)
	require.Greater(t, fresh.Fence(), stale.Fence())

	// A new call's row waits for its settlement (CallStartDelay): the stale driver learns
	// there that it lost the lease, and the call is made under the same key as the fresh
	// driver's, which the tool deduplicates.
	_, err = stale.CallStarted(b.ctx, CallStart{CallID: 1, Path: "t.a"})
	require.NoError(t, err)
	tests := []struct {
		name  string
		write func() error
	}{
		{name: "call settled", write: func() error { return stale.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true}) }},
		{name: "call pending", write: func() error { return stale.CallPending(b.ctx, 1, nil) }},
		{name: "checkpoint", write: func() error { return stale.Checkpoint(b.ctx, Snapshot{State: []byte("s")}) }},
		{name: "suspend", write: func() error { return stale.suspend(b.ctx, Snapshot{State: []byte("s")}, false) }},
		{name: "finish", write: func() error { return stale.finish(b.ctx, Outcome{Kind: Finished, OK: true}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, tt.write(), ErrLeaseLost)
		})
	}
	// The stale writes were sent with the lock that refused them, and rolled back with it.
	after, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusRunning, after.Status)
	require.Zero(t, after.SnapshotSeq)
	var snapshots int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT count(*) FROM snapshots WHERE run_id = $1", run.ID).Scan(&snapshots))
	require.Zero(t, snapshots)
	_, err = fresh.CallStarted(b.ctx, CallStart{CallID: 1, Path: "t.a"})
	require.NoError(t, err)
	require.NoError(t, fresh.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true}), "the current driver writes")
	calls, err := b.store.ListCalls(b.ctx, run.ID)
	require.NoError(t, err)
	require.Len(t, calls, 1)
}

func TestRedriveAnswersSettledCallsFromTheStore(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, first := b.leasedRun(t)
	rec, err := first.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.add"})
	require.NoError(t, err)
	require.Equal(t, CallRecord{}, rec, "a new call is made")
	require.NoError(t, first.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`42`)}))
	_, err = first.CallStarted(b.ctx, CallStart{CallID: 2, Toolset: "t", Path: "t.wait", Durable: true})
	require.NoError(t, err)
	require.NoError(t, first.CallPending(b.ctx, 2, json.RawMessage(`"h"`)))
	_, err = first.CallStarted(b.ctx, CallStart{CallID: 3, Toolset: "t", Path: "t.slow"})
	require.NoError(t, err)

	// The worker crashed; River runs the same job again.
	second, _, err := b.store.acquire(b.ctx, run.ID, 1, 0)
	require.NoError(t, err)
	tests := []struct {
		name    string
		id      int
		path    string
		want    CallRecord
		wantErr error
	}{
		{name: "another tool under a recorded id", id: 1, path: "t.x", wantErr: ErrReplayDiverged},
		{name: "settled call answered from the store", id: 1, path: "t.add", want: CallRecord{Outcome: &toolcall.Outcome{OK: true, Value: json.RawMessage(`42`)}}},
		{name: "pending call not started again", id: 2, path: "t.wait", want: CallRecord{Handle: json.RawMessage(`"h"`)}},
		{name: "call in flight at the crash is made again", id: 3, path: "t.slow", want: CallRecord{}},
		{name: "new call", id: 4, path: "t.x", want: CallRecord{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := second.CallStarted(b.ctx, CallStart{CallID: tt.id, Toolset: "t", Path: tt.path})
			require.ErrorIs(t, err, tt.wantErr)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestRecordOutcome(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run := b.suspendedRun(t)
	require.Len(t, run.Pending, 1)
	require.Equal(t, 2, run.Pending[0].CallID)
	require.JSONEq(t, `{"job":7}`, string(run.Pending[0].Handle))

	ok := toolcall.Outcome{OK: true, Value: json.RawMessage(`{"a": 1, "b": 2}`)}
	tests := []struct {
		name    string
		callID  int
		outcome toolcall.Outcome
		want    Recorded
		wantErr error
	}{
		{name: "failed outcome with a value", callID: 2, outcome: toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "no"}, Value: json.RawMessage(`1`)}, wantErr: toolcall.ErrInvalidOutcome},
		{name: "failed outcome without an error", callID: 2, outcome: toolcall.Outcome{OK: false}, wantErr: toolcall.ErrInvalidOutcome},
		{name: "first outcome", callID: 2, outcome: ok, want: OutcomeRecorded},
		{name: "same outcome again", callID: 2, outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`{"b":2,"a":1}`)}, want: OutcomeDuplicate},
		{name: "different outcome", callID: 2, outcome: toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "no"}}, wantErr: ErrOutcomeConflict},
		{name: "plain call settled inline", callID: 1, outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`4`)}, wantErr: ErrOutcomeConflict},
		{name: "unknown call", callID: 99, outcome: ok, wantErr: ErrCallNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := b.store.RecordOutcome(b.ctx, run.ID, tt.callID, tt.outcome)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	require.Equal(t, 1, b.jobCount(t, "run.resume"))
	snapshot, settled, err := b.store.resumeInput(b.ctx, run.ID, run.SnapshotSeq)
	require.NoError(t, err)
	require.Equal(t, "snap-1", string(snapshot.State))
	require.Len(t, settled, 1)
	require.Equal(t, 2, settled[0].CallID)
	require.JSONEq(t, `{"a":1,"b":2}`, string(settled[0].Outcome.Value))
}

func TestConcurrentOutcomesResumeOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run := b.suspendedRun(t)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results = map[Recorded]int{}
	)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := b.store.RecordOutcome(b.ctx, run.ID, 2, toolcall.Outcome{OK: true, Value: json.RawMessage(`1`)})
			require.NoError(t, err)
			mu.Lock()
			results[got]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, map[Recorded]int{OutcomeRecorded: 1, OutcomeDuplicate: 9}, results)
	require.Equal(t, 1, b.jobCount(t, "run.resume"))
}

func TestOutcomeWhileRunningResumesAfterSuspend(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.wait", Durable: true})
	require.NoError(t, err)
	require.NoError(t, lease.CallPending(b.ctx, 1, json.RawMessage(`1`)))

	got, err := b.store.RecordOutcome(b.ctx, run.ID, 1, toolcall.Outcome{OK: true})
	require.NoError(t, err)
	require.Equal(t, OutcomeRecorded, got)
	require.Zero(t, b.jobCount(t, "run.resume"), "the run is running: no resume yet")

	require.NoError(t, lease.suspend(b.ctx, Snapshot{State: []byte("s")}, false))
	require.Equal(t, 1, b.jobCount(t, "run.resume"), "the suspend saw the posted outcome and scheduled the resume")
}

func TestCancelRun(t *testing.T) {
	t.Parallel()
	b := setup(t)

	t.Run("suspended run", func(t *testing.T) {
		run := b.suspendedRun(t)
		got, err := b.store.CancelRun(b.ctx, run.ID)
		require.NoError(t, err)
		require.Equal(t, StatusCancelled, got.Status)
		require.NotNil(t, got.FinishedAt)
		require.Empty(t, got.Pending)
		calls, err := b.store.ListCalls(b.ctx, run.ID)
		require.NoError(t, err)
		require.Equal(t, CallCancelled, calls[1].Status)
		require.Equal(t, 1, b.jobCount(t, "call.cancel"))

		_, err = b.store.CancelRun(b.ctx, run.ID)
		require.NoError(t, err, "cancelling twice is harmless")
		_, err = b.store.RecordOutcome(b.ctx, run.ID, 2, toolcall.Outcome{OK: true})
		require.ErrorIs(t, err, ErrOutcomeConflict, "a cancelled call takes no outcome")
	})
	t.Run("running run fences out its driver", func(t *testing.T) {
		run, lease := b.leasedRun(t)
		_, err := b.store.CancelRun(b.ctx, run.ID)
		require.NoError(t, err)
		require.ErrorIs(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true}), ErrLeaseLost)
		_, _, err = b.store.acquire(b.ctx, run.ID, 1, 0)
		require.ErrorIs(t, err, errNoLease)
	})
	t.Run("finished run", func(t *testing.T) {
		run, lease := b.leasedRun(t)
		require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":true}`)}))
		_, err := b.store.CancelRun(b.ctx, run.ID)
		require.ErrorIs(t, err, ErrRunFinished)
	})
}

// Call records and checkpoints commit without waiting for the disk; the run's lifecycle
// writes (and every write not made through journal) wait for it.
func TestJournalWritesCommitAsynchronously(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin, url := pgtest.NewDB(t)
	// Test clusters turn synchronous commits off for speed: turn them on for this database.
	_, err := admin.Exec(ctx, "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END$$")
	require.NoError(t, err)
	pool, err := OpenPool(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store, err := New(pool, Config{Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)

	run, _, err := store.CreateRun(ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	lease, _, err := store.acquire(ctx, run.ID, 1, 0)
	require.NoError(t, err)
	mode := func(write func(context.Context, func(pgx.Tx, int) error) error) string {
		var got string
		require.NoError(t, write(ctx, func(tx pgx.Tx, _ int) error {
			return tx.QueryRow(ctx, "SHOW synchronous_commit").Scan(&got)
		}))
		return got
	}
	require.Equal(t, "on", mode(lease.fenced))
	require.Equal(t, "off", mode(lease.journal))
	require.Equal(t, "on", mode(lease.fenced), "the setting does not outlive its transaction")

	// With SynchronousJournal the journal follows the server's setting like every other write.
	syncStore, err := New(pool, Config{Egress: egress.Local(), Secrets: secretbox.Ephemeral(), SynchronousJournal: true})
	require.NoError(t, err)
	t.Cleanup(syncStore.Close)
	run, _, err = syncStore.CreateRun(ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	lease, _, err = syncStore.acquire(ctx, run.ID, 2, 0)
	require.NoError(t, err)
	require.Equal(t, "on", mode(lease.journal))
}

// A batch without BEGIN is one transaction, which Lease.oneShot and Store.acquireAs rely on: its
// statements share a transaction id, set_config's local setting lasts until its end and no
// further, and a failed statement rolls back the ones before it, leaving the connection idle.
func TestBatchIsOneImplicitTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin, url := pgtest.NewDB(t)
	_, err := admin.Exec(ctx, "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END$$")
	require.NoError(t, err)
	pool, err := OpenPool(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store, err := New(pool, Config{Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	run, _, err := store.CreateRun(ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()

	batch := &pgx.Batch{}
	batch.Queue("SELECT set_config('synchronous_commit', 'off', true)")
	batch.Queue("SELECT current_setting('synchronous_commit')")
	batch.Queue("SELECT txid_current()")
	batch.Queue("SELECT txid_current()")
	br := conn.SendBatch(ctx, batch)
	_, err = br.Exec()
	require.NoError(t, err)
	var setting string
	require.NoError(t, br.QueryRow().Scan(&setting))
	var first, second int64
	require.NoError(t, br.QueryRow().Scan(&first))
	require.NoError(t, br.QueryRow().Scan(&second))
	require.NoError(t, br.Close())
	require.Equal(t, "off", setting)
	require.Equal(t, first, second, "one transaction")
	require.NoError(t, conn.QueryRow(ctx, "SHOW synchronous_commit").Scan(&setting))
	require.Equal(t, "on", setting, "the setting does not outlive the transaction")

	batch = &pgx.Batch{}
	batch.Queue("UPDATE runs SET code = 'changed' WHERE id = $1", run.ID)
	batch.Queue("SELECT 1 / 0")
	require.Error(t, conn.SendBatch(ctx, batch).Close())
	require.Equal(t, byte('I'), conn.Conn().PgConn().TxStatus())
	got, err := store.GetRun(ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, "x", got.Code, "the statement before the failed one was rolled back")
}

// A new snapshot is progress: the run's count of lost workers starts again from zero, so a run
// that goes on past its crashes is not failed for crashes of long ago.
func TestSnapshotRestartsTheCountOfCrashes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, lease := b.leasedRun(t)
	_, err := b.store.pool.Exec(b.ctx, "UPDATE runs SET crashes = 2 WHERE id = $1", run.ID)
	require.NoError(t, err)
	require.NoError(t, lease.Checkpoint(b.ctx, Snapshot{State: []byte("snap-1")}))
	var crashes int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT crashes FROM runs WHERE id = $1", run.ID).Scan(&crashes))
	require.Zero(t, crashes)
}

// A snapshot's header and state are stored as two values and read back as they were written;
// one stored before the header column existed reads back with no header.
func TestSnapshotHeaderAndStateStoredApart(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, lease := b.leasedRun(t)
	require.NoError(t, lease.Checkpoint(b.ctx, Snapshot{Header: []byte(`{"format":2}`), State: []byte(`{"heap":[]}`)}))
	var header, state []byte
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT header, state FROM snapshots WHERE run_id = $1 AND seq = 1", run.ID).Scan(&header, &state))
	require.Equal(t, `{"format":2}`, string(header))
	require.Equal(t, `{"heap":[]}`, string(state))
	snapshot, _, err := b.store.resumeInput(b.ctx, run.ID, 1)
	require.NoError(t, err)
	require.Equal(t, Snapshot{Header: []byte(`{"format":2}`), State: []byte(`{"heap":[]}`)}, snapshot)

	b.exec(t, "INSERT INTO snapshots (run_id, seq, state) VALUES ($1, 2, 'one document')", run.ID)
	snapshot, _, err = b.store.resumeInput(b.ctx, run.ID, 2)
	require.NoError(t, err)
	require.Nil(t, snapshot.Header)
	require.Equal(t, "one document", string(snapshot.State))
}

// The lease UPDATE and the statements that lock a leased run's row (the first of every fenced
// transaction) set the transaction's synchronous_commit themselves: off for an asynchronous
// journal, the transaction's setting as it was (NULL) with Config.SynchronousJournal or for a
// write that waits for the disk. Each statement must find its run to take effect.
func TestLeaseSetsCommitMode(t *testing.T) {
	t.Parallel()
	b := setup(t)
	off := "off"
	statements := []struct {
		name string
		args func(runID string, fence int64, mode *string) []any
	}{
		{"RunLeaseExecute", func(id string, _ int64, mode *string) []any { return []any{id, 1, "6s", "w", mode} }},
		{"RunLockFenced", func(id string, fence int64, mode *string) []any { return []any{id, fence, "6s", mode} }},
		{"RunLockFencedReceivers", func(id string, fence int64, mode *string) []any {
			return []any{id, fence, "6s", WebhookRunCompleted, mode}
		}},
		{"EventInsertLocking", func(id string, fence int64, mode *string) []any {
			return []any{id, EventLog, `{}`, fence, "6s", mode}
		}},
		{"EventsInsertLocking", func(id string, fence int64, mode *string) []any {
			return []any{id, []string{EventLog, EventLog}, []string{`{}`, `{}`}, fence, "6s", mode}
		}},
	}
	for _, st := range statements {
		for _, tt := range []struct {
			mode *string
			want string
		}{{mode: nil, want: "on"}, {mode: &off, want: "off"}} {
			t.Run(fmt.Sprintf("%s/%s", st.name, tt.want), func(t *testing.T) {
				run, lease := b.leasedRun(t)
				fence := lease.Fence()
				if st.name == "RunLeaseExecute" {
					r, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "1"})
					require.NoError(t, err)
					run = r
				}
				tx, err := b.store.pool.Begin(b.ctx)
				require.NoError(t, err)
				defer func() { _ = tx.Rollback(b.ctx) }()
				_, err = tx.Exec(b.ctx, "SET LOCAL synchronous_commit = on")
				require.NoError(t, err)
				rows, err := tx.Query(b.ctx, q(st.name), st.args(run.ID, fence, tt.mode)...)
				require.NoError(t, err)
				n := 0
				for rows.Next() {
					n++
				}
				require.NoError(t, rows.Err())
				require.NotZero(t, n, "the statement found its run")
				var got string
				require.NoError(t, tx.QueryRow(b.ctx, "SELECT current_setting('synchronous_commit')").Scan(&got))
				require.Equal(t, tt.want, got)
			})
		}
	}
}

// A run that ends with calls left running or pending has them cancelled by the statement that
// ends it, and the call.cancel job of each with durable work at its tool enqueued.
func TestFinishCancelsLeftoverCalls(t *testing.T) {
	t.Parallel()
	b := setupWith(t, func(c *Config) { c.CallStartDelay = -1 })
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.wait", Durable: true})
	require.NoError(t, err)
	require.NoError(t, lease.CallPending(b.ctx, 1, json.RawMessage(`{"job":7}`)))
	_, err = lease.CallStarted(b.ctx, CallStart{CallID: 2, Toolset: "t", Path: "t.add", Args: json.RawMessage(`[1,2]`)})
	require.NoError(t, err)
	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`1`)}))

	calls, err := b.store.ListCalls(b.ctx, run.ID)
	require.NoError(t, err)
	require.Len(t, calls, 2)
	for _, c := range calls {
		require.Equal(t, CallCancelled, c.Status, "call %d", c.CallID)
		require.NotNil(t, c.SettledAt)
	}
	require.Equal(t, 1, b.jobCount(t, "call.cancel"), "one call had durable work at its tool")
	got, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, got.Status)
}

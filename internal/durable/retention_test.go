package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// snapshotSeqs returns the sequences of the run's stored snapshots.
func (b *testBundle) snapshotSeqs(t *testing.T, runID string) []int {
	t.Helper()
	rows, err := b.store.pool.Query(b.ctx, "SELECT seq FROM snapshots WHERE run_id = $1 ORDER BY seq", runID)
	require.NoError(t, err)
	var seqs []int
	for rows.Next() {
		var seq int
		require.NoError(t, rows.Scan(&seq))
		seqs = append(seqs, seq)
	}
	require.NoError(t, rows.Err())
	return seqs
}

// scriptOf returns a script program of n plain calls, each answering a string of size bytes,
// then a durable call when durable is set.
func scriptOf(n, size int, durable bool) string {
	steps := make([]string, 0, n+1)
	for i := range n {
		steps = append(steps, fmt.Sprintf(`{"tool":"t.a","args":%q}`, fmt.Sprintf("%d:%s", i+1, strings.Repeat("x", size))))
	}
	if durable {
		steps = append(steps, `{"tool":"t.wait","durable":true}`)
	}
	return `{"steps":[` + strings.Join(steps, ",") + `]}`
}

func TestOnlyTheLatestSnapshotIsKept(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	engine.checkpoints = true
	b.startWorker(t, engine)

	// Four checkpoints, then the suspend writes snapshot 5.
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: scriptOf(4, 1, true)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, StatusSuspended)
	require.Equal(t, 5, run.SnapshotSeq)
	require.Equal(t, []int{5}, b.snapshotSeqs(t, run.ID))

	_, err = b.store.RecordOutcome(b.ctx, run.ID, 5, toolcall.Outcome{OK: true, Value: json.RawMessage(`"done"`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":["1:x","2:x","3:x","4:x","done"]}`, string(run.Result))
	require.Empty(t, b.snapshotSeqs(t, run.ID), "a finished run keeps no snapshot")
	for id := 1; id <= 4; id++ {
		require.Equal(t, 1, engine.count(toolcall.Key(run.ID, int64(id))), "call %d executed once", id)
	}
}

func TestAJobNamingAnOlderSnapshotResumesFromTheLatest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, lease := b.leasedRun(t)
	for i := 1; i <= 5; i++ {
		require.NoError(t, lease.Checkpoint(b.ctx, Snapshot{State: fmt.Appendf(nil, "snap-%d", i)}))
	}
	require.Equal(t, []int{5}, b.snapshotSeqs(t, run.ID))

	// The driver is lost; a re-drive enqueued when the run was at snapshot 2 takes it over.
	_, err := b.store.pool.Exec(b.ctx, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", run.ID)
	require.NoError(t, err)
	redrive, seq, err := b.store.acquire(b.ctx, run.ID, 2, 2)
	require.NoError(t, err)
	require.Equal(t, 5, seq, "the lease names the latest snapshot")
	snapshot, _, err := b.store.resumeInput(b.ctx, run.ID, seq)
	require.NoError(t, err)
	require.Equal(t, "snap-5", string(snapshot.State))

	// A driver that took the lease at snapshot 5 but lost the run before reading it (another
	// driver checkpointed since) stops as one whose lease was lost.
	_, err = b.store.pool.Exec(b.ctx, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", run.ID)
	require.NoError(t, err)
	fresh, _, err := b.store.acquire(b.ctx, run.ID, 3, 0)
	require.NoError(t, err)
	require.NoError(t, fresh.Checkpoint(b.ctx, Snapshot{State: []byte("snap-6")}))
	_, _, err = b.store.resumeInput(b.ctx, run.ID, seq)
	require.ErrorIs(t, err, ErrLeaseLost)
	require.ErrorIs(t, redrive.Checkpoint(b.ctx, Snapshot{State: []byte("stale")}), ErrLeaseLost)
	require.Equal(t, []int{6}, b.snapshotSeqs(t, run.ID))

	// A stale run.resume job for an older suspension does not take the run.
	require.NoError(t, fresh.suspend(b.ctx, Snapshot{State: []byte("snap-7")}, false))
	_, _, err = b.store.acquire(b.ctx, run.ID, 4, 3)
	require.ErrorIs(t, err, errNoLease)
	require.Equal(t, []int{7}, b.snapshotSeqs(t, run.ID))
}

func TestCancelDeletesTheRunsSnapshots(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run := b.suspendedRun(t)
	require.Equal(t, []int{1}, b.snapshotSeqs(t, run.ID))
	_, err := b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Empty(t, b.snapshotSeqs(t, run.ID))
}

// finishedRun returns a run that checkpointed, made a call, sent webhook deliveries (one
// delivered, one still being attempted when pending is set) and finished age ago, with events
// events in all (at least the 5 its drive recorded) and a snapshot left from before finished
// runs deleted theirs.
func (b *testBundle) finishedRun(t *testing.T, age time.Duration, events int, pending bool) Run {
	t.Helper()
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.a"})
	require.NoError(t, err)
	require.NoError(t, lease.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`1`)}))
	require.NoError(t, lease.Checkpoint(b.ctx, Snapshot{State: []byte("snap")}))
	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":true}`)}))
	b.exec(t, "INSERT INTO snapshots (run_id, seq, state) VALUES ($1, 1, 'old')", run.ID)
	b.exec(t, `INSERT INTO run_events (run_id, seq, type)
		SELECT $1, s, 'test' FROM generate_series((SELECT event_seq + 1 FROM runs WHERE id = $1), $2) s`, run.ID, events)
	b.exec(t, "UPDATE runs SET event_seq = $2 WHERE id = $1", run.ID, events)
	b.exec(t, `INSERT INTO webhook_deliveries (id, run_id, event_type, url, payload, status)
		VALUES ($1 || ':done', $1::uuid, 'run.completed', 'http://hook', '{}', 'delivered')`, run.ID)
	if pending {
		b.exec(t, `INSERT INTO webhook_deliveries (id, run_id, event_type, url, payload)
			VALUES ($1 || ':pending', $1::uuid, 'run.completed', 'http://hook', '{}')`, run.ID)
	}
	b.exec(t, "UPDATE runs SET finished_at = now() - $2::bigint * interval '1 microsecond' WHERE id = $1", run.ID, age.Microseconds())
	return run
}

func (b *testBundle) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	_, err := b.store.pool.Exec(b.ctx, sql, args...)
	require.NoError(t, err)
}

// rowsOf counts the run's snapshots, events, deliveries and calls.
func (b *testBundle) rowsOf(t *testing.T, runID string) (snapshots, events, deliveries, calls int) {
	t.Helper()
	require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT
		(SELECT count(*) FROM snapshots WHERE run_id = $1), (SELECT count(*) FROM run_timeline WHERE run_id = $1),
		(SELECT count(*) FROM webhook_deliveries WHERE run_id = $1), (SELECT count(*) FROM calls WHERE run_id = $1)`,
		runID).Scan(&snapshots, &events, &deliveries, &calls))
	return
}

func TestPruneFinishedDeletesOnlyOldFinishedRunsData(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const day = 24 * time.Hour
	old := b.finishedRun(t, 8*day, 25, false)
	oldPending := b.finishedRun(t, 9*day, 5, true)
	recent := b.finishedRun(t, day, 25, false)
	suspended := b.suspendedRun(t)
	b.exec(t, "UPDATE runs SET created_at = now() - interval '30 days' WHERE id = $1", suspended.ID)
	recentBefore := [4]int{}
	recentBefore[0], recentBefore[1], recentBefore[2], recentBefore[3] = b.rowsOf(t, recent.ID)
	suspendedBefore := [4]int{}
	suspendedBefore[0], suspendedBefore[1], suspendedBefore[2], suspendedBefore[3] = b.rowsOf(t, suspended.ID)

	callEvents := func() (n int) {
		require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT coalesce(sum(cardinality(event_types)), 0) FROM calls
			WHERE run_id = ANY ($1::uuid[])`, []string{old.ID, oldPending.ID}).Scan(&n))
		return n
	}
	require.Equal(t, 4, callEvents(), "each call's record keeps its started and settled events in its row")

	// A batch of 10: more events than one statement deletes, and runs taken two at a time.
	stats, err := b.store.PruneFinished(b.ctx, 7*day, 10)
	require.NoError(t, err)
	snaps, events, deliveries, calls := b.rowsOf(t, old.ID)
	require.Equal(t, [4]int{0, 0, 0, 1}, [4]int{snaps, events, deliveries, calls}, "old run: only its call is kept")
	snaps, events, deliveries, calls = b.rowsOf(t, oldPending.ID)
	require.Equal(t, [4]int{0, 0, 1, 1}, [4]int{snaps, events, deliveries, calls}, "the delivery still attempted is kept")
	after := [4]int{}
	after[0], after[1], after[2], after[3] = b.rowsOf(t, recent.ID)
	require.Equal(t, recentBefore, after, "a run finished within the retention is untouched")
	require.Equal(t, [4]int{1, 25, 1, 1}, after)
	after[0], after[1], after[2], after[3] = b.rowsOf(t, suspended.ID)
	require.Equal(t, suspendedBefore, after, "an unfinished run is untouched")
	require.Equal(t, 1, after[0])

	require.Equal(t, PruneStats{Runs: 1, Snapshots: 2, Events: 30, Deliveries: 2, Statements: 6}, stats,
		"events (old's 25 and oldPending's 5): the 26 rows of run_events in statements of 10, 10 and 6, "+
			"the 4 kept in the two calls' rows in one statement, one for each other table")
	var keptInCalls int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT count(*) FROM calls
		WHERE run_id = ANY ($1::uuid[]) AND (event_types IS NOT NULL OR event_data IS NOT NULL OR events_end IS NOT NULL OR events_at IS NOT NULL)`,
		[]string{old.ID, oldPending.ID}).Scan(&keptInCalls))
	require.Zero(t, keptInCalls, "the pruned runs' calls keep no events")
	for _, id := range []string{old.ID, oldPending.ID} {
		run, err := b.store.GetRun(b.ctx, id)
		require.NoError(t, err, "the run is kept")
		require.Equal(t, StatusSucceeded, run.Status)
		require.JSONEq(t, `{"ok":true}`, string(run.Result))
	}
	var pruned []string
	rows, err := b.store.pool.Query(b.ctx, "SELECT id::text FROM runs WHERE pruned_at IS NOT NULL")
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		pruned = append(pruned, id)
	}
	require.Equal(t, []string{old.ID}, pruned)

	// Once its delivery ended, the next pass deletes it and marks the run pruned.
	b.exec(t, "UPDATE webhook_deliveries SET status = 'failed' WHERE run_id = $1", oldPending.ID)
	stats, err = b.store.PruneFinished(b.ctx, 7*day, 10)
	require.NoError(t, err)
	require.Equal(t, PruneStats{Runs: 1, Deliveries: 1, Statements: 4}, stats)
	stats, err = b.store.PruneFinished(b.ctx, 7*day, 10)
	require.NoError(t, err)
	require.Equal(t, PruneStats{}, stats, "pruned runs are not visited again")
}

func TestPruneFinishedPagesThroughManyRuns(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// More runs than a batch, the first ones held back by deliveries still attempted: the
	// pass goes past them to the others.
	var runs []Run
	for i := range 7 {
		runs = append(runs, b.finishedRun(t, time.Duration(10+i)*24*time.Hour, 6, i%3 == 0))
	}
	stats, err := b.store.PruneFinished(b.ctx, 7*24*time.Hour, 2)
	require.NoError(t, err)
	require.Equal(t, 4, stats.Runs)
	require.EqualValues(t, 7, stats.Snapshots)
	require.EqualValues(t, 42, stats.Events)
	for i, run := range runs {
		snaps, events, _, calls := b.rowsOf(t, run.ID)
		require.Equal(t, [3]int{0, 0, 1}, [3]int{snaps, events, calls}, "run %d", i)
	}
}

func TestRetentionJobRunsPeriodically(t *testing.T) {
	t.Parallel()
	b := setup(t)
	old := b.finishedRun(t, 2*time.Hour, 5, false)
	recent := b.finishedRun(t, time.Minute, 5, false)
	for range 2 { // two workers: one leader schedules the passes
		w, err := NewWorker(b.store, newScriptEngine(), WorkerConfig{
			FetchPollInterval: 100 * time.Millisecond, Retention: time.Hour, RetentionInterval: time.Second,
		})
		require.NoError(t, err)
		require.NoError(t, w.Start(b.ctx))
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = w.Stop(ctx)
		})
	}
	require.Eventually(t, func() bool {
		_, events, _, _ := b.rowsOf(t, old.ID)
		return events == 0
	}, 30*time.Second, 50*time.Millisecond, "the retention job pruned the old run")
	_, events, deliveries, _ := b.rowsOf(t, recent.ID)
	require.Equal(t, 5, events)
	require.Equal(t, 1, deliveries)
}

// TestStoredSnapshotBytesFollowTheLatestState checkpoints after every settled call (as the
// runtime does after a settled batch) and measures the snapshot bytes a run stores: the
// latest state only, linear in the calls' live values, where keeping every checkpoint stored
// their sum, quadratic in the number of calls.
func TestStoredSnapshotBytesFollowTheLatestState(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	engine.checkpoints = true
	b.startWorker(t, engine)
	sizes := []int{10, 100, 1000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	const valueBytes = 100
	for _, n := range sizes {
		run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: scriptOf(n, valueBytes, true)})
		require.NoError(t, err)
		// 1,000 checkpoints of up to 110 KB each: give a loaded machine time.
		run, err = b.store.WaitRun(b.ctx, run.ID, 3*time.Minute, func(s string) bool { return s == StatusSuspended })
		require.NoError(t, err)
		require.Equal(t, StatusSuspended, run.Status)
		require.Equal(t, n+1, run.SnapshotSeq, "a checkpoint per settled call, then the suspend")
		var rows, stored, latest int
		require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT count(*), coalesce(sum(octet_length(state)), 0),
			(SELECT octet_length(state) FROM snapshots WHERE run_id = $1 AND seq = $2)
			FROM snapshots WHERE run_id = $1`, run.ID, run.SnapshotSeq).Scan(&rows, &stored, &latest))
		require.Equal(t, 1, rows)
		require.Equal(t, latest, stored)
		require.Less(t, stored, n*(valueBytes+40)+200, "linear in the live state")
		// What keeping every snapshot would have stored: the i-th holds i values.
		var written int
		for i := 1; i <= n; i++ {
			written += i * stored / n
		}
		t.Logf("%4d calls: %d snapshots written, 1 stored, %d bytes (%.0f per call); all kept would be about %d bytes",
			n, run.SnapshotSeq, stored, float64(stored)/float64(n), written)
	}
}

// The documented way to drop finished runs (docs/operations.md, "Backups and data growth") is
// a DELETE on runs: it takes the runs' calls, events and snapshots with them, and nothing of
// the runs it keeps.
func TestDeletingRunsDeletesTheirRecords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t, newScriptEngine())

	var ids []string
	for range 3 {
		run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: scriptOf(2, 1, true)})
		require.NoError(t, err)
		b.waitStatus(t, run.ID, StatusSuspended)
		ids = append(ids, run.ID)
	}
	records := func(runID string) (calls, events, snapshots int) {
		require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT
    (SELECT count(*) FROM calls WHERE run_id = $1),
    (SELECT count(*) FROM run_events WHERE run_id = $1),
    (SELECT count(*) FROM snapshots WHERE run_id = $1)`, runID).Scan(&calls, &events, &snapshots))
		return calls, events, snapshots
	}
	kept := ids[2]
	keptCalls, keptEvents, keptSnapshots := records(kept)
	require.Equal(t, 3, keptCalls)
	require.Positive(t, keptEvents)
	require.Equal(t, 1, keptSnapshots)

	tag, err := b.store.pool.Exec(b.ctx, "DELETE FROM runs WHERE id = ANY ($1::uuid[])", ids[:2])
	require.NoError(t, err)
	require.EqualValues(t, 2, tag.RowsAffected())
	for _, id := range ids[:2] {
		calls, events, snapshots := records(id)
		require.Zero(t, calls+events+snapshots, "run %s left %d calls, %d events, %d snapshots", id, calls, events, snapshots)
	}
	calls, events, snapshots := records(kept)
	require.Equal(t, []int{keptCalls, keptEvents, keptSnapshots}, []int{calls, events, snapshots})
}

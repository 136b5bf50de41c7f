package durable

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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

	_, err = b.store.RecordOutcome(b.ctx, run.ID, 5, CallOutcome{OK: true, Value: json.RawMessage(`"done"`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":["1:x","2:x","3:x","4:x","done"]}`, string(run.Result))
	require.Empty(t, b.snapshotSeqs(t, run.ID), "a finished run keeps no snapshot")
	for id := 1; id <= 4; id++ {
		require.Equal(t, 1, engine.count(CallKey(run.ID, id)), "call %d executed once", id)
	}
}

func TestAJobNamingAnOlderSnapshotResumesFromTheLatest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, lease := b.leasedRun(t)
	for i := 1; i <= 5; i++ {
		require.NoError(t, lease.Checkpoint(b.ctx, fmt.Appendf(nil, "snap-%d", i)))
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
	require.Equal(t, "snap-5", string(snapshot))

	// A driver that took the lease at snapshot 5 but lost the run before reading it (another
	// driver checkpointed since) stops as one whose lease was lost.
	_, err = b.store.pool.Exec(b.ctx, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", run.ID)
	require.NoError(t, err)
	fresh, _, err := b.store.acquire(b.ctx, run.ID, 3, 0)
	require.NoError(t, err)
	require.NoError(t, fresh.Checkpoint(b.ctx, []byte("snap-6")))
	_, _, err = b.store.resumeInput(b.ctx, run.ID, seq)
	require.ErrorIs(t, err, ErrLeaseLost)
	require.ErrorIs(t, redrive.Checkpoint(b.ctx, []byte("stale")), ErrLeaseLost)
	require.Equal(t, []int{6}, b.snapshotSeqs(t, run.ID))

	// A stale run.resume job for an older suspension does not take the run.
	require.NoError(t, fresh.suspend(b.ctx, []byte("snap-7"), false))
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

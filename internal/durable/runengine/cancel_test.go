package runengine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
)

// Cancelling a run busy in a CPU-bound loop stops its drive at once: the worker's job ends
// within a second, not at the program's next write (which never comes).
func TestCancelInterruptsBusyLoop(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
await tools.ops.math.add({a: 1, b: 2});
while (true) {}
`})
	require.NoError(t, err)
	waitDB(t, 60*time.Second, "the loop", func() bool {
		return len(b.eventsOf(t, run.ID, durable.EventCallSettled)) == 1
	})
	var job int64
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT lease_owner FROM runs WHERE id = $1`, run.ID).Scan(&job))

	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	cancelled := time.Now()
	waitDB(t, 10*time.Second, "the drive to end", func() bool {
		var state string
		require.NoError(t, b.store.Pool().QueryRow(context.Background(), `SELECT state FROM river_job WHERE id = $1`, job).Scan(&state))
		return state != "running"
	})
	took := time.Since(cancelled)
	t.Logf("drive ended %s after the cancel", took.Round(time.Millisecond))
	require.Less(t, took, time.Second)
	final, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, durable.StatusCancelled, final.Status)
}

package runengine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
)

// A drain that runs out of time while a call is still in flight does not leave the run
// running: the worker puts it back on the queue, fenced off from the old drive, within its
// drain timeout, and another worker finishes it.
func TestDrainOutOfTimeRequeuesTheRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first, err := durable.NewWorker(b.store, newTestEngine(Config{Egress: egress.Local(), DrainGrace: 4 * time.Second}), durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, first.Start(b.ctx))
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const a = await tools.ops.slow({ms: 3000});
const s = await tools.ops.math.add({a: 2, b: 3});
return [a.slept, s.sum];
`})
	require.NoError(t, err)
	waitDB(t, 60*time.Second, "the slow call", func() bool { return b.callCount(t, run.ID) == 1 })

	stopCtx, cancel := context.WithTimeout(b.ctx, time.Second)
	defer cancel()
	start := time.Now()
	require.NoError(t, first.Stop(stopCtx), "the drain ended with its run requeued")
	took := time.Since(start)
	// About the drain timeout, well before the 3 s call would have let it end; the margin is
	// for a loaded machine, where the requeue's own transaction can take a few hundred ms.
	require.Less(t, took, 2*time.Second)
	requeued := b.runRow(t, run.ID)
	require.Equal(t, durable.StatusQueued, requeued.status, "not left running")
	require.Zero(t, requeued.crashes, "a drain is not a crash")
	require.Len(t, b.eventsOf(t, run.ID, durable.EventRequeued), 1)

	b.startWorker(t)
	final := b.waitStatus(t, run.ID, durable.StatusSucceeded)
	require.Equal(t, []any{3000.0, 5.0}, resultValue(t, final.Result))
	// The old drive ends once its call settles: its write is refused (lease lost).
	waitCtx, cancelWait := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancelWait()
	require.NoError(t, first.Wait(waitCtx))
}

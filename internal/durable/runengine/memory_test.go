package runengine

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMemoryLimit(t *testing.T) {
	require.Equal(t, int64(MemoryBaseline+10*(512<<20)), MemoryLimit(512<<20, 10))
	require.Equal(t, int64(math.MaxInt64), MemoryLimit(0, 10), "no ceiling, no limit")
	require.Equal(t, int64(math.MaxInt64), MemoryLimit(math.MaxInt64/2, 10), "overflow")
}

// TestAdmit checks that a run waits while the live heap leaves no room for its memory limit
// under the soft limit, until its context is done, and starts at once when there is room.
// It changes the process's soft memory limit, so it does not run in parallel.
func TestAdmit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	debug.SetMemoryLimit(math.MaxInt64)
	start := time.Now()
	admit(context.Background(), 1<<40)
	require.Less(t, time.Since(start), time.Second, "no soft limit: no wait")

	debug.SetMemoryLimit(liveHeap() + 1<<30)
	start = time.Now()
	admit(context.Background(), 64<<20)
	require.Less(t, time.Since(start), time.Second, "room: no wait")

	debug.SetMemoryLimit(liveHeap() + 1<<30)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start = time.Now()
	admit(ctx, 2<<30)
	require.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond, "no room: waits for the context")
}

// TuneCollector sets GOGC to CollectorPercent, unless the environment chose one.
func TestTuneCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	TuneCollector()
	require.Equal(t, CollectorPercent, debug.SetGCPercent(100))

	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	TuneCollector()
	require.Equal(t, 150, debug.SetGCPercent(150), "the environment's GOGC stays")
}

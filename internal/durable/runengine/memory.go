package runengine

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Memory of a worker process. Each run's heap accounting (maxMemoryBytes, see
// docs/language.md) keeps what the process holds for it near its limit; the process as a whole
// has a soft memory limit (GOMEMLIMIT, set by SetMemoryLimit from the worker's configuration
// unless the environment sets it), and the engine admits a run only when the live heap leaves
// room under that soft limit for the run's own limit.

// MemoryBaseline is the allowance for what a worker holds besides its runs (code, runtimes,
// connection pools, buffers) in SetMemoryLimit.
const MemoryBaseline = 256 << 20

// MemoryLimit is the soft memory limit of a worker driving runs runs at once, each under
// maxMemory bytes: MemoryBaseline plus runs × maxMemory.
func MemoryLimit(maxMemory int64, runs int) int64 {
	if maxMemory <= 0 || runs <= 0 || maxMemory > (math.MaxInt64-MemoryBaseline)/int64(runs) {
		return math.MaxInt64
	}
	return MemoryBaseline + int64(runs)*maxMemory
}

// SetMemoryLimit sets the process's soft memory limit (debug.SetMemoryLimit) to
// MemoryLimit(maxMemory, runs) unless GOMEMLIMIT is set in the environment, and returns the
// limit in force.
func SetMemoryLimit(maxMemory int64, runs int) int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	limit := MemoryLimit(maxMemory, runs)
	debug.SetMemoryLimit(limit)
	return limit
}

// CollectorPercent is the GOGC of a worker process unless the environment sets GOGC. A worker's
// live heap between runs is small, and Go's default (100) collects each time it doubles: at
// hundreds of runs a second that is a cycle every few runs. 400 lets the heap grow fivefold
// first; the soft memory limit (SetMemoryLimit) still makes the collector run sooner when
// memory is short. Measured with cmd/loadgen (trivial runs, codemode dev): about a quarter less
// CPU per run in the service's process.
const CollectorPercent = 400

// TuneCollector sets the collector's GOGC to CollectorPercent unless GOGC is set in the
// environment.
func TuneCollector() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(CollectorPercent)
	}
}

// admitPoll is how often a run waiting for memory looks again.
const admitPoll = 100 * time.Millisecond

// admit waits until the process's live heap plus need bytes fit under its soft memory limit,
// or ctx is done (the run then starts anyway and, as ctx is its drain signal, yields at
// once). With no soft limit, or room for need, it returns at once; otherwise it collects
// garbage once and waits for running runs to end or shrink.
func admit(ctx context.Context, need int64) {
	soft := debug.SetMemoryLimit(-1)
	if need <= 0 || soft == math.MaxInt64 || liveHeap()+need <= soft {
		return
	}
	runtime.GC()
	t := time.NewTicker(admitPoll)
	defer t.Stop()
	for liveHeap()+need > soft {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// liveHeap is the heap the last garbage collection found live, in bytes.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

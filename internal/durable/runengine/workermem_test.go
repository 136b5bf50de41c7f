package runengine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

// A worker process driving several memory bombs at once: its peak resident set must stay near
// what the configuration budgets for it, the process's own baseline plus each run's limit.
// Each run's accounting bounds what the process holds for that run (internal/run's
// TestMemoryBombs measures one run alone); here the runs share one Go heap and collector, the
// soft memory limit that SetMemoryLimit derives from the ceiling and the admission of runs.

// workerBombs are programs that grow the heap without bound in different ways (object graphs,
// rope strings, a Map, parsed JSON), to run at once.
var workerBombs = []string{
	"const a = []; for (let i = 0;; i++) a.push({x: [1, 2, 3], y: 'abc' + i})",
	"const a = []; let s = ''; for (let i = 0;; i++) { s += 'y'.repeat(100) + i; if (s.length > 1e6) { a.push(s); s = '' } }",
	"const m = new Map(); for (let i = 0;; i++) m.set(i, [i, i, i, i])",
	"const t = JSON.stringify(Array.from({length: 1e4}, (_, i) => ({i, s: 'v' + i}))); const a = []; for (;;) a.push(JSON.parse(t))",
}

// procHWM reads the peak resident set size (VmHWM) of process pid in bytes.
func procHWM(tb testing.TB, pid int) int64 {
	tb.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(tb, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(tb, err)
			return kb << 10
		}
	}
	tb.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}

// workerMemory is what measureWorkerMemory found.
type workerMemory struct {
	baseline, peak int64 // VmHWM of the worker before the bombs and after them
	budget         int64 // baseline + runs × limit
}

// ratio is the peak over the budget.
func (m workerMemory) ratio() float64 { return float64(m.peak) / float64(m.budget) }

// measureWorkerMemory starts a worker process that drives len(workerBombs) runs at once under a
// memory ceiling of limit bytes (and the soft memory limit cmd/worker sets for that), warms it
// up with a small run, then creates every bomb at once and waits for each to fail with
// MemoryLimitExceeded.
func measureWorkerMemory(tb testing.TB, limit int64) workerMemory {
	tb.Helper()
	pool, dbURL := pgtest.NewDB(tb)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(tb, err)
	tb.Cleanup(store.Close)
	ctx := tb.Context()
	n := len(workerBombs)
	worker := startWorkerProcess(tb, dbURL, "membound",
		workerProcRunsEnv+"="+strconv.Itoa(n), workerProcMemoryEnv+"="+strconv.FormatInt(limit, 10))
	wait := func(id string) durable.Run {
		r, err := store.WaitRun(ctx, id, 5*time.Minute, durable.IsFinal)
		require.NoError(tb, err)
		return r
	}

	warm, _, err := store.CreateRun(ctx, durable.NewRun{Code: "return [1, 'a', {b: 2}].length"})
	require.NoError(tb, err)
	require.Equal(tb, durable.StatusSucceeded, wait(warm.ID).Status)
	m := workerMemory{baseline: procHWM(tb, worker.cmd.Process.Pid)}
	m.budget = m.baseline + int64(n)*limit

	var ids []string
	for _, code := range workerBombs {
		r, _, err := store.CreateRun(ctx, durable.NewRun{Code: code})
		require.NoError(tb, err)
		ids = append(ids, r.ID)
	}
	for _, id := range ids {
		r := wait(id)
		var result struct {
			Error struct{ Kind string } `json:"error"`
		}
		require.NoError(tb, json.Unmarshal(r.Result, &result))
		require.Equal(tb, "MemoryLimitExceeded", result.Error.Kind, "%s", r.Result)
	}
	m.peak = procHWM(tb, worker.cmd.Process.Pid)
	return m
}

// TestWorkerMemoryWithRunsAtOnce drives four memory bombs at once in a worker process under a
// 64 MiB ceiling: each ends with MemoryLimitExceeded and the worker's peak resident set stays
// within 2.5 times its baseline plus four limits. The goal, and what
// BenchmarkWorkerMemory usually measures, is at most 2 times; the margin is for a loaded machine.
// It does not run in parallel with the package's other tests: its worker takes some 400 MiB
// and both cores for a while, which would slow tests that wait on clocks.
func TestWorkerMemoryWithRunsAtOnce(t *testing.T) {
	m := measureWorkerMemory(t, 64<<20)
	t.Logf("peak %d MiB for a baseline of %d MiB and %d runs of 64 MiB: %.2f× the budget",
		m.peak>>20, m.baseline>>20, len(workerBombs), m.ratio())
	require.LessOrEqual(t, m.ratio(), 2.5, "peak resident memory ÷ (baseline + runs × limit)")
}

// BenchmarkWorkerMemory reports, for ceilings of 64 MiB and 128 MiB, the peak resident memory
// of a worker process driving the four bombs of workerBombs at once over its baseline plus four
// limits ("rss/budget"), and over four limits the peak above the baseline ("rss/limits").
//
//	go test ./internal/durable/runengine -run '^$' -bench WorkerMemory -benchtime 1x
func BenchmarkWorkerMemory(b *testing.B) {
	for _, limit := range []int64{64 << 20, 128 << 20} {
		b.Run(fmt.Sprintf("%dMiB", limit>>20), func(b *testing.B) {
			var m workerMemory
			for b.Loop() {
				m = measureWorkerMemory(b, limit)
			}
			b.ReportMetric(m.ratio(), "rss/budget")
			b.ReportMetric(float64(m.peak-m.baseline)/float64(int64(len(workerBombs))*limit), "rss/limits")
			b.ReportMetric(float64(m.baseline>>20), "baseline-MiB")
			b.ReportMetric(float64(m.peak>>20), "peak-MiB")
		})
	}
}

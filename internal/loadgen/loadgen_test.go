package loadgen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		name string
		in   []time.Duration
		want Latency
	}{
		{name: "empty", in: nil, want: Latency{}},
		{name: "one", in: []time.Duration{ms(7)}, want: Latency{P50: ms(7), P90: ms(7), P99: ms(7), Max: ms(7)}},
		{name: "unsorted hundred", in: func() []time.Duration {
			var ds []time.Duration
			for i := 100; i >= 1; i-- {
				ds = append(ds, ms(i))
			}
			return ds
		}(), want: Latency{P50: ms(50), P90: ms(90), P99: ms(99), Max: ms(100)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, summarize(tt.in))
		})
	}
}

// TestRunAgainstDevService drives every scenario briefly against codemode dev on a private
// PostgreSQL: each must finish runs, all with the right result, and counts what they cost the
// database.
func TestRunAgainstDevService(t *testing.T) {
	ctx := context.Background()
	svc := startDevService(t, map[string]string{"shared_preload_libraries": "pg_stat_statements"})

	counter := &Counter{DatabaseURL: svc.DatabaseURL, RoundTrips: durable.RoundTrips, Settle: -1, Top: 5}
	results, err := Run(ctx, Config{URL: svc.URL, Concurrency: 2, Duration: time.Second, Warmup: -1, Counter: counter,
		DatabaseURL: svc.DatabaseURL})
	require.NoError(t, err)
	require.Len(t, results, len(scenarios))
	for i, r := range results {
		require.Equal(t, scenarios[i].name, r.Scenario)
		require.Zero(t, r.Errors, "%s: %s", r.Scenario, r.FirstError)
		require.Positive(t, r.Runs, r.Scenario)
		require.InDelta(t, float64(r.Runs), r.RunsPerSec, 0.001, "one-second window")
		require.LessOrEqual(t, r.Latency.P50, r.Latency.Max)
		require.Positive(t, r.Latency.P50)
		c := r.Counts
		require.NotNil(t, c, r.Scenario)
		require.GreaterOrEqual(t, c.Runs, r.Runs, "every run driven is counted")
		// A run is at least created (and leased, when codemode dev drives it at once) and
		// finished, each a writing transaction of its own round trip.
		require.GreaterOrEqual(t, c.WriteXacts, 2.0, r.Scenario)
		require.GreaterOrEqual(t, c.RoundTrips, 2.0, r.Scenario)
		// pg_stat_statements misses pipelined transaction control, so it sees no more than the
		// service sent, but for the statements in flight when the window opened: sent before
		// it, they finish (and are tracked) inside it. With no settling, at most one per run
		// in flight, plus as many again for the previous scenario's runs ending.
		const inFlight = 2 * 2 // twice the concurrency below
		require.GreaterOrEqual(t, c.Statements*float64(c.Runs)+inFlight, c.Tracked*float64(c.Runs),
			"%s: pg_stat_statements misses pipelined transaction control", r.Scenario)
		require.Positive(t, c.Tracked, r.Scenario)
		require.Len(t, c.Top, 5)
		// The service runs in this process; each run costs it and PostgreSQL some CPU.
		require.NotNil(t, r.CPU, r.Scenario)
		require.Positive(t, r.CPU.Client, r.Scenario)
		require.Positive(t, r.CPU.Postgres, r.Scenario)
		require.Less(t, r.CPU.Total(), time.Second, r.Scenario)
		// And the machine's time meanwhile: some of it was the measured processes', and the
		// shares are of one whole.
		require.NotNil(t, r.Machine, r.Scenario)
		require.Positive(t, r.Machine.Measured, r.Scenario)
		m := r.Machine
		for _, share := range []float64{m.Measured, m.Others, m.Steal, m.Idle} {
			require.GreaterOrEqual(t, share, 0.0, r.Scenario)
		}
		require.LessOrEqual(t, m.Measured+m.Others+m.Steal+m.Idle, 1.05, r.Scenario)
		// The service's own timing of its tool calls, read from its /metrics: calls10's are
		// timed, each shorter than the longest run of ten; a trivial run makes none.
		switch r.Scenario {
		case "trivial":
			require.Zero(t, r.CallTime)
		case "calls10":
			require.Positive(t, r.CallTime)
			require.Less(t, r.CallTime, r.Latency.Max)
		}
	}

	_, err = Run(ctx, Config{URL: svc.URL, Scenarios: []string{"nope"}})
	require.ErrorContains(t, err, `unknown scenario "nope"`)
}

// TestCountsPerRun divides the change of each counter by the runs, and lists the statements
// sent most often.
func TestCountsPerRun(t *testing.T) {
	t.Parallel()
	c := &Counter{RoundTrips: func() (int64, int64) { return 0, 0 }, Top: 2}
	before := sample{statements: map[string]int64{"a": 10, "b": 5}, xid: 100, commits: 50, walSyncs: 7, roundTrips: 1000, sent: 3000}
	after := sample{statements: map[string]int64{"a": 30, "b": 5, "c": 10, "d": 4}, xid: 130, commits: 90, walSyncs: 17, roundTrips: 1100, sent: 3400}
	got := c.counts(before, after, 10)
	require.Equal(t, &Counts{Runs: 10, Statements: 40, Tracked: 3.4, WriteXacts: 3, Commits: 4, WALSyncs: 1, RoundTrips: 10,
		Top: []StatementCount{{Calls: 2, Query: "a"}, {Calls: 1, Query: "c"}}}, got)

	c.RoundTrips = nil // a service elsewhere: statements as pg_stat_statements counts them
	got = c.counts(before, after, 10)
	require.InDelta(t, 3.4, got.Statements, 1e-9)
	require.Zero(t, got.RoundTrips)
}

// startDevService starts codemode dev on a private cluster with the server settings given,
// stopped and removed when the test ends.
func startDevService(t *testing.T, settings map[string]string) *Service {
	t.Helper()
	// The cluster runs as the postgres user when the tests run as root: its directory must
	// be reachable by others (t.TempDir's parent is not).
	dir, err := os.MkdirTemp("", "loadgen-test")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	svc, err := StartService(context.Background(), dir, logWriter{t}, settings)
	require.NoError(t, err)
	t.Cleanup(svc.Stop)
	return svc
}

// logWriter sends the service's logs to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// TestCeilingOnTheServiceDatabase measures the PostgreSQL ceiling briefly on the database of a
// dev service: pgbench completes lifecycles without failures, every one leaves a finished run
// and a completed job in the scratch tables, and the scratch schema is gone afterwards.
func TestCeilingOnTheServiceDatabase(t *testing.T) {
	ctx := context.Background()
	svc := startDevService(t, nil)

	res, err := Ceiling(ctx, svc.DatabaseURL, 2, time.Second)
	require.NoError(t, err)
	require.Equal(t, CeilingScenario, res.Scenario)
	require.Zero(t, res.Errors)
	require.Positive(t, res.Runs)
	require.InDelta(t, float64(res.Runs), res.RunsPerSec, 0.001)
	require.Positive(t, res.Latency.P50)
	require.NotNil(t, res.CPU, "pgbench and the cluster run on this machine")
	require.Positive(t, res.CPU.Postgres)
	require.Less(t, res.CPU.Total(), time.Second)
	require.NotNil(t, res.Machine)
	require.Positive(t, res.Machine.Measured, "pgbench, a child of this process, and the cluster are measured")

	conn, err := pgx.Connect(ctx, svc.DatabaseURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var schemas int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", ceilingSchema).Scan(&schemas))
	require.Zero(t, schemas, "the scratch schema is dropped")

	results := []Result{{RunsPerSec: res.RunsPerSec / 2, Concurrency: res.Concurrency}, {RunsPerSec: res.RunsPerSec / 4, Concurrency: res.Concurrency + 1}}
	RatiosTo([]Result{res}, results)
	require.InDelta(t, 0.5, results[0].CeilingRatio, 1e-9)
	require.Zero(t, results[1].CeilingRatio, "a rate at another concurrency is not compared with the ceiling")
}

// TestCallsCeilingOnTheServiceDatabase measures the calls ceiling briefly on the database of a
// dev service: runs of 10 calls finish without errors, each checked by CallsCeiling to have left
// its calls and events; the scratch schema is gone afterwards; calls10 is compared with it, the
// other scenarios with the PostgreSQL ceiling.
func TestCallsCeilingOnTheServiceDatabase(t *testing.T) {
	ctx := context.Background()
	svc := startDevService(t, nil)

	for _, syncJournal := range []bool{false, true} {
		res, err := CallsCeiling(ctx, svc.DatabaseURL, 2, time.Second, 100*time.Millisecond, syncJournal)
		require.NoError(t, err)
		require.Equal(t, CallsCeilingScenario, res.Scenario)
		require.Zero(t, res.Errors, res.FirstError)
		require.Positive(t, res.Runs)
		require.InDelta(t, float64(res.Runs), res.RunsPerSec, 0.001)
		require.Positive(t, res.Latency.P50)
		require.Positive(t, res.CallTime, "the floor times its exchanges with the toolset")
		require.Less(t, res.CallTime, res.Latency.Max, "an exchange is a part of a run")
		require.NotNil(t, res.CPU)
		require.Positive(t, res.CPU.Postgres)
	}

	conn, err := pgx.Connect(ctx, svc.DatabaseURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var schemas, runs int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", callsCeilingSchema).Scan(&schemas))
	require.Zero(t, schemas, "the scratch schema is dropped")
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM runs").Scan(&runs))
	require.Zero(t, runs, "the service's own tables are not touched")

	ceilings := []Result{{Scenario: CeilingScenario, RunsPerSec: 1000, Concurrency: 2}, {Scenario: CallsCeilingScenario, RunsPerSec: 400, Concurrency: 2}}
	results := []Result{{Scenario: "trivial", RunsPerSec: 800, Concurrency: 2}, {Scenario: "calls10", RunsPerSec: 300, Concurrency: 2},
		{Scenario: "calls10", RunsPerSec: 100, Concurrency: 1}}
	RatiosTo(ceilings, results)
	require.InDelta(t, 0.8, results[0].CeilingRatio, 1e-9)
	require.InDelta(t, 0.75, results[1].CeilingRatio, 1e-9, "calls10 is compared with the calls ceiling")
	require.Zero(t, results[2].CeilingRatio)
	results[1].CeilingRatio = 0
	RatiosTo(ceilings[:1], results)
	require.InDelta(t, 0.3, results[1].CeilingRatio, 1e-9, "without a calls ceiling, with the PostgreSQL ceiling")
}

// TestReadStat reads this process's own /proc entry: its parent is the test's parent, and the
// times grow with work done.
func TestReadStat(t *testing.T) {
	t.Parallel()
	before, err := readStat(os.Getpid())
	require.NoError(t, err)
	require.Equal(t, os.Getppid(), before.ppid)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		after, err := readStat(os.Getpid())
		require.NoError(t, err)
		if after.utime+after.stime > before.utime+before.stime {
			return
		}
	}
	t.Fatal("no CPU time counted after a second of spinning")
}

// TestPerRun divides the time between two samples by the runs; a failed sample gives none.
func TestPerRun(t *testing.T) {
	t.Parallel()
	before := cpuSample{self: time.Second, children: 0, postgres: 2 * time.Second, ok: true}
	after := cpuSample{self: 3 * time.Second, children: time.Second, postgres: 6 * time.Second, ok: true}
	require.Equal(t, &CPUPerRun{Client: 200 * time.Millisecond, Postgres: 400 * time.Millisecond}, perRun(before, after, 10, false))
	require.Equal(t, &CPUPerRun{Client: 100 * time.Millisecond, Postgres: 400 * time.Millisecond}, perRun(before, after, 10, true))
	require.Nil(t, perRun(cpuSample{}, after, 10, false))
	require.Nil(t, perRun(before, after, 0, false))
}

// TestPostgresTimeCountsChildrenThatEndDuringTheScan stands this test process in for a
// postmaster whose children keep ending, as backends do when a client disconnects: every
// sample counts each child once, alive or reaped, so samples never go down, and the last one
// holds the time of every child.
func TestPostgresTimeCountsChildrenThatEndDuringTheScan(t *testing.T) {
	m := &cpuMeter{postmaster: os.Getpid()}
	start, ok := m.postgres()
	require.True(t, ok)

	deadline := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	var childrenTime [2]time.Duration
	for i := range childrenTime {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done")
				if !assert.NoError(t, cmd.Run()) {
					return
				}
				childrenTime[i] += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
		})
	}
	prev, samples := start, 0
	for time.Now().Before(deadline) {
		cur, ok := m.postgres()
		require.True(t, ok)
		require.GreaterOrEqual(t, cur, prev, "sample %d counts less than the one before it", samples)
		prev = cur
		samples++
	}
	wg.Wait()
	end, ok := m.postgres()
	require.True(t, ok)
	// /proc counts whole ticks, the children's rusage nanoseconds.
	require.Greater(t, end-start+5*clockTick, childrenTime[0]+childrenTime[1])
	require.Greater(t, samples, 10)
}

func TestPerCall(t *testing.T) {
	t.Parallel()
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	res := func(name string, concurrency, runs int, p50 time.Duration) Result {
		return Result{Scenario: name, Concurrency: concurrency, Runs: runs, Latency: Latency{P50: p50}}
	}
	results := []Result{
		res(CeilingScenario, 16, 100, ms(9)),
		res("trivial", 16, 100, ms(6.6)),
		res("calls10", 16, 100, ms(25.2)),
		res("resume", 16, 100, ms(11)),
		res("trivial", 1, 100, ms(1.1)),
		res("calls10", 1, 100, ms(5.1)),
		res("calls10", 4, 100, ms(9)), // no trivial at 4 in flight
		res("trivial", 8, 0, 0),       // nothing measured at 8
		res("calls10", 8, 100, ms(12)),
	}
	PerCall(results)
	got := map[string]time.Duration{}
	for _, r := range results {
		if r.PerCallP50 != 0 {
			got[fmt.Sprintf("%s/%d", r.Scenario, r.Concurrency)] = r.PerCallP50
		}
	}
	assert.Equal(t, map[string]time.Duration{"calls10/16": ms(1.86), "calls10/1": ms(0.4)}, got)
}

func TestBeyondToolset(t *testing.T) {
	t.Parallel()
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	res := func(name string, concurrency int, p50, callTime time.Duration) Result {
		return Result{Scenario: name, Concurrency: concurrency, Runs: 100, Latency: Latency{P50: p50}, CallTime: callTime}
	}
	results := []Result{
		res(CallsCeilingScenario, 16, ms(17), ms(0.35)),
		res(CallsCeilingScenario, 4, ms(9), 0), // exchanges not timed
		res("trivial", 16, ms(7), 0),
		res("calls10", 16, ms(27), ms(0.6)),
		res("trivial", 1, ms(1.3), 0),
		res("calls10", 1, ms(6.8), ms(0.16)), // no floor at 1 in flight
		res("calls10", 4, ms(12), 0),
	}
	PerCall(results)
	BeyondToolset(results)
	type beyond struct{ toolset, p50, perCall time.Duration }
	got := map[string]beyond{}
	for _, r := range results {
		if r.ToolsetTime != 0 || r.P50BeyondToolset != 0 || r.PerCallBeyondToolset != 0 {
			got[fmt.Sprintf("%s/%d", r.Scenario, r.Concurrency)] = beyond{r.ToolsetTime, r.P50BeyondToolset, r.PerCallBeyondToolset}
		}
	}
	// 27 ms less 10 x 0.35; (27 - 7) / 10 = 2 ms a call, less 0.35.
	assert.Equal(t, map[string]beyond{"calls10/16": {ms(0.35), ms(23.5), ms(1.65)}}, got)
}

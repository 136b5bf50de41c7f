package loadgen

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
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
// PostgreSQL: each must finish runs, all with the right result.
func TestRunAgainstDevService(t *testing.T) {
	ctx := context.Background()
	// The cluster runs as the postgres user when the tests run as root: its directory must
	// be reachable by others (t.TempDir's parent is not).
	dir, err := os.MkdirTemp("", "loadgen-test")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	svc, err := StartService(ctx, dir, logWriter{t}, nil)
	require.NoError(t, err)
	t.Cleanup(svc.Stop)

	results, err := Run(ctx, Config{URL: svc.URL, Concurrency: 2, Duration: time.Second, Warmup: -1})
	require.NoError(t, err)
	require.Len(t, results, len(scenarios))
	for i, r := range results {
		require.Equal(t, scenarios[i].name, r.Scenario)
		require.Zero(t, r.Errors, "%s: %s", r.Scenario, r.FirstError)
		require.Positive(t, r.Runs, r.Scenario)
		require.InDelta(t, float64(r.Runs), r.RunsPerSec, 0.001, "one-second window")
		require.LessOrEqual(t, r.Latency.P50, r.Latency.Max)
		require.Positive(t, r.Latency.P50)
	}

	_, err = Run(ctx, Config{URL: svc.URL, Scenarios: []string{"nope"}})
	require.ErrorContains(t, err, `unknown scenario "nope"`)
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
	dir, err := os.MkdirTemp("", "loadgen-ceiling-test")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	svc, err := StartService(ctx, dir, logWriter{t}, nil)
	require.NoError(t, err)
	t.Cleanup(svc.Stop)

	res, err := Ceiling(ctx, svc.DatabaseURL, 2, time.Second)
	require.NoError(t, err)
	require.Equal(t, CeilingScenario, res.Scenario)
	require.Zero(t, res.Errors)
	require.Positive(t, res.Runs)
	require.InDelta(t, float64(res.Runs), res.RunsPerSec, 0.001)
	require.Positive(t, res.Latency.P50)

	conn, err := pgx.Connect(ctx, svc.DatabaseURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var schemas int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", ceilingSchema).Scan(&schemas))
	require.Zero(t, schemas, "the scratch schema is dropped")

	results := []Result{{RunsPerSec: res.RunsPerSec / 2}}
	RatiosTo(res, results)
	require.InDelta(t, 0.5, results[0].CeilingRatio, 1e-9)
}

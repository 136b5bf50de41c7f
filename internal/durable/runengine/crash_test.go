package runengine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

// childWorkerEnv, when set to a database URL, makes this test binary run as a worker process
// with the real engine (see TestMain) until it is killed.
const childWorkerEnv = "CODEMODE_TEST_RUNENGINE_WORKER_DB"

func runChildWorker() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "child worker:", err)
		os.Exit(1)
	}
	pool, err := pgxpool.New(ctx, os.Getenv(childWorkerEnv))
	if err != nil {
		fail(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := durable.New(pool, durable.Config{Logger: logger, LeaseTTL: 2 * time.Second, Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	if err != nil {
		fail(err)
	}
	w, err := durable.NewWorker(store, newTestEngine(Config{Logger: logger, Egress: egress.Local()}), durable.WorkerConfig{
		MaxRuns: 4, DriveTimeout: 2 * time.Second, RescueStuckJobsAfter: 3 * time.Second,
	})
	if err != nil {
		fail(err)
	}
	if err := w.Start(ctx); err != nil {
		fail(err)
	}
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = w.Stop(stopCtx)
}

func startChild(t *testing.T, dbURL string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childWorkerEnv+"="+dbURL)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// TestCrashedWorkersFinishEveryRunWithoutRepeatingCalls runs programs of many sequential tool
// calls in worker processes driving the real runtime, SIGKILLs them at random moments and
// starts new ones: every run finishes with the right result and the toolset executed every
// call exactly once (a call in flight at a kill is re-sent under the same key and answered
// from the toolset's record of that key).
func TestCrashedWorkersFinishEveryRunWithoutRepeatingCalls(t *testing.T) {
	t.Parallel()
	b := setup(t)
	dbURL := b.url

	const runs, calls, kills = 6, 15, 2
	code := fmt.Sprintf(`
let total = 0;
for (let i = 0; i < %d; i++) {
  const r = await tools.ops.slow({ms: 30});
  const s = await tools.ops.math.add({a: total, b: i});
  total = s.sum;
}
return total;
`, calls)
	var ids []string
	for range runs {
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: code})
		require.NoError(t, err)
		ids = append(ids, run.ID)
	}
	for range kills {
		var since time.Time
		require.NoError(t, b.store.Pool().QueryRow(b.ctx, "SELECT clock_timestamp()").Scan(&since))
		child := startChild(t, dbURL)
		// Kill while this child drives a run with most of its program still to run. Waiting
		// on the database, not a clock, makes the kill land mid-run however slow the machine
		// is; the short random delay varies where in the run it lands.
		waitRunInFlight(t, b, ids, since, 2*calls-10)
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
		require.NoError(t, child.Process.Signal(syscall.SIGKILL))
		_ = child.Wait()
	}
	startChild(t, dbURL)

	drives := 0
	want := 0
	for i := range calls {
		want += i
	}
	for _, id := range ids {
		run, err := b.store.WaitRun(b.ctx, id, 3*time.Minute, func(status string) bool { return durable.IsFinal(status) })
		require.NoError(t, err)
		require.Equal(t, durable.StatusSucceeded, run.Status, "run %s: %s", id, run.Result)
		var result struct{ Value int }
		require.NoError(t, json.Unmarshal(run.Result, &result))
		require.Equal(t, want, result.Value, "run %s: %s", id, run.Result)
		events, err := b.store.ListEvents(b.ctx, id, 0, 10000)
		require.NoError(t, err)
		for _, e := range events {
			if e.Type == durable.EventStarted || e.Type == durable.EventResumed {
				drives++
			}
		}
		recorded, err := b.store.ListCalls(b.ctx, id)
		require.NoError(t, err)
		require.Len(t, recorded, 2*calls)
		for _, c := range recorded {
			require.Equal(t, 1, b.tools.Handler.Executions(c.Key), "call %s executed once", c.Key)
			require.True(t, strings.HasPrefix(c.Key, id+":"))
		}
	}
	require.GreaterOrEqual(t, drives, runs+kills, "every kill made a run in flight be driven again")
	t.Logf("%d runs, %d drives", runs, drives)
}

// waitRunInFlight waits until one of the runs is running under a drive that began after since
// (its started or resumed event is newer) and has at most maxCalls calls recorded, and returns
// its id.
func waitRunInFlight(t *testing.T, b *testBundle, ids []string, since time.Time, maxCalls int) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		var id string
		err := b.store.Pool().QueryRow(b.ctx, `
SELECT r.id::text FROM runs r
WHERE r.id = ANY($1::uuid[]) AND r.status = 'running'
  AND EXISTS (SELECT 1 FROM run_timeline e
              WHERE e.run_id = r.id AND e.type IN ('started', 'resumed') AND e.at > $2)
  AND (SELECT count(*) FROM calls c WHERE c.run_id = r.id) <= $3
LIMIT 1`, ids, since, maxCalls).Scan(&id)
		if err == nil {
			return id
		}
		require.ErrorIs(t, err, pgx.ErrNoRows)
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no run came in flight within 2 minutes")
	return ""
}

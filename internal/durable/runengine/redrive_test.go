package runengine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/toolcall"
)

// Environment of a child worker process started by startWorkerProcess (see TestMain).
const (
	workerProcDBEnv    = "CODEMODE_TEST_WORKER_PROC_DB"    // database URL; set: run as a worker
	workerProcIDEnv    = "CODEMODE_TEST_WORKER_PROC_ID"    // worker id
	workerProcLeaseEnv = "CODEMODE_TEST_WORKER_PROC_LEASE" // LeaseTTL (default: the store's)
	workerProcDrainEnv = "CODEMODE_TEST_WORKER_PROC_DRAIN" // drain timeout on SIGTERM
	workerProcRunsEnv  = "CODEMODE_TEST_WORKER_PROC_RUNS"  // runs driven at once (default 20)
	// the memory ceiling of a run in bytes; set, the process also sets its soft memory limit
	// for that many runs as cmd/worker does (SetMemoryLimit)
	workerProcMemoryEnv = "CODEMODE_TEST_WORKER_PROC_MEMORY"
	// set to N: the process also creates N runs of the program in workerProcCodeEnv through
	// its own store, as its API would for clients waiting on them: its worker drives them
	// directly, as codemode dev does
	workerProcCreateEnv = "CODEMODE_TEST_WORKER_PROC_CREATE"
	workerProcCodeEnv   = "CODEMODE_TEST_WORKER_PROC_CODE"
)

// runWorkerProcess runs this test binary as a worker with the real engine and the default
// timings and ceilings (unless the environment sets the lease TTL, the runs at once or the
// memory ceiling) until SIGTERM (a drain) or SIGKILL.
func runWorkerProcess() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "worker process:", err)
		os.Exit(1)
	}
	pool, err := pgxpool.New(ctx, os.Getenv(workerProcDBEnv))
	if err != nil {
		fail(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	var ttl time.Duration
	if v := os.Getenv(workerProcLeaseEnv); v != "" {
		if ttl, err = time.ParseDuration(v); err != nil {
			fail(err)
		}
	}
	store, err := durable.New(pool, durable.Config{Logger: logger, LeaseTTL: ttl})
	if err != nil {
		fail(err)
	}
	runs := 20
	if v := os.Getenv(workerProcRunsEnv); v != "" {
		if runs, err = strconv.Atoi(v); err != nil {
			fail(err)
		}
	}
	cfg := Config{Logger: logger, Egress: egress.Local()}
	engine := newTestEngine(cfg)
	if v := os.Getenv(workerProcMemoryEnv); v != "" {
		if cfg.Ceilings.MaxMemoryBytes, err = strconv.ParseInt(v, 10, 64); err != nil {
			fail(err)
		}
		SetMemoryLimit(cfg.Ceilings.MaxMemoryBytes, runs)
		// memory is measured on the engine as deployed: under CODEMODE_ROUNDTRIP a heap near
		// its limit would be encoded every few hundred instructions, past the snapshot limit
		engine = New(cfg)
	}
	w, err := durable.NewWorker(store, engine, durable.WorkerConfig{
		ID: os.Getenv(workerProcIDEnv), MaxRuns: runs, FetchPollInterval: 100 * time.Millisecond,
	})
	if err != nil {
		fail(err)
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		fail(err)
	}
	if v := os.Getenv(workerProcCreateEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fail(err)
		}
		for range n {
			go func() {
				_, _, err := store.CreateRunWait(ctx, durable.NewRun{Code: os.Getenv(workerProcCodeEnv)}, time.Hour, durable.IsFinal)
				if err != nil && ctx.Err() == nil {
					fail(err)
				}
			}()
		}
	}
	<-ctx.Done()
	drain := 2 * time.Second
	if v := os.Getenv(workerProcDrainEnv); v != "" {
		if drain, err = time.ParseDuration(v); err != nil {
			fail(err)
		}
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := w.Stop(stopCtx); err != nil {
		fail(err)
	}
	os.Exit(0)
}

// workerProc is a worker process started by a test.
type workerProc struct {
	id   string
	cmd  *exec.Cmd
	done chan struct{} // closed when it exited
	err  error         // its exit status, once done
}

func startWorkerProcess(t testing.TB, dbURL, id string, env ...string) *workerProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerProcDBEnv+"="+dbURL, workerProcIDEnv+"="+id)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	p := &workerProc{id: id, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

func (p *workerProc) kill(t *testing.T) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
	<-p.done
}

// waitDB polls the database every 20 ms until cond holds, failing the test after timeout.
func waitDB(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runRow is what the runs table says about a run's driver.
type runRow struct {
	status, worker string
	crashes        int
	snapshotSeq    int
}

func (b *testBundle) runRow(t *testing.T, id string) runRow {
	t.Helper()
	var r runRow
	require.NoError(t, b.store.Pool().QueryRow(b.ctx,
		`SELECT status, coalesce(lease_worker, ''), crashes, snapshot_seq FROM runs WHERE id = $1`, id).Scan(&r.status, &r.worker, &r.crashes, &r.snapshotSeq))
	return r
}

func (b *testBundle) callCount(t *testing.T, id string) int {
	t.Helper()
	var n int
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT count(*) FROM calls WHERE run_id = $1`, id).Scan(&n))
	return n
}

func (b *testBundle) eventsOf(t *testing.T, id, typ string) []durable.Event {
	t.Helper()
	events, err := b.store.ListEvents(b.ctx, id, 0, 100000)
	require.NoError(t, err)
	var out []durable.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// SIGKILL of every worker with 20 runs in flight: a worker started afterwards re-drives all of
// them, with the default lease and re-drive timings, from their checkpoints, and every run
// finishes with the right result within 15 s of its start; no completed call ran twice and
// the timelines name the lost and the new worker.
func TestKilledWorkersRunsAreRedrivenWithinSeconds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const runs, calls = 20, 15
	code := slowSum(calls)
	ids := make([]string, runs)
	for i := range ids {
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: code})
		require.NoError(t, err)
		ids[i] = run.ID
	}
	first := []*workerProc{startWorkerProcess(t, b.url, "first-a"), startWorkerProcess(t, b.url, "first-b")}
	waitDB(t, 60*time.Second, "every run to have made a call", func() bool {
		for _, id := range ids {
			if b.callCount(t, id) < 2 {
				return false
			}
		}
		return true
	})
	for _, p := range first {
		p.kill(t)
	}
	inFlight := 0
	for _, id := range ids {
		if b.runRow(t, id).status == durable.StatusRunning {
			inFlight++
		}
	}
	require.Positive(t, inFlight, "runs were in flight when the workers were killed")

	started := time.Now()
	startWorkerProcess(t, b.url, "second")
	redriven := b.checkRedriven(t, ids, calls, []string{"first-a", "first-b"}, "second")
	took := time.Since(started)
	t.Logf("%d runs in flight at the kill, %d redriven events; all finished %s after the new worker started",
		inFlight, redriven, took.Round(time.Millisecond))
	require.Equal(t, inFlight, redriven, "each run in flight was re-driven once, with a redriven event")
	require.Less(t, took, 15*time.Second)
}

// slowSum is a program of calls rounds, each a slow call (100 ms) and an add: it sums
// 0..calls-1 with 2*calls recorded calls.
func slowSum(calls int) string {
	return fmt.Sprintf(`
let total = 0;
for (let i = 0; i < %d; i++) {
  await tools.ops.slow({ms: 100});
  total = (await tools.ops.math.add({a: total, b: i})).sum;
}
return total;
`, calls)
}

// checkRedriven waits for runs ids of the slow-adding program (slowSum) (calls rounds) to finish, and
// checks each succeeded with the right sum, every call it recorded executed once, and each
// redriven event names one of the lost workers from and the new worker to, with one crash.
// It returns how many redriven events there were.
func (b *testBundle) checkRedriven(t *testing.T, ids []string, calls int, from []string, to string) int {
	t.Helper()
	want := 0
	for i := range calls {
		want += i
	}
	redriven := 0
	for _, id := range ids {
		run, err := b.store.WaitRun(b.ctx, id, 60*time.Second, durable.IsFinal)
		require.NoError(t, err)
		require.Equal(t, durable.StatusSucceeded, run.Status, "run %s: %s", id, run.Result)
		require.Equal(t, float64(want), resultValue(t, run.Result))
		recorded, err := b.store.ListCalls(b.ctx, id)
		require.NoError(t, err)
		require.Len(t, recorded, 2*calls)
		for _, c := range recorded {
			require.Equal(t, 1, b.tools.Handler.Executions(c.Key), "call %s executed once", c.Key)
		}
		for _, e := range b.eventsOf(t, id, durable.EventRedriven) {
			var data struct {
				From, To string
				Crashes  int
			}
			require.NoError(t, json.Unmarshal(e.Data, &data))
			require.Contains(t, from, data.From)
			require.Equal(t, to, data.To)
			require.Equal(t, 1, data.Crashes)
			redriven++
		}
	}
	return redriven
}

// SIGKILL of a process that drives the runs it accepted itself (as codemode dev does, with no
// River job): another worker re-drives every run in flight once its lease expires, from its
// checkpoint, within 15 s of starting; no completed call ran twice.
func TestKilledDirectDrivesAreRedrivenWithinSeconds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const runs, calls = 10, 15
	code := slowSum(calls)
	accepting := startWorkerProcess(t, b.url, "accepting", workerProcCreateEnv+"="+strconv.Itoa(runs), workerProcCodeEnv+"="+code,
		workerProcRunsEnv+"="+strconv.Itoa(runs))
	var ids []string
	waitDB(t, 60*time.Second, "every run to have made a call", func() bool {
		rows, err := b.store.Pool().Query(b.ctx, `SELECT id::text FROM runs r WHERE (SELECT count(*) FROM calls c WHERE c.run_id = r.id) >= 2`)
		require.NoError(t, err)
		ids = ids[:0]
		for rows.Next() {
			var id string
			require.NoError(t, rows.Scan(&id))
			ids = append(ids, id)
		}
		require.NoError(t, rows.Err())
		return len(ids) == runs
	})
	accepting.kill(t)
	var jobs int
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT count(*) FROM river_job WHERE kind = 'run.execute'`).Scan(&jobs))
	require.Zero(t, jobs, "the runs were driven without jobs")
	inFlight := 0
	for _, id := range ids {
		if b.runRow(t, id).status == durable.StatusRunning {
			inFlight++
		}
	}
	require.Positive(t, inFlight, "runs were in flight when the process was killed")

	started := time.Now()
	startWorkerProcess(t, b.url, "second")
	redriven := b.checkRedriven(t, ids, calls, []string{"accepting"}, "second")
	took := time.Since(started)
	t.Logf("%d direct runs in flight at the kill; all finished %s after the new worker started", inFlight, took.Round(time.Millisecond))
	require.Equal(t, inFlight, redriven, "each run in flight was re-driven once, with a redriven event")
	require.Less(t, took, 15*time.Second)
}

// SIGTERM during a busy loop: the worker interrupts the loop at once, checkpoints the run and
// hands it back to the queue well within its drain timeout, and another worker continues it
// from there.
func TestDrainCheckpointsBusyLoopForAnotherWorker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
await tools.ops.math.add({a: 1, b: 2});
const start = Date.now();
let spins = 0;
while (Date.now() - start < 10000) spins++;
return spins > 0;
`})
	require.NoError(t, err)
	draining := startWorkerProcess(t, b.url, "draining")
	waitDB(t, 60*time.Second, "the run to be busy", func() bool { return b.callCount(t, run.ID) == 1 })
	// The loop runs once the add is settled.
	waitDB(t, 10*time.Second, "the call to settle", func() bool {
		return len(b.eventsOf(t, run.ID, durable.EventCallSettled)) == 1
	})
	other := startWorkerProcess(t, b.url, "other")
	time.Sleep(300 * time.Millisecond) // into the loop

	require.NoError(t, draining.cmd.Process.Signal(syscall.SIGTERM))
	drained := time.Now()
	select {
	case <-draining.done:
		require.NoError(t, draining.err, "the drain succeeded")
	case <-time.After(5 * time.Second):
		t.Fatal("the worker did not stop within 5 s of SIGTERM (drain timeout 2 s)")
	}
	stopped := time.Since(drained)
	require.Len(t, b.eventsOf(t, run.ID, durable.EventYielded), 1, "the loop was checkpointed and the run yielded")
	require.Empty(t, b.eventsOf(t, run.ID, durable.EventRequeued), "no requeue was needed")

	waitDB(t, 2*time.Second, "another worker to continue the run", func() bool {
		r := b.runRow(t, run.ID)
		return r.worker == other.id || durable.IsFinal(r.status)
	})
	continued := time.Since(drained)
	final, err := b.store.WaitRun(b.ctx, run.ID, 60*time.Second, durable.IsFinal)
	require.NoError(t, err)
	require.Equal(t, durable.StatusSucceeded, final.Status, "%s", final.Result)
	require.Equal(t, true, resultValue(t, final.Result))
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(run.ID, 1)))
	t.Logf("worker stopped %s after SIGTERM; another continued the run %s after it",
		stopped.Round(time.Millisecond), continued.Round(time.Millisecond))
	require.Less(t, stopped, 2*time.Second)
}

// A run that takes its worker down every time it is driven is re-driven after each of its
// first crashes, and ends failed on the third with a diagnostic saying so.
func TestRunThatCrashesItsWorkerEndsFailed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
await tools.ops.math.add({a: 1, b: 2});
while (true) {}
`})
	require.NoError(t, err)
	lease := workerProcLeaseEnv + "=2s"
	for i := range 3 {
		p := startWorkerProcess(t, b.url, fmt.Sprintf("crash-%d", i), lease)
		// The first drive is killed only once its call settled, in the loop: later drives
		// replay the call from the store, which is no progress and writes no snapshot (a
		// snapshot would restart the count of crashes). A re-drive is killed once it recorded
		// its redriven event.
		waitDB(t, 60*time.Second, p.id+" to drive the run", func() bool {
			r := b.runRow(t, run.ID)
			return r.status == durable.StatusRunning && r.worker == p.id &&
				len(b.eventsOf(t, run.ID, durable.EventCallSettled)) >= 1 &&
				len(b.eventsOf(t, run.ID, durable.EventRedriven)) == i
		})
		p.kill(t) // the program "crashed" its worker
	}
	startWorkerProcess(t, b.url, "last", lease)
	final, err := b.store.WaitRun(b.ctx, run.ID, 60*time.Second, durable.IsFinal)
	require.NoError(t, err)
	require.Equal(t, durable.StatusFailed, final.Status)
	require.Contains(t, string(final.Result), "the run crashed its worker 3 times")
	require.Equal(t, 3, b.runRow(t, run.ID).crashes)
	redriven := b.eventsOf(t, run.ID, durable.EventRedriven)
	require.Len(t, redriven, 3)
	require.True(t, strings.Contains(string(redriven[2].Data), `"from": "crash-2"`) ||
		strings.Contains(string(redriven[2].Data), `"from":"crash-2"`), "%s", redriven[2].Data)
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(run.ID, 1)))
}

// resultValue returns the value of a run's successful Result.
func resultValue(t *testing.T, result []byte) any {
	t.Helper()
	var r struct {
		OK    bool `json:"ok"`
		Value any  `json:"value"`
	}
	require.NoError(t, json.Unmarshal(result, &r))
	require.True(t, r.OK, "%s", result)
	return r.Value
}

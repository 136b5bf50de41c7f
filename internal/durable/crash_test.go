package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

// childWorkerEnv, when set, makes this test binary run as a worker process (see TestMain):
// its value is the database URL, and childToolEnv the counting tool server's URL.
const (
	childWorkerEnv = "CODEMODE_TEST_CHILD_WORKER_DB"
	childToolEnv   = "CODEMODE_TEST_CHILD_WORKER_TOOL"
)

// runChildWorker drives runs with the script engine, plain calls going to the tool server,
// until it is killed or gets SIGTERM.
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
	store, err := New(pool, Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), LeaseTTL: 2 * time.Second, Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	if err != nil {
		fail(err)
	}
	engine := newScriptEngine()
	engine.toolURL = os.Getenv(childToolEnv)
	w, err := NewWorker(store, engine, WorkerConfig{MaxRuns: 4, DriveTimeout: 2 * time.Second, RescueStuckJobsAfter: 3 * time.Second})
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

// countingTool counts executions per call key.
type countingTool struct {
	mu     sync.Mutex
	counts map[string]int
}

func (c *countingTool) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var call struct {
		Key string `json:"key"`
	}
	_ = json.Unmarshal(body, &call)
	time.Sleep(20 * time.Millisecond) // widen the window for a kill in mid-call
	c.mu.Lock()
	c.counts[call.Key]++
	c.mu.Unlock()
}

func startChild(t *testing.T, dbURL, toolURL string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childWorkerEnv+"="+dbURL, childToolEnv+"="+toolURL)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// TestCrashedWorkersNeverRepeatCompletedCalls runs programs of many sequential calls in a
// worker process, SIGKILLs it at random moments and starts new ones: every run finishes with
// the right result, and only calls in flight at a kill may have been executed twice.
func TestCrashedWorkersNeverRepeatCompletedCalls(t *testing.T) {
	t.Parallel()
	pool, dbURL := pgtest.NewDB(t)
	store, err := New(pool, Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	ctx := context.Background()
	tool := &countingTool{counts: map[string]int{}}
	toolSrv := httptest.NewServer(tool)
	t.Cleanup(toolSrv.Close)

	const runs, calls, kills = 6, 12, 2
	var steps []string
	var want []int
	for i := range calls {
		steps = append(steps, fmt.Sprintf(`{"tool":"t.n","args":%d}`, i))
		want = append(want, i)
	}
	code := `{"steps":[` + strings.Join(steps, ",") + `]}`
	var ids []string
	for range runs {
		run, _, err := store.CreateRun(ctx, NewRun{Code: code})
		require.NoError(t, err)
		ids = append(ids, run.ID)
	}

	for range kills {
		child := startChild(t, dbURL, toolSrv.URL)
		time.Sleep(time.Duration(300+rand.IntN(700)) * time.Millisecond)
		require.NoError(t, child.Process.Signal(syscall.SIGKILL))
		_ = child.Wait()
	}
	startChild(t, dbURL, toolSrv.URL)

	wantResult, _ := json.Marshal(map[string]any{"ok": true, "value": want})
	for _, id := range ids {
		run, err := store.WaitRun(ctx, id, 3*time.Minute, func(status string) bool { return IsFinal(status) })
		require.NoError(t, err)
		require.Equal(t, StatusSucceeded, run.Status, "run %s", id)
		require.JSONEq(t, string(wantResult), string(run.Result))
	}
	tool.mu.Lock()
	defer tool.mu.Unlock()
	repeated := 0
	for key, n := range tool.counts {
		require.LessOrEqual(t, n, 1+kills, "key %s", key)
		if n > 1 {
			repeated++
		}
	}
	// At most one call per run in flight (MaxRuns 4) per kill can repeat.
	require.LessOrEqual(t, repeated, 4*kills)
	require.Len(t, tool.counts, runs*calls, "every call executed")
	t.Logf("%d calls, %d executed twice (in flight at a kill)", len(tool.counts), repeated)
}

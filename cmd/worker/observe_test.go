package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	coderun "github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// metricValue returns the value of the sample named by series (name and labels as in the text
// format), or -1 when absent.
func metricValue(body, series string) float64 {
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// TestWorkerServesHealthAndMetrics starts the worker process's run, drives a run calling a tool
// through it, and reads the run's traces in /metrics.
func TestWorkerServesHealthAndMetrics(t *testing.T) {
	t.Parallel()
	pool, dbURL := pgtest.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	tools := toolsettest.New(t, toolsettest.Options{})
	_, err = store.CreateToolset(ctx, durable.Toolset{Name: "ops", URL: tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)

	env := map[string]string{"DATABASE_URL": dbURL, "CODEMODE_EGRESS_ALLOW": "loopback", "CODEMODE_WORKER_LISTEN": "127.0.0.1:0"}
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, logs) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the worker did not stop")
		}
	})
	addr := regexp.MustCompile(`serving /healthz, /readyz and /metrics.* addr=(\S+)`)
	var base string
	require.Eventually(t, func() bool {
		m := addr.FindStringSubmatch(logs.String())
		if m != nil && strings.Contains(logs.String(), "worker started") {
			base = "http://" + m[1]
			return true
		}
		return false
	}, 30*time.Second, 10*time.Millisecond, "logs: %s", logs)

	code, body := get(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
	require.JSONEq(t, `{"status": "ok"}`, body)
	code, body = get(t, base+"/readyz")
	require.Equal(t, http.StatusOK, code, body)
	require.JSONEq(t, `{"status": "ready"}`, body)

	r, _, err := store.CreateRun(ctx, durable.NewRun{Code: `
const s = await tools.ops.math.add({a: 1, b: 2});
const t = await tools.ops.math.add({a: s.sum, b: 4});
return t.sum;
`})
	require.NoError(t, err)
	r, err = store.WaitRun(ctx, r.ID, 60*time.Second, func(status string) bool { return status == durable.StatusSucceeded || status == durable.StatusFailed })
	require.NoError(t, err)
	require.Equal(t, durable.StatusSucceeded, r.Status, string(r.Result))

	// The drive's counters move after the run's status is stored: wait for them.
	require.Eventually(t, func() bool {
		_, body = get(t, base+"/metrics")
		return metricValue(body, `codemode_worker_drives_total{outcome="succeeded"}`) == 1
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, 1.0, metricValue(body, "codemode_worker_runs_started_total"))
	require.Equal(t, 2.0, metricValue(body, "codemode_worker_tool_calls_total"))
	require.Equal(t, 2.0, metricValue(body, `codemode_worker_tool_call_duration_seconds_count{outcome="ok"}`))
	require.Equal(t, 1.0, metricValue(body, `codemode_worker_drive_duration_seconds_count{outcome="succeeded"}`))
	require.Equal(t, 0.0, metricValue(body, "codemode_worker_runs_driving"))
	require.Equal(t, 0.0, metricValue(body, `codemode_worker_queue_jobs{state="available"}`))
	require.Contains(t, body, "go_goroutines ")
}

// TestWorkerSuspendsAndMeasuresSnapshots: a run waiting on a durable call counts as a
// suspended drive with a snapshot, and the queue gauge counts a job no worker takes.
func TestWorkerSuspendsAndMeasuresSnapshots(t *testing.T) {
	t.Parallel()
	b := newWorkerBundle(t)
	w := b.start(t)
	r, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await tools.ops.approvals.request({reason: "ship it"});
return r.approved;
`})
	require.NoError(t, err)
	_, err = b.store.WaitRun(b.ctx, r.ID, 60*time.Second, func(status string) bool { return status == durable.StatusSuspended })
	require.NoError(t, err)
	var body string
	require.Eventually(t, func() bool {
		body = b.metrics(t)
		return metricValue(body, `codemode_worker_drives_total{outcome="suspended"}`) == 1
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, 1.0, metricValue(body, `codemode_worker_snapshot_bytes_count{kind="suspend"}`))
	require.Greater(t, metricValue(body, `codemode_worker_snapshot_bytes_sum{kind="suspend"}`), 0.0)
	require.Equal(t, 1.0, metricValue(body, "codemode_worker_tool_calls_total"), "the durable call was made")

	// With the worker stopped, a new run's job waits in the queue.
	stopCtx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, w.Stop(stopCtx))
	_, _, err = b.store.CreateRun(b.ctx, durable.NewRun{Code: `return 1`})
	require.NoError(t, err)
	time.Sleep(queueSampleWait)
	require.Equal(t, 1.0, metricValue(b.metrics(t), `codemode_worker_queue_jobs{state="available"}`))
}

// queueSampleWait outlasts the queue gauge's sampling period.
const queueSampleWait = 5*time.Second + 100*time.Millisecond

// TestReadyzFollowsTheWorkerAndTheDatabase: ready while the worker takes jobs; not once it is
// stopped; "database unavailable", naming nothing of the database, once the pool is closed.
func TestReadyzFollowsTheWorkerAndTheDatabase(t *testing.T) {
	t.Parallel()
	b := newWorkerBundle(t)
	w := b.start(t)
	code, _ := get(t, b.url+"/readyz")
	require.Equal(t, http.StatusOK, code)

	stopCtx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, w.Stop(stopCtx))
	code, body := get(t, b.url+"/readyz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Contains(t, body, "worker not taking jobs")

	b.store.Pool().Close()
	code, body = get(t, b.url+"/readyz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.JSONEq(t, `{"error": {"code": "unavailable", "message": "database unavailable"}}`, body)
	code, _ = get(t, b.url+"/healthz")
	require.Equal(t, http.StatusOK, code, "the process is still alive")
}

// workerBundle is a durable.Worker with the observation endpoint of cmd/worker, on a test
// database with the test toolset registered as "ops".
type workerBundle struct {
	ctx   context.Context
	store *durable.Store
	url   string
}

func newWorkerBundle(t *testing.T) *workerBundle {
	t.Helper()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	tools := toolsettest.New(t, toolsettest.Options{})
	_, err = store.CreateToolset(ctx, durable.Toolset{Name: "ops", URL: tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	return &workerBundle{ctx: ctx, store: store}
}

// start starts a worker and serves its endpoints on a free loopback port.
func (b *workerBundle) start(t *testing.T) *durable.Worker {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	reg, metrics := newRegistry()
	engine, err := newEngine(logger, coderun.DefaultCeilings, egress.Local(), config.Config{})
	require.NoError(t, err)
	w, err := durable.NewWorker(b.store, engine, durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond, Metrics: metrics})
	require.NoError(t, err)
	logs := &syncBuffer{}
	stop, err := serveObserve(slog.New(slog.NewTextHandler(logs, nil)), "127.0.0.1:0", observeHandler(logger, w.Ready, reg))
	require.NoError(t, err)
	t.Cleanup(stop)
	b.url = "http://" + regexp.MustCompile(`addr=(\S+)`).FindStringSubmatch(logs.String())[1]
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(stopCtx)
	})
	return w
}

func (b *workerBundle) metrics(t *testing.T) string {
	t.Helper()
	code, body := get(t, b.url+"/metrics")
	require.Equal(t, http.StatusOK, code)
	return body
}

package runengine

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childWorkerEnv) != "" {
		runChildWorker() // this test binary was started as a worker process
		return
	}
	if os.Getenv(workerProcDBEnv) != "" {
		runWorkerProcess() // started by startWorkerProcess
		return
	}
	pgtest.Main(m)
}

type testBundle struct {
	url   string // the test database
	ctx   context.Context
	store *durable.Store
	tools *toolsettest.Server
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	pool, dbURL := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	tools := toolsettest.New(t, toolsettest.Options{})
	ctx := context.Background()
	_, err = store.CreateToolset(ctx, durable.Toolset{Name: "ops", URL: tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	return &testBundle{url: dbURL, ctx: ctx, store: store, tools: tools}
}

func (b *testBundle) startWorker(t *testing.T) *durable.Worker {
	t.Helper()
	return b.startWorkerWith(t, Config{Egress: egress.Local()})
}

// startWorkerWith is startWorker with an engine of configuration cfg.
func (b *testBundle) startWorkerWith(t *testing.T, cfg Config) *durable.Worker {
	t.Helper()
	w, err := durable.NewWorker(b.store, newTestEngine(cfg), durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(stopCtx)
	})
	return w
}

func (b *testBundle) waitStatus(t *testing.T, id string, statuses ...string) durable.Run {
	t.Helper()
	run, err := b.store.WaitRun(b.ctx, id, 60*time.Second, func(status string) bool {
		for _, s := range statuses {
			if status == s {
				return true
			}
		}
		return false
	})
	require.NoError(t, err)
	require.Contains(t, statuses, run.Status, "run result %s", run.Result)
	return run
}

// TestRunWhoseToolsCannotBeMadeFailsAtOnce: a toolset stored with tools the runtime refuses
// (here a name it cannot mount them under, which the API refuses at registration) fails the
// runs that may use it at once with an InternalError naming the cause: driving them again
// would meet the same stored manifest, so they do not stay running through every retry.
func TestRunWhoseToolsCannotBeMadeFailsAtOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "__proto__", URL: b.tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	b.startWorker(t)
	r, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return 1`, Toolsets: []string{"__proto__"}})
	require.NoError(t, err)
	// The first retry of a drive that failed for a passing reason comes after a second, the
	// last after minutes: a run still running after 15 s is being retried.
	got, err := b.store.WaitRun(b.ctx, r.ID, 15*time.Second, func(status string) bool { return status == durable.StatusFailed })
	require.NoError(t, err)
	require.Equal(t, durable.StatusFailed, got.Status)
	require.Contains(t, string(got.Result), `"kind":"InternalError"`)
	require.Contains(t, string(got.Result), "__proto__")
}

// TestStoredToolsetOverTheDepthLimitStillLoads: registration refuses schemas nested deeper than
// runtools.MaxSchemaDepth, but a toolset stored before that limit still loads for its runs.
func TestStoredToolsetOverTheDepthLimitStillLoads(t *testing.T) {
	t.Parallel()
	b := setup(t)
	depth := runtools.MaxSchemaDepth + 1
	deep := strings.Repeat(`{"items":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "deep", URL: b.tools.URL,
		Manifest: json.RawMessage(`{"tools":[{"path":"a","input":` + deep + `}]}`)})
	require.NoError(t, err)
	b.startWorker(t)
	r, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return typeof tools.deep.a`, Toolsets: []string{"deep"}})
	require.NoError(t, err)
	got := b.waitStatus(t, r.ID, durable.StatusSucceeded, durable.StatusFailed)
	require.Equal(t, `"function"`, okValue(t, got))
}

func TestRunSuspendsOnDurableCallAndResumes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const s = await tools.ops.math.add({a: 1, b: 2});
const r = await tools.ops.approvals.request({reason: "ship it"});
return {sum: s.sum, approved: r.approved};
`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)
	require.Len(t, run.Pending, 1)
	require.Equal(t, "ops.approvals.request", run.Pending[0].Path)
	callID := run.Pending[0].CallID

	_, err = b.store.RecordOutcome(b.ctx, run.ID, callID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var result struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &result))
	require.True(t, result.OK, string(run.Result))
	require.JSONEq(t, `{"sum": 3, "approved": true}`, string(result.Value))
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(run.ID, 1)), "the plain call ran once")
	require.Zero(t, b.tools.Handler.ManifestReads(), "tools come from the stored manifest")
}

// TestTypeScriptRunSuspendsAndResumes: a TypeScript program runs in the
// service, is saved to PostgreSQL while it waits and resumes from the saved
// text.
func TestTypeScriptRunSuspendsAndResumes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
interface Approval { approved: boolean }
const s = (await tools.ops.math.add({a: 1, b: 2})) as { sum: number };
const r: Approval = await tools.ops.approvals.request({reason: "ship it"} satisfies { reason: string });
const twice = <T extends number>(n: T): number => n * 2;
return {sum: twice(s.sum), approved: r.approved!};
`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)
	require.Len(t, run.Pending, 1)
	_, err = b.store.RecordOutcome(b.ctx, run.ID, run.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var result struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &result))
	require.True(t, result.OK, string(run.Result))
	require.JSONEq(t, `{"sum": 6, "approved": true}`, string(result.Value))
}

func TestProgramErrorsFailTheRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	tests := []struct {
		name, code, kind string
	}{
		{name: "parse error", code: "return (", kind: "ParseError"},
		{name: "empty program", code: " \n// nothing to run\n", kind: "ParseError"},
		{name: "TypeScript enum", code: "const a: number = 1\nenum E { A }", kind: "UnsupportedSyntax"},
		{name: "thrown", code: "throw new Error('boom')", kind: "ExecutionFailure"},
		{name: "tool input fails its schema", code: "await tools.ops.math.add({a: 'x'})", kind: "InvalidToolInput"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: tt.code})
			require.NoError(t, err)
			run = b.waitStatus(t, run.ID, durable.StatusFailed)
			var result struct {
				Error struct {
					Kind string `json:"kind"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(run.Result, &result))
			require.Equal(t, tt.kind, result.Error.Kind, string(run.Result))
		})
	}
}

func TestDrainLetsTheCallFinishAndAnotherWorkerContinues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first := b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const a = await tools.ops.slow({ms: 1500});
const s = await tools.ops.math.add({a: 2, b: 3});
return [a.slept, s.sum];
`})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		calls, err := b.store.ListCalls(b.ctx, run.ID)
		require.NoError(t, err)
		return len(calls) == 1
	}, 60*time.Second, 20*time.Millisecond, "the slow call never started")

	stopCtx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, first.Stop(stopCtx))
	yielded, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, durable.StatusQueued, yielded.Status, "drained back to the queue")
	calls, err := b.store.ListCalls(b.ctx, run.ID)
	require.NoError(t, err)
	require.Len(t, calls, 1)
	require.Equal(t, durable.CallSucceeded, calls[0].Status, "the call in flight was let finish")

	b.startWorker(t)
	run = b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var result struct {
		Value json.RawMessage `json:"value"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &result))
	require.JSONEq(t, `[1500, 5]`, string(result.Value))
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(run.ID, 1)), "the slow call ran once")
}

func TestLimitsHold(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	tests := []struct {
		name   string
		code   string
		limits string
		kind   string
	}{
		{name: "run's own timeout", code: "while (true) {}", limits: `{"timeoutMs": 200}`, kind: "TimeoutExceeded"},
		{name: "run's own tool calls", code: "for (let i = 0; i < 5; i++) await tools.ops.echo({i})", limits: `{"maxToolCalls": 2}`, kind: "ToolCallLimitExceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: tt.code, Limits: json.RawMessage(tt.limits)})
			require.NoError(t, err)
			run = b.waitStatus(t, run.ID, durable.StatusFailed, durable.StatusSucceeded)
			var result struct {
				Error struct {
					Kind string `json:"kind"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(run.Result, &result))
			require.Equal(t, tt.kind, result.Error.Kind, string(run.Result))
		})
	}
}

func TestDefaultLimitsApplyWhenUnset(t *testing.T) {
	t.Parallel()
	require.Equal(t, DefaultLimits, New(Config{}).cfg.Limits)
	custom := DefaultLimits
	custom.MaxToolCalls = 7
	require.Equal(t, custom, New(Config{Limits: custom}).cfg.Limits)
}

// A run's input reaches the program as the global input, survives the suspension, and is kept
// with the run exactly as posted.
func TestRunInputReachesTheProgramAcrossASuspension(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	input := `{"reason": "ship v2", "big": 12345678901234567890}`
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await tools.ops.approvals.request({reason: input.reason});
return {reason: input.reason, approved: r.approved};
`, Input: json.RawMessage(input)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)
	require.Equal(t, input, string(run.Input), "kept as posted")
	require.JSONEq(t, `{"reason": "ship v2"}`, string(run.Pending[0].Args))
	_, err = b.store.RecordOutcome(b.ctx, run.ID, run.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var result struct {
		Value json.RawMessage `json:"value"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &result))
	require.JSONEq(t, `{"reason": "ship v2", "approved": true}`, string(result.Value))
}

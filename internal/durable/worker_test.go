package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/toolcall"
)

// scriptEngine stands in for the code-mode runtime in these tests of the worker's job logic
// (leases, storage, resume, drain); it is not an implementation of the language. A program is
// JSON {"steps": [...]}: a step {"tool": P, "args": X} is a plain call answering X, with
// "durable": true it is a durable call left pending, and {"block": true} waits until the drive
// is cancelled (a drain) and yields. Plain executions are counted per call key.
type scriptEngine struct {
	mu        sync.Mutex
	executed  map[string]int
	crashOnce map[string]bool // call keys after whose settle the engine fails once
	blocked   chan string     // receives the run id when a block step is reached
	// toolURL, when set, receives every plain call as POST {"key"} (in another process, to
	// count executions across worker crashes).
	toolURL string
	// checkpoints: the engine checkpoints its whole state after every settled plain call.
	checkpoints bool
	// cancels records CancelCall's calls; cancelErrs are its answers, in order, then nil.
	cancels    []CallCancel
	cancelErrs []error
}

type scriptStep struct {
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Durable bool            `json:"durable"`
	Block   bool            `json:"block"`
}

type scriptState struct {
	Next    int                     `json:"next"`
	Values  map[int]json.RawMessage `json:"values"`
	Pending []int                   `json:"pending"`
}

var errCrash = errors.New("simulated crash")

func newScriptEngine() *scriptEngine {
	return &scriptEngine{executed: map[string]int{}, crashOnce: map[string]bool{}, blocked: make(chan string, 10)}
}

func (e *scriptEngine) Start(ctx context.Context, spec RunSpec, host Host) (Outcome, error) {
	return e.run(ctx, spec, host, scriptState{Values: map[int]json.RawMessage{}})
}

func (e *scriptEngine) Resume(ctx context.Context, spec RunSpec, snapshot Snapshot, settled []Settled, host Host) (Outcome, error) {
	// The header, stored apart from the state, comes back as it was written.
	if string(snapshot.Header) != scriptHeader(spec) {
		return Outcome{}, fmt.Errorf("snapshot header %q, want %q", snapshot.Header, scriptHeader(spec))
	}
	var st scriptState
	if err := json.Unmarshal(snapshot.State, &st); err != nil {
		return Outcome{}, fmt.Errorf("decode snapshot: %w", err)
	}
	for _, o := range settled {
		if i := slices.Index(st.Pending, o.CallID); i >= 0 {
			st.Pending = slices.Delete(st.Pending, i, i+1)
			st.Values[o.CallID] = o.Outcome.Value
		}
	}
	return e.run(ctx, spec, host, st)
}

// scriptHeader is the header of the script engine's snapshots of a run.
func scriptHeader(spec RunSpec) string { return `{"run":"` + spec.RunID + `"}` }

func (e *scriptEngine) run(ctx context.Context, spec RunSpec, host Host, st scriptState) (Outcome, error) {
	var prog struct {
		Steps []scriptStep `json:"steps"`
	}
	if err := json.Unmarshal([]byte(spec.Code), &prog); err != nil {
		return Outcome{Kind: Finished, OK: false, Result: json.RawMessage(`{"ok":false}`)}, nil
	}
	for st.Next < len(prog.Steps) {
		step, id := prog.Steps[st.Next], st.Next+1
		if step.Block {
			e.blocked <- spec.RunID
			<-ctx.Done()
			st.Next++
			snap, _ := json.Marshal(st)
			return Outcome{Kind: Yielded, Snapshot: Snapshot{Header: []byte(scriptHeader(spec)), State: snap}}, nil
		}
		rec, err := host.CallStarted(ctx, CallStart{CallID: id, Toolset: "t", Path: step.Tool, Args: step.Args, Durable: step.Durable})
		if err != nil {
			return Outcome{}, err
		}
		key := toolcall.Key(spec.RunID, int64(id))
		switch {
		case rec.Outcome != nil:
			st.Values[id] = rec.Outcome.Value
		case rec.Handle != nil:
			st.Pending = append(st.Pending, id)
		case step.Durable:
			if err := host.CallPending(ctx, id, json.RawMessage(fmt.Sprintf(`{"n":%d}`, id))); err != nil {
				return Outcome{}, err
			}
			st.Pending = append(st.Pending, id)
		default:
			if e.toolURL != "" {
				if err := postCall(ctx, e.toolURL, key); err != nil {
					return Outcome{}, err
				}
			}
			e.mu.Lock()
			e.executed[key]++
			crash := e.crashOnce[key]
			delete(e.crashOnce, key)
			e.mu.Unlock()
			if err := host.CallSettled(ctx, id, toolcall.Outcome{OK: true, Value: step.Args}); err != nil {
				return Outcome{}, err
			}
			if crash {
				return Outcome{}, errCrash
			}
			st.Values[id] = step.Args
			if e.checkpoints {
				st.Next++
				snap, _ := json.Marshal(st)
				if err := host.Checkpoint(ctx, Snapshot{Header: []byte(scriptHeader(spec)), State: snap}); err != nil {
					return Outcome{}, err
				}
				continue
			}
		}
		st.Next++
	}
	snap, _ := json.Marshal(st)
	if len(st.Pending) > 0 {
		return Outcome{Kind: Suspended, Snapshot: Snapshot{Header: []byte(scriptHeader(spec)), State: snap}}, nil
	}
	values := make([]json.RawMessage, len(prog.Steps))
	for i := range values {
		values[i] = st.Values[i+1]
	}
	result, _ := json.Marshal(map[string]any{"ok": true, "value": values})
	return Outcome{Kind: Finished, OK: true, Result: result}, nil
}

// postCall makes a plain call to a counting tool server.
func postCall(ctx context.Context, url, key string) error {
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodPost, url, strings.NewReader(fmt.Sprintf(`{"key":%q}`, key)))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("tool answered %d", resp.StatusCode)
	}
	return nil
}

func (e *scriptEngine) CancelCall(_ context.Context, c CallCancel) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cancels = append(e.cancels, c)
	if len(e.cancelErrs) > 0 {
		err := e.cancelErrs[0]
		e.cancelErrs = e.cancelErrs[1:]
		return err
	}
	return nil
}

// cancelled returns the calls CancelCall was asked to cancel.
func (e *scriptEngine) cancelled() []CallCancel {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]CallCancel(nil), e.cancels...)
}

func (e *scriptEngine) count(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.executed[key]
}

func (b *testBundle) startWorker(t *testing.T, engine Engine) *Worker {
	t.Helper()
	return b.startWorkerWith(t, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
}

// startWorkerWith starts a worker configured by cfg, stopped when the test ends.
func (b *testBundle) startWorkerWith(t *testing.T, engine Engine, cfg WorkerConfig) *Worker {
	t.Helper()
	w, err := NewWorker(b.store, engine, cfg)
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(ctx)
	})
	return w
}

func (b *testBundle) waitStatus(t *testing.T, id string, want string) Run {
	t.Helper()
	run, err := b.store.WaitRun(b.ctx, id, 30*time.Second, func(status string) bool { return status == want })
	require.NoError(t, err)
	require.Equal(t, want, run.Status)
	return run
}

// hookReceiver collects signed webhook deliveries.
type hookReceiver struct {
	mu     sync.Mutex
	events []string
	bodies map[string]json.RawMessage
}

func newHookReceiver(t *testing.T, secret string) (*hookReceiver, *httptest.Server) {
	h := &hookReceiver{bodies: map[string]json.RawMessage{}}
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := wh.Verify(body, r.Header); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var msg struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(body, &msg)
		h.mu.Lock()
		h.events = append(h.events, msg.Type)
		h.bodies[msg.Type] = body
		h.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return h, srv
}

func (h *hookReceiver) waitFor(t *testing.T, event string) json.RawMessage {
	t.Helper()
	var body json.RawMessage
	require.Eventually(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		body = h.bodies[event]
		return body != nil
	}, 30*time.Second, 20*time.Millisecond, "webhook %s", event)
	return body
}

func TestWorkerSuspendsAndResumesWithOutcome(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	b.startWorker(t, engine)
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	hooks, hookSrv := newHookReceiver(t, secret)

	run, _, err := b.store.CreateRun(b.ctx, NewRun{
		Code:    `{"steps":[{"tool":"t.a","args":1},{"tool":"t.b","args":2},{"tool":"t.wait","durable":true}]}`,
		Webhook: &Webhook{URL: hookSrv.URL, Secret: secret},
	})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, StatusSuspended)
	require.Len(t, run.Pending, 1)
	require.Equal(t, 3, run.Pending[0].CallID)
	suspended := hooks.waitFor(t, WebhookRunSuspended)
	require.Contains(t, string(suspended), toolcall.Key(run.ID, 3))

	got, err := b.store.RecordOutcome(b.ctx, run.ID, 3, toolcall.Outcome{OK: true, Value: json.RawMessage(`"approved"`)})
	require.NoError(t, err)
	require.Equal(t, OutcomeRecorded, got)
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[1,2,"approved"]}`, string(run.Result))
	hooks.waitFor(t, WebhookRunCompleted)

	for id := 1; id <= 2; id++ {
		require.Equal(t, 1, engine.count(toolcall.Key(run.ID, int64(id))))
	}
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var types []string
	for i, e := range events {
		require.Equal(t, int64(i+1), e.Seq)
		types = append(types, e.Type)
	}
	require.Equal(t, EventCreated, types[0])
	require.Equal(t, EventStarted, types[1], "written with the drive's first write, in its place")
	for _, e := range events {
		if e.Type == EventStarted || e.Type == EventResumed {
			var data map[string]any
			require.NoError(t, json.Unmarshal(e.Data, &data), "%s data is an object: %s", e.Type, e.Data)
			require.NotEmpty(t, data["worker"], "%s names the worker: %s", e.Type, e.Data)
		}
		if e.Type == EventSuspended || e.Type == EventCheckpointed {
			var data struct{ Bytes int }
			require.NoError(t, json.Unmarshal(e.Data, &data))
			require.Positive(t, data.Bytes, "%s has the snapshot's size: %s", e.Type, e.Data)
		}
	}
	require.Contains(t, types, EventSuspended)
	require.Contains(t, types, EventResumed)
	require.Less(t, slices.Index(types, EventSuspended), slices.Index(types, EventResumed))
	require.Equal(t, EventFinished, types[len(types)-1])
	for i := 1; i < len(events); i++ {
		require.False(t, events[i].At.Before(events[i-1].At), "event %d (%s) is timed before the one before it", i+1, types[i])
	}

	// The resume was driven at once by the worker of this store's process, without a job.
	require.Zero(t, b.jobCount(t, "run.resume"))
	// A late duplicate post neither changes nor resumes anything.
	got, err = b.store.RecordOutcome(b.ctx, run.ID, 3, toolcall.Outcome{OK: true, Value: json.RawMessage(`"approved"`)})
	require.NoError(t, err)
	require.Equal(t, OutcomeDuplicate, got)
	require.Zero(t, b.jobCount(t, "run.resume"))
	after, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, after.Status)
	require.Equal(t, len(events), len(b.eventTypes(t, run.ID)), "no event was added")
}

func TestWorkerRedriveAfterCrashDoesNotRepeatCalls(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1},{"tool":"t.b","args":2},{"tool":"t.c","args":3}]}`})
	require.NoError(t, err)
	engine.crashOnce[toolcall.Key(run.ID, 2)] = true
	b.startWorker(t, engine)

	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[1,2,3]}`, string(run.Result))
	for id := 1; id <= 3; id++ {
		require.Equal(t, 1, engine.count(toolcall.Key(run.ID, int64(id))), "call %d executed once", id)
	}
}

// Stopping a worker (a drain) yields its drives at their next safe point, a run's job's drive
// or a direct drive of a run created by a waiting client alike; another worker continues the
// run from that checkpoint.
func TestWorkerDrainYieldsAndAnotherWorkerContinues(t *testing.T) {
	t.Parallel()
	const code = `{"steps":[{"tool":"t.a","args":1},{"block":true},{"tool":"t.b","args":2}]}`
	tests := []struct {
		name   string
		create func(b *testBundle) (Run, error)
	}{
		{name: "job", create: func(b *testBundle) (Run, error) {
			run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: code})
			return run, err
		}},
		{name: "direct", create: func(b *testBundle) (Run, error) {
			run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: code}, 50*time.Millisecond, IsFinal)
			return run, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			first := newScriptEngine()
			w1, err := NewWorker(b.store, first, WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
			require.NoError(t, err)
			require.NoError(t, w1.Start(b.ctx))

			run, err := tt.create(b)
			require.NoError(t, err)
			select {
			case id := <-first.blocked:
				require.Equal(t, run.ID, id)
			case <-time.After(30 * time.Second):
				t.Fatal("run never reached its block step")
			}
			stopCtx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
			defer cancel()
			require.NoError(t, w1.Stop(stopCtx))
			yielded, err := b.store.GetRun(b.ctx, run.ID)
			require.NoError(t, err)
			require.Equal(t, StatusQueued, yielded.Status)
			require.Positive(t, yielded.SnapshotSeq)

			second := newScriptEngine()
			b.startWorker(t, second)
			run = b.waitStatus(t, run.ID, StatusSucceeded)
			require.JSONEq(t, `{"ok":true,"value":[1,null,2]}`, string(run.Result))
			require.Equal(t, 1, first.count(toolcall.Key(run.ID, 1)))
			require.Zero(t, second.count(toolcall.Key(run.ID, 1)), "continued from the checkpoint, not from the start")
			require.Equal(t, 1, second.count(toolcall.Key(run.ID, 3)))
		})
	}
}

// Cancelling a suspended run has the engine cancel its pending durable call, once, from the
// call.cancel job, with the call and its toolset as stored (the secret opened). A refusal
// (ErrPermanent) ends the job at once; another error is retried.
func TestCancelGoesThroughTheEngine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		errs      []error
		wantState string
		attempts  int
	}{
		{name: "accepted", wantState: "completed", attempts: 1},
		{name: "refused", errs: []error{fmt.Errorf("%w: status 400", ErrPermanent)}, wantState: "cancelled", attempts: 1},
		{name: "unreachable once", errs: []error{errors.New("connection refused")}, wantState: "completed", attempts: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			_, err := b.store.CreateToolset(b.ctx, Toolset{Name: "t", URL: "http://toolset.invalid/", Secret: "abcd1234"})
			require.NoError(t, err)
			engine := newScriptEngine()
			engine.cancelErrs = tt.errs
			b.startWorker(t, engine)

			run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.wait","durable":true}]}`})
			require.NoError(t, err)
			b.waitStatus(t, run.ID, StatusSuspended)
			_, err = b.store.CancelRun(b.ctx, run.ID)
			require.NoError(t, err)
			var (
				state   string
				attempt int
			)
			require.Eventually(t, func() bool {
				err := b.store.pool.QueryRow(b.ctx, "SELECT state, attempt FROM river_job WHERE kind = 'call.cancel' AND args->>'run_id' = $1",
					run.ID).Scan(&state, &attempt)
				return err == nil && (state == "completed" || state == "cancelled" || state == "discarded")
			}, 30*time.Second, 20*time.Millisecond)
			require.Equal(t, tt.wantState, state)
			require.Equal(t, tt.attempts, attempt)
			got := engine.cancelled()
			require.Len(t, got, tt.attempts)
			for _, c := range got {
				require.Equal(t, run.ID, c.RunID)
				require.Equal(t, 1, c.CallID)
				require.Equal(t, toolcall.Key(run.ID, 1), c.Key)
				require.Equal(t, "t.wait", c.Path)
				require.JSONEq(t, `{"n":1}`, string(c.Handle))
				require.Equal(t, "t", c.Toolset.Name)
				require.Equal(t, "http://toolset.invalid/", c.Toolset.URL)
				require.Equal(t, "abcd1234", c.Toolset.Secret)
			}
		})
	}
}

// failingEngine always fails, as a runtime bug would.
type failingEngine struct{}

func (failingEngine) Start(context.Context, RunSpec, Host) (Outcome, error) {
	return Outcome{}, errors.New("engine exploded")
}

func (failingEngine) Resume(context.Context, RunSpec, Snapshot, []Settled, Host) (Outcome, error) {
	return Outcome{}, errors.New("engine exploded")
}

func (failingEngine) CancelCall(context.Context, CallCancel) error {
	return errors.New("engine exploded")
}

func TestWorkerFailsRunOnLastAttempt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	_, err = b.store.pool.Exec(b.ctx, "UPDATE river_job SET max_attempts = 1 WHERE kind = 'run.execute'")
	require.NoError(t, err)
	b.startWorker(t, failingEngine{})

	run = b.waitStatus(t, run.ID, StatusFailed)
	require.Contains(t, string(run.Result), "InternalError")
	require.Contains(t, string(run.Result), "engine exploded")
}

func TestWorkerDriveTimeoutYieldsAndContinues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	w, err := NewWorker(b.store, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond, DriveTimeout: time.Second})
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(ctx)
	})
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1},{"block":true},{"tool":"t.b","args":2}]}`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[1,null,2]}`, string(run.Result))
	require.Equal(t, 1, engine.count(toolcall.Key(run.ID, 1)))
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var yielded bool
	for _, e := range events {
		yielded = yielded || e.Type == EventYielded
	}
	require.True(t, yielded, "the drive timed out and yielded")
}

func TestWorkerConfigValidate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		name string
		cfg  WorkerConfig
	}{
		{name: "poll faster than cooldown", cfg: WorkerConfig{FetchPollInterval: 5 * time.Millisecond, FetchCooldown: 10 * time.Millisecond}},
		{name: "rescue before timeout", cfg: WorkerConfig{DriveTimeout: time.Hour, RescueStuckJobsAfter: time.Minute}},
		{name: "negative runs", cfg: WorkerConfig{MaxRuns: -1}},
		{name: "retention interval under a second", cfg: WorkerConfig{RetentionInterval: time.Millisecond}},
		{name: "negative retention batch", cfg: WorkerConfig{RetentionBatch: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewWorker(b.store, newScriptEngine(), tt.cfg)
			require.Error(t, err)
		})
	}
	_, err := NewWorker(b.store, nil, WorkerConfig{})
	require.Error(t, err, "an engine is required")
}

func TestWebhookDeliveryRetriesThenFails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var (
		mu       sync.Mutex
		attempts int
		ids      []string
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempts++
		ids = append(ids, r.Header.Get("webhook-id"))
		mu.Unlock()
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(receiver.Close)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: `{"steps":[]}`, Webhook: &Webhook{URL: receiver.URL}})
	require.NoError(t, err)
	// Once the first attempt failed, make the next one due now and the last.
	b.startWorker(t, newScriptEngine())
	b.waitStatus(t, run.ID, StatusSucceeded)
	var id string
	require.Eventually(t, func() bool {
		return b.store.pool.QueryRow(b.ctx, "SELECT id FROM webhook_deliveries WHERE run_id = $1", run.ID).Scan(&id) == nil
	}, 10*time.Second, 20*time.Millisecond)
	require.Eventually(t, func() bool {
		_, err := b.store.pool.Exec(b.ctx, "UPDATE river_job SET max_attempts = 2, scheduled_at = now() WHERE kind = 'webhook.deliver' AND state = 'retryable'")
		require.NoError(t, err)
		var status string
		require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT status FROM webhook_deliveries WHERE id = $1", id).Scan(&status))
		return status == "failed"
	}, 30*time.Second, 100*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	var recorded int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT attempts FROM webhook_deliveries WHERE id = $1", id).Scan(&recorded))
	require.GreaterOrEqual(t, attempts, 2, "retried")
	require.Equal(t, attempts, recorded, "every attempt recorded")
	for _, got := range ids {
		require.Equal(t, id, got, "every attempt carries the same webhook-id")
	}
}

// unstorableEngine makes writes the database refuses for good: a call whose path holds U+0000
// (a text column), or a result that is not JSON at all.
type unstorableEngine struct{ starts atomic.Int64 }

func (e *unstorableEngine) Start(ctx context.Context, spec RunSpec, host Host) (Outcome, error) {
	e.starts.Add(1)
	if spec.Code == "bad result" {
		return Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":`)}, nil
	}
	if _, err := host.CallStarted(ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.a\x00b", Args: json.RawMessage(`{}`)}); err != nil {
		return Outcome{}, err
	}
	return Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":true,"value":1}`)}, nil
}

func (e *unstorableEngine) Resume(context.Context, RunSpec, Snapshot, []Settled, Host) (Outcome, error) {
	return Outcome{}, errors.New("not resumable")
}

func (e *unstorableEngine) CancelCall(context.Context, CallCancel) error { return nil }

// A write that fails for a reason retrying cannot fix (SQLSTATE classes 22, 23, 54) fails the
// run at once with the cause, on the job's first attempt; the program is not driven again.
func TestWorkerFailsRunWhoseDataCannotBeStored(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"nul path", "bad result"} {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: code})
			require.NoError(t, err)
			engine := &unstorableEngine{}
			b.startWorker(t, engine)

			run = b.waitStatus(t, run.ID, StatusFailed)
			var result struct {
				Error struct{ Kind, Message string }
			}
			require.NoError(t, json.Unmarshal(run.Result, &result), "%s", run.Result)
			require.Equal(t, "StorageError", result.Error.Kind)
			require.Contains(t, result.Error.Message, "SQLSTATE 22")
			var (
				attempt int
				state   string
			)
			require.Eventually(t, func() bool {
				require.NoError(t, b.store.pool.QueryRow(b.ctx,
					"SELECT attempt, state FROM river_job WHERE kind = 'run.execute' AND args->>'run_id' = $1", run.ID).Scan(&attempt, &state))
				return state != "running"
			}, 10*time.Second, 20*time.Millisecond)
			require.Equal(t, 1, attempt)
			require.Equal(t, "completed", state)
			require.Equal(t, int64(1), engine.starts.Load())
		})
	}
}

// flakyEngine fails its first failures drives, as a database or network hiccup would, then
// drives with next.
type flakyEngine struct {
	failures atomic.Int64
	next     Engine
}

func (e *flakyEngine) Start(ctx context.Context, spec RunSpec, host Host) (Outcome, error) {
	if e.failures.Add(-1) >= 0 {
		return Outcome{}, errors.New("database briefly unreachable")
	}
	return e.next.Start(ctx, spec, host)
}

func (e *flakyEngine) Resume(ctx context.Context, spec RunSpec, snapshot Snapshot, settled []Settled, host Host) (Outcome, error) {
	return e.next.Resume(ctx, spec, snapshot, settled, host)
}

func (e *flakyEngine) CancelCall(ctx context.Context, c CallCancel) error {
	return e.next.CancelCall(ctx, c)
}

// TestWorkerRetriesTransientFailuresWithoutCountingCrashes: a drive that fails for a reason
// that passes is retried soon (attempt² seconds), and its run stays leased to the job until the
// retry, even when the wait outlasts the lease's TTL, so it is not taken for a run whose worker
// was lost (no redriven event, no crash counted).
func TestWorkerRetriesTransientFailuresWithoutCountingCrashes(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := New(pool, Config{LeaseTTL: time.Second, Logger: slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	b := &testBundle{store: store, ctx: context.Background()}
	run, _, err := store.CreateRun(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1}]}`})
	require.NoError(t, err)
	engine := &flakyEngine{next: newScriptEngine()}
	engine.failures.Store(2) // retries after 1 s and 4 s: the second outlasts the 1 s lease
	w, err := NewWorker(store, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond, RedriveInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(ctx)
	})

	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[1]}`, string(run.Result))
	var crashes int
	require.NoError(t, pool.QueryRow(b.ctx, "SELECT crashes FROM runs WHERE id = $1", run.ID).Scan(&crashes))
	require.Zero(t, crashes)
	events, err := store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	for _, e := range events {
		require.NotEqual(t, EventRedriven, e.Type)
	}
	var attempt int
	require.NoError(t, pool.QueryRow(b.ctx, "SELECT attempt FROM river_job WHERE kind = 'run.execute'").Scan(&attempt))
	require.Equal(t, 3, attempt, "the execute job itself was retried")
}

// A drive River retries after an engine error shows in the run's timeline (and at WARN).
func TestWorkerRetryIsAnEvent(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	_, err = b.store.pool.Exec(b.ctx, "UPDATE river_job SET max_attempts = 2 WHERE kind = 'run.execute'")
	require.NoError(t, err)
	b.startWorker(t, failingEngine{})

	run = b.waitStatus(t, run.ID, StatusFailed)
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var retried []Event
	for _, e := range events {
		if e.Type == EventRetried {
			retried = append(retried, e)
		}
	}
	require.Len(t, retried, 1)
	var data struct {
		Attempt int    `json:"attempt"`
		Error   string `json:"error"`
	}
	require.NoError(t, json.Unmarshal(retried[0].Data, &data))
	require.Equal(t, 2, data.Attempt)
	require.Contains(t, data.Error, "engine exploded")
}

func TestOutcomeKindNamesItselfInLogs(t *testing.T) {
	t.Parallel()
	for kind, want := range map[OutcomeKind]string{Finished: "finished", Suspended: "suspended", Yielded: "yielded", 9: "OutcomeKind(9)"} {
		require.Equal(t, want, kind.String())
	}
}

package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const token = "tok"

// evilManifest is a toolset whose answers carry text PostgreSQL's jsonb cannot hold.
const evilManifest = `{"tools": [
  {"path": "nul", "description": "Answers a string with U+0000."},
  {"path": "lone", "description": "Answers a string with a lone surrogate."},
  {"path": "key", "description": "Answers an object whose key holds U+0000."},
  {"path": "errnul", "description": "Fails with a message holding U+0000."},
  {"path": "wait", "description": "Durable work whose handle holds U+0000 and a lone surrogate.", "durable": true}
]}`

// evilToolset serves evilManifest and counts executions per tool.
type evilToolset struct {
	mu    sync.Mutex
	execs map[string]int
}

func (e *evilToolset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		_, _ = io.WriteString(w, evilManifest)
		return
	}
	var req struct {
		Tool   string          `json:"tool"`
		Cancel json.RawMessage `json:"cancel"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	if req.Cancel != nil {
		_, _ = io.WriteString(w, `{"cancelled":true}`)
		return
	}
	e.mu.Lock()
	e.execs[req.Tool]++
	e.mu.Unlock()
	switch req.Tool {
	case "nul":
		_, _ = io.WriteString(w, `{"output":"a\u0000b"}`)
	case "lone":
		_, _ = io.WriteString(w, `{"output":"x\ud800y"}`)
	case "key":
		_, _ = io.WriteString(w, `{"output":{"k\u0000":"\udc00"}}`)
	case "errnul":
		_, _ = io.WriteString(w, `{"error":{"message":"bad\u0000thing"}}`)
	case "wait":
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"handle":{"h":"a\u0000b\ud800"}}`)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (e *evilToolset) executions(tool string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.execs[tool]
}

type stack struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	store *durable.Store
	base  string
	ops   *toolsettest.Server
	evil  *evilToolset
}

func setup(t *testing.T) *stack {
	t.Helper()
	ctx := context.Background()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)

	ops := toolsettest.New(t, toolsettest.Options{})
	evil := &evilToolset{execs: map[string]int{}}
	evilSrv := httptest.NewServer(evil)
	t.Cleanup(evilSrv.Close)
	_, err = store.CreateToolset(ctx, durable.Toolset{Name: "ops", URL: ops.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	_, err = store.CreateToolset(ctx, durable.Toolset{Name: "evil", URL: evilSrv.URL, Manifest: json.RawMessage(evilManifest)})
	require.NoError(t, err)

	handler, err := api.New(store, api.Config{Token: token, Egress: egress.Local()})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)

	w, err := durable.NewWorker(store, runengine.New(runengine.Config{Egress: egress.Local(), RoundTrip: os.Getenv("CODEMODE_ROUNDTRIP") == "1"}), durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, w.Start(ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(stopCtx)
	})
	return &stack{ctx: ctx, pool: pool, store: store, base: srv.URL, ops: ops, evil: evil}
}

// do sends a request with the token and returns the status and the decoded body.
func (s *stack) do(t *testing.T, method, path string, body any, header ...string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(s.ctx, method, s.base+path, rd)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := map[string]any{}
	if len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, &out), "body %s", raw)
	}
	return resp.StatusCode, out
}

// finalRun waits (at most 15 s) for the run to end and returns it as the API shows it.
func (s *stack) finalRun(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		status, run := s.do(t, http.MethodGet, "/v1/runs/"+id+"?wait=2", nil)
		require.Equal(t, http.StatusOK, status, "%v", run)
		if durable.IsFinal(run["status"].(string)) {
			return run
		}
		require.True(t, time.Now().Before(deadline), "run %s still %s", id, run["status"])
	}
}

// attempts returns the highest attempt of the run's River jobs and how many of them are
// waiting for a retry.
// attempts reports the most attempts any job driving run id made and how many such jobs wait
// for a retry, and how many times a drive of the run was retried or put back on the queue
// (retried and requeued events: a run the API's process drives itself has no job).
func (s *stack) attempts(t *testing.T, id string) (maxAttempt, retryable, retried int) {
	t.Helper()
	require.NoError(t, s.pool.QueryRow(s.ctx,
		`SELECT coalesce(max(attempt), 0), count(*) FILTER (WHERE state = 'retryable'),
		        (SELECT count(*) FROM run_timeline WHERE run_id = $1::text::uuid AND type IN ('retried', 'requeued'))
		 FROM river_job WHERE args->>'run_id' = $1::text AND kind IN ('run.execute', 'run.resume', 'run.redrive')`, id).
		Scan(&maxAttempt, &retryable, &retried))
	return maxAttempt, retryable, retried
}

func TestHostileDataCatalogue(t *testing.T) {
	t.Parallel()
	s := setup(t)
	type runCase struct {
		name string
		code string
		// status is the run's final status; value (succeeded) or errKind and errMsg (failed)
		// what its result holds; logs the console lines.
		status  string
		value   any
		errKind string
		errMsg  string
		logs    []any
		// execs are the tool executions expected (per evil tool, or "ops:<n>" for the test
		// toolset's total); each tool ran exactly that often.
		execs map[string]int
		// check looks further at the run's calls and events.
		check func(t *testing.T, id string, run map[string]any)
	}
	nul, lone := "a\x00b", "\uFFFD"
	cases := []runCase{
		{name: "NUL in the result", code: `return "a\u0000b"`, status: "succeeded", value: nul},
		{name: "lone surrogate in the result", code: `return "\uD800"`, status: "succeeded", value: lone},
		{name: "lone low surrogate in the result", code: `return "x\uDC00"`, status: "succeeded", value: "x" + lone},
		{name: "surrogate pair in the result", code: `return "\uD83D\uDE00"`, status: "succeeded", value: "😀"},
		{name: "NUL in console.log", code: `console.log("a\u0000b"); return 1`, status: "succeeded", value: 1.0, logs: []any{nul}},
		{name: "lone surrogate in console.log", code: `console.log("\uD800"); return 1`, status: "succeeded", value: 1.0, logs: []any{lone}},
		{name: "NUL in a thrown message", code: `throw new Error("m\u0000n")`, status: "failed", errKind: "ExecutionFailure", errMsg: "m\x00n"},
		{name: "lone surrogate in a thrown message", code: `throw new Error("m\uD800n")`, status: "failed", errKind: "ExecutionFailure", errMsg: "m" + lone + "n"},
		{name: "NUL in an object key", code: `return {["k\u0000"]: 1}`, status: "succeeded", value: map[string]any{"k\x00": 1.0}},
		{name: "lone surrogate in an object key", code: `return {["k\uDBFF"]: 1}`, status: "succeeded", value: map[string]any{"k" + lone: 1.0}},
		{name: "NUL in tool arguments", code: `return await tools.ops.echo({s: "a\u0000b", ["k\u0000"]: 1})`,
			status: "succeeded", value: map[string]any{"s": nul, "k\x00": 1.0}, execs: map[string]int{"ops": 1},
			check: func(t *testing.T, id string, _ map[string]any) {
				_, calls := s.do(t, http.MethodGet, "/v1/runs/"+id+"/calls", nil)
				call := calls["calls"].([]any)[0].(map[string]any)
				require.Equal(t, map[string]any{"s": nul, "k\x00": 1.0}, call["args"])
				require.Equal(t, map[string]any{"s": nul, "k\x00": 1.0}, call["outcome"].(map[string]any)["value"])
			}},
		{name: "lone surrogate in tool arguments", code: `return await tools.ops.echo({s: "\uD800"})`,
			status: "succeeded", value: map[string]any{"s": lone}, execs: map[string]int{"ops": 1}},
		{name: "NUL in a tool's output", code: `return await tools.evil.nul()`, status: "succeeded", value: nul,
			execs: map[string]int{"nul": 1}},
		{name: "lone surrogate in a tool's output", code: `const s = await tools.evil.lone(); return [s, s.charCodeAt(1)]`,
			status: "succeeded", value: []any{"x" + lone + "y", 65533.0}, execs: map[string]int{"lone": 1}},
		{name: "NUL key and lone surrogate value in a tool's output", code: `return await tools.evil.key()`,
			status: "succeeded", value: map[string]any{"k\x00": lone}, execs: map[string]int{"key": 1}},
		{name: "NUL in a tool's error", code: `try { await tools.evil.errnul() } catch (e) { return e.message }`,
			status: "succeeded", value: "bad\x00thing", execs: map[string]int{"errnul": 1}},
		{name: "NUL in the path of an unknown tool", code: `try { await tools.ops["a\u0000b"]() } catch (e) { return e.message }`,
			status: "succeeded", value: `tools.ops["a\\u0000b"] is not a tool`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, created := s.do(t, http.MethodPost, "/v1/runs?wait=5", map[string]any{"code": c.code})
			require.Equal(t, http.StatusCreated, status, "%v", created)
			id := created["id"].(string)
			start := time.Now()
			run := s.finalRun(t, id)
			require.Less(t, time.Since(start), 15*time.Second)
			require.Equal(t, c.status, run["status"], "result %v", run["result"])
			result := run["result"].(map[string]any)
			if c.status == "succeeded" {
				require.Equal(t, c.value, result["value"])
			} else {
				diag := result["error"].(map[string]any)
				require.Equal(t, c.errKind, diag["kind"], "%v", diag)
				require.Contains(t, diag["message"], c.errMsg)
			}
			if c.logs != nil {
				require.Equal(t, c.logs, result["logs"])
			}
			maxAttempt, retryable, retried := s.attempts(t, id)
			require.LessOrEqual(t, maxAttempt, 1, "the run's job was retried")
			require.Zero(t, retryable)
			require.Zero(t, retried, "the run's drive was retried")
			for tool, n := range c.execs {
				if tool == "ops" {
					ran := 0
					for key, k := range s.ops.ExecutionsByKey() {
						if strings.HasPrefix(key, id+":") {
							require.Equal(t, 1, k, "executions under %s", key)
							ran++
						}
					}
					require.Equal(t, n, ran, "calls that ran")
					continue
				}
				require.Equal(t, n, s.evil.executions(tool), "executions of %s", tool)
			}
			status, events := s.do(t, http.MethodGet, "/v1/runs/"+id+"/events", nil)
			require.Equal(t, http.StatusOK, status)
			list := events["events"].([]any)
			require.Equal(t, "finished", list[len(list)-1].(map[string]any)["type"])
			status, _ = s.do(t, http.MethodGet, "/v1/runs/"+id+"/calls", nil)
			require.Equal(t, http.StatusOK, status)
			if c.check != nil {
				c.check(t, id, run)
			}
		})
	}

	t.Run("durable handle and posted outcome with NUL", func(t *testing.T) {
		status, created := s.do(t, http.MethodPost, "/v1/runs?wait=5", map[string]any{
			"code": `const v = await tools.evil.wait(); return [v, v.length]`})
		require.Equal(t, http.StatusCreated, status, "%v", created)
		require.Equal(t, "suspended", created["status"], "%v", created)
		id := created["id"].(string)
		pending := created["pending"].([]any)[0].(map[string]any)
		require.Equal(t, map[string]any{"h": "a\x00b" + lone}, pending["handle"])
		callID := int(pending["callId"].(float64))
		status, posted := s.do(t, http.MethodPost, "/v1/runs/"+id+"/calls/"+itoa(callID), map[string]any{"ok": true, "value": "v\x00w"})
		require.Equal(t, http.StatusAccepted, status, "%v", posted)
		status, _ = s.do(t, http.MethodPost, "/v1/runs/"+id+"/calls/"+itoa(callID), map[string]any{"ok": true, "value": "v\x00w"})
		require.Equal(t, http.StatusOK, status, "the same outcome again is a duplicate")
		run := s.finalRun(t, id)
		require.Equal(t, "succeeded", run["status"], "%v", run["result"])
		require.Equal(t, []any{"v\x00w", 3.0}, run["result"].(map[string]any)["value"])
		require.Equal(t, 1, s.evil.executions("wait"))
		maxAttempt, retryable, retried := s.attempts(t, id)
		require.LessOrEqual(t, maxAttempt, 1)
		require.Zero(t, retryable)
		require.Zero(t, retried)
	})

	t.Run("failed outcome with NUL in its message", func(t *testing.T) {
		_, created := s.do(t, http.MethodPost, "/v1/runs?wait=5", map[string]any{
			"code": `try { await tools.evil.wait() } catch (e) { return e.message }`})
		require.Equal(t, "suspended", created["status"], "%v", created)
		id := created["id"].(string)
		callID := int(created["pending"].([]any)[0].(map[string]any)["callId"].(float64))
		status, posted := s.do(t, http.MethodPost, "/v1/runs/"+id+"/calls/"+itoa(callID), map[string]any{"ok": false, "error": map[string]any{"message": "no\x00pe"}})
		require.Equal(t, http.StatusAccepted, status, "%v", posted)
		run := s.finalRun(t, id)
		require.Equal(t, "succeeded", run["status"], "%v", run["result"])
		require.Equal(t, "no\x00pe", run["result"].(map[string]any)["value"])
	})

	t.Run("snapshot over the limit fails the run", func(t *testing.T) {
		run, _, err := s.store.CreateRun(s.ctx, durable.NewRun{
			Code:   `const big = "x".repeat(100000); const v = await tools.evil.wait(); return big.length`,
			Limits: json.RawMessage(`{"maxSnapshotBytes": 20000}`),
		})
		require.NoError(t, err)
		got := s.finalRun(t, run.ID)
		require.Equal(t, "failed", got["status"])
		diag := got["result"].(map[string]any)["error"].(map[string]any)
		require.Equal(t, "SnapshotTooLarge", diag["kind"])
		require.Contains(t, diag["message"], "maxSnapshotBytes")
		maxAttempt, retryable, retried := s.attempts(t, run.ID)
		require.Equal(t, 1, maxAttempt, "created without waiting: driven by a job, once")
		require.Zero(t, retryable)
		require.Zero(t, retried)
		_, calls := s.do(t, http.MethodGet, "/v1/runs/"+run.ID+"/calls", nil)
		require.Equal(t, "cancelled", calls["calls"].([]any)[0].(map[string]any)["status"])
	})
}

func TestHostileRequests(t *testing.T) {
	t.Parallel()
	s := setup(t)
	_, created := s.do(t, http.MethodPost, "/v1/runs?wait=5", map[string]any{"code": `return await tools.evil.wait()`})
	require.Equal(t, "suspended", created["status"], "%v", created)
	runID := created["id"].(string)

	cases := []struct {
		name         string
		method, path string
		body         any
		header       []string
		status       int
		msg          string
	}{
		{name: "NUL in code", method: "POST", path: "/v1/runs", body: map[string]any{"code": "return 1\x00"},
			status: 400, msg: "code contains the character U+0000"},
		{name: "NUL in a webhook secret", method: "POST", path: "/v1/runs",
			body:   map[string]any{"code": "1", "webhook": map[string]any{"url": "http://127.0.0.1:1/h", "secret": "s\x00"}},
			status: 400, msg: "webhook.secret"},
		{name: "NUL in a toolset name of a run", method: "POST", path: "/v1/runs",
			body: map[string]any{"code": "1", "toolsets": []string{"op\x00s"}}, status: 400, msg: "toolsets"},
		{name: "NUL in a toolset secret", method: "POST", path: "/v1/toolsets",
			body:   map[string]any{"name": "x", "url": "http://127.0.0.1:1", "secret": "s\x00", "tools": []any{}},
			status: 400, msg: "secret"},
		{name: "NUL in a toolset description", method: "POST", path: "/v1/toolsets",
			body:   map[string]any{"name": "x", "url": "http://127.0.0.1:1", "description": "d\x00", "tools": []any{}},
			status: 400, msg: "description"},
		{name: "NUL in a subscription secret", method: "POST", path: "/v1/webhooks",
			body:   map[string]any{"url": "http://127.0.0.1:1/h", "secret": "s\x00", "events": []string{"run.completed"}},
			status: 400, msg: "secret"},
		{name: "callId 2^31", method: "POST", path: "/v1/runs/" + runID + "/calls/2147483648",
			body: map[string]any{"ok": true, "value": 1}, status: 404, msg: "call not found"},
		{name: "callId 2^63-1", method: "POST", path: "/v1/runs/" + runID + "/calls/9223372036854775807",
			body: map[string]any{"ok": true, "value": 1}, status: 404, msg: "call not found"},
		{name: "callId beyond int64", method: "POST", path: "/v1/runs/" + runID + "/calls/99999999999999999999",
			body: map[string]any{"ok": true, "value": 1}, status: 400},
		{name: "callId 0", method: "POST", path: "/v1/runs/" + runID + "/calls/0",
			body: map[string]any{"ok": true, "value": 1}, status: 400, msg: "callId"},
		{name: "lower-case bearer", method: "GET", path: "/v1/runs/" + runID, header: []string{"Authorization", "bearer " + token}, status: 200},
		{name: "upper-case bearer", method: "GET", path: "/v1/runs/" + runID, header: []string{"Authorization", "BEARER " + token}, status: 200},
		{name: "wrong token", method: "GET", path: "/v1/runs/" + runID, header: []string{"Authorization", "bearer x" + token}, status: 401},
		{name: "no space after the scheme", method: "GET", path: "/v1/runs/" + runID, header: []string{"Authorization", "Bearer" + token}, status: 401},
		{name: "another scheme", method: "GET", path: "/v1/runs/" + runID, header: []string{"Authorization", "Basic " + token}, status: 401},
		// Clients cannot lift the workers' limits: 0 is not "unlimited", and nothing above a
		// ceiling is accepted.
		{name: "maxMemoryBytes 0", method: "POST", path: "/v1/runs",
			body: map[string]any{"code": "1", "limits": map[string]any{"maxMemoryBytes": 0}}, status: 400, msg: "maxMemoryBytes"},
		{name: "timeoutMs 2^53-1", method: "POST", path: "/v1/runs",
			body: map[string]any{"code": "1", "limits": map[string]any{"timeoutMs": 9007199254740991}}, status: 400, msg: "allowed range is 1 to"},
		{name: "maxToolCalls above the ceiling", method: "POST", path: "/v1/runs",
			body: map[string]any{"code": "1", "limits": map[string]any{"maxToolCalls": 10001}}, status: 400, msg: "maxToolCalls"},
		{name: "negative maxOutputBytes", method: "POST", path: "/v1/runs",
			body: map[string]any{"code": "1", "limits": map[string]any{"maxOutputBytes": -1}}, status: 400, msg: "maxOutputBytes"},
		{name: "a toolset URL on the metadata range", method: "POST", path: "/v1/toolsets",
			body: map[string]any{"name": "meta", "url": "http://169.254.169.254/latest"}, status: 502},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := s.do(t, c.method, c.path, c.body, c.header...)
			require.Equal(t, c.status, status, "%v", body)
			if c.msg != "" {
				require.Contains(t, body["error"].(map[string]any)["message"], c.msg)
			}
		})
	}
	// The run those requests aimed at is untouched.
	status, run := s.do(t, http.MethodGet, "/v1/runs/"+runID, nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "suspended", run["status"])
}

func TestReadyzSaysNothingOfTheDatabase(t *testing.T) {
	t.Parallel()
	pool, err := pgxpool.New(context.Background(), "postgres://secretuser:pw@127.0.0.1:1/secretdb?connect_timeout=2")
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store, err := durable.New(pool, durable.Config{Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := api.New(store, api.Config{Egress: egress.Local()})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	var body struct{ Error struct{ Message string } }
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	require.Equal(t, "database unavailable", body.Error.Message)
	for _, leak := range []string{"secretuser", "127.0.0.1", ":1", "secretdb"} {
		require.NotContains(t, rec.Body.String(), leak)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

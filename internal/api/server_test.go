package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const testToken = "s3cret"

// waitEngine stands in for the code-mode runtime in these API tests (it is not the language):
// a program starts one durable call "t.wait" and finishes with the value of its outcome.
type waitEngine struct{}

func (waitEngine) Start(ctx context.Context, spec durable.RunSpec, host durable.Host) (durable.Outcome, error) {
	if spec.Code == "plain" {
		return durable.Outcome{Kind: durable.Finished, OK: true, Result: json.RawMessage(`{"ok":true,"value":"plain"}`)}, nil
	}
	args := json.RawMessage(`{"q":1}`)
	if spec.Code == "ordered" {
		args = json.RawMessage(`{"zeta":1,"alpha":{"y":2,"b":3}}`)
	}
	if _, err := host.CallStarted(ctx, durable.CallStart{CallID: 1, Toolset: "t", Path: "t.wait", Args: args, Durable: true}); err != nil {
		return durable.Outcome{}, err
	}
	if err := host.CallPending(ctx, 1, json.RawMessage(`"h1"`)); err != nil {
		return durable.Outcome{}, err
	}
	return durable.Outcome{Kind: durable.Suspended, Snapshot: durable.Snapshot{State: []byte("s")}}, nil
}

func (waitEngine) Resume(_ context.Context, _ durable.RunSpec, _ durable.Snapshot, settled []durable.Settled, _ durable.Host) (durable.Outcome, error) {
	if len(settled) == 0 {
		return durable.Outcome{Kind: durable.Suspended, Snapshot: durable.Snapshot{State: []byte("s")}}, nil
	}
	o := settled[0].Outcome
	result, _ := json.Marshal(map[string]any{"ok": o.OK, "value": o.Value})
	return durable.Outcome{Kind: durable.Finished, OK: o.OK, Result: result}, nil
}

// CancelCall has nothing to tell: "t.wait" is no toolset's work.
func (waitEngine) CancelCall(context.Context, durable.CallCancel) error { return nil }

type testBundle struct {
	url    string
	client *client.ClientWithResponses
	store  *durable.Store
	ctx    context.Context
}

func setup(t *testing.T, withWorker bool) *testBundle {
	t.Helper()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{Token: testToken, MaxBodyBytes: 64 << 10, Egress: egress.Local()})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	if withWorker {
		w, err := durable.NewWorker(store, waitEngine{}, durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
		require.NoError(t, err)
		require.NoError(t, w.Start(context.Background()))
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = w.Stop(ctx)
		})
	}
	client, err := client.NewClientWithResponses(srv.URL, client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+testToken)
		return nil
	}))
	require.NoError(t, err)
	return &testBundle{url: srv.URL, client: client, store: store, ctx: context.Background()}
}

// do sends a raw request with the token and returns status and body.
func (b *testBundle) do(t *testing.T, method, path, body string, header ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, b.url+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, data
}

func errorCode(t *testing.T, body []byte) (string, string) {
	t.Helper()
	var e client.Error
	require.NoError(t, json.Unmarshal(body, &e), "error body %s", body)
	require.NotEmpty(t, e.Error.Code)
	return e.Error.Code, e.Error.Message
}

func TestAuth(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	tests := []struct {
		name   string
		path   string
		header string
		want   int
	}{
		{name: "no token", path: "/v1/runs", want: http.StatusUnauthorized},
		{name: "wrong token", path: "/v1/runs", header: "Bearer nope", want: http.StatusUnauthorized},
		{name: "right token", path: "/v1/runs", header: "Bearer " + testToken, want: http.StatusOK},
		{name: "healthz is open", path: "/healthz", want: http.StatusOK},
		{name: "readyz is open", path: "/readyz", want: http.StatusOK},
		{name: "metrics is open", path: "/metrics", want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(http.MethodGet, b.url+tt.path, nil)
			require.NoError(t, err)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, tt.want, resp.StatusCode, string(body))
			if tt.want == http.StatusUnauthorized {
				code, _ := errorCode(t, body)
				require.Equal(t, CodeUnauthorized, code)
			}
		})
	}
}

func TestRequestValidation(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	tests := []struct {
		name      string
		method    string
		path      string
		body      string
		want      int
		wantCode  string
		wantField string
	}{
		{name: "missing code", method: "POST", path: "/v1/runs", body: `{}`, want: 400, wantCode: CodeInvalidRequest, wantField: "code"},
		{name: "wrong limits type", method: "POST", path: "/v1/runs", body: `{"code":"1","limits":{"timeoutMs":"x"}}`, want: 400, wantCode: CodeInvalidRequest, wantField: "timeoutMs"},
		{name: "unknown field", method: "POST", path: "/v1/runs", body: `{"code":"1","nope":1}`, want: 400, wantCode: CodeInvalidRequest, wantField: "nope"},
		{name: "malformed JSON", method: "POST", path: "/v1/runs", body: `{"code":`, want: 400, wantCode: CodeInvalidRequest},
		{name: "huge body", method: "POST", path: "/v1/runs", body: `{"code":"` + strings.Repeat("x", 70<<10) + `"}`, want: 413, wantCode: CodeTooLarge},
		{name: "wait out of range", method: "GET", path: "/v1/runs/8a4b1f2e-4b7b-4a57-9bb4-6f0b7a9f3c11?wait=9999", want: 400, wantCode: CodeInvalidRequest, wantField: "wait"},
		{name: "bad status filter", method: "GET", path: "/v1/runs?status=sleeping", want: 400, wantCode: CodeInvalidRequest, wantField: "status"},
		{name: "bad cursor", method: "GET", path: "/v1/runs?cursor=!!", want: 400, wantCode: CodeInvalidRequest},
		{name: "outcome without ok", method: "POST", path: "/v1/runs/x/calls/1", body: `{"value":1}`, want: 400, wantCode: CodeInvalidRequest, wantField: "ok"},
		{name: "failed outcome without error", method: "POST", path: "/v1/runs/x/calls/1", body: `{"ok":false}`, want: 400, wantCode: CodeInvalidRequest},
		{name: "call id not a number", method: "POST", path: "/v1/runs/x/calls/abc", body: `{"ok":true}`, want: 400, wantCode: CodeInvalidRequest, wantField: "callId"},
		{name: "bad toolset name", method: "POST", path: "/v1/toolsets", body: `{"name":"a b","url":"http://127.0.0.1:1"}`, want: 400, wantCode: CodeInvalidRequest, wantField: "name"},
		{name: "unknown run", method: "GET", path: "/v1/runs/8a4b1f2e-4b7b-4a57-9bb4-6f0b7a9f3c11", want: 404, wantCode: CodeNotFound},
		{name: "run id not a uuid", method: "GET", path: "/v1/runs/nope", want: 404, wantCode: CodeNotFound},
		{name: "unknown endpoint", method: "GET", path: "/v1/nothing", want: 404, wantCode: CodeNotFound},
		{name: "unknown toolset in run", method: "POST", path: "/v1/runs", body: `{"code":"1","toolsets":["ghost"]}`, want: 404, wantCode: CodeNotFound},
		{name: "catalog of an unknown toolset", method: "GET", path: "/v1/catalog?toolsets=ghost", want: 404, wantCode: CodeNotFound},
		{name: "toolset with an invalid tool path", method: "POST", path: "/v1/toolsets", body: `{"name":"bad","url":"http://127.0.0.1:1","tools":[{"path":"a..b"}]}`, want: 400, wantCode: CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := b.do(t, tt.method, tt.path, tt.body)
			require.Equal(t, tt.want, status, string(body))
			code, msg := errorCode(t, body)
			require.Equal(t, tt.wantCode, code)
			if tt.wantField != "" {
				require.Contains(t, msg, tt.wantField)
			}
		})
	}
	// Nothing was created by the refused requests.
	runs, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{})
	require.NoError(t, err)
	require.Empty(t, runs.JSON200.Runs)
}

func TestCreateRunIdempotency(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	key := "abc"
	params := &client.CreateRunParams{IdempotencyKey: &key}
	first, err := b.client.CreateRunWithResponse(b.ctx, params, client.RunCreate{Code: "1"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, first.StatusCode(), string(first.Body))
	require.Equal(t, client.RunStatusQueued, first.JSON201.Status)

	again, err := b.client.CreateRunWithResponse(b.ctx, params, client.RunCreate{Code: "1"})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, again.StatusCode())
	require.Equal(t, first.JSON201.Id, again.JSON200.Id)

	other, err := b.client.CreateRunWithResponse(b.ctx, params, client.RunCreate{Code: "2"})
	require.NoError(t, err)
	require.Equal(t, http.StatusConflict, other.StatusCode())

	// The input is part of the request: the same key with another input is a conflict.
	in := json.RawMessage(`{"n": 1}`)
	otherInput, err := b.client.CreateRunWithResponse(b.ctx, params, client.RunCreate{Code: "1", Input: &in})
	require.NoError(t, err)
	require.Equal(t, http.StatusConflict, otherInput.StatusCode())
}

// A run's input is stored and answered exactly as posted (key order, big numbers, U+0000).
func TestRunInputIsKeptAsPosted(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	in := json.RawMessage(`{"z":1,"a":"x\u0000y","big":12345678901234567890}`) // as the client sends it
	created, err := b.client.CreateRunWithResponse(b.ctx, nil, client.RunCreate{Code: "return input", Input: &in})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), string(created.Body))
	require.NotNil(t, created.JSON201.Input)
	require.Equal(t, string(in), string(*created.JSON201.Input))
	got, err := b.client.GetRunWithResponse(b.ctx, created.JSON201.Id, nil)
	require.NoError(t, err)
	require.Equal(t, string(in), string(*got.JSON200.Input))

	none, err := b.client.CreateRunWithResponse(b.ctx, nil, client.RunCreate{Code: "1"})
	require.NoError(t, err)
	require.Nil(t, none.JSON201.Input, "no input: none answered")
}

func TestToolsets(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	var mu sync.Mutex
	manifest := `{"tools":[{"path":"math.add","description":"adds","input":{"type":"object"}},{"path":"wait","durable":true}]}`
	toolsetSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, http.MethodGet, r.Method)
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(w, manifest)
	}))
	t.Cleanup(toolsetSrv.Close)

	created, err := b.client.CreateToolsetWithResponse(b.ctx, client.ToolsetCreate{Name: "ops", Url: new(toolsetSrv.URL)})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), string(created.Body))
	require.Len(t, created.JSON201.Tools, 2)
	require.Equal(t, "math.add", created.JSON201.Tools[0].Path)

	dup, err := b.client.CreateToolsetWithResponse(b.ctx, client.ToolsetCreate{Name: "ops", Url: new(toolsetSrv.URL)})
	require.NoError(t, err)
	require.Equal(t, http.StatusConflict, dup.StatusCode())

	down, err := b.client.CreateToolsetWithResponse(b.ctx, client.ToolsetCreate{Name: "down", Url: new("http://127.0.0.1:1/")})
	require.NoError(t, err)
	require.Equal(t, http.StatusBadGateway, down.StatusCode(), string(down.Body))

	catalog, err := b.client.GetCatalogWithResponse(b.ctx, &client.GetCatalogParams{})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, catalog.StatusCode(), string(catalog.Body))
	// The toolset's tools, then the built-in timers every run gets.
	require.Len(t, catalog.JSON200.Tools, 4)
	require.Equal(t, "time.sleep", catalog.JSON200.Tools[2].Path)
	require.Equal(t, "time", catalog.JSON200.Tools[2].Toolset)
	require.Equal(t, "time.sleepUntil", catalog.JSON200.Tools[3].Path)
	add := catalog.JSON200.Tools[0]
	require.Equal(t, "ops.math.add", add.Path)
	require.Equal(t, "ops", add.Toolset)
	require.Contains(t, add.Signature, "tools.ops.math.add(")
	require.True(t, catalog.JSON200.Tools[1].Durable)

	prompt, err := b.client.GetCatalogPromptWithResponse(b.ctx, &client.GetCatalogPromptParams{})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, prompt.StatusCode(), string(prompt.Body))
	require.Contains(t, prompt.JSON200.Prompt, "tools.ops.math.add")
	require.Contains(t, prompt.JSON200.Prompt, "tools.time.sleep")

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"tools":[{"path":"dup"},{"path":"dup"}]}`)
	}))
	t.Cleanup(bad.Close)
	invalid, err := b.client.CreateToolsetWithResponse(b.ctx, client.ToolsetCreate{Name: "bad", Url: new(bad.URL)})
	require.NoError(t, err)
	require.Equal(t, http.StatusBadGateway, invalid.StatusCode(), "an invalid fetched manifest is refused")

	list, err := b.client.ListToolsetsWithResponse(b.ctx)
	require.NoError(t, err)
	require.Len(t, list.JSON200.Toolsets, 1)

	// A whsec_ secret must be base64 after the prefix: it could not sign anything.
	for path, body := range map[string]string{
		"/v1/toolsets": `{"name":"signed","url":"` + toolsetSrv.URL + `","secret":"whsec_not base64!"}`,
		"/v1/webhooks": `{"url":"http://127.0.0.1:1/","secret":"whsec_not base64!","events":["run.completed"]}`,
		"/v1/runs":     `{"code":"1","webhook":{"url":"http://127.0.0.1:1/","secret":"whsec_not base64!"}}`,
	} {
		status, resp := b.do(t, http.MethodPost, path, body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", path, resp)
		_, msg := errorCode(t, resp)
		require.Contains(t, msg, "base64", path)
	}

	// Update re-reads the manifest (the toolset now serves one tool) as a new version.
	mu.Lock()
	manifest = `{"tools":[{"path":"math.mul","description":"multiplies"}]}`
	mu.Unlock()
	status, body := b.do(t, http.MethodPatch, "/v1/toolsets/ops", `{"description":"ops v2"}`)
	require.Equal(t, http.StatusOK, status, string(body))
	var updated client.Toolset
	require.NoError(t, json.Unmarshal(body, &updated))
	require.Equal(t, "ops v2", updated.Description)
	require.Len(t, updated.Tools, 1)
	require.Equal(t, "math.mul", updated.Tools[0].Path)
	status, _ = b.do(t, http.MethodPatch, "/v1/toolsets/nope", `{}`)
	require.Equal(t, http.StatusNotFound, status)

	// A run not yet final that may use it blocks the delete, unless forced.
	run, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: "1", Toolsets: &[]string{"ops"}})
	require.NoError(t, err)
	del, err := b.client.DeleteToolsetWithResponse(b.ctx, "ops", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusConflict, del.StatusCode())
	code, msg := errorCode(t, del.Body)
	require.Equal(t, CodeConflict, code)
	require.Contains(t, msg, run.JSON201.Id)
	force := true
	del, err = b.client.DeleteToolsetWithResponse(b.ctx, "ops", &client.DeleteToolsetParams{Force: &force})
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode())
	got, err := b.client.GetToolsetWithResponse(b.ctx, "ops")
	require.NoError(t, err)
	require.Equal(t, http.StatusNotFound, got.StatusCode())
}

func TestOutcomeLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	wait := client.Wait(30)
	created, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{Wait: &wait}, client.RunCreate{Code: "durable"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), string(created.Body))
	run := created.JSON201
	require.Equal(t, client.RunStatusSuspended, run.Status, "wait returns once suspended")
	require.Len(t, run.Pending, 1)
	require.Equal(t, run.Id+":1", run.Pending[0].Key)
	runID := run.Id

	// Unknown run and call.
	status, _ := b.do(t, "POST", "/v1/runs/8a4b1f2e-4b7b-4a57-9bb4-6f0b7a9f3c11/calls/1", `{"ok":true}`)
	require.Equal(t, http.StatusNotFound, status)
	status, _ = b.do(t, "POST", "/v1/runs/"+runID+"/calls/9", `{"ok":true}`)
	require.Equal(t, http.StatusNotFound, status)

	// Concurrent posts of the same outcome: one records it, the rest are duplicates.
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, body := b.do(t, "POST", "/v1/runs/"+runID+"/calls/1", `{"ok":true,"value":{"approved":true}}`)
			require.Contains(t, []int{http.StatusAccepted, http.StatusOK}, s, string(body))
			mu.Lock()
			statuses[s]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, map[int]int{http.StatusAccepted: 1, http.StatusOK: 7}, statuses)

	status, body := b.do(t, "POST", "/v1/runs/"+runID+"/calls/1", `{"ok":false,"error":{"message":"denied"}}`)
	require.Equal(t, http.StatusConflict, status)
	code, _ := errorCode(t, body)
	require.Equal(t, CodeConflict, code)

	deadline := time.Now().Add(30 * time.Second)
	var final *client.Run
	for time.Now().Before(deadline) {
		got, err := b.client.GetRunWithResponse(b.ctx, runID, &client.GetRunParams{Wait: &wait})
		require.NoError(t, err)
		final = got.JSON200
		if final.Status == client.RunStatusSucceeded {
			break
		}
	}
	require.Equal(t, client.RunStatusSucceeded, final.Status)
	require.Equal(t, map[string]any{"approved": true}, (*final.Result)["value"])
	require.NotNil(t, final.FinishedAt)

	calls, err := b.client.ListCallsWithResponse(b.ctx, runID)
	require.NoError(t, err)
	require.Len(t, calls.JSON200.Calls, 1)
	require.Equal(t, client.CallStatusSucceeded, calls.JSON200.Calls[0].Status)

	events, err := b.client.ListEventsWithResponse(b.ctx, runID, &client.ListEventsParams{})
	require.NoError(t, err)
	var types []string
	for _, e := range events.JSON200.Events {
		types = append(types, e.Type)
	}
	require.Equal(t, "created", types[0])
	require.Equal(t, "finished", types[len(types)-1])

	cancel, err := b.client.CancelRunWithResponse(b.ctx, runID)
	require.NoError(t, err)
	require.Equal(t, http.StatusConflict, cancel.StatusCode(), "a finished run cannot be cancelled")
}

// TestProgramDataKeepsItsKeyOrder reads a run whose call arguments, outcome and result hold
// objects whose keys are not in alphabetical order, and a number beyond float64's digits: every
// answer gives them as the program, the toolset or the client wrote them.
func TestProgramDataKeepsItsKeyOrder(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	status, body := b.do(t, "POST", "/v1/runs?wait=30", `{"code":"ordered"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var run struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	require.NoError(t, json.Unmarshal(body, &run))
	require.Equal(t, "suspended", run.Status)
	const args = `{"zeta":1,"alpha":{"y":2,"b":3}}`
	require.Contains(t, string(body), `"args":`+args, "the pending call's arguments")

	const value = `{"zeta":1,"alpha":{"y":2,"b":3},"mid":[{"q":1,"a":2}],"big":12345678901234567890}`
	status, body = b.do(t, "POST", "/v1/runs/"+run.ID+"/calls/1", `{"ok":true,"value":`+value+`}`)
	require.Equal(t, http.StatusAccepted, status, string(body))
	deadline := time.Now().Add(30 * time.Second)
	for run.Status != "succeeded" && time.Now().Before(deadline) {
		status, body = b.do(t, "GET", "/v1/runs/"+run.ID+"?wait=30", "")
		require.Equal(t, http.StatusOK, status, string(body))
		require.NoError(t, json.Unmarshal(body, &run))
	}
	require.Equal(t, "succeeded", run.Status, string(body))
	require.Contains(t, string(body), `"value":`+value, "the result")

	status, body = b.do(t, "GET", "/v1/runs/"+run.ID+"/calls", "")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Contains(t, string(body), `"args":`+args)
	require.Contains(t, string(body), `"value":`+value, "the call's outcome")
}

func TestCancelAndList(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	var ids []string
	for i := range 3 {
		r, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: fmt.Sprint(i)})
		require.NoError(t, err)
		ids = append(ids, r.JSON201.Id)
	}
	cancelled, err := b.client.CancelRunWithResponse(b.ctx, ids[1])
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, cancelled.StatusCode())
	require.Equal(t, client.RunStatusCancelled, cancelled.JSON200.Status)

	st := client.RunStatusCancelled
	onlyCancelled, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{Status: &st})
	require.NoError(t, err)
	require.Len(t, onlyCancelled.JSON200.Runs, 1)
	require.Equal(t, ids[1], onlyCancelled.JSON200.Runs[0].Id)

	limit := 2
	page1, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{Limit: &limit})
	require.NoError(t, err)
	require.Len(t, page1.JSON200.Runs, 2)
	require.NotNil(t, page1.JSON200.Next)
	page2, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{Limit: &limit, Cursor: page1.JSON200.Next})
	require.NoError(t, err)
	require.Len(t, page2.JSON200.Runs, 1)
	require.Nil(t, page2.JSON200.Next)
	require.Equal(t, ids[0], page2.JSON200.Runs[0].Id)
}

func TestMetricsCountRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	status, _ := b.do(t, "GET", "/v1/toolsets", "")
	require.Equal(t, http.StatusOK, status)
	status, body := b.do(t, "GET", "/metrics", "")
	require.Equal(t, http.StatusOK, status)
	require.True(t, bytes.Contains(body, []byte(`codemode_http_requests_total{code="200",method="GET",route="/v1/toolsets"} 1`)), string(body))
}

func TestCheckListen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		addr    string
		token   string
		wantErr error
	}{
		{name: "loopback v4", addr: "127.0.0.1:8080"},
		{name: "loopback v6", addr: "[::1]:8080"},
		{name: "localhost", addr: "localhost:8080"},
		{name: "all interfaces without token", addr: ":8080", wantErr: ErrInsecureListen},
		{name: "public without token", addr: "0.0.0.0:8080", wantErr: ErrInsecureListen},
		{name: "public with token", addr: "0.0.0.0:8080", token: "t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckListen(tt.addr, tt.token)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestEventStream(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	created, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: "durable"})
	require.NoError(t, err)
	runID := created.JSON201.Id

	req, err := http.NewRequest(http.MethodGet, b.url+"/v1/runs/"+runID+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))

	// Read live until the run suspends, then post the outcome and read to the end.
	var types []string
	posted := false
	scanner := bufio.NewScanner(resp.Body)
	for scanner.Scan() {
		line := scanner.Text()
		typ, ok := strings.CutPrefix(line, "event: ")
		if !ok {
			continue
		}
		types = append(types, typ)
		if typ == durable.EventSuspended && !posted {
			posted = true
			status, body := b.do(t, "POST", "/v1/runs/"+runID+"/calls/1", `{"ok":true,"value":1}`)
			require.Equal(t, http.StatusAccepted, status, string(body))
		}
	}
	require.NoError(t, scanner.Err())
	require.Equal(t, durable.EventCreated, types[0])
	require.Contains(t, types, durable.EventSuspended)
	require.Contains(t, types, durable.EventResumed)
	require.Equal(t, durable.EventFinished, types[len(types)-1], "the stream ends after the run finished")

	status, _ := b.do(t, "GET", "/v1/runs/8a4b1f2e-4b7b-4a57-9bb4-6f0b7a9f3c11/events", "", "Accept", "text/event-stream")
	require.Equal(t, http.StatusNotFound, status)
}

// Registration obeys the egress policy and does not tell a client why a manifest could not be
// fetched: a refused address, a closed port, an error status and a redirect to another host
// all read the same (the details go to the log).
func TestManifestFetchEgress(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	manifest := `{"tools":[{"path":"echo"}]}`
	var fetched int
	toolsetSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched++
		fmt.Fprint(w, manifest)
	}))
	t.Cleanup(toolsetSrv.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, toolsetSrv.URL, http.StatusFound)
	}))
	t.Cleanup(redirecting.Close)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "secret internal detail", http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)

	register := func(h http.Handler, name, url string) (int, string) {
		srv := httptest.NewServer(h)
		defer srv.Close()
		body := fmt.Sprintf(`{"name":%q,"url":%q}`, name, url)
		resp, err := http.Post(srv.URL+"/v1/toolsets", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusCreated {
			_, msg := errorCode(t, data)
			return resp.StatusCode, strings.ReplaceAll(msg, url, "URL")
		}
		return resp.StatusCode, ""
	}
	strict, err := New(store, Config{}) // the default policy: public addresses only
	require.NoError(t, err)
	local, err := New(store, Config{Egress: egress.Local()})
	require.NoError(t, err)

	status, denied := register(strict, "a", toolsetSrv.URL)
	require.Equal(t, http.StatusBadGateway, status)
	require.Zero(t, fetched, "a loopback address is refused by default")
	for name, url := range map[string]string{"b": "http://127.0.0.1:1/", "c": redirecting.URL, "d": failing.URL} {
		status, msg := register(local, name, url)
		require.Equal(t, http.StatusBadGateway, status, name)
		require.Equal(t, denied, msg, "%s reads like any other failure", name)
	}
	require.Zero(t, fetched, "the redirect to another host was not followed")
	require.NotContains(t, denied, "refused")
	status, _ = register(local, "e", toolsetSrv.URL)
	require.Equal(t, http.StatusCreated, status)
}

// Without a token, only requests naming the loopback listener itself are served: a page on
// another name that resolves to 127.0.0.1 (DNS rebinding) is refused.
func TestNoTokenChecksHost(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	for host, want := range map[string]int{
		"127.0.0.1:" + port:          http.StatusOK,
		"localhost:" + port:          http.StatusOK,
		"LOCALHOST:" + port:          http.StatusOK,
		"[::1]:" + port:              http.StatusOK,
		"attacker.example:" + port:   http.StatusMisdirectedRequest,
		"attacker.example":           http.StatusMisdirectedRequest,
		"localhost":                  http.StatusMisdirectedRequest,
		"127.0.0.1:1":                http.StatusMisdirectedRequest,
		"localhost.attacker.example": http.StatusMisdirectedRequest,
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/v1/runs", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, want, resp.StatusCode, host)
	}
}

// A run created with ?wait= by a process that also runs a worker is driven directly and
// handed to the request as it ended: the response is the run exactly as a GET shows it.
func TestCreatedRunWithWaitIsAnsweredAsStored(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	status, created := b.do(t, "POST", "/v1/runs?wait=10", `{"code":"plain","limits":{"timeoutMs":5000}}`, "Content-Type", "application/json")
	require.Equal(t, http.StatusCreated, status, "%s", created)
	var run client.Run
	require.NoError(t, json.Unmarshal(created, &run))
	require.Equal(t, client.RunStatusSucceeded, run.Status)
	status, got := b.do(t, "GET", "/v1/runs/"+run.Id, "")
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, string(got), string(created))
}

package toolset_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// fast keeps retries quick in tests.
var fast = toolset.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}

type testBundle struct {
	server *toolsettest.Server
	client *toolset.Client
}

func setup(t *testing.T, cfg toolset.Config) *testBundle {
	t.Helper()
	srv := toolsettest.New(t, toolsettest.Options{Secret: cfg.Secret})
	cfg.URL = srv.URL
	if cfg.Backoff == (toolset.Backoff{}) {
		cfg.Backoff = fast
	}
	c, err := toolset.New(cfg)
	require.NoError(t, err)
	return &testBundle{server: srv, client: c}
}

func call(runID string, id int64, path string) toolcall.Call {
	return toolcall.Call{RunID: runID, CallID: id, Key: toolcall.Key(runID, id), Path: path}
}

// execute calls the plain tool at path, which answers at once.
func execute(t *testing.T, b *testBundle, path, input string, c toolcall.Call) (json.RawMessage, error) {
	t.Helper()
	resp, err := b.client.Call(context.Background(), path, json.RawMessage(input), c)
	if err != nil {
		return nil, err
	}
	require.False(t, resp.Pending, path)
	return resp.Output, nil
}

func TestCallOutcomes(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{})
	tests := []struct {
		name        string
		path        string
		input       string
		want        string
		wantToolErr string
	}{
		{name: "output", path: "math.add", input: `{"a":2,"b":40}`, want: `{"sum":42}`},
		{name: "string tool", path: "string.upper", input: `{"text":"héllo"}`, want: `{"text":"HÉLLO"}`},
		{name: "echo keeps JSON", path: "echo", input: `{"x":[1,{"y":null}],"s":"😀"}`, want: `{"x":[1,{"y":null}],"s":"😀"}`},
		{name: "200 error is a tool error", path: "math.divide", input: `{"a":1,"b":0}`, wantToolErr: "division by zero"},
		{name: "4xx with message", path: "fail", input: `{"message":"not allowed","status":403}`, wantToolErr: "not allowed"},
		{name: "200 fail", path: "fail", input: `{"message":"nope"}`, wantToolErr: "nope"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := call("outcomes", int64(i+1), tt.path)
			out, err := execute(t, b, tt.path, tt.input, c)
			if tt.wantToolErr != "" {
				var te *toolcall.ToolError
				require.ErrorAs(t, err, &te)
				require.Equal(t, tt.wantToolErr, te.Message)
				return
			}
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(out))
			require.Equal(t, 1, b.server.Attempts(c.Key))
			require.Equal(t, 1, b.server.Executions(c.Key))
		})
	}
}

func TestRetriesUnderSameKey(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{})
	c := call("flaky", 1, "flaky")
	out, err := execute(t, b, "flaky", `{"failures":3,"value":"v"}`, c)
	require.NoError(t, err)
	require.JSONEq(t, `{"attempts":4,"value":"v"}`, string(out))
	require.Equal(t, 4, b.server.Attempts(c.Key))
	require.Equal(t, 1, b.server.Executions(c.Key))

	// Calling again with the same key replays the stored answer.
	out, err = execute(t, b, "flaky", `{"failures":3,"value":"v"}`, c)
	require.NoError(t, err)
	require.JSONEq(t, `{"attempts":4,"value":"v"}`, string(out))
	require.Equal(t, 1, b.server.Executions(c.Key))
}

func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{Retries: 2})
	c := call("flaky", 2, "flaky")
	_, err := execute(t, b, "flaky", `{"failures":10}`, c)
	require.ErrorIs(t, err, toolset.ErrUnavailable)
	var ue *toolset.UnavailableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, 3, ue.Attempts)
	var se *toolset.StatusError
	require.ErrorAs(t, err, &se)
	require.Equal(t, http.StatusServiceUnavailable, se.Status)
	require.Equal(t, 3, b.server.Attempts(c.Key))
	require.Equal(t, 0, b.server.Executions(c.Key))
}

func TestNoRetries(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{Retries: -1})
	c := call("flaky", 3, "flaky")
	_, err := execute(t, b, "flaky", `{"failures":1}`, c)
	require.ErrorIs(t, err, toolset.ErrUnavailable)
	require.Equal(t, 1, b.server.Attempts(c.Key))
}

func TestSignedCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		secret string
	}{
		{name: "raw secret", secret: "s3cret"},
		{name: "whsec secret", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, toolset.Config{Secret: tt.secret})
			out, err := execute(t, b, "math.add", `{"a":1,"b":2}`, call("sig", 1, "math.add"))
			require.NoError(t, err)
			require.JSONEq(t, `{"sum":3}`, string(out))
		})
	}
	t.Run("wrong secret is refused", func(t *testing.T) {
		t.Parallel()
		srv := toolsettest.New(t, toolsettest.Options{Secret: "right"})
		c, err := toolset.New(toolset.Config{URL: srv.URL, Secret: "wrong", Backoff: fast})
		require.NoError(t, err)
		_, err = c.Call(context.Background(), "math.add", json.RawMessage(`{"a":1,"b":2}`), call("sig", 2, "math.add"))
		var te *toolcall.ToolError
		require.ErrorAs(t, err, &te)
		require.Contains(t, te.Message, "invalid signature")
	})
	t.Run("unsigned is refused", func(t *testing.T) {
		t.Parallel()
		srv := toolsettest.New(t, toolsettest.Options{Secret: "right"})
		c, err := toolset.New(toolset.Config{URL: srv.URL, Backoff: fast})
		require.NoError(t, err)
		_, err = c.Call(context.Background(), "math.add", json.RawMessage(`{"a":1,"b":2}`), call("sig", 3, "math.add"))
		var te *toolcall.ToolError
		require.ErrorAs(t, err, &te)
	})
}

// protocolServer answers every POST with handler and serves a one-tool
// manifest on GET.
func protocolServer(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, `{"tools":[{"path":"t"}]}`)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestProtocolEdges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		handler     http.HandlerFunc
		cfg         toolset.Config
		wantErr     error
		wantToolErr string
		wantOut     string
		wantPend    string
	}{
		{name: "response too large", cfg: toolset.Config{MaxResponseBytes: 64}, wantErr: toolset.ErrResponseTooLarge,
			handler: func(w http.ResponseWriter, _ *http.Request) {
				_, _ = io.WriteString(w, `{"output":"`+strings.Repeat("x", 100)+`"}`)
			}},
		{name: "malformed body", wantErr: toolset.ErrProtocol,
			handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{"output":`) }},
		{name: "202 without handle", wantErr: toolset.ErrProtocol,
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusAccepted)
				_, _ = io.WriteString(w, `{}`)
			}},
		{name: "empty 204 is null", wantOut: `null`,
			handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }},
		{name: "missing output is null", wantOut: `null`,
			handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{}`) }},
		{name: "bare 4xx names the status", wantToolErr: "tool t failed: 404 Not Found",
			handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) }},
		{name: "empty error message", wantToolErr: "tool t failed",
			handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{"error":{}}`) }},
		{name: "202 handle", wantPend: `[1,"two"]`,
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusAccepted)
				_, _ = io.WriteString(w, `{"handle":[1,"two"]}`)
			}},
		{name: "per-attempt timeout is retried then fails", cfg: toolset.Config{Timeout: 20 * time.Millisecond, Retries: 1}, wantErr: toolset.ErrAttemptTimeout,
			handler: func(_ http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(300 * time.Millisecond):
				}
			}},
		{name: "redirect status is a protocol error", wantErr: toolset.ErrProtocol,
			handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotModified) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := tt.cfg
			cfg.URL = protocolServer(t, tt.handler)
			cfg.Backoff = fast
			c, err := toolset.New(cfg)
			require.NoError(t, err)
			resp, err := c.Call(context.Background(), "t", json.RawMessage(`{}`), call("edge", 1, "t"))
			if tt.wantToolErr != "" {
				var te *toolcall.ToolError
				require.ErrorAs(t, err, &te)
				require.Equal(t, tt.wantToolErr, te.Message)
				return
			}
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				require.NotErrorIs(t, err, context.DeadlineExceeded)
				return
			}
			require.NoError(t, err)
			if tt.wantPend != "" {
				require.True(t, resp.Pending)
				require.JSONEq(t, tt.wantPend, string(resp.Handle))
				return
			}
			require.False(t, resp.Pending)
			require.JSONEq(t, tt.wantOut, string(resp.Output))
		})
	}
}

func TestRequestShape(t *testing.T) {
	t.Parallel()
	var got struct {
		header http.Header
		body   map[string]any
	}
	url := protocolServer(t, func(w http.ResponseWriter, r *http.Request) {
		got.header = r.Header.Clone()
		b, _ := io.ReadAll(r.Body)
		got.body = nil
		_ = json.Unmarshal(b, &got.body)
		_, _ = io.WriteString(w, `{"output":1}`)
	})
	c, err := toolset.New(toolset.Config{URL: url, Secret: "k"})
	require.NoError(t, err)
	_, err = c.Call(context.Background(), "t", json.RawMessage(`{"q":1}`), call("run_9", 7, "t"))
	require.NoError(t, err)
	require.Equal(t, "run_9:7", got.header.Get("Idempotency-Key"))
	require.Equal(t, "application/json", got.header.Get("Content-Type"))
	require.Equal(t, "run_9:7", got.header.Get("webhook-id"))
	require.NotEmpty(t, got.header.Get("webhook-timestamp"))
	require.True(t, strings.HasPrefix(got.header.Get("webhook-signature"), "v1,"))
	require.Equal(t, map[string]any{"tool": "t", "input": map[string]any{"q": float64(1)}, "key": "run_9:7", "runId": "run_9"}, got.body)

	require.NoError(t, c.Cancel(context.Background(), "t", "run_9:7", json.RawMessage(`{"id":1}`)))
	require.Equal(t, "run_9:7:cancel", got.header.Get("Idempotency-Key"))
	require.Equal(t, "run_9:7:cancel", got.header.Get("webhook-id"))
	require.Equal(t, map[string]any{"cancel": map[string]any{"tool": "t", "key": "run_9:7", "handle": map[string]any{"id": float64(1)}}}, got.body)
}

func TestRetryAfterAndContext(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	url := protocolServer(t, func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = io.WriteString(w, `{"output":"ok"}`)
	})
	c, err := toolset.New(toolset.Config{URL: url, Backoff: toolset.Backoff{Initial: time.Hour, Max: time.Hour}})
	require.NoError(t, err)
	// Retry-After: 0 replaces the hour-long backoff.
	resp, err := c.Call(context.Background(), "t", nil, call("ra", 1, "t"))
	require.NoError(t, err)
	require.JSONEq(t, `"ok"`, string(resp.Output))
	require.Equal(t, int32(2), n.Load())

	// A cancelled context stops the retry wait.
	always := protocolServer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	c, err = toolset.New(toolset.Config{URL: always, Backoff: toolset.Backoff{Initial: time.Hour, Max: time.Hour}})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Call(ctx, "t", nil, call("ra", 2, "t"))
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	c, err := toolset.New(toolset.Config{URL: srv.URL, Retries: 2, Backoff: fast})
	require.NoError(t, err)
	srv.Close()
	_, err = c.Call(context.Background(), "math.add", json.RawMessage(`{"a":1,"b":1}`), call("down", 1, "math.add"))
	var ue *toolset.UnavailableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, 3, ue.Attempts)
	require.False(t, errors.Is(err, toolset.ErrProtocol))
}

func TestMissingKey(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{})
	_, err := execute(t, b, "math.add", `{"a":1,"b":2}`, toolcall.Call{RunID: "r", CallID: 1, Path: "math.add"})
	require.ErrorIs(t, err, toolset.ErrMissingKey)
	c, err := toolset.New(toolset.Config{URL: b.server.URL})
	require.NoError(t, err)
	require.ErrorIs(t, c.Cancel(context.Background(), "approvals.request", "", nil), toolset.ErrMissingKey)
	require.Equal(t, 0, b.server.Attempts(""))
}

func TestManifestFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		body    string
		wantErr error
	}{
		{name: "not found", status: http.StatusNotFound, body: `{"error":{"message":"no"}}`, wantErr: toolset.ErrInvalidManifest},
		{name: "not a manifest", status: http.StatusOK, body: `{"tools":{}}`, wantErr: toolset.ErrInvalidManifest},
		{name: "server error retried then unavailable", status: http.StatusInternalServerError, body: `oops`, wantErr: toolset.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var gets atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				gets.Add(1)
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			c, err := toolset.New(toolset.Config{URL: srv.URL, Retries: 1, Backoff: fast})
			require.NoError(t, err)
			_, err = c.Manifest(context.Background())
			require.ErrorIs(t, err, tt.wantErr)
			if tt.status >= 500 {
				require.Equal(t, int32(2), gets.Load())
			}
		})
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{})
	const n = 40
	errs := make(chan error, n)
	for i := range n {
		go func() {
			c := call("conc", int64(i+1), "flaky")
			out, err := execute(t, b, "flaky", `{"failures":1,"value":`+strconv.Itoa(i)+`}`, c)
			if err == nil && string(out) != `{"attempts":2,"value":`+strconv.Itoa(i)+`}` {
				err = errors.New("wrong output " + string(out))
			}
			errs <- err
		}()
	}
	for range n {
		require.NoError(t, <-errs)
	}
	for i := range n {
		key := toolcall.Key("conc", int64(i+1))
		require.Equal(t, 2, b.server.Attempts(key), key)
		require.Equal(t, 1, b.server.Executions(key), key)
	}
}

func BenchmarkCall(b *testing.B) {
	h, err := toolsettest.NewHandler(toolsettest.Options{Secret: "k"})
	require.NoError(b, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := toolset.New(toolset.Config{URL: srv.URL, Secret: "k"})
	require.NoError(b, err)
	input := json.RawMessage(`{"a":1,"b":2}`)
	b.ReportAllocs()
	i := int64(0)
	for b.Loop() {
		i++
		if _, err := c.Call(context.Background(), "math.add", input, call("bench", i, "math.add")); err != nil {
			b.Fatal(err)
		}
	}
}

// A toolset answering a call with a redirect has failed the call: the redirect is not
// followed (a 303 would turn the POST into a GET of the manifest, which "succeeds" with null).
func TestRedirectIsAFailedCall(t *testing.T) {
	t.Parallel()
	var posts, gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
			io.WriteString(w, `{}`)
			return
		}
		posts.Add(1)
		http.Redirect(w, r, "/elsewhere", http.StatusSeeOther)
	}))
	t.Cleanup(srv.Close)
	c, err := toolset.New(toolset.Config{URL: srv.URL, Backoff: fast})
	require.NoError(t, err)
	_, err = c.Call(context.Background(), "echo", json.RawMessage(`{}`), call("r", 1, "echo"))
	require.Error(t, err)
	require.ErrorIs(t, err, toolset.ErrProtocol)
	require.Contains(t, err.Error(), "303")
	require.Equal(t, int32(1), posts.Load())
	require.Zero(t, gets.Load(), "the redirect was not followed")
}

// A cancel is done on any 2xx; a refusal is final (ErrRejected, not retried), and a retryable
// failure is retried like a call's.
func TestCancelAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		wantErr  error
		attempts int32
	}{
		{name: "accepted", status: http.StatusNoContent, attempts: 1},
		{name: "refused", status: http.StatusBadRequest, wantErr: toolset.ErrRejected, attempts: 1},
		{name: "gone", status: http.StatusGone, wantErr: toolset.ErrRejected, attempts: 1},
		{name: "unavailable", status: http.StatusServiceUnavailable, wantErr: toolset.ErrUnavailable, attempts: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			url := protocolServer(t, func(w http.ResponseWriter, _ *http.Request) {
				n.Add(1)
				w.WriteHeader(tt.status)
			})
			c, err := toolset.New(toolset.Config{URL: url, Retries: 2, Backoff: fast})
			require.NoError(t, err)
			err = c.Cancel(context.Background(), "t", "run_1:1", json.RawMessage(`{}`))
			if tt.wantErr == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tt.wantErr)
			}
			if errors.Is(err, toolset.ErrUnavailable) {
				require.NotErrorIs(t, err, toolset.ErrRejected)
			}
			require.Equal(t, tt.attempts, n.Load())
		})
	}
}

// ManifestData returns the manifest's body as sent (unknown fields and all), and tells an
// answer other than 200 (a *StatusError) from a body that is not a manifest.
func TestManifestData(t *testing.T) {
	t.Parallel()
	body := `{"tools": [{"path": "t"}], "future": {"x": 1}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.Error(w, "no such toolset", http.StatusNotFound)
		case "/garbage":
			_, _ = io.WriteString(w, `<html>`)
		default:
			_, _ = io.WriteString(w, body)
		}
	}))
	t.Cleanup(srv.Close)
	get := func(path string) ([]byte, *toolset.Manifest, error) {
		c, err := toolset.New(toolset.Config{URL: srv.URL + path, Retries: -1})
		require.NoError(t, err)
		return c.ManifestData(context.Background())
	}
	data, m, err := get("/")
	require.NoError(t, err)
	require.Equal(t, body, string(data))
	require.Len(t, m.Tools, 1)

	_, _, err = get("/missing")
	var se *toolset.StatusError
	require.ErrorAs(t, err, &se)
	require.Equal(t, http.StatusNotFound, se.Status)
	require.ErrorIs(t, err, toolset.ErrInvalidManifest)

	_, _, err = get("/garbage")
	require.ErrorIs(t, err, toolset.ErrInvalidManifest)
	require.False(t, errors.As(err, &se))
}

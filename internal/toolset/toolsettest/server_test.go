package toolsettest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func post(t *testing.T, url, key string, body any, header http.Header) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m), string(out))
	return resp.StatusCode, m
}

func callBody(tool, key string, input any) map[string]any {
	return map[string]any{"tool": tool, "key": key, "runId": "r", "input": input}
}

func TestManifestIsValid(t *testing.T) {
	t.Parallel()
	m, err := runtools.ParseManifest([]byte(toolsettest.Manifest))
	require.NoError(t, err)
	require.Len(t, m.Tools, 10)
	require.Len(t, m.Namespaces, 3)

	srv := toolsettest.New(t, toolsettest.Options{})
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.JSONEq(t, toolsettest.Manifest, string(b))
	require.Equal(t, 1, srv.ManifestReads())
}

func TestTools(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	tests := []struct {
		name       string
		tool       string
		input      any
		wantStatus int
		want       string
	}{
		{name: "add", tool: "math.add", input: map[string]any{"a": 1.5, "b": 2}, wantStatus: 200, want: `{"output":{"sum":3.5}}`},
		{name: "divide", tool: "math.divide", input: map[string]any{"a": 1, "b": 4}, wantStatus: 200, want: `{"output":{"quotient":0.25}}`},
		{name: "divide by zero", tool: "math.divide", input: map[string]any{"a": 1, "b": 0}, wantStatus: 200, want: `{"error":{"message":"division by zero"}}`},
		{name: "upper", tool: "string.upper", input: map[string]any{"text": "abc"}, wantStatus: 200, want: `{"output":{"text":"ABC"}}`},
		{name: "concat", tool: "string.concat", input: map[string]any{"parts": []string{"a", "b"}, "separator": "-"}, wantStatus: 200, want: `{"output":{"text":"a-b"}}`},
		{name: "split", tool: "string.split", input: map[string]any{"text": "a,b", "separator": ","}, wantStatus: 200, want: `{"output":{"parts":["a","b"]}}`},
		{name: "echo", tool: "echo", input: []any{1, "x"}, wantStatus: 200, want: `{"output":[1,"x"]}`},
		{name: "fail 4xx", tool: "fail", input: map[string]any{"message": "no", "status": 422}, wantStatus: 422, want: `{"error":{"message":"no"}}`},
		{name: "slow", tool: "slow", input: map[string]any{"ms": 5}, wantStatus: 200, want: `{"output":{"slept":5}}`},
		{name: "durable", tool: "approvals.request", input: map[string]any{"reason": "x"}, wantStatus: 202, want: `{"handle":{"approvalId":"apr_k-durable"}}`},
		{name: "unknown tool", tool: "nope", input: map[string]any{}, wantStatus: 404, want: `{"error":{"message":"unknown tool nope"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key := "k-" + tt.name
			status, body := post(t, srv.URL, key, callBody(tt.tool, key, tt.input), nil)
			require.Equal(t, tt.wantStatus, status)
			got, err := json.Marshal(body)
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(got))
			require.Equal(t, 1, srv.Executions(key))
		})
	}
}

func TestIdempotentReplay(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	_, first := post(t, srv.URL, "k1", callBody("math.add", "k1", map[string]any{"a": 1, "b": 1}), nil)
	// Same key, different input: the stored answer comes back and the tool
	// does not run again.
	_, second := post(t, srv.URL, "k1", callBody("math.add", "k1", map[string]any{"a": 5, "b": 5}), nil)
	require.Equal(t, first, second)
	require.Equal(t, 2, srv.Attempts("k1"))
	require.Equal(t, 1, srv.Executions("k1"))
}

func TestFlaky(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	body := callBody("flaky", "f", map[string]any{"failures": 2, "value": 7})
	for i := 1; i <= 2; i++ {
		status, _ := post(t, srv.URL, "f", body, nil)
		require.Equal(t, http.StatusServiceUnavailable, status, "attempt %d", i)
	}
	status, out := post(t, srv.URL, "f", body, nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, map[string]any{"output": map[string]any{"attempts": float64(3), "value": float64(7)}}, out)
	require.Equal(t, 3, srv.Attempts("f"))
	require.Equal(t, 1, srv.Executions("f"))
}

func TestRequestChecks(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	status, _ := post(t, srv.URL, "other", callBody("math.add", "k", map[string]any{"a": 1, "b": 1}), nil)
	require.Equal(t, http.StatusBadRequest, status)
	status, _ = post(t, srv.URL, "", callBody("math.add", "k", map[string]any{"a": 1, "b": 1}), nil)
	require.Equal(t, http.StatusBadRequest, status)

	req, err := http.NewRequest(http.MethodDelete, srv.URL, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

func TestCancelRecorded(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	status, _ := post(t, srv.URL, "c1", map[string]any{"cancel": map[string]any{"tool": "approvals.request", "key": "c1", "handle": map[string]any{"approvalId": "a"}}}, nil)
	require.Equal(t, http.StatusOK, status)
	got := srv.Cancels()
	require.Len(t, got, 1)
	require.Equal(t, toolsettest.Cancel{Tool: "approvals.request", Key: "c1", Handle: json.RawMessage(`{"approvalId":"a"}`)}, got[0])
}

func TestSignatureRequired(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{Secret: "topsecret"})
	body := callBody("math.add", "s1", map[string]any{"a": 1, "b": 2})

	status, _ := post(t, srv.URL, "s1", body, nil)
	require.Equal(t, http.StatusUnauthorized, status)

	raw, err := json.Marshal(body)
	require.NoError(t, err)
	h := http.Header{}
	require.NoError(t, signing.Sign(h, "topsecret", "s1", time.Now(), raw))
	status, out := post(t, srv.URL, "s1", body, h)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, map[string]any{"output": map[string]any{"sum": float64(3)}}, out)
	require.Equal(t, 1, srv.Executions("s1"))
}

func TestNewHandlerBadSecret(t *testing.T) {
	t.Parallel()
	_, err := toolsettest.NewHandler(toolsettest.Options{Secret: "whsec_!!not base64"})
	require.Error(t, err)
}

package toolset_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
)

// rawServer answers every POST with status and body as given, and counts the requests.
func rawServer(t *testing.T, status int, body string) (*toolset.Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := toolset.New(toolset.Config{URL: srv.URL, Backoff: fast})
	require.NoError(t, err)
	return c, &n
}

// A toolset's answer is read by the protocol's exact member names, once each: encoding/json's
// case-insensitive matching would read {"Output": 5} as an output and {"ERROR": ...} as a
// failure, and a duplicated member would be read as its last copy.
func TestCallAnswerStrictMembers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		body     string
		want     string // output, when the call succeeds
		toolErr  string // the tool error's message
		protocol string // a protocol violation's text
		pending  bool
	}{
		{name: "exact", status: 200, body: `{"output": 5}`, want: `5`},
		{name: "null body", status: 200, body: `null`, want: `null`},
		{name: "Output, as encoding/json reads it", status: 200, body: `{"Output": 5}`, want: `5`},
		{name: "ERROR, as encoding/json reads it", status: 200, body: `{"ERROR": {"message": "boom"}, "output": 3}`, toolErr: "boom"},
		{name: "Message, as encoding/json reads it", status: 200, body: `{"error": {"Message": "boom"}}`, toolErr: "boom"},
		{name: "null error", status: 200, body: `{"error": null, "output": 1}`, want: `1`},
		{name: "duplicate output", status: 200, body: `{"output": 1, "output": 2}`, protocol: `"output" appears twice`},
		{name: "output and Output", status: 200, body: `{"output": 1, "Output": 2}`, protocol: `"output" appears twice`},
		{name: "trailing data", status: 200, body: `{"output": 1} {"output": 2}`, protocol: "after"},
		{name: "error not an object", status: 200, body: `{"error": "plain"}`, protocol: `"error" must be an object`},
		{name: "message not a string", status: 200, body: `{"error": {"message": 42}}`, protocol: `"error.message" must be a string`},
		{name: "4xx with Error", status: 403, body: `{"Error": {"message": "boom"}}`, toolErr: "boom"},
		{name: "202 null handle", status: 202, body: `{"handle": null}`, protocol: "202 without a handle"},
		{name: "202 Handle", status: 202, body: `{"Handle": 1}`, pending: true},
		{name: "202 handle", status: 202, body: `{"handle": 0}`, pending: true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := rawServer(t, tt.status, tt.body)
			resp, err := c.Call(context.Background(), "t", json.RawMessage(`{}`), call("strict", int64(i+1), "t"))
			switch {
			case tt.toolErr != "":
				var te *toolcall.ToolError
				require.ErrorAs(t, err, &te)
				require.Equal(t, tt.toolErr, te.Message)
			case tt.protocol != "":
				require.ErrorIs(t, err, toolset.ErrProtocol)
				require.ErrorContains(t, err, tt.protocol)
			case tt.pending:
				require.NoError(t, err)
				require.True(t, resp.Pending)
			default:
				require.NoError(t, err)
				require.JSONEq(t, tt.want, string(resp.Output))
			}
		})
	}
}

// A status past 599 is no 5xx: it is a protocol violation at once, not retried as the toolset
// being unavailable.
func TestCallStatusPast599NotRetried(t *testing.T) {
	t.Parallel()
	c, n := rawServer(t, 600, `{"output": 1}`)
	_, err := c.Call(context.Background(), "t", json.RawMessage(`{}`), call("s600", 1, "t"))
	require.ErrorIs(t, err, toolset.ErrProtocol)
	require.False(t, errors.Is(err, toolset.ErrUnavailable), "%v", err)
	require.Equal(t, int32(1), n.Load())
}

// A tool error's message from the toolset is cut to MaxErrorMessageBytes (it is journaled with
// the call and shown in the run's result), at a character boundary; so is an extension's.
func TestErrorMessageBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1<<20) // 2 MiB
	for _, status := range []int{200, 400} {
		body, err := json.Marshal(map[string]any{"error": map[string]string{"message": "x" + long}})
		require.NoError(t, err)
		c, _ := rawServer(t, status, string(body))
		_, err = c.Call(context.Background(), "t", json.RawMessage(`{}`), call("long", 1, "t"))
		var te *toolcall.ToolError
		require.ErrorAs(t, err, &te)
		require.LessOrEqual(t, len(te.Message), toolset.MaxErrorMessageBytes+len("…"))
		require.True(t, strings.HasPrefix(te.Message, "xéé"))
		require.True(t, strings.HasSuffix(te.Message, "é…"))
		require.True(t, utf8.ValidString(te.Message))

		_, err = c.CallExtension(context.Background(), "x", "", nil, "r")
		require.ErrorAs(t, err, &te)
		require.LessOrEqual(t, len(te.Message), toolset.MaxErrorMessageBytes+len("…"))
	}
}

// The start of a retried answer's body quoted in the error is valid UTF-8, cut at a character
// boundary.
func TestStatusSnippetValidUTF8(t *testing.T) {
	t.Parallel()
	c, _ := rawServer(t, 503, "a"+strings.Repeat("é", 300)+"\xff")
	_, err := c.Call(context.Background(), "t", json.RawMessage(`{}`), call("snip", 1, "t"))
	require.ErrorIs(t, err, toolset.ErrUnavailable)
	require.True(t, utf8.ValidString(err.Error()), "%q", err.Error())
	require.Contains(t, err.Error(), "é…")
}

// A manifest is one JSON value: data after it is refused (it was stored, then refused by the
// database's json column). Members are matched as encoding/json matches them, as always.
func TestDecodeManifestRefusesDataAfterIt(t *testing.T) {
	t.Parallel()
	m, err := toolset.DecodeManifest([]byte(`{"Tools": [{"Path": "a", "Durable": true}]}`))
	require.NoError(t, err)
	require.Equal(t, []toolset.ManifestTool{{Path: "a", Durable: true}}, m.Tools)
	for name, bad := range map[string]string{
		"trailing data":  `{"tools": []} garbage`,
		"second value":   `{"tools": []} {"tools": []}`,
		"no tools array": `{"tool": []}`,
	} {
		_, err := toolset.DecodeManifest([]byte(bad))
		require.ErrorIs(t, err, toolset.ErrInvalidManifest, name)
	}
}

// An address the egress policy refuses is refused again on every attempt: the call fails at
// once, after one attempt, not after the retries' backoff.
func TestEgressDeniedNotRetried(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	t.Cleanup(srv.Close)
	var dials atomic.Int32
	tr := egress.Policy{}.Transport() // public addresses only: the test server is refused
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}
	c, err := toolset.New(toolset.Config{URL: srv.URL, HTTPClient: &http.Client{Transport: tr},
		Backoff: toolset.Backoff{Initial: 200 * time.Millisecond, Max: time.Second}})
	require.NoError(t, err)
	start := time.Now()
	_, err = c.Call(context.Background(), "t", json.RawMessage(`{}`), call("egress", 1, "t"))
	require.True(t, egress.IsDenied(err), "%v", err)
	require.False(t, errors.Is(err, toolset.ErrUnavailable), "%v", err)
	require.Equal(t, int32(1), dials.Load())
	require.Equal(t, int32(0), n.Load())
	require.Less(t, time.Since(start), 150*time.Millisecond)
}

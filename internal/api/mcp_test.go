package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// stack is the service with the real engine: an API server and a worker on one PostgreSQL
// database, and the test toolset registered as ops.
type stack struct {
	url   string
	store *durable.Store
}

func newStack(t *testing.T, roundTrip bool) *stack {
	t.Helper()
	full := startFullStack(t, roundTrip)
	s := &stack{url: full.url, store: full.store}
	ops := toolsettest.New(t, toolsettest.Options{})
	status, body := s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "ops", "url": ops.URL})
	require.Equal(t, http.StatusCreated, status, "%s", body)
	return s
}

// rest sends a request to the REST API with the token.
func (s *stack) rest(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, data
}

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectMCP opens a session with the service's MCP server (path: /mcp and its query).
func (s *stack) connectMCP(t *testing.T, path, token string) (*mcp.ClientSession, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: s.url + path, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	session, err := client.Connect(context.Background(), transport, nil)
	if err == nil {
		t.Cleanup(func() { _ = session.Close() })
	}
	return session, err
}

// runAnswer is execute's and get_run's structured content.
type runAnswer struct {
	ID      string         `json:"id"`
	Status  string         `json:"status"`
	Result  map[string]any `json:"result"`
	Pending []struct {
		CallID int    `json:"callId"`
		Path   string `json:"path"`
		Key    string `json:"key"`
		Handle any    `json:"handle"`
	} `json:"pending"`
}

func callTool(t *testing.T, s *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, runAnswer) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	var out runAnswer
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &out))
	return res, out
}

func text(res *mcp.CallToolResult) string {
	var b bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The Go SDK's client over real HTTP: the tools and their schemas, a program run to its
// result, a run suspended on an approval whose outcome is posted over REST and read with
// get_run, the catalog search, and the token required.
func TestMCPServer(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	session, err := s.connectMCP(t, MCPPath, testToken)
	require.NoError(t, err)

	listed, err := session.ListTools(context.Background(), nil)
	require.NoError(t, err)
	byName := map[string]*mcp.Tool{}
	var names []string
	for _, tool := range listed.Tools {
		byName[tool.Name] = tool
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	require.Equal(t, []string{"execute", "get_run", "search"}, names)
	require.Contains(t, byName["execute"].Description, "tools.ops.math.add", "execute's description is the catalog prompt")
	require.NotNil(t, byName["execute"].OutputSchema)

	// A program run to its result.
	res, out := callTool(t, session, "execute", map[string]any{"code": "const {sum} = await tools.ops.math.add({a: 2, b: 40}); console.log('sum', sum); return sum"})
	require.False(t, res.IsError, text(res))
	require.Equal(t, "succeeded", out.Status)
	require.Equal(t, true, out.Result["ok"])
	require.EqualValues(t, 42, out.Result["value"])
	require.Contains(t, text(res), "Value: 42")
	require.Contains(t, text(res), "sum 42")

	// The program reads its input, as a run created over REST does.
	res, out = callTool(t, session, "execute", map[string]any{"code": "return input.a * input.b", "input": map[string]any{"a": 6, "b": 7}})
	require.False(t, res.IsError, text(res))
	require.EqualValues(t, 42, out.Result["value"])

	// A failing program is the tool's error, with its diagnostic.
	res, out = callTool(t, session, "execute", map[string]any{"code": "throw new Error('boom')"})
	require.True(t, res.IsError)
	require.Equal(t, "failed", out.Status)
	require.Contains(t, text(res), "boom")

	// A run suspended on an approval: its pending call, the outcome posted over REST, then
	// get_run reads the result.
	res, out = callTool(t, session, "execute", map[string]any{"code": "const ok = await tools.ops.approvals.request({reason: 'ship?'}); return ok.approved ? 'shipped' : 'held'",
		"toolsets": []string{"ops"}})
	require.False(t, res.IsError, text(res))
	require.Equal(t, "suspended", out.Status)
	require.Len(t, out.Pending, 1)
	require.Equal(t, "ops.approvals.request", out.Pending[0].Path)
	require.Equal(t, out.ID+":1", out.Pending[0].Key)
	require.NotNil(t, out.Pending[0].Handle)
	require.Contains(t, text(res), "POST /v1/runs/"+out.ID+"/calls/{callId}")
	status, body := s.rest(t, http.MethodPost, "/v1/runs/"+out.ID+"/calls/1", map[string]any{"ok": true, "value": map[string]any{"approved": true}})
	require.Equal(t, http.StatusAccepted, status, "%s", body)
	deadline := time.Now().Add(20 * time.Second)
	for out.Status != "succeeded" && time.Now().Before(deadline) {
		res, out = callTool(t, session, "get_run", map[string]any{"id": out.ID, "wait": 5})
		require.False(t, res.IsError, text(res))
	}
	require.Equal(t, "succeeded", out.Status)
	require.Equal(t, "shipped", out.Result["value"])
	require.Empty(t, out.Pending)

	// An unknown run and toolset are the tools' errors.
	res, _ = callTool(t, session, "get_run", map[string]any{"id": "00000000-0000-0000-0000-000000000000"})
	require.True(t, res.IsError)
	res, _ = callTool(t, session, "execute", map[string]any{"code": "return 1", "toolsets": []string{"nope"}})
	require.True(t, res.IsError)

	// The catalog search.
	sres, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "add numbers", "limit": 1}})
	require.NoError(t, err)
	require.False(t, sres.IsError, text(sres))
	raw, err := json.Marshal(sres.StructuredContent)
	require.NoError(t, err)
	var page struct {
		Items []struct{ Path, Signature string } `json:"items"`
	}
	require.NoError(t, json.Unmarshal(raw, &page))
	require.Len(t, page.Items, 1)
	require.Equal(t, "tools.ops.math.add", page.Items[0].Path)
	require.Contains(t, text(sres), "tools.ops.math.add(")

	// Without the token, or with another, the endpoint refuses.
	for _, token := range []string{"", "wrong"} {
		_, err := s.connectMCP(t, MCPPath, token)
		require.Error(t, err, "token %q", token)
	}
	req, err := http.NewRequest(http.MethodPost, s.url+MCPPath, bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// An endpoint scoped with ?toolsets= describes and runs only those toolsets.
func TestMCPServerScoped(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	// A scope naming an unknown toolset still serves (without a catalog); its runs are refused.
	unknown, err := s.connectMCP(t, MCPPath+"?toolsets=none_here", testToken)
	require.NoError(t, err)
	res, _ := callTool(t, unknown, "execute", map[string]any{"code": "return 1"})
	require.True(t, res.IsError)
	require.Contains(t, text(res), "none_here")

	session, err := s.connectMCP(t, MCPPath+"?toolsets=ops", testToken)
	require.NoError(t, err)
	res, out := callTool(t, session, "execute", map[string]any{"code": "return 1", "toolsets": []string{"other"}})
	require.Empty(t, out.ID)
	require.True(t, res.IsError)
	require.Contains(t, text(res), "not offered")
	// A budget shortens execute's description, leaving tools to search.
	small, err := s.connectMCP(t, MCPPath+"?toolsets=ops&budgetTokens=50", testToken)
	require.NoError(t, err)
	full, err := session.ListTools(context.Background(), nil)
	require.NoError(t, err)
	short, err := small.ListTools(context.Background(), nil)
	require.NoError(t, err)
	describe := func(l *mcp.ListToolsResult) string {
		for _, tool := range l.Tools {
			if tool.Name == "execute" {
				return tool.Description
			}
		}
		return ""
	}
	require.Less(t, len(describe(short)), len(describe(full)))
	require.Contains(t, describe(short), "search(")

	res, out = callTool(t, session, "execute", map[string]any{"code": "return Object.keys(tools).sort()"})
	require.False(t, res.IsError, text(res))
	require.Equal(t, "succeeded", out.Status)
	require.Equal(t, []any{"ops", "time"}, out.Result["value"])
}

// mcpPost sends one JSON-RPC message to the endpoint with the token and the given Host (empty:
// the listener's), and returns the status and body.
func (s *stack) mcpPost(t *testing.T, path, host, message string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(message))
	require.NoError(t, err)
	if host != "" {
		req.Host = host
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// Arguments the tools' input schemas do not declare are refused (as the REST API refuses
// them), not dropped: a misspelt limit must not leave a run without it.
func TestMCPRefusesUndeclaredArguments(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	session, err := s.connectMCP(t, MCPPath, testToken)
	require.NoError(t, err)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"execute", map[string]any{"code": "return 1", "limits": map[string]any{"timeout": 1000}}, `"timeout"`},
		{"execute", map[string]any{"code": "return 1", "toolset": []string{"ops"}}, `"toolset"`},
		{"get_run", map[string]any{"id": "x", "wiat": 5}, `"wiat"`},
		{"search", map[string]any{"query": "add", "namespce": "math"}, `"namespce"`},
	} {
		res, out := callTool(t, session, tc.tool, tc.args)
		require.True(t, res.IsError, "%s %v: %s", tc.tool, tc.args, text(res))
		require.Contains(t, text(res), "invalid arguments")
		require.Contains(t, text(res), tc.want)
		require.Empty(t, out.ID, "no run is created")
	}
	// Without arguments, execute says what it needs.
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, text(res), "code must be 1 to")
}

// With a token, /mcp serves any Host, as /v1 does: a reverse proxy on the service's machine
// forwards its own name to the loopback listener.
func TestMCPBehindProxyWithToken(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	status, body := s.rest(t, http.MethodGet, "/v1/toolsets", nil)
	require.Equal(t, http.StatusOK, status, body)
	status, answer := s.mcpPost(t, MCPPath, "codemode.example.com", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	require.Equal(t, http.StatusOK, status, answer)
	require.Contains(t, answer, `"result":{}`)
}

// A scope that names no toolset ("?toolsets=,") is no scope: runs may call what the
// description and search offer, every toolset.
func TestMCPEmptyScopeIsUnscoped(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	other := toolsettest.New(t, toolsettest.Options{})
	status, body := s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "other", "url": other.URL})
	require.Equal(t, http.StatusCreated, status, "%s", body)
	for _, path := range []string{MCPPath + "?toolsets=,", MCPPath + "?toolsets=%20"} {
		session, err := s.connectMCP(t, path, testToken)
		require.NoError(t, err)
		res, out := callTool(t, session, "execute", map[string]any{"code": "return (await tools.other.math.add({a: 1, b: 2})).sum",
			"toolsets": []string{"other"}})
		require.False(t, res.IsError, "%s: %s", path, text(res))
		require.EqualValues(t, 3, out.Result["value"])
	}
	// A scope with spaces and empty names is the names it lists.
	session, err := s.connectMCP(t, MCPPath+"?toolsets=%20ops%20,,", testToken)
	require.NoError(t, err)
	res, out := callTool(t, session, "execute", map[string]any{"code": "return Object.keys(tools).sort()"})
	require.False(t, res.IsError, text(res))
	require.Equal(t, []any{"ops", "time"}, out.Result["value"])
}

// The SDK asks for a request's server more than once; building one reads the catalog, so it
// is built once per POST, and not at all for the methods a stateless endpoint refuses.
func TestMCPServerBuiltOncePerRequest(t *testing.T) {
	t.Parallel()
	var builds atomic.Int64
	getServer, once := oncePerRequest(func(*http.Request) *mcp.Server {
		builds.Add(1)
		return mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	})
	srv := httptest.NewServer(once(mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})))
	t.Cleanup(srv.Close)
	post := func(msg string) int {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(msg))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.EqualValues(t, 1, builds.Load())
	require.Equal(t, http.StatusOK, post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	require.EqualValues(t, 2, builds.Load())
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Equal(t, "POST", resp.Header.Get("Allow"))
	require.EqualValues(t, 2, builds.Load())
}

// A tool call ends when its HTTP request does (the client went away), whatever the protocol
// version: an abandoned get_run or execute must not go on waiting for its run.
func TestMCPToolCallEndsWithItsRequest(t *testing.T) {
	t.Parallel()
	ended := make(chan error, 1)
	getServer, once := oncePerRequest(func(r *http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
			boundToRequest(r, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case <-ctx.Done():
					ended <- ctx.Err()
				case <-time.After(time.Minute):
					ended <- nil
				}
				return toolError("done"), nil
			}))
		return s
	})
	srv := httptest.NewServer(once(mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})))
	t.Cleanup(srv.Close)
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL,
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", version)
		_, err = http.DefaultClient.Do(req)
		cancel()
		require.Error(t, err, "the client gives up")
		select {
		case err := <-ended:
			require.ErrorIs(t, err, context.Canceled, version)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the tool call went on after its request ended", version)
		}
	}
}

// A body that is not a well-formed JSON-RPC message is answered with a JSON-RPC error object
// (application/json): -32700 when it is not JSON, -32600 when it is JSON but not a message the
// endpoint takes, with the message's id when it has a valid one. The SDK answered them with a
// plain-text 400, which a JSON-RPC client cannot read; so did it a well-formed message it
// refuses (a method it does not have: -32601, 404). Well-formed messages, notifications and
// the batches of protocol versions that have them are served as before.
func TestMCPMalformedMessagesGetJSONRPCErrors(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		name, version, body string
		status              int
		code                int    // the JSON-RPC error's code; 0: served
		id                  string // the error's id
		message             string // in the error's message, or the answer when served
	}{
		{"empty body", "", ``, 400, -32700, `null`, "the request body is empty"},
		{"truncated JSON", "", `{"jsonrpc":"2.0","id":1,`, 400, -32700, `null`, "not JSON"},
		{"not JSON", "2025-06-18", `nope`, 400, -32700, `null`, "not JSON"},
		{"data after the message", "", ping + ` x`, 400, -32700, `null`, "not JSON"},
		{"a number", "", `1`, 400, -32600, `null`, "an object, not a number"},
		{"a string", "", `"ping"`, 400, -32600, `null`, "an object, not a string"},
		{"null", "", `null`, 400, -32600, `null`, "an object, not null"},
		{"empty batch", "", `[]`, 400, -32600, `null`, "an empty batch"},
		{"batch in 2025-06-18", "2025-06-18", `[` + ping + `]`, 400, -32600, `null`, "no JSON-RPC batches"},
		{"batch in 2025-11-25", "2025-11-25", `[` + ping + `]`, 400, -32600, `null`, "no JSON-RPC batches"},
		{"batch with a bad element", "2025-03-26", `[` + ping + `,{"id":2,"method":"ping"}]`, 400, -32600, `null`, `"jsonrpc" must be "2.0" (batch element 1)`},
		{"missing jsonrpc", "", `{"id":1,"method":"ping"}`, 400, -32600, `1`, `"jsonrpc" must be "2.0"`},
		{"jsonrpc 1.0", "2025-06-18", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, 400, -32600, `"a"`, `"jsonrpc" must be "2.0"`},
		{"jsonrpc a number", "", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, 400, -32600, `1`, `"jsonrpc" must be "2.0"`},
		{"id an object", "", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, 400, -32600, `null`, `"id" must be a string or an integer`},
		{"id null", "", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, 400, -32600, `null`, `"id" must be a string or an integer`},
		{"id a fraction", "", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400, -32600, `null`, `"id" must be a string or an integer`},
		{"method a number", "", `{"jsonrpc":"2.0","id":7,"method":7}`, 400, -32600, `7`, `"method" must be a string`},
		{"neither request nor response", "", `{"jsonrpc":"2.0","id":1}`, 400, -32600, `1`, "neither a request"},
		{"notification without jsonrpc", "", `{"method":"notifications/initialized"}`, 400, -32600, `null`, `"jsonrpc" must be "2.0"`},
		{"unknown method", "2025-06-18", `{"jsonrpc":"2.0","id":2,"method":"foo/bar","params":{}}`, 404, -32601, `2`, `Method not found: "foo/bar" unsupported`},
		{"unknown method naming no version", "", `{"jsonrpc":"2.0","id":"q","method":"foo/bar"}`, 404, -32601, `"q"`, `"foo/bar" unsupported`},
		{"unknown notification", "2025-06-18", `{"jsonrpc":"2.0","method":"notifications/foo"}`, 404, -32601, `null`, `"notifications/foo" unsupported`},
		{"request without an id", "2025-06-18", `{"jsonrpc":"2.0","method":"tools/list"}`, 400, -32600, `null`, `missing id for "tools/list"`},
		{"notification with an id", "2025-06-18", `{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}`, 400, -32600, `3`, `unexpected id`},
		{"call without params", "2025-06-18", `{"jsonrpc":"2.0","id":4,"method":"tools/call"}`, 400, -32600, `4`, `missing required "params"`},
		{"unsupported protocol version", "1999-01-01", ping, 400, -32600, `1`, `Unsupported protocol version`},

		{"request", "", ping, 200, 0, ``, `"result":{}`},
		{"request in 2025-06-18", "2025-06-18", ping, 200, 0, ``, `"result":{}`},
		{"string id", "2025-06-18", `{"jsonrpc":"2.0","id":"x","method":"ping"}`, 200, 0, ``, `"id":"x"`},
		{"notification", "2025-06-18", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, 0, ``, ``},
		{"batch in 2025-03-26", "2025-03-26", `[` + ping + `]`, 200, 0, ``, `[{"jsonrpc":"2.0","id":1,"result":{}}]`},
		{"batch naming no version", "", `[` + ping + `,{"jsonrpc":"2.0","method":"notifications/initialized"}]`, 200, 0, ``, `"result":{}`},
		{"tools/list", "2025-06-18", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 200, 0, ``, `"name":"execute"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(http.MethodPost, b.url+MCPPath, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer "+testToken)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.version != "" {
				req.Header.Set("Mcp-Protocol-Version", tt.version)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.Equal(t, tt.status, resp.StatusCode, "%s", body)
			if tt.code == 0 {
				require.Contains(t, string(body), tt.message)
				return
			}
			require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			var answer struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(body, &answer), "%s", body)
			require.Equal(t, "2.0", answer.JSONRPC)
			require.JSONEq(t, tt.id, string(answer.ID))
			require.Equal(t, tt.code, answer.Error.Code)
			require.Contains(t, answer.Error.Message, tt.message)
		})
	}

	// Other methods and content types keep their HTTP answers.
	for _, tc := range []struct {
		method, contentType string
		want                int
	}{{http.MethodGet, "", http.StatusMethodNotAllowed}, {http.MethodPost, "text/plain", http.StatusUnsupportedMediaType}} {
		req, err := http.NewRequest(tc.method, b.url+MCPPath, strings.NewReader("nope"))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", tc.contentType)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, tc.want, resp.StatusCode, "%s %s", tc.method, tc.contentType)
	}

	// A message sent with an Accept header the transport refuses gets a JSON-RPC error too.
	req, err := http.NewRequest(http.MethodPost, b.url+MCPPath, strings.NewReader(ping))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s", body)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: Accept must contain both 'application/json' and 'text/event-stream'"}}`, string(body))
}

// Without a token, a request naming another host is refused (403, DNS rebinding) before its
// body is looked at: the JSON-RPC check does not answer it first.
func TestMCPNoTokenChecksHostBeforeTheBody(t *testing.T) {
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
	for host, want := range map[string]int{"127.0.0.1:" + port: http.StatusBadRequest, "attacker.example:" + port: http.StatusForbidden} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+MCPPath, strings.NewReader(`nope`))
		require.NoError(t, err)
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, want, resp.StatusCode, "%s: %s", host, body)
		if want == http.StatusBadRequest {
			require.Contains(t, string(body), `"code":-32700`)
		}
	}
}

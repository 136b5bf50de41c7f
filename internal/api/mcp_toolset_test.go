package api

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset/mcp/mcptest"
)

// mcpProgram calls an MCP toolset's tools: structured output, text output, several content
// items, a normalised name, a dotted name, the idempotency key in _meta, and an isError
// result the program catches.
const mcpProgram = `
const {sum} = await tools.m.add({a: 2, b: 40});
const echoed = await tools.m.echo({text: "hi"});
const pair = await tools.m.pair({});
const lib = await tools.m.resolve_library_id({name: "x"});
const found = await tools.m.docs.search({q: "y"});
const keyed = await tools.m.keyed({});
let caught = null;
try { await tools.m.fail({message: "nope"}); } catch (e) { caught = e.message; }
return {sum, echoed, pair: pair.map(c => c.text), lib, found, keyed, caught};`

// MCP toolsets end to end: registered over REST (listing the server's tools, with bearer
// auth), then called by a run on the real engine, with and without every run saved and
// restored at each host call.
func TestMCPToolsetRun(t *testing.T) {
	for name, start := range mcptest.Servers {
		for _, roundTrip := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "", true: "/roundtrip"}[roundTrip], func(t *testing.T) {
				t.Parallel()
				s := newStack(t, roundTrip)
				url := start(t, "mcp-secret")

				// Refused credentials: the listing fails, described without the server's answer.
				status, body := s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "m", "kind": "mcp", "url": url,
					"auth": map[string]any{"type": "bearer", "token": "wrong"}})
				require.Equal(t, http.StatusBadGateway, status, "%s", body)
				// No url: refused by the handler.
				status, body = s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "m", "kind": "mcp"})
				require.Equal(t, http.StatusBadRequest, status, "%s", body)
				require.Contains(t, string(body), "url is required")

				status, body = s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "m", "kind": "mcp", "url": url,
					"description": "test MCP server", "auth": map[string]any{"type": "bearer", "token": "mcp-secret"}})
				require.Equal(t, http.StatusCreated, status, "%s", body)
				require.NotContains(t, string(body), "mcp-secret", "auth is never returned")
				var ts struct {
					Kind    string `json:"kind"`
					HasAuth bool   `json:"hasAuth"`
					Tools   []struct {
						Path   string         `json:"path"`
						Output map[string]any `json:"output"`
					} `json:"tools"`
				}
				require.NoError(t, json.Unmarshal(body, &ts))
				require.Equal(t, "mcp", ts.Kind)
				require.True(t, ts.HasAuth)
				require.Len(t, ts.Tools, 8)

				// Fields of other kinds are refused.
				for _, bad := range []map[string]any{
					{"name": "x", "kind": "mcp", "url": url, "tools": []any{}},
					{"name": "x", "kind": "mcp", "url": url, "secret": "s"},
					{"name": "x", "kind": "mcp", "url": url, "document": map[string]any{}},
					{"name": "x", "url": url, "auth": map[string]any{"type": "bearer", "token": "t"}},
					{"name": "x", "kind": "mcp", "url": url, "auth": map[string]any{"type": "bearer"}},
				} {
					status, body := s.rest(t, http.MethodPost, "/v1/toolsets", bad)
					require.Equal(t, http.StatusBadRequest, status, "%v: %s", bad, body)
				}
				// PATCH lists the tools again, with the stored auth.
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"description": "again"})
				require.Equal(t, http.StatusOK, status, "%s", body)
				require.Contains(t, string(body), `"hasAuth":true`)
				require.Contains(t, string(body), `"path":"docs.search"`)
				// New credentials are used to list the tools: refused ones change nothing,
				// accepted ones replace the stored ones.
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"auth": map[string]any{"type": "bearer", "token": "rotated-wrong"}})
				require.Equal(t, http.StatusBadGateway, status, "%s", body)
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"description": "kept"})
				require.Equal(t, http.StatusOK, status, "the stored credentials are kept: %s", body)
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"auth": map[string]any{"type": "bearer", "token": "mcp-secret"}})
				require.Equal(t, http.StatusOK, status, "%s", body)
				require.NotContains(t, string(body), "mcp-secret")
				require.Contains(t, string(body), `"hasAuth":true`)
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"baseUrl": "http://127.0.0.1:1/"})
				require.Equal(t, http.StatusBadRequest, status, "%s", body)
				require.Contains(t, string(body), "baseUrl is for toolsets of kind openapi")
				status, body = s.rest(t, http.MethodPatch, "/v1/toolsets/m", map[string]any{"tools": []any{}})
				require.Equal(t, http.StatusBadRequest, status, "%s", body)

				status, body = s.rest(t, http.MethodGet, "/v1/catalog?toolsets=m", nil)
				require.Equal(t, http.StatusOK, status)
				require.Contains(t, string(body), `"path":"m.resolve_library_id"`)

				status, body = s.rest(t, http.MethodPost, "/v1/runs?wait=30", map[string]any{"code": mcpProgram, "toolsets": []string{"m"}})
				require.Equal(t, http.StatusCreated, status, "%s", body)
				var run struct {
					ID     string `json:"id"`
					Status string `json:"status"`
					Result struct {
						OK    bool           `json:"ok"`
						Value map[string]any `json:"value"`
						Error any            `json:"error"`
					} `json:"result"`
				}
				require.NoError(t, json.Unmarshal(body, &run))
				require.Equal(t, "succeeded", run.Status, "%s", body)
				v := run.Result.Value
				require.EqualValues(t, 42, v["sum"])
				require.Equal(t, "hi", v["echoed"])
				require.Equal(t, []any{"one", "two"}, v["pair"])
				require.Equal(t, "/lib/x", v["lib"])
				require.Equal(t, "found y", v["found"])
				require.Equal(t, map[string]any{"key": run.ID + ":6", "seen": float64(1)}, v["keyed"])
				require.Equal(t, "nope", v["caught"])

				// Uncaught, an isError result fails the run with a ToolFailure diagnostic.
				status, body = s.rest(t, http.MethodPost, "/v1/runs?wait=30", map[string]any{"code": `return await tools.m.fail({message: "bad"})`})
				require.Equal(t, http.StatusCreated, status, "%s", body)
				require.Contains(t, string(body), `"status":"failed"`)
				require.Contains(t, string(body), "ToolFailure")
				require.Contains(t, string(body), "bad")
			})
		}
	}
}

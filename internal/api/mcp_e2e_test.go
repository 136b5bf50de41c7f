package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset/mcp/mcptest"
)

// Code mode end to end, as an agent harness uses it: an MCP client connects to the service's
// /mcp, lists its tools, and runs a program that calls an operation of an OpenAPI toolset and a
// tool of an MCP toolset (a real MCP server process), then suspends on a durable approval. The
// approval's outcome is posted over REST and the client reads the run's result with get_run.
// With and without every run saved and restored at each host call.
func TestMCPClientRunsOpenAPIAndMCPToolsThroughAnApproval(t *testing.T) {
	for _, roundTrip := range []bool{false, true} {
		t.Run(map[bool]string{false: "normal", true: "roundtrip"}[roundTrip], func(t *testing.T) {
			t.Parallel()
			s := newStack(t, roundTrip)

			// An HTTP API described by an OpenAPI document, behind a bearer token.
			pets := &petAPI{authorized: func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer pet-token" }}
			petSrv := httptest.NewServer(pets)
			t.Cleanup(petSrv.Close)
			status, body := s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "pets", "kind": "openapi",
				"url": petSrv.URL + "/openapi.json", "auth": map[string]any{"type": "bearer", "token": "pet-token"}})
			require.Equal(t, http.StatusCreated, status, "%s", body)

			// An MCP server process, behind its own token.
			mcpURL := mcptest.Servers["go"](t, "mcp-secret")
			status, body = s.rest(t, http.MethodPost, "/v1/toolsets", map[string]any{"name": "m", "kind": "mcp", "url": mcpURL,
				"auth": map[string]any{"type": "bearer", "token": "mcp-secret"}})
			require.Equal(t, http.StatusCreated, status, "%s", body)

			session, err := s.connectMCP(t, MCPPath, testToken)
			require.NoError(t, err)
			listed, err := session.ListTools(context.Background(), nil)
			require.NoError(t, err)
			var execute string
			for _, tool := range listed.Tools {
				if tool.Name == "execute" {
					execute = tool.Description
				}
			}
			for _, want := range []string{"tools.pets.pets.get(", "tools.m.add(", "tools.ops.approvals.request(", "search("} {
				require.Contains(t, execute, want, "execute's description lists the toolsets' tools")
			}
			for _, secret := range []string{"pet-token", "mcp-secret"} {
				require.NotContains(t, execute, secret)
			}

			program := `const pet = await tools.pets.pets.get({id: 7});
const {sum} = await tools.m.add({a: 2, b: 40});
const answer = await tools.ops.approvals.request({reason: "adopt " + pet.name});
return {pet: pet.name, sum, approved: answer.approved, by: answer.by}`
			res, out := callTool(t, session, "execute", map[string]any{"code": program})
			require.False(t, res.IsError, text(res))
			require.Equal(t, "suspended", out.Status, text(res))
			require.Len(t, out.Pending, 1)
			require.Equal(t, "ops.approvals.request", out.Pending[0].Path)
			require.Equal(t, 3, out.Pending[0].CallID)
			require.Equal(t, out.ID+":3", out.Pending[0].Key)

			// The OpenAPI operation was called once, with the call's key and the credentials.
			pets.mu.Lock()
			require.Equal(t, []string{out.ID + ":1"}, pets.keys)
			pets.mu.Unlock()

			status, body = s.rest(t, http.MethodPost, "/v1/runs/"+out.ID+"/calls/3",
				map[string]any{"ok": true, "value": map[string]any{"approved": true, "by": "ana"}})
			require.Equal(t, http.StatusAccepted, status, "%s", body)
			deadline := time.Now().Add(30 * time.Second)
			for out.Status != "succeeded" && out.Status != "failed" && time.Now().Before(deadline) {
				res, out = callTool(t, session, "get_run", map[string]any{"id": out.ID, "wait": 5})
				require.False(t, res.IsError, text(res))
			}
			require.Equal(t, "succeeded", out.Status, text(res))
			require.Equal(t, map[string]any{"pet": "rex", "sum": float64(42), "approved": true, "by": "ana"}, out.Result["value"])
			require.Empty(t, out.Pending)
			require.True(t, strings.Contains(text(res), "rex"), text(res))

			// Resuming made neither call again.
			pets.mu.Lock()
			require.Len(t, pets.keys, 1)
			pets.mu.Unlock()
		})
	}
}

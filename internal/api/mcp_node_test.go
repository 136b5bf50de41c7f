package api

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// nodeClientDir holds the TypeScript SDK client (package.json and package-lock.json pinned).
const nodeClientDir = "testdata/mcpclient"

var (
	npmOnce sync.Once
	npmErr  error
)

// nodeClient runs testdata/mcpclient/client.mjs against the service's MCP endpoint and decodes
// its one line of JSON. The pinned packages are installed with npm ci once, when absent.
func nodeClient(t *testing.T, endpoint, token, tool string, args any) map[string]any {
	t.Helper()
	npmOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(nodeClientDir, "node_modules", "@modelcontextprotocol", "sdk")); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = nodeClientDir
		if out, err := cmd.CombinedOutput(); err != nil {
			npmErr = &exec.Error{Name: "npm ci in " + nodeClientDir + " (node and npm are required): " + string(out), Err: err}
		}
	})
	require.NoError(t, npmErr)
	argv := []string{"client.mjs", endpoint, token, tool}
	if args != nil {
		raw, err := json.Marshal(args)
		require.NoError(t, err)
		argv = append(argv, string(raw))
	}
	cmd := exec.Command("node", argv...)
	cmd.Dir = nodeClientDir
	out, err := cmd.Output()
	var stderr []byte
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	require.NoError(t, err, "node client: %s", stderr)
	var v map[string]any
	require.NoError(t, json.Unmarshal(out, &v), "node client printed %s", out)
	return v
}

// The TypeScript SDK's client: it lists the tools, runs a program, follows a run suspended on
// an approval whose outcome is posted over REST with get_run, and is refused without the
// token. Its SDK checks each structuredContent against the tool's outputSchema.
func TestMCPServerNodeClient(t *testing.T) {
	t.Parallel()
	s := newStack(t, false)
	endpoint := s.url + MCPPath

	listed := nodeClient(t, endpoint, testToken, "list", nil)
	require.Equal(t, []any{"execute", "get_run", "search"}, listed["tools"])
	require.Contains(t, listed["execute"].(map[string]any)["description"], "tools.ops.math.add")

	res := nodeClient(t, endpoint, testToken, "execute", map[string]any{"code": "return (await tools.ops.math.add({a: 1, b: 2})).sum"})
	require.Equal(t, false, res["isError"], "%v", res)
	sc := res["structuredContent"].(map[string]any)
	require.Equal(t, "succeeded", sc["status"])
	require.EqualValues(t, 3, sc["result"].(map[string]any)["value"])

	res = nodeClient(t, endpoint, testToken, "execute", map[string]any{"code": "const ok = await tools.ops.approvals.request({reason: 'go?'}); return ok.approved"})
	sc = res["structuredContent"].(map[string]any)
	require.Equal(t, "suspended", sc["status"], "%v", res)
	id := sc["id"].(string)
	pending := sc["pending"].([]any)
	require.Len(t, pending, 1)
	require.Equal(t, "ops.approvals.request", pending[0].(map[string]any)["path"])
	status, body := s.rest(t, http.MethodPost, "/v1/runs/"+id+"/calls/1", map[string]any{"ok": true, "value": map[string]any{"approved": true}})
	require.Equal(t, http.StatusAccepted, status, "%s", body)
	deadline := time.Now().Add(20 * time.Second)
	for sc["status"] != "succeeded" && time.Now().Before(deadline) {
		res = nodeClient(t, endpoint, testToken, "get_run", map[string]any{"id": id, "wait": 5})
		sc = res["structuredContent"].(map[string]any)
	}
	require.Equal(t, "succeeded", sc["status"], "%v", res)
	require.Equal(t, true, sc["result"].(map[string]any)["value"])

	res = nodeClient(t, endpoint, testToken, "search", map[string]any{"query": "approval"})
	require.Equal(t, false, res["isError"], "%v", res)
	require.Contains(t, res["text"], "tools.ops.approvals.request(")

	refused := nodeClient(t, endpoint, "", "list", nil)
	require.Contains(t, refused["error"], "missing or wrong bearer token")
}

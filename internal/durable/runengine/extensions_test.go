package runengine

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolcall"
)

// A toolset's manifest may declare extensions: the run calls them over HTTP as globals, before
// and after it suspends (the resumed drive finds them again), and they are no tool calls.
func TestManifestExtensionsInDurableRuns(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Extension, Function, RunID string
			Args                       []any
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s.%s%v", req.Extension, req.Function, req.Args))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, fmt.Sprintf(`{"output": "contents of %v"}`, req.Args[0]))
	}))
	t.Cleanup(srv.Close)
	manifest := `{"tools": [], "extensions": [{"name": "fs", "functions": [{"path": "readFile"}, {"path": "promises.readFile", "async": true}]}]}`
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "files", URL: srv.URL, Manifest: json.RawMessage(manifest)})
	require.NoError(t, err)
	b.startWorker(t)

	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
import { readFile } from "node:fs/promises";
const a = fs.readFile("a.txt");
const r = await tools.ops.approvals.request({reason: a});
return [a, r.approved, await readFile("b.txt")];
`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)
	require.Len(t, run.Pending, 1)
	_, err = b.store.RecordOutcome(b.ctx, run.ID, run.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var result struct {
		OK        bool              `json:"ok"`
		Value     json.RawMessage   `json:"value"`
		ToolCalls []json.RawMessage `json:"toolCalls"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &result))
	require.True(t, result.OK, string(run.Result))
	require.JSONEq(t, `["contents of a.txt", true, "contents of b.txt"]`, string(result.Value))
	require.Len(t, result.ToolCalls, 1, "only the approval is a tool call")
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"fs.readFile[a.txt]", "fs.promises.readFile[b.txt]"}, seen)
}

package runengine

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolcall"
)

// archiveDir is internal/run's release archive: runs suspended by every earlier release, with
// the outcomes of their calls and their results (docs/snapshots.md).
const archiveDir = "../../run/testdata/releases"

// archiveToolsets are the tools the archived programs call, tools.approvals.request (durable)
// and tools.math.add, as two toolsets named approvals and math.
var archiveToolsets = map[string]string{
	"approvals": `{"tools": [{"path": "request", "description": "Ask for an approval", "durable": true}]}`,
	"math": `{"tools": [{"path": "add", "description": "Add two numbers",
		"input": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}]}`,
}

// archiveToolServer answers the calls of archiveToolsets: request starts durable work (202),
// add adds.
func archiveToolServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Tool  string `json:"tool"`
			Key   string `json:"key"`
			Input struct {
				A, B float64
			} `json:"input"`
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		switch req.Tool {
		case "request":
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(map[string]any{"handle": map[string]string{"approvalId": "apr_" + req.Key}})
		case "add":
			_ = json.NewEncoder(w).Encode(map[string]any{"output": map[string]float64{"sum": req.Input.A + req.Input.B}})
		default:
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": "unknown tool " + req.Tool}})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// archivedRun is a file of the release archive (internal/run's archivedRun).
type archivedRun struct {
	Program  string                      `json:"program"`
	State    json.RawMessage             `json:"state"`
	Outcomes map[string]toolcall.Outcome `json:"outcomes"`
	Result   json.RawMessage             `json:"result"`
}

// archivedCall is a call in a state's header.
type archivedCall struct {
	CallID int64           `json:"callId"`
	Path   string          `json:"path"`
	Status string          `json:"status"`
	Input  json.RawMessage `json:"input"`
	Handle json.RawMessage `json:"handle"`
}

// storedArchiveState is an archived state as the database holds it for run runID: its header
// and interpreter state for a two-part state, the one document (header nil) otherwise. The
// archive's states belong to a run named r1, and runs.id is a uuid: the run id and call keys
// are moved to runID, which only the header (or the one document's members besides "vm")
// names. It returns the state's calls too.
func storedArchiveState(t *testing.T, state json.RawMessage, runID string) (header, vm []byte, calls []archivedCall) {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(state, &doc))
	twoParts := doc["header"] != nil
	head := doc
	if twoParts {
		head = nil
		require.NoError(t, json.Unmarshal(doc["header"], &head))
	}
	var oldID string
	require.NoError(t, json.Unmarshal(head["runId"], &oldID))
	head["runId"], _ = json.Marshal(runID)
	var rawCalls []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(head["calls"], &rawCalls))
	for _, c := range rawCalls {
		var key string
		require.NoError(t, json.Unmarshal(c["key"], &key))
		require.True(t, strings.HasPrefix(key, oldID+":"), key)
		c["key"], _ = json.Marshal(runID + strings.TrimPrefix(key, oldID))
		b, _ := json.Marshal(c)
		var call archivedCall
		require.NoError(t, json.Unmarshal(b, &call))
		calls = append(calls, call)
	}
	head["calls"], _ = json.Marshal(rawCalls)
	out, err := json.Marshal(head)
	require.NoError(t, err)
	if twoParts {
		if bin := doc["vmBinary"]; bin != nil {
			// a binary (format 2) interpreter snapshot, base64 in the file
			var vm []byte
			require.NoError(t, json.Unmarshal(bin, &vm))
			return out, vm, calls
		}
		return out, doc["vm"], calls
	}
	return nil, out, calls
}

// Runs suspended by every earlier release (the release archive of internal/run) resume in a
// worker process of this build, through the store: the archived state is inserted as a
// suspended run's snapshot, the recorded outcomes are posted as they are asked for, and every
// run finishes with its recorded result.
func TestArchivedRunsResumeInAWorkerProcess(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(archiveDir, "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	b := setup(t)
	url := archiveToolServer(t)
	for name, manifest := range archiveToolsets {
		_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: name, URL: url, Manifest: json.RawMessage(manifest)})
		require.NoError(t, err)
	}
	pool := b.store.Pool()
	type archived struct {
		name, runID string
		run         archivedRun
		posted      map[int]bool
	}
	var runs []*archived
	releases := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		a := &archived{name: strings.TrimPrefix(file, archiveDir+"/"), runID: uuid.NewString(), posted: map[int]bool{}}
		require.NoError(t, json.Unmarshal(data, &a.run))
		releases[filepath.Base(filepath.Dir(file))] = true
		header, vm, calls := storedArchiveState(t, a.run.State, a.runID)
		_, err = pool.Exec(b.ctx, `INSERT INTO runs (id, code, status, snapshot_seq, toolsets) VALUES ($1, $2, 'suspended', 1, '{approvals,math}')`, a.runID, a.run.Program)
		require.NoError(t, err)
		_, err = pool.Exec(b.ctx, `INSERT INTO snapshots (run_id, seq, header, state) VALUES ($1, 1, $2, $3)`, a.runID, header, vm)
		require.NoError(t, err)
		for _, c := range calls {
			if c.Status != "pending" {
				continue
			}
			toolset, _, _ := strings.Cut(c.Path, ".")
			_, err = pool.Exec(b.ctx, `INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, status, handle)
				VALUES ($1, $2, $3, $4, $5, $6, true, 'pending', $7)`,
				a.runID, c.CallID, toolcall.Key(a.runID, c.CallID), toolset, c.Path, []byte(c.Input), []byte(c.Handle))
			require.NoError(t, err)
		}
		runs = append(runs, a)
	}
	require.GreaterOrEqual(t, len(releases), 3, "states of several releases, of both stored forms")
	startWorkerProcess(t, b.url, "archive-worker")

	// Answer each run's pending calls with the archived outcomes, as they come, until it ends.
	deadline := time.Now().Add(120 * time.Second)
	for _, a := range runs {
		for {
			require.True(t, time.Now().Before(deadline), "%s did not finish", a.name)
			run, err := b.store.GetRun(b.ctx, a.runID)
			require.NoError(t, err)
			if run.Status == durable.StatusSucceeded || run.Status == durable.StatusFailed {
				require.Equal(t, durable.StatusSucceeded, run.Status, "%s: result %s", a.name, run.Result)
				var result struct {
					Value json.RawMessage `json:"value"`
				}
				require.NoError(t, json.Unmarshal(run.Result, &result))
				require.JSONEq(t, string(a.run.Result), string(result.Value), "%s:\n%s", a.name, a.run.Program)
				break
			}
			for _, p := range run.Pending {
				if a.posted[p.CallID] {
					continue
				}
				o, ok := a.run.Outcomes["r1:"+strconv.Itoa(p.CallID)]
				require.True(t, ok, "%s: no archived outcome for call %d", a.name, p.CallID)
				_, err := b.store.RecordOutcome(b.ctx, a.runID, p.CallID, o)
				require.NoError(t, err)
				a.posted[p.CallID] = true
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

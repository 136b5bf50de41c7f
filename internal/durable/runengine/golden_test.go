package runengine

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolcall"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden suspended runs in testdata/suspended")

// goldenRun is a run suspended by an earlier release: its program, stored snapshot and pending
// call, as the database held them.
type goldenRun struct {
	RunID    string          `json:"runId"`
	Code     string          `json:"code"`
	Snapshot json.RawMessage `json:"snapshot"`
	// Header is the snapshot's header column: absent for snapshots stored before it existed
	// (format 1, whose state holds the whole run).
	Header json.RawMessage `json:"header,omitempty"`
	CallID int             `json:"callId"`
	Path   string          `json:"path"`
	Args   json.RawMessage `json:"args"`
	Handle json.RawMessage `json:"handle"`
	// Outcome is posted for the pending call; Want is the Result's value then.
	Outcome json.RawMessage `json:"outcome"`
	Want    json.RawMessage `json:"want"`
}

const goldenProgram = `
const plan = await tools.ops.string.upper({text: "deploy"});
console.log("asking for", plan.text);
const approval = await tools.ops.approvals.request({reason: plan.text});
return {plan: plan.text, approved: approval.approved, by: approval.by};
`

// TestGoldenSuspendedRunsResume resumes, through the store and a worker, runs suspended by
// earlier releases (one file per snapshot format in testdata/suspended): a snapshot written by
// any earlier release must resume on this one. Run with -update to add the current format's
// file (never rewrite an older one).
func TestGoldenSuspendedRunsResume(t *testing.T) {
	t.Parallel()
	if *updateGolden {
		writeGolden(t)
	}
	files, err := filepath.Glob("testdata/suspended/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files, "golden suspended runs")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var g goldenRun
			require.NoError(t, json.Unmarshal(data, &g))
			b := setup(t)
			b.startWorker(t)

			// The rows an earlier release left behind for a suspended run.
			pool := b.store.Pool()
			runID := g.RunID // the snapshot names its run
			_, err = pool.Exec(b.ctx, `INSERT INTO runs (id, code, status, snapshot_seq) VALUES ($1, $2, 'suspended', 1)`, runID, g.Code)
			require.NoError(t, err)
			_, err = pool.Exec(b.ctx, `INSERT INTO snapshots (run_id, seq, header, state) VALUES ($1, 1, $2, $3)`, runID, []byte(g.Header), []byte(g.Snapshot))
			require.NoError(t, err)
			_, err = pool.Exec(b.ctx, `INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, status, handle)
				VALUES ($1, $2, $3, 'ops', $4, $5, true, 'pending', $6)`, runID, g.CallID, toolcall.Key(runID, int64(g.CallID)), g.Path, g.Args, g.Handle)
			require.NoError(t, err)

			var outcome toolcall.Outcome
			require.NoError(t, json.Unmarshal(g.Outcome, &outcome))
			_, err = b.store.RecordOutcome(b.ctx, runID, g.CallID, outcome)
			require.NoError(t, err)
			run := b.waitStatus(t, runID, durable.StatusSucceeded, durable.StatusFailed)
			require.Equal(t, durable.StatusSucceeded, run.Status, "result %s", run.Result)
			var result struct {
				Value json.RawMessage `json:"value"`
			}
			require.NoError(t, json.Unmarshal(run.Result, &result))
			require.JSONEq(t, string(g.Want), string(result.Value))
		})
	}
}

// writeGolden suspends goldenProgram with the current release and writes its rows.
func writeGolden(t *testing.T) {
	t.Helper()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: goldenProgram})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)
	require.Len(t, run.Pending, 1)
	var header, snapshot []byte
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, "SELECT header, state FROM snapshots WHERE run_id = $1 AND seq = $2",
		run.ID, run.SnapshotSeq).Scan(&header, &snapshot))
	var head struct {
		Format int `json:"format"`
	}
	require.NoError(t, json.Unmarshal(header, &head))
	p := run.Pending[0]
	g := goldenRun{
		RunID: run.ID, Code: goldenProgram, Snapshot: snapshot, Header: header, CallID: p.CallID, Path: p.Path, Args: p.Args, Handle: p.Handle,
		Outcome: json.RawMessage(`{"ok": true, "value": {"approved": true, "by": "ops-lead"}}`),
		Want:    json.RawMessage(`{"plan": "DEPLOY", "approved": true, "by": "ops-lead"}`),
	}
	data, err := json.MarshalIndent(g, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll("testdata/suspended", 0o755))
	name := filepath.Join("testdata/suspended", "format"+strconv.Itoa(head.Format)+".json")
	if _, err := os.Stat(name); err == nil {
		t.Logf("%s exists; not rewritten", name)
		return
	}
	require.NoError(t, os.WriteFile(name, append(data, '\n'), 0o644))
}

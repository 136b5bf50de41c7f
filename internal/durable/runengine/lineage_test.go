package runengine

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// TestRetryRun retries a failed run: the new run has the same program, input, toolsets and
// limits, and both histories record the link. Only failed or cancelled runs can be retried.
func TestRetryRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	orig, _, err := b.store.CreateRun(b.ctx, durable.NewRun{
		Code:     `const s = await tools.ops.math.add({a: input.a, b: 1}); if (s.sum < 10) throw new Error("too small: " + s.sum); return s.sum;`,
		Input:    json.RawMessage(`{"a": 2}`),
		Toolsets: []string{"ops"},
		Limits:   json.RawMessage(`{"maxToolCalls": 5}`),
	})
	require.NoError(t, err)
	failed := b.waitStatus(t, orig.ID, durable.StatusFailed, durable.StatusSucceeded)
	require.Equal(t, durable.StatusFailed, failed.Status)

	retry, created, err := b.store.RetryRun(b.ctx, orig.ID, "")
	require.NoError(t, err)
	require.True(t, created)
	require.NotEqual(t, orig.ID, retry.ID)
	require.Equal(t, orig.Code, retry.Code)
	require.JSONEq(t, string(orig.Input), string(retry.Input))
	require.Equal(t, []string{"ops"}, retry.Toolsets)
	require.JSONEq(t, string(orig.Limits), string(retry.Limits))
	got := b.waitStatus(t, retry.ID, durable.StatusFailed, durable.StatusSucceeded)
	require.Contains(t, string(got.Result), "too small: 3")
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(retry.ID, 1)), "a retry makes its calls anew")

	l, err := b.store.RunLineage(b.ctx, retry.ID)
	require.NoError(t, err)
	require.Equal(t, durable.Lineage{RetriedFrom: orig.ID}, l)
	l, err = b.store.RunLineage(b.ctx, orig.ID)
	require.NoError(t, err)
	require.Equal(t, durable.Lineage{Derived: []string{retry.ID}}, l)
	// GetRun reads the same lineage with the run.
	for id, want := range map[string]durable.Lineage{retry.ID: {RetriedFrom: orig.ID}, orig.ID: {Derived: []string{retry.ID}}} {
		run, err := b.store.GetRun(b.ctx, id)
		require.NoError(t, err)
		require.NotNil(t, run.Lineage)
		require.Equal(t, want, *run.Lineage)
	}
	requireEvent(t, b, retry.ID, durable.EventLineage, fmt.Sprintf(`{"retriedFrom": %q}`, orig.ID))
	requireEvent(t, b, orig.ID, durable.EventDerived, fmt.Sprintf(`{"runId": %q, "as": "retry"}`, retry.ID))

	ok, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return 1`})
	require.NoError(t, err)
	b.waitStatus(t, ok.ID, durable.StatusSucceeded)
	_, _, err = b.store.RetryRun(b.ctx, ok.ID, "")
	require.ErrorIs(t, err, durable.ErrNotRetryable)
	_, _, err = b.store.RetryRun(b.ctx, "00000000-0000-0000-0000-000000000000", "")
	require.ErrorIs(t, err, durable.ErrRunNotFound)
}

// requireEvent asserts the run's history has an event of type typ with data.
func requireEvent(t *testing.T, b *testBundle, runID, typ, data string) {
	t.Helper()
	events, err := b.store.ListEvents(b.ctx, runID, 0, 1000)
	require.NoError(t, err)
	for _, e := range events {
		if e.Type == typ {
			require.JSONEq(t, data, string(e.Data))
			return
		}
	}
	t.Fatalf("run %s has no %s event", runID, typ)
}

// TestForkAfterToolsetFixed runs a program whose second toolset is broken, registers the
// toolset again where it works, and forks the failed run from the settlement of its first call
// and from the snapshot taken after it: the fork's first call is answered from the original's
// record (the tool is not called again) and the rest of the program runs against the fixed
// toolset.
func TestForkAfterToolsetFixed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error": {"message": "ext is broken"}}`)
	}))
	t.Cleanup(broken.Close)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "ext", URL: broken.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	// A checkpoint after every settled batch, so that the run has a snapshot between its calls.
	b.startWorkerWith(t, Config{Egress: egress.Local(), CheckpointInterval: -1, CheckpointBytes: -1})

	code := `
const s = await tools.ops.math.add({a: 1, b: 2});
const u = await tools.ext.string.upper({text: "sum " + s.sum});
return u.text;`
	orig, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: code})
	require.NoError(t, err)
	failed := b.waitStatus(t, orig.ID, durable.StatusFailed, durable.StatusSucceeded)
	require.Contains(t, string(failed.Result), "ext is broken")

	// The snapshot fork point: the checkpoint taken once the first call had settled, before
	// the second.
	seq := forkPoint(t, b, orig.ID)

	require.NoError(t, b.store.DeleteToolset(b.ctx, "ext", false))
	_, err = b.store.CreateToolset(b.ctx, durable.Toolset{Name: "ext", URL: b.tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)

	for _, tt := range []struct {
		name    string
		point   durable.ForkPoint
		lineage durable.Lineage
		event   string
	}{
		{
			name: "after the first call", point: durable.ForkPoint{AfterCall: 1},
			lineage: durable.Lineage{ForkedFrom: orig.ID, ForkedAfterCall: 1, ReplayedCalls: 1},
			event:   fmt.Sprintf(`{"forkedFrom": %q, "afterCall": 1, "replayedCalls": 1, "codeChanged": false}`, orig.ID),
		},
		{
			name: "from the snapshot after it", point: durable.ForkPoint{Snapshot: seq},
			lineage: durable.Lineage{ForkedFrom: orig.ID, ForkedFromSeq: seq, ReplayedCalls: 1},
			event:   fmt.Sprintf(`{"forkedFrom": %q, "fromSnapshot": %d, "replayedCalls": 1, "codeChanged": false}`, orig.ID, seq),
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fork, replayed, _, err := b.store.ForkRun(b.ctx, orig.ID, tt.point, "", "")
			require.NoError(t, err)
			require.Equal(t, 1, replayed)
			got := b.waitStatus(t, fork.ID, durable.StatusSucceeded, durable.StatusFailed)
			require.Equal(t, `"SUM 3"`, okValue(t, got))
			require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(orig.ID, 1)))
			require.Zero(t, b.tools.Handler.Executions(toolcall.Key(fork.ID, 1)), "the replayed call is not made again")
			require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(fork.ID, 2)))
			calls, err := b.store.ListCalls(b.ctx, fork.ID)
			require.NoError(t, err)
			require.Len(t, calls, 2)
			require.Equal(t, toolcall.Key(fork.ID, 1), calls[0].Key)
			require.JSONEq(t, `{"sum": 3}`, string(calls[0].Outcome.Value))

			l, err := b.store.RunLineage(b.ctx, fork.ID)
			require.NoError(t, err)
			require.Equal(t, tt.lineage, l)
			requireEvent(t, b, fork.ID, durable.EventLineage, tt.event)
		})
	}

	// New code from the same point: the first call is still answered from the record.
	changed, _, _, err := b.store.ForkRun(b.ctx, orig.ID, durable.ForkPoint{AfterCall: 1}, `
const s = await tools.ops.math.add({a: 1, b: 2});
return (await tools.ext.string.upper({text: "total " + s.sum})).text;`, "")
	require.NoError(t, err)
	require.Equal(t, `"TOTAL 3"`, okValue(t, b.waitStatus(t, changed.ID, durable.StatusSucceeded, durable.StatusFailed)))
	require.Zero(t, b.tools.Handler.Executions(toolcall.Key(changed.ID, 1)))

	// New code calling another tool where the record has call 1: the recorded outcome does not
	// answer it, and the fork fails saying so instead of handing the program the sum.
	diverged, _, _, err := b.store.ForkRun(b.ctx, orig.ID, durable.ForkPoint{AfterCall: 1}, `
const u = await tools.ops.string.upper({text: "first"});
return u.text;`, "")
	require.NoError(t, err)
	got := b.waitStatus(t, diverged.ID, durable.StatusFailed, durable.StatusSucceeded)
	require.Equal(t, durable.StatusFailed, got.Status, "%s", got.Result)
	var res struct {
		Error struct{ Kind, Message string }
	}
	require.NoError(t, json.Unmarshal(got.Result, &res))
	require.Equal(t, "ExecutionFailure", res.Error.Kind)
	require.Contains(t, res.Error.Message, "call 1 is a call of ops.math.add in the run's record, and the program now calls ops.string.upper")
	require.Zero(t, b.tools.Handler.Executions(toolcall.Key(diverged.ID, 1)), "the diverged call is not made")

	// From the start: every call is made anew.
	fresh, replayed, _, err := b.store.ForkRun(b.ctx, orig.ID, durable.ForkPoint{}, "", "")
	require.NoError(t, err)
	require.Zero(t, replayed)
	b.waitStatus(t, fresh.ID, durable.StatusSucceeded)
	require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(fresh.ID, 1)))

	for _, missing := range []durable.ForkPoint{{Snapshot: 999}, {AfterCall: 3}} {
		_, _, _, err = b.store.ForkRun(b.ctx, orig.ID, missing, "", "")
		require.ErrorIs(t, err, durable.ErrForkPointNotFound, "%+v", missing)
	}
	l, err := b.store.RunLineage(b.ctx, orig.ID)
	require.NoError(t, err)
	require.Len(t, l.Derived, 5)
}

// forkPoint returns the sequence number of the run's snapshot taken after its first call
// settled and before its second started.
func forkPoint(t *testing.T, b *testBundle, runID string) int {
	t.Helper()
	events, err := b.store.ListEvents(b.ctx, runID, 0, 1000)
	require.NoError(t, err)
	firstSettled := false
	for _, e := range events {
		var data struct {
			CallID int `json:"callId"`
			Seq    int `json:"seq"`
		}
		require.NoError(t, json.Unmarshal(e.Data, &data))
		switch {
		case e.Type == durable.EventCallSettled && data.CallID == 1:
			firstSettled = true
		case e.Type == durable.EventCallStarted && data.CallID == 2:
			t.Fatalf("no snapshot between the first and the second call of run %s", runID)
		case e.Type == durable.EventCheckpointed && firstSettled:
			return data.Seq
		}
	}
	t.Fatalf("run %s has no checkpoint", runID)
	return 0
}

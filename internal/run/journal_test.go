package run

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// recorder is a Journal that keeps what it is told in memory and can answer calls from an
// earlier drive, as a durable host does after a crash.
type recorder struct {
	mu          sync.Mutex
	events      []string
	outcomes    map[string]toolcall.Outcome
	handles     map[string]json.RawMessage
	checkpoints []SavedState
}

func newRecorder() *recorder {
	return &recorder{outcomes: map[string]toolcall.Outcome{}, handles: map[string]json.RawMessage{}}
}

func (r *recorder) CallStarted(_ context.Context, c toolcall.Call, _ json.RawMessage, durable bool) (Recorded, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("started %s durable=%v", c.Key, durable))
	if o, ok := r.outcomes[c.Key]; ok {
		return Recorded{Outcome: &o}, nil
	}
	if h, ok := r.handles[c.Key]; ok {
		return Recorded{Handle: h}, nil
	}
	return Recorded{}, nil
}

func (r *recorder) CallSettled(_ context.Context, c toolcall.Call, o toolcall.Outcome) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("settled %s ok=%v", c.Key, o.OK))
	r.outcomes[c.Key] = o
	return nil
}

func (r *recorder) CallPending(_ context.Context, c toolcall.Call, h json.RawMessage) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "pending "+c.Key)
	r.handles[c.Key] = h
	return nil
}

func (r *recorder) Checkpoint(_ context.Context, state SavedState) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "checkpoint")
	r.checkpoints = append(r.checkpoints, state)
	return nil
}

func TestJournalRecordsEachCallOnce(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	j := newRecorder()
	src := "const r = await tools.math.add({a: 1, b: 2}); const ok = await tools.approvals.request({}); return [r.sum, ok]"
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e.State())
	require.Equal(t, []string{
		"started r1:1 durable=false", "settled r1:1 ok=true", "checkpoint",
		"started r1:2 durable=true", "pending r1:2",
	}, j.events)
	s, err := e.Suspend()
	require.NoError(t, err)

	// The host records the outcome itself, then resumes: the outcome is not journaled again.
	j.outcomes["r1:2"] = toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)}
	j.events = nil
	e2, err := b.rt.Resume(context.Background(), s.State, []OutcomeFor{{Key: "r1:2", Outcome: j.outcomes["r1:2"]}}, ExecOptions{Journal: j})
	require.NoError(t, err)
	res := resultOf(t, e2)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `[3, "yes"]`, string(res.Value))
	require.NotContains(t, j.events, "settled r1:2 ok=true")
}

// A resumed drive does not checkpoint for the posted outcomes it starts with (stored by the
// host, given again on a re-drive), nor a re-drive for the outcomes it replays from the
// journal; the zero policy checkpoints the first call a tool answers.
func TestNoCheckpointForOutcomesFromTheJournal(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	j := newRecorder()
	src := `const ok = await tools.approvals.request({})
if (ok !== "yes") throw new Error("not approved")
const r = await tools.math.add({a: 1, b: 2})
return r.sum`
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e.State())
	s, err := e.Suspend()
	require.NoError(t, err)

	j.outcomes["r1:1"] = toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)}
	j.events = nil
	posted := []OutcomeFor{{Key: "r1:1", Outcome: j.outcomes["r1:1"]}}
	e2, err := b.rt.Resume(context.Background(), s.State, posted, ExecOptions{Journal: j})
	require.NoError(t, err)
	require.JSONEq(t, "3", string(resultOf(t, e2).Value))
	require.Equal(t, []string{"started r1:2 durable=false", "settled r1:2 ok=true", "checkpoint"}, j.events,
		"no checkpoint for the posted outcome, one for the tool's")
	require.EqualValues(t, 1, b.calls.Load())

	// A re-drive from the suspension gets both outcomes from the journal: nothing to checkpoint.
	j.events = nil
	e3, err := b.rt.Resume(context.Background(), s.State, posted, ExecOptions{Journal: j})
	require.NoError(t, err)
	require.JSONEq(t, "3", string(resultOf(t, e3).Value))
	require.Equal(t, []string{"started r1:2 durable=false"}, j.events)
	require.EqualValues(t, 1, b.calls.Load(), "a re-drive must not call the tools again")
}

// TestRedriveTakesRecordedOutcomes: a run re-driven from the start after a crash gets the
// outcomes of calls it already made from the journal; the tools are not called again.
func TestRedriveTakesRecordedOutcomes(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	j := newRecorder()
	src := "let s = 0; for (let i = 0; i < 5; i++) s += (await tools.math.add({a: i, b: 1})).sum; s"
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j})
	require.NoError(t, err)
	res := resultOf(t, e)
	require.JSONEq(t, "15", string(res.Value))
	require.EqualValues(t, 5, b.calls.Load())

	e2, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j})
	require.NoError(t, err)
	res2 := resultOf(t, e2)
	require.JSONEq(t, "15", string(res2.Value))
	require.EqualValues(t, 5, b.calls.Load(), "a re-drive must not call the tools again")
}

// The checkpoint policy: a drive checkpoints once the policy's interval (counted from the
// drive's start) or bytes are reached; a re-drive from the oldest checkpoint, or from the
// source when there is none, gets the later calls from the journal and does not make them
// again.
func TestCheckpointPolicy(t *testing.T) {
	t.Parallel()
	src := "let s = 0; for (let i = 0; i < 10; i++) s += (await tools.math.add({a: i, b: 1})).sum; s"
	for _, tt := range []struct {
		name   string
		policy CheckpointPolicy
		want   int
	}{
		{name: "every batch", policy: CheckpointPolicy{}, want: 10},
		{name: "interval", policy: CheckpointPolicy{Interval: time.Hour}, want: 0},
		{name: "bytes", policy: CheckpointPolicy{Interval: time.Hour, Bytes: 1}, want: 10},
		{name: "bytes not reached", policy: CheckpointPolicy{Bytes: 1 << 20}, want: 0},
		{name: "interval reached", policy: CheckpointPolicy{Interval: time.Nanosecond}, want: 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, Limits{}, Hooks{})
			j := newRecorder()
			e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j, Checkpoint: tt.policy})
			require.NoError(t, err)
			require.JSONEq(t, "55", string(resultOf(t, e).Value))
			require.Len(t, j.checkpoints, tt.want)
			require.EqualValues(t, 10, b.calls.Load())

			// A worker lost after the last call re-drives from the oldest checkpoint, or from
			// the source.
			var e2 *Execution
			if len(j.checkpoints) > 0 {
				e2, err = b.rt.Resume(context.Background(), j.checkpoints[0], nil, ExecOptions{Journal: j, Checkpoint: tt.policy})
			} else {
				e2, err = b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j, Checkpoint: tt.policy})
			}
			require.NoError(t, err)
			require.JSONEq(t, "55", string(resultOf(t, e2).Value))
			require.EqualValues(t, 10, b.calls.Load(), "a re-drive must not call the tools again")
		})
	}
}

// Durable work left pending when a program returns is cancelled at its tool by exactly one
// party: the run itself without a journal, its host (which was told the call is pending) with
// one; a journaled run never calls the tool's Cancel.
func TestLeftoverDurableWorkHasOneCanceller(t *testing.T) {
	t.Parallel()
	src := `tools.approvals.request({}); return await tools.math.add({a: 1, b: 2})`

	b, appr := setup(t, Limits{}, Hooks{})
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1"})
	require.NoError(t, err)
	require.Equal(t, StateDone, e.State())
	require.Equal(t, []string{"r1:1"}, appr.cancelled, "without a journal the run cancels it")

	b, appr = setup(t, Limits{}, Hooks{})
	j := newRecorder()
	e, err = b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r2", Journal: j})
	require.NoError(t, err)
	require.Equal(t, StateDone, e.State())
	res, _ := e.Result()
	require.Equal(t, CallCancelled, res.ToolCalls[0].Status)
	require.Empty(t, appr.cancelled, "a journaled run leaves the cancel to its host")
	require.Contains(t, j.events, "pending r2:1", "the host knows the call is pending")
}

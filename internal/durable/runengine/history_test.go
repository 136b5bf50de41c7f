package runengine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// historyEvent is a stored event with its data decoded.
type historyEvent struct {
	Seq  int64
	Type string
	Data map[string]any
}

func (b *testBundle) history(t *testing.T, runID string) []historyEvent {
	t.Helper()
	events, err := b.store.ListEvents(b.ctx, runID, 0, 1000)
	require.NoError(t, err)
	out := make([]historyEvent, len(events))
	for i, e := range events {
		out[i] = historyEvent{Seq: e.Seq, Type: e.Type}
		require.NoError(t, json.Unmarshal(e.Data, &out[i].Data), "event %s data %s", e.Type, e.Data)
		require.NotNil(t, out[i].Data, "event %s data is an object", e.Type)
	}
	return out
}

func ofType(events []historyEvent, typ string) []historyEvent {
	var out []historyEvent
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestHistoryShowsLogsWorkersAndDurations(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
console.log("adding");
const s = await tools.ops.math.add({a: 1, b: 2});
console.warn("sum is", s.sum);
const r = await tools.ops.approvals.request({reason: "ship it"});
console.error("approved", r.approved);
return s.sum;
`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)

	// While suspended, the lines written so far are in the timeline.
	events := b.history(t, run.ID)
	logs := ofType(events, durable.EventLog)
	require.Len(t, logs, 2, "%v", events)
	require.Equal(t, "log", logs[0].Data["level"])
	require.Equal(t, "adding", logs[0].Data["text"])
	require.NotEmpty(t, logs[0].Data["time"])
	require.Equal(t, "warn", logs[1].Data["level"])
	require.Equal(t, "sum is 3", logs[1].Data["text"])
	// The first line comes before the call it precedes.
	require.Less(t, logs[0].Seq, ofType(events, durable.EventCallStarted)[0].Seq)

	for _, typ := range []string{durable.EventStarted, durable.EventCallStarted, durable.EventCallSettled, durable.EventCallPending, durable.EventSuspended} {
		got := ofType(events, typ)
		require.NotEmpty(t, got, "no %s event in %v", typ, events)
		require.Equal(t, w.ID(), got[0].Data["worker"], "%s names the worker", typ)
	}
	settled := ofType(events, durable.EventCallSettled)[0]
	require.Contains(t, settled.Data, "durationMs")
	require.GreaterOrEqual(t, settled.Data["durationMs"].(float64), 0.0)

	_, err = b.store.RecordOutcome(b.ctx, run.ID, run.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, durable.StatusSucceeded)
	events = b.history(t, run.ID)
	logs = ofType(events, durable.EventLog)
	require.Len(t, logs, 3)
	require.Equal(t, "error", logs[2].Data["level"])
	require.Equal(t, "approved true", logs[2].Data["text"])
	finished := ofType(events, durable.EventFinished)
	require.Len(t, finished, 1)
	require.Equal(t, "succeeded", finished[0].Data["status"])
	require.Equal(t, w.ID(), finished[0].Data["worker"])
	require.NotContains(t, finished[0].Data, "error")
}

func TestHistoryOfAFailedRunSaysWhereAndWhy(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: "console.log('before');\nconst x = 1;\n  null.boom;\n"})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, durable.StatusFailed)
	finished := ofType(b.history(t, run.ID), durable.EventFinished)
	require.Len(t, finished, 1)
	e, ok := finished[0].Data["error"].(map[string]any)
	require.True(t, ok, "finished event %v has the error", finished[0].Data)
	require.Equal(t, "ExecutionFailure", e["kind"])
	require.Contains(t, e["message"], "boom")
	require.Equal(t, 3.0, e["line"])
	require.Equal(t, 8.0, e["column"], "at the property, where node locates it")
}

// Console lines ride on the drive's writes: a program that makes no call writes all of them
// in the transaction that finishes the run, not one transaction per line.
func TestLogEventsShareTheDrivesWrites(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: "for (let i = 0; i < 50; i++) console.log('line', i); return 1"})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, durable.StatusSucceeded)
	var logs, txs int
	require.NoError(t, b.store.Pool().QueryRow(b.ctx,
		`SELECT count(*) FILTER (WHERE type = 'log'), count(DISTINCT xmin::text) FILTER (WHERE type IN ('log', 'finished'))
		 FROM run_events WHERE run_id = $1`, run.ID).Scan(&logs, &txs))
	require.Equal(t, 50, logs)
	require.Equal(t, 1, txs, "the lines and the finished event were written by one transaction")
}

func TestLogEventsStopAtMaxOutputBytes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	// Each line is 12 bytes as a JSON string ("0123456789"): five fit in 64 bytes.
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{
		Code:   "for (let i = 0; i < 20; i++) console.log('0123456789'); return 1",
		Limits: json.RawMessage(`{"maxOutputBytes": 64}`),
	})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, durable.StatusSucceeded)
	logs := ofType(b.history(t, run.ID), durable.EventLog)
	require.Len(t, logs, 6, "five lines and the marker: %v", logs)
	for _, l := range logs[:5] {
		require.Equal(t, "0123456789", l.Data["text"])
	}
	require.Equal(t, true, logs[5].Data["truncated"])
	require.True(t, strings.Contains(logs[5].Data["text"].(string), "maxOutputBytes"))
}

// withoutTool returns the test manifest without the tool at path.
func withoutTool(t *testing.T, path string) json.RawMessage {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(toolsettest.Manifest), &m))
	var tools []any
	for _, tool := range m["tools"].([]any) {
		if tool.(map[string]any)["path"] != path {
			tools = append(tools, tool)
		}
	}
	m["tools"] = tools
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	return raw
}

func resultError(t *testing.T, run durable.Run) (kind, message string) {
	t.Helper()
	var r struct {
		Error struct{ Kind, Message string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(run.Result, &r))
	return r.Error.Kind, r.Error.Message
}

// A run keeps the manifest its toolsets had when it was created; runs created after an update
// get the new one.
func TestRunsKeepTheirToolsetManifestAcrossAnUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	old, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await tools.ops.approvals.request({reason: "x"});
return (await tools.ops.math.add({a: 2, b: 2})).sum;
`})
	require.NoError(t, err)
	old = b.waitStatus(t, old.ID, durable.StatusSuspended)

	_, err = b.store.UpdateToolset(b.ctx, "ops", durable.ToolsetUpdate{Manifest: withoutTool(t, "math.add")})
	require.NoError(t, err)
	fresh, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return (await tools.ops.math.add({a: 2, b: 2})).sum`})
	require.NoError(t, err)
	fresh = b.waitStatus(t, fresh.ID, durable.StatusFailed)
	kind, _ := resultError(t, fresh)
	require.Equal(t, "UnknownTool", kind, "a new run gets the updated manifest: %s", fresh.Result)

	_, err = b.store.RecordOutcome(b.ctx, old.ID, old.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	old = b.waitStatus(t, old.ID, durable.StatusSucceeded)
	require.Contains(t, string(old.Result), `"value":4`, "the older run still has math.add")
}

// A toolset in use by a run not yet final is deleted only with force, and the run's later
// calls to it fail naming it.
func TestForcedToolsetDeleteFailsTheRunsLaterCalls(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await tools.ops.approvals.request({reason: "x"});
return (await tools.ops.math.add({a: 2, b: 2})).sum;
`})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusSuspended)

	require.ErrorIs(t, b.store.DeleteToolset(b.ctx, "ops", false), durable.ErrToolsetInUse)
	require.NoError(t, b.store.DeleteToolset(b.ctx, "ops", true))

	_, err = b.store.RecordOutcome(b.ctx, run.ID, run.Pending[0].CallID, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
	require.NoError(t, err)
	run = b.waitStatus(t, run.ID, durable.StatusFailed)
	kind, message := resultError(t, run)
	require.Equal(t, "ToolFailure", kind, "%s", run.Result)
	require.Contains(t, message, `toolset "ops" was deleted`)
	require.Zero(t, b.tools.Handler.Executions(toolcall.Key(run.ID, 2)), "the deleted toolset was not called")
}

// A call whose start and settlement are written together keeps its record's events (its
// started and settled events and the lines queued before them) in its calls row, not as rows
// of run_events: the run's timeline reads the same, numbered without gaps, page by page.
func TestCallRecordsKeepTheirEventsInTheirRow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
let sum = 0;
for (let i = 0; i < 3; i++) {
  console.log("call", i, "\u0000");
  const r = await tools.ops.math.add({a: i, b: 1});
  sum += r.sum;
}
try { await tools.ops.fail({message: "no\u0000way"}); } catch (e) { console.log("caught"); }
return sum;
`})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, durable.StatusSucceeded)

	var rowEvents, callRows, keptEvents int
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT
    (SELECT count(*) FROM run_events WHERE run_id = $1 AND type IN ('call.started', 'call.settled')),
    (SELECT count(*) FROM calls WHERE run_id = $1 AND events_end IS NOT NULL),
    (SELECT coalesce(sum(cardinality(event_types)), 0) FROM calls WHERE run_id = $1)`, run.ID).Scan(&rowEvents, &callRows, &keptEvents))
	require.Zero(t, rowEvents, "no call event is a row of run_events")
	require.Equal(t, 4, callRows)
	require.GreaterOrEqual(t, keptEvents, 8)

	all, err := b.store.ListEvents(b.ctx, run.ID, 0, 1000)
	require.NoError(t, err)
	var types []string
	for i, e := range all {
		require.EqualValues(t, i+1, e.Seq, "events are numbered without gaps")
		if i > 0 {
			require.False(t, e.At.Before(all[i-1].At), "event %d is not older than the one before it", e.Seq)
		}
		if e.Type != durable.EventLog {
			types = append(types, e.Type)
		}
	}
	require.Equal(t, []string{durable.EventCreated, durable.EventStarted,
		durable.EventCallStarted, durable.EventCallSettled, durable.EventCallStarted, durable.EventCallSettled,
		durable.EventCallStarted, durable.EventCallSettled, durable.EventCallStarted, durable.EventCallSettled,
		durable.EventFinished}, types)
	history := b.history(t, run.ID)
	logs := ofType(history, durable.EventLog)
	require.Len(t, logs, 4)
	require.Equal(t, "call 0 \u0000", logs[0].Data["text"], "a line with U+0000 reads back as written")
	settled := ofType(history, durable.EventCallSettled)
	require.Equal(t, "no\u0000way", settled[3].Data["error"], "a failed call's message with U+0000 reads back as written")
	for i, e := range settled {
		require.EqualValues(t, i+1, e.Data["callId"])
		require.Less(t, ofType(history, durable.EventCallStarted)[i].Seq, e.Seq)
	}

	// Any page reads what the whole list says, whether it starts inside a call's record or not.
	for after := 0; after <= len(all); after++ {
		page, err := b.store.ListEvents(b.ctx, run.ID, int64(after), 3)
		require.NoError(t, err)
		require.Equal(t, all[after:min(after+3, len(all))], page, "page after %d", after)
	}
}

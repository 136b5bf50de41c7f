package durable

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// setupWithCallDelay is setup with a Store whose CallStartDelay is delay.
func setupWithCallDelay(t *testing.T, delay time.Duration) *testBundle {
	t.Helper()
	return setupWith(t, func(c *Config) { c.CallStartDelay = delay })
}

func (b *testBundle) calls(t *testing.T, runID string) []Call {
	t.Helper()
	calls, err := b.store.ListCalls(b.ctx, runID)
	require.NoError(t, err)
	return calls
}

func (b *testBundle) eventTypes(t *testing.T, runID string) []string {
	t.Helper()
	events, err := b.store.ListEvents(b.ctx, runID, 0, 100)
	require.NoError(t, err)
	var types []string
	for i, e := range events {
		require.Equal(t, int64(i+1), e.Seq, "events are numbered without gaps")
		types = append(types, e.Type)
	}
	return types
}

// A call that settles within the delay is recorded, start and outcome, by its settlement's
// one transaction; the timeline keeps the order of the call and the console lines around it.
func TestFastCallIsRecordedWithItsSettlement(t *testing.T) {
	t.Parallel()
	b := setupWithCallDelay(t, time.Hour)
	run, lease := b.leasedRun(t)
	lease.Log(LogLine{Level: "log", Text: "before", At: time.Now()})
	before := time.Now()
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.add", Args: json.RawMessage(`[1,2]`)})
	require.NoError(t, err)
	require.Empty(t, b.calls(t, run.ID), "the start waits for the settlement")
	lease.Log(LogLine{Level: "log", Text: "during", At: time.Now()})
	require.NoError(t, lease.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`3`)}))

	calls := b.calls(t, run.ID)
	require.Len(t, calls, 1)
	c := calls[0]
	require.Equal(t, CallSucceeded, c.Status)
	require.Equal(t, toolcall.Key(run.ID, 1), c.Key)
	require.JSONEq(t, `[1,2]`, string(c.Args))
	require.JSONEq(t, `3`, string(c.Outcome.Value))
	require.WithinDuration(t, before, c.StartedAt, time.Second, "started_at is when the call started")
	require.NotNil(t, c.SettledAt)
	require.False(t, c.SettledAt.Before(c.StartedAt))
	require.Equal(t, []string{EventCreated, EventLog, EventCallStarted, EventLog, EventCallSettled}, b.eventTypes(t, run.ID))

	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true}))
}

// A call still running after the delay has its row written on its own, and its settlement
// then updates it.
func TestSlowCallRowIsWrittenAfterTheDelay(t *testing.T) {
	t.Parallel()
	b := setupWithCallDelay(t, 20*time.Millisecond)
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.slow"})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		calls := b.calls(t, run.ID)
		return len(calls) == 1 && calls[0].Status == CallRunning
	}, 10*time.Second, 10*time.Millisecond, "the running call shows")
	require.NoError(t, lease.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`"done"`)}))
	calls := b.calls(t, run.ID)
	require.Len(t, calls, 1)
	require.Equal(t, CallSucceeded, calls[0].Status)
	require.Equal(t, []string{EventCreated, EventCallStarted, EventCallSettled}, b.eventTypes(t, run.ID))
}

// A checkpoint or a durable call's pending record never commits while a started call has no
// row: they write the rows waiting for a settlement first.
func TestJournalWritesRecordUnwrittenCallsFirst(t *testing.T) {
	t.Parallel()
	b := setupWithCallDelay(t, time.Hour)
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.slow"})
	require.NoError(t, err)
	_, err = lease.CallStarted(b.ctx, CallStart{CallID: 2, Toolset: "t", Path: "t.wait", Durable: true})
	require.NoError(t, err)
	require.Empty(t, b.calls(t, run.ID))
	require.NoError(t, lease.CallPending(b.ctx, 2, json.RawMessage(`{"job":1}`)))
	calls := b.calls(t, run.ID)
	require.Len(t, calls, 2)
	require.Equal(t, CallRunning, calls[0].Status)
	require.Equal(t, CallPending, calls[1].Status)

	_, err = lease.CallStarted(b.ctx, CallStart{CallID: 3, Toolset: "t", Path: "t.slow"})
	require.NoError(t, err)
	require.NoError(t, lease.Checkpoint(b.ctx, Snapshot{State: []byte("s")}))
	require.Len(t, b.calls(t, run.ID), 3, "the checkpoint wrote call 3's row")
	require.NoError(t, lease.CallSettled(b.ctx, 3, toolcall.Outcome{OK: true}))
	require.Equal(t, CallSucceeded, b.calls(t, run.ID)[2].Status)
}

// A stale driver's deferred call rows are never written: the settlement is fenced.
func TestStaleDriverWritesNoDeferredCallRow(t *testing.T) {
	t.Parallel()
	b := setupWithCallDelay(t, time.Hour)
	run, lease := b.leasedRun(t)
	_, err := lease.CallStarted(b.ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.add"})
	require.NoError(t, err)
	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.ErrorIs(t, lease.CallSettled(b.ctx, 1, toolcall.Outcome{OK: true}), ErrLeaseLost)
	require.Empty(t, b.calls(t, run.ID))
}

package runengine

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// timerUntil is the instant the pending timer call callID of run id ends, from its handle.
func (b *testBundle) timerUntil(t *testing.T, id string, callID int) time.Time {
	t.Helper()
	calls, err := b.store.ListCalls(b.ctx, id)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(calls), callID)
	until, _, err := runtools.TimerWake(calls[callID-1].Handle)
	require.NoError(t, err)
	return until
}

// finishedAt is when the run ended, by the database's clock.
func (b *testBundle) finishedAt(t *testing.T, id string) time.Time {
	t.Helper()
	var at time.Time
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT finished_at FROM runs WHERE id = $1`, id).Scan(&at))
	return at
}

func (b *testBundle) dbNow(t *testing.T) time.Time {
	t.Helper()
	var now time.Time
	require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT clock_timestamp()`).Scan(&now))
	return now
}

func okValue(t *testing.T, r durable.Run) string {
	t.Helper()
	var res struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
	}
	require.NoError(t, json.Unmarshal(r.Result, &res))
	require.True(t, res.OK, "run %s: %s", r.ID, r.Result)
	return string(res.Value)
}

// TestSleepingRunsHoldNoWorkerAndSurviveKills runs worker processes that drive one run at a
// time: two runs sleep while a third is driven by the only worker, every worker is SIGKILLed
// during the sleeps, and one timer's instant passes while no worker runs. A new worker then
// finishes the overdue run at once and the other on time, both within a second.
func TestSleepingRunsHoldNoWorkerAndSurviveKills(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first := startWorkerProcess(t, b.url, "timer-a", workerProcRunsEnv+"=1")

	const code = `const r = await tools.time.sleep({ms: %d}); return r.slept;`
	long, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: fmt.Sprintf(code, 6000)})
	require.NoError(t, err)
	short, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: fmt.Sprintf(code, 1000)})
	require.NoError(t, err)
	b.waitStatus(t, long.ID, durable.StatusSuspended)
	b.waitStatus(t, short.ID, durable.StatusSuspended)
	longUntil, shortUntil := b.timerUntil(t, long.ID, 1), b.timerUntil(t, short.ID, 1)

	// The only worker, of one run at a time, drives another run while both sleep.
	plain, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return (await tools.ops.math.add({a: 1, b: 2})).sum`})
	require.NoError(t, err)
	require.Equal(t, "3", okValue(t, b.waitStatus(t, plain.ID, durable.StatusSucceeded, durable.StatusFailed)))
	require.Equal(t, durable.StatusSuspended, b.runRow(t, long.ID).status)
	first.kill(t)

	// The short timer's instant passes while no worker runs.
	waitDB(t, time.Minute, "the short timer's instant to pass", func() bool {
		return b.dbNow(t).After(shortUntil.Add(500 * time.Millisecond))
	})
	require.Equal(t, durable.StatusSuspended, b.runRow(t, short.ID).status)
	restarted := b.dbNow(t)
	require.True(t, restarted.Before(longUntil), "the long timer must still be running when the new worker starts")
	startWorkerProcess(t, b.url, "timer-b", workerProcRunsEnv+"=1")

	got := b.waitStatus(t, short.ID, durable.StatusSucceeded, durable.StatusFailed)
	require.Equal(t, "1000", okValue(t, got))
	require.WithinDuration(t, restarted, b.finishedAt(t, short.ID), time.Second, "an overdue timer fires at once on recovery")

	got = b.waitStatus(t, long.ID, durable.StatusSucceeded, durable.StatusFailed)
	require.Equal(t, "6000", okValue(t, got))
	finished := b.finishedAt(t, long.ID)
	require.False(t, finished.Before(longUntil), "the run woke before its instant: %s < %s", finished, longUntil)
	require.WithinDuration(t, longUntil, finished, time.Second, "the timer fires on time")
}

// TestApprovalWithDeadline races a durable approval against a timer: the timer wins when no
// one answers (the approval is then cancelled at the toolset), and the approval wins when it
// is answered first (the timer, fired later, is ignored).
func TestApprovalWithDeadline(t *testing.T) {
	t.Parallel()
	const code = `
const r = await Promise.race([
  tools.ops.approvals.request({reason: "deploy"}).then(a => ({approved: a.approved})),
  tools.time.sleep({ms: %d}).then(() => ({timedOut: true})),
]);
return r;`
	for _, roundTrip := range []bool{false, true} {
		t.Run(fmt.Sprintf("roundtrip=%v", roundTrip), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			w, err := durable.NewWorker(b.store, newTestEngine(Config{Egress: egress.Local(), RoundTrip: roundTrip}),
				durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
			require.NoError(t, err)
			require.NoError(t, w.Start(b.ctx))
			t.Cleanup(func() { _ = w.Stop(b.ctx) })

			timedOut, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: fmt.Sprintf(code, 1500)})
			require.NoError(t, err)
			approved, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: fmt.Sprintf(code, 2000)})
			require.NoError(t, err)

			// Approved first: the outcome is posted while the timer runs.
			r := b.waitStatus(t, approved.ID, durable.StatusSuspended)
			require.Len(t, r.Pending, 2)
			require.Equal(t, "ops.approvals.request", r.Pending[0].Path)
			_, err = b.store.RecordOutcome(b.ctx, approved.ID, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"approved": true}`)})
			require.NoError(t, err)
			require.JSONEq(t, `{"approved": true}`, okValue(t, b.waitStatus(t, approved.ID, durable.StatusSucceeded, durable.StatusFailed)))

			// No answer: the deadline passes. (On a loaded machine the run may not have made
			// its calls yet.)
			waitDB(t, 30*time.Second, "the timed-out run's timer to be pending", func() bool {
				calls, err := b.store.ListCalls(b.ctx, timedOut.ID)
				return err == nil && len(calls) >= 2 && len(calls[1].Handle) > 0
			})
			until := b.timerUntil(t, timedOut.ID, 2)
			r = b.waitStatus(t, timedOut.ID, durable.StatusSucceeded, durable.StatusFailed)
			require.JSONEq(t, `{"timedOut": true}`, okValue(t, r))
			require.False(t, b.finishedAt(t, timedOut.ID).Before(until))
			calls, err := b.store.ListCalls(b.ctx, timedOut.ID)
			require.NoError(t, err)
			require.Equal(t, durable.CallCancelled, calls[0].Status, "the approval lost the race")
			require.Equal(t, durable.CallSucceeded, calls[1].Status)
			waitDB(t, time.Minute, "the approval's cancel at the toolset", func() bool {
				for _, c := range b.tools.Handler.Cancels() {
					if c.Key == toolcall.Key(timedOut.ID, 1) {
						return true
					}
				}
				return false
			})

			// The approved run's timer fires after the run ended and changes nothing.
			waitDB(t, time.Minute, "the approved run's timer job to end", func() bool {
				var done bool
				require.NoError(t, b.store.Pool().QueryRow(b.ctx, `SELECT NOT EXISTS (SELECT 1 FROM river_job
WHERE kind = 'timer.fire' AND args->>'run_id' = $1 AND state <> 'completed')`, approved.ID).Scan(&done))
				return done
			})
			calls, err = b.store.ListCalls(b.ctx, approved.ID)
			require.NoError(t, err)
			require.Equal(t, durable.CallSucceeded, calls[0].Status)
			require.Equal(t, durable.CallCancelled, calls[1].Status, "the timer lost the race")
			require.Equal(t, durable.StatusSucceeded, b.runRow(t, approved.ID).status)
		})
	}
}

// TestTimerInputs checks tools.time's inputs in the service: sleepUntil of a passed instant
// is done at once, and invalid or too distant instants fail with InvalidToolInput.
func TestTimerInputs(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	r, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const kinds = [];
for (const input of [{ms: -1}, {ms: 1.5}, {ms: 400 * 86400000}, {at: "tomorrow"}, {at: "2999-01-01T00:00:00Z"}]) {
  try { await ("ms" in input ? tools.time.sleep(input) : tools.time.sleepUntil(input)); kinds.push("ok"); }
  catch (e) { kinds.push(e.kind); }
}
const past = await tools.time.sleepUntil({at: "2020-01-01T00:00:00Z"});
const soon = new Date(Date.now() + 300).toISOString();
const woke = await tools.time.sleepUntil({at: soon});
return {kinds, past: past.at, woke: woke.at === new Date(soon).toISOString(), late: Date.now() >= Date.parse(soon)};`})
	require.NoError(t, err)
	got := b.waitStatus(t, r.ID, durable.StatusSucceeded, durable.StatusFailed)
	require.JSONEq(t, `{"kinds": ["InvalidToolInput", "InvalidToolInput", "InvalidToolInput", "InvalidToolInput", "InvalidToolInput"],
		"past": "2020-01-01T00:00:00.000Z", "woke": true, "late": true}`, okValue(t, got))
}

// TestTimersFireOnAMeasuredWorker: a worker recording metrics (as cmd/worker and codemode dev
// do) wraps each run's host; a timer started there still gets its timer.fire job and wakes
// the run.
func TestTimersFireOnAMeasuredWorker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w, err := durable.NewWorker(b.store, newTestEngine(Config{Egress: egress.Local()}), durable.WorkerConfig{
		FetchPollInterval: 100 * time.Millisecond, Metrics: durable.NewMetrics(prometheus.NewRegistry())})
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() { _ = w.Stop(b.ctx) })
	r, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `await tools.time.sleep({ms: 300}); return "woke"`})
	require.NoError(t, err)
	got := b.waitStatus(t, r.ID, durable.StatusSucceeded, durable.StatusFailed)
	require.JSONEq(t, `"woke"`, okValue(t, got))
}

// TestToolsetNamedTimeReplacesTimers registers a toolset under the name time: runs that mount
// it get its tools under tools.time, and the built-in timers are gone.
func TestToolsetNamedTimeReplacesTimers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "time", URL: b.tools.URL, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	b.startWorker(t)
	code := `
const sum = (await tools.time.math.add({a: 1, b: 2})).sum;
try { await tools.time.sleep({ms: 10}); return "slept"; } catch (e) { return [sum, e.kind]; }`
	withTime, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: code})
	require.NoError(t, err)
	require.JSONEq(t, `[3, "UnknownTool"]`, okValue(t, b.waitStatus(t, withTime.ID, durable.StatusSucceeded, durable.StatusFailed)))

	// A run that does not mount it keeps the built-ins.
	without, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return (await tools.time.sleep({ms: 10})).slept`, Toolsets: []string{"ops"}})
	require.NoError(t, err)
	require.Equal(t, "10", okValue(t, b.waitStatus(t, without.ID, durable.StatusSucceeded, durable.StatusFailed)))
}

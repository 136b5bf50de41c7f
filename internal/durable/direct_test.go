package durable

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// A run whose client waits is driven at once by the worker of the process that stores it:
// no River job, the run's row leased to the worker from its insert, and the ended run handed
// to the waiting client as the database has it.
func TestDirectDriveRunsWithoutAJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	w := b.startWorker(t, engine)

	run, created, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1}]}`},
		30*time.Second, IsFinal)
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, StatusSucceeded, run.Status)
	require.JSONEq(t, `{"ok":true,"value":[1]}`, string(run.Result))
	require.Equal(t, 1, engine.count(toolcall.Key(run.ID, 1)))
	require.Zero(t, b.jobCount(t, "run.execute"), "no job was queued")

	stored, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, stored.Status, run.Status)
	require.JSONEq(t, string(stored.Result), string(run.Result))
	require.NotNil(t, run.FinishedAt)
	require.True(t, stored.FinishedAt.Equal(*run.FinishedAt), "finished_at %v, handed %v", stored.FinishedAt, run.FinishedAt)
	require.True(t, stored.UpdatedAt.Equal(run.UpdatedAt))
	require.True(t, stored.CreatedAt.Equal(run.CreatedAt))
	require.Equal(t, stored.Code, run.Code)

	require.Equal(t, []string{EventCreated, EventStarted, EventCallStarted, EventCallSettled, EventFinished}, b.eventTypes(t, run.ID))
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var started struct {
		Worker string `json:"worker"`
	}
	require.NoError(t, json.Unmarshal(events[1].Data, &started))
	require.Equal(t, w.ID(), started.Worker)
}

// A run that names a toolset that does not exist is refused, and nothing is stored.
func TestDirectDriveRefusesAMissingToolset(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t, newScriptEngine())
	_, err := b.store.CreateToolset(b.ctx, Toolset{Name: "present", URL: "http://toolset.invalid/"})
	require.NoError(t, err)

	_, _, err = b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[]}`, Toolsets: []string{"present", "absent"}},
		5*time.Second, IsFinal)
	require.ErrorIs(t, err, ErrToolsetNotFound)
	require.ErrorContains(t, err, "absent")
	var n int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT count(*) FROM runs").Scan(&n))
	require.Zero(t, n)

	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[]}`, Toolsets: []string{"present", "present"}},
		30*time.Second, IsFinal)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, run.Status)
}

// Past its free direct slots (or with none), a worker's process queues runs as before.
func TestDirectDriveWithoutAFreeSlotQueues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	b.startWorkerWith(t, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond, DirectRuns: 1})

	// The first run holds the only slot until the worker stops.
	blocked, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"block":true}]}`}, 50*time.Millisecond, IsFinal)
	require.NoError(t, err)
	require.Equal(t, blocked.ID, <-engine.blocked)
	require.Zero(t, b.jobCount(t, "run.execute"))

	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":2}]}`}, 30*time.Second, IsFinal)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, run.Status)
	require.Equal(t, 1, b.jobCount(t, "run.execute"), "the second run went through the queue")
}

// A run stored for a direct drive whose process then died (its lease is never heartbeated)
// is re-driven by another worker once the lease expires, with a redriven event naming both.
func TestDirectRunOfALostProcessIsRedriven(t *testing.T) {
	t.Parallel()
	b := setupWith(t, func(c *Config) { c.LeaseTTL = time.Second })
	store, pool := b.store, b.store.pool

	// What insertRunDirect stores, for a worker that dies before driving it.
	id := "6c1f1ad2-3f0c-4a53-9f4c-0d3a6c1d2e01"
	n := NewRun{Code: `{"steps":[{"tool":"t.a","args":7}]}`, Limits: json.RawMessage(`{}`)}
	stored, _, err := scanRunInsertLeased(pool.Query(b.ctx, q("RunInsertLeased"), n.Code, n.Limits, n.Toolsets, nil, nil, n.hash(), nil, id,
		"lost-worker", store.cfg.LeaseTTL.String()))
	require.NoError(t, err)
	require.Equal(t, "running", stored.Status)

	engine := newScriptEngine()
	w := b.startWorkerWith(t, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond, RedriveInterval: 100 * time.Millisecond})
	run := b.waitStatus(t, id, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[7]}`, string(run.Result))
	events, err := store.ListEvents(b.ctx, id, 0, 100)
	require.NoError(t, err)
	var redriven *Event
	for i := range events {
		if events[i].Type == EventRedriven {
			redriven = &events[i]
		}
	}
	require.NotNil(t, redriven, "events %v", b.eventTypes(t, id))
	var data struct{ From, To string }
	require.NoError(t, json.Unmarshal(redriven.Data, &data))
	require.Equal(t, "lost-worker", data.From)
	require.Equal(t, w.ID(), data.To)
}

// A direct drive that fails puts its run back on the queue (requeued event with the error),
// where a job drives it.
func TestDirectDriveFailureRequeues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := &flakyEngine{next: newScriptEngine()}
	engine.failures.Store(1)
	b.startWorker(t, engine)

	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":3}]}`}, 30*time.Second, IsFinal)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, run.Status)
	require.JSONEq(t, `{"ok":true,"value":[3]}`, string(run.Result))
	require.Equal(t, 1, b.jobCount(t, "run.redrive"))
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var requeued *Event
	for i := range events {
		if events[i].Type == EventRequeued {
			requeued = &events[i]
		}
	}
	require.NotNil(t, requeued, "events %v", b.eventTypes(t, run.ID))
	require.Contains(t, string(requeued.Data), "database briefly unreachable")
}

// A write expecting nobody to notify (a finish, a durable call's pending record, a
// suspension) commits with its statement, in one round trip; when a subscription to its
// webhook appeared since the store's last such write, the statement refuses, nothing of the
// first attempt is kept, and the write is done once the two-trip way, its webhook delivered.
func TestOneTripWriteThatFindsASubscriptionStillNotifies(t *testing.T) {
	t.Parallel()
	parked := func(status string) bool { return status == StatusSuspended || IsFinal(status) }
	const durable = `{"steps":[{"tool":"t.wait","durable":true}]}`
	const callThenDurable = `{"steps":[{"tool":"t.a","args":5},{"tool":"t.wait","durable":true}]}`
	suspendedEvents := []string{EventCreated, EventStarted, EventCallStarted, EventCallSettled, EventCallStarted,
		EventCallPending, EventSuspended}
	tests := []struct {
		name    string
		hook    string
		learned func(s *Store) *atomic.Bool // what the store learned of subscriptions
		first   string                      // a run whose write finds no subscription
		second  string                      // a run whose write finds one
		status  string                      // how the second run is left
		events  []string
	}{
		{name: "finish", hook: WebhookRunCompleted, learned: func(s *Store) *atomic.Bool { return &s.finishSubscribed },
			first: `{"steps":[]}`, second: `{"steps":[{"tool":"t.a","args":5}]}`, status: StatusSucceeded,
			events: []string{EventCreated, EventStarted, EventCallStarted, EventCallSettled, EventFinished}},
		{name: "pending", hook: WebhookCallPending, learned: func(s *Store) *atomic.Bool { return &s.pendingSubscribed },
			first: durable, second: callThenDurable, status: StatusSuspended, events: suspendedEvents},
		{name: "suspension", hook: WebhookRunSuspended, learned: func(s *Store) *atomic.Bool { return &s.suspendSubscribed },
			first: durable, second: callThenDurable, status: StatusSuspended, events: suspendedEvents},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			b.startWorker(t, newScriptEngine())
			_, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: tt.first}, 30*time.Second, parked)
			require.NoError(t, err)
			require.False(t, tt.learned(b.store).Load(), "the first write found no subscription")

			hooks, srv := newHookReceiver(t, "whsec_c2Vjb25k")
			_, err = b.store.CreateSubscription(b.ctx, Subscription{URL: srv.URL, Secret: "whsec_c2Vjb25k", Events: []string{tt.hook}})
			require.NoError(t, err)
			run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: tt.second}, 30*time.Second, parked)
			require.NoError(t, err)
			require.Equal(t, tt.status, run.Status)
			require.True(t, tt.learned(b.store).Load(), "the refused write taught the store")

			body := hooks.waitFor(t, tt.hook)
			var msg struct {
				Data struct {
					RunID      string     `json:"runId"`
					FinishedAt *time.Time `json:"finishedAt"`
				} `json:"data"`
			}
			require.NoError(t, json.Unmarshal(body, &msg))
			require.Equal(t, run.ID, msg.Data.RunID)
			if run.FinishedAt != nil {
				require.NotNil(t, msg.Data.FinishedAt)
				require.True(t, msg.Data.FinishedAt.Equal(*run.FinishedAt), "webhook %v, run %v", msg.Data.FinishedAt, run.FinishedAt)
			} else {
				require.Len(t, run.Pending, 1)
				require.JSONEq(t, `{"n":2}`, string(run.Pending[0].Handle))
			}
			require.Equal(t, tt.events, b.eventTypes(t, run.ID))
		})
	}
}

// gatedEngine finishes each run once its gate opens, after telling started.
type gatedEngine struct {
	started chan string
	gate    chan struct{}
}

func (e *gatedEngine) Start(_ context.Context, spec RunSpec, _ Host) (Outcome, error) {
	e.started <- spec.RunID
	<-e.gate
	return Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":true,"value":1}`)}, nil
}

func (e *gatedEngine) Resume(context.Context, RunSpec, Snapshot, []Settled, Host) (Outcome, error) {
	return Outcome{}, errors.New("not resumed in this test")
}

func (e *gatedEngine) CancelCall(context.Context, CallCancel) error { return nil }

// A finish sent with its COMMIT (nobody to notify) whose lease was lost meanwhile (the run
// was cancelled) writes nothing: the run stays cancelled, without a finished event.
func TestOneTripFinishAfterLostLeaseWritesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := &gatedEngine{started: make(chan string, 1), gate: make(chan struct{})}
	b.startWorker(t, engine)
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: "x"}, 50*time.Millisecond, IsFinal)
	require.NoError(t, err)
	require.Equal(t, run.ID, <-engine.started)
	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	close(engine.gate)

	// The refused finish leaves the store expecting receivers (the lease is not looked at
	// apart from them).
	require.Eventually(t, b.store.finishSubscribed.Load, 10*time.Second, 10*time.Millisecond)
	got, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, got.Status)
	require.Nil(t, got.Result)
	require.NotContains(t, b.eventTypes(t, run.ID), EventFinished)
}

// An outcome posted to a suspended run, in a process whose worker has a free direct slot,
// resumes the run at once in that process, without a job: once, however many posts race;
// two outcomes of the same suspension posted at once both reach the program.
func TestPostedOutcomesResumeDirectlyOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	w := b.startWorker(t, engine)
	parked := func(status string) bool { return status == StatusSuspended || IsFinal(status) }
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.wait","durable":true}]}`}, 30*time.Second, parked)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, run.Status)
	var wg sync.WaitGroup
	results := make(chan Recorded, 10)
	for range 10 {
		wg.Go(func() {
			got, err := b.store.RecordOutcome(b.ctx, run.ID, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)})
			require.NoError(t, err)
			results <- got
		})
	}
	wg.Wait()
	close(results)
	counts := map[Recorded]int{}
	for r := range results {
		counts[r]++
	}
	require.Equal(t, map[Recorded]int{OutcomeRecorded: 1, OutcomeDuplicate: 9}, counts)
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":["yes"]}`, string(run.Result))
	require.Zero(t, b.jobCount(t, "run.resume"))
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	resumed := 0
	for _, e := range events {
		if e.Type == EventResumed {
			resumed++
			require.Contains(t, string(e.Data), w.ID())
		}
	}
	require.Equal(t, 1, resumed)
	b.requireEndedClean(t, run.ID)

	two, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","durable":true},{"tool":"t.b","durable":true}]}`},
		30*time.Second, parked)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, two.Status)
	for id, v := range map[int]string{1: `"first"`, 2: `"second"`} {
		wg.Go(func() {
			got, err := b.store.RecordOutcome(b.ctx, two.ID, id, toolcall.Outcome{OK: true, Value: json.RawMessage(v)})
			require.NoError(t, err)
			require.Equal(t, OutcomeRecorded, got)
		})
	}
	wg.Wait()
	two = b.waitStatus(t, two.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":["first","second"]}`, string(two.Result))
	b.requireEndedClean(t, two.ID)
}

// requireEndedClean checks what the finish of a resumed run leaves: no snapshot (it is never
// resumed again) and every posted outcome marked applied.
func (b *testBundle) requireEndedClean(t *testing.T, runID string) {
	t.Helper()
	var snapshots, unapplied int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT (SELECT count(*) FROM snapshots WHERE run_id = $1),
		(SELECT count(*) FROM calls WHERE run_id = $1 AND NOT applied)`, runID).Scan(&snapshots, &unapplied))
	require.Zero(t, snapshots, "snapshots of the finished run")
	require.Zero(t, unapplied, "posted outcomes not marked applied")
}

// Cancelling a run this process drives directly (no River job to cancel) stops its drive at
// once, not at the next heartbeat.
func TestCancelStopsADirectDrive(t *testing.T) {
	t.Parallel()
	// Heartbeats every 20 s: within this test only the cancel can stop the drive.
	b := setupWith(t, func(c *Config) { c.LeaseTTL = time.Minute })
	store := b.store
	engine := newScriptEngine()
	w := b.startWorker(t, engine)

	run, _, err := store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"block":true}]}`}, 50*time.Millisecond, IsFinal)
	require.NoError(t, err)
	require.Equal(t, run.ID, <-engine.blocked)
	require.Len(t, w.live.list(), 1)
	_, err = store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(w.live.list()) == 0 }, 10*time.Second, 10*time.Millisecond,
		"the drive stopped")
	got, err := store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, got.Status)
}

// leftoverEngine starts a durable call and finishes without waiting for it.
type leftoverEngine struct{}

func (leftoverEngine) Resume(context.Context, RunSpec, Snapshot, []Settled, Host) (Outcome, error) {
	return Outcome{}, errors.New("not resumed in this test")
}

func (leftoverEngine) CancelCall(context.Context, CallCancel) error { return nil }

func (leftoverEngine) Start(ctx context.Context, _ RunSpec, host Host) (Outcome, error) {
	if _, err := host.CallStarted(ctx, CallStart{CallID: 1, Toolset: "t", Path: "t.build", Durable: true}); err != nil {
		return Outcome{}, err
	}
	if err := host.CallPending(ctx, 1, json.RawMessage(`{"build":1}`)); err != nil {
		return Outcome{}, err
	}
	return Outcome{Kind: Finished, OK: true, Result: json.RawMessage(`{"ok":true,"value":"left"}`)}, nil
}

// A one-trip finish that finds durable work to cancel is refused and redone the two-trip way:
// the call is cancelled and its call.cancel job enqueued, once.
func TestFinishThatFindsWorkToCancelStillCancelsIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t, leftoverEngine{})
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: "x"}, 30*time.Second, IsFinal)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, run.Status)
	// The one-trip finish was tried first (no webhook, no subscription): only its refusal
	// and the two-trip redo enqueue the call.cancel job.
	calls, err := b.store.ListCalls(b.ctx, run.ID)
	require.NoError(t, err)
	require.Len(t, calls, 1)
	require.Equal(t, CallCancelled, calls[0].Status)
	require.Equal(t, 1, b.jobCount(t, "call.cancel"))
	require.Equal(t, []string{EventCreated, EventStarted, EventCallStarted, EventCallPending, EventFinished}, b.eventTypes(t, run.ID))
}

// A direct drive is bounded by the drive timeout like a job's: it yields at its next safe
// point and a job continues the run from there, while the client still waits for its end.
func TestDirectDriveTimeoutYieldsAndAJobContinues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	b.startWorkerWith(t, engine, WorkerConfig{FetchPollInterval: 100 * time.Millisecond, DriveTimeout: time.Second})

	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1},{"block":true},{"tool":"t.b","args":2}]}`},
		30*time.Second, IsFinal)
	require.NoError(t, err)
	require.Equal(t, StatusSucceeded, run.Status)
	require.JSONEq(t, `{"ok":true,"value":[1,null,2]}`, string(run.Result))
	require.Equal(t, 1, engine.count(toolcall.Key(run.ID, 1)), "continued from the yield's checkpoint")
	require.Equal(t, 1, b.jobCount(t, "run.resume"), "the rest was driven by a job")
	require.Contains(t, b.eventTypes(t, run.ID), EventYielded)
}

// An outcome posted to a process with a free direct slot is recorded in one round trip
// (recordOutcomeDirect) and meets what a post through the queue meets: duplicates answered,
// conflicts and unknown runs and calls refused, nothing written for them.
func TestRecordOutcomeDirect(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := newScriptEngine()
	b.startWorker(t, engine)
	parked := func(status string) bool { return status == StatusSuspended || IsFinal(status) }
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":4},{"tool":"t.wait","durable":true}]}`},
		30*time.Second, parked)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, run.Status)
	require.Len(t, run.Pending, 1)
	require.Equal(t, 2, run.Pending[0].CallID)

	ok := toolcall.Outcome{OK: true, Value: json.RawMessage(`{"a": 1, "b": 2}`)}
	tests := []struct {
		name    string
		runID   string
		callID  int
		outcome toolcall.Outcome
		want    Recorded
		wantErr error
	}{
		{name: "unknown run", runID: "6f1d3f4e-0000-4000-8000-000000000000", callID: 2, outcome: ok, wantErr: ErrRunNotFound},
		{name: "unknown call", callID: 99, outcome: ok, wantErr: ErrCallNotFound},
		{name: "plain call settled inline", callID: 1, outcome: ok, wantErr: ErrOutcomeConflict},
		{name: "first outcome", callID: 2, outcome: ok, want: OutcomeRecorded},
		{name: "same outcome again", callID: 2, outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`{"b":2,"a":1}`)}, want: OutcomeDuplicate},
		{name: "different outcome", callID: 2, outcome: toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "no"}}, wantErr: ErrOutcomeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := cmp.Or(tt.runID, run.ID)
			got, err := b.store.RecordOutcome(b.ctx, id, tt.callID, tt.outcome)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	run = b.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[4,{"a":1,"b":2}]}`, string(run.Result))
	require.Zero(t, b.jobCount(t, "run.resume"))
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	var settled []string
	for _, e := range events {
		if e.Type == EventCallSettled {
			settled = append(settled, string(e.Data))
		}
	}
	require.Len(t, settled, 2, "the inline call's and the posted outcome's, once")
	require.JSONEq(t, `{"callId":2,"ok":true,"posted":true}`, settled[1])
	b.requireEndedClean(t, run.ID)
	// Every post gave its slot back.
	require.Eventually(t, func() bool { return len(b.store.direct.Load().direct.slots) == 0 }, 10*time.Second, 10*time.Millisecond)
}

// A suspension with nobody to notify commits in one round trip, the release listing the
// pending calls in the suspended event as the two-trip way does. (With outcomes posted while
// the program ran, the release refuses and the suspension is redone the two-trip way, which
// enqueues their resume: TestOutcomeWhileRunningResumesAfterSuspend.)
func TestOneTripSuspension(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := b.startWorker(t, newScriptEngine())
	parked := func(status string) bool { return status == StatusSuspended || IsFinal(status) }
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1},{"tool":"t.x","durable":true},{"tool":"t.y","durable":true}]}`},
		30*time.Second, parked)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, run.Status)
	require.False(t, b.store.suspendSubscribed.Load(), "the suspension found no subscription")
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 100)
	require.NoError(t, err)
	last := events[len(events)-1]
	require.Equal(t, EventSuspended, last.Type)
	var bytes int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT octet_length(header) + octet_length(state) FROM snapshots WHERE run_id = $1", run.ID).Scan(&bytes))
	// As stored: compact, keys sorted, like every other event's data.
	require.Equal(t, fmt.Sprintf(`{"bytes":%d,"pending":[2,3],"seq":1,"worker":%q}`, bytes, w.ID()), string(last.Data))
	require.Equal(t, []string{EventCreated, EventStarted, EventCallStarted, EventCallSettled, EventCallStarted, EventCallPending,
		EventCallStarted, EventCallPending, EventSuspended}, b.eventTypes(t, run.ID))
	// The run's row as the suspension left it: parked, its lease released, its one snapshot
	// the latest, its event sequence at its last event.
	var (
		status               string
		owner                *string
		expires              *time.Time
		snapshotSeq, crashes int
		eventSeq, snapshots  int
	)
	require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT status, lease_owner, lease_expires_at, snapshot_seq, crashes, event_seq,
		(SELECT count(*) FROM snapshots WHERE run_id = $1) FROM runs WHERE id = $1`, run.ID).
		Scan(&status, &owner, &expires, &snapshotSeq, &crashes, &eventSeq, &snapshots))
	require.Equal(t, StatusSuspended, status)
	require.Nil(t, owner)
	require.Nil(t, expires)
	require.Equal(t, []int{1, 0, len(events), 1}, []int{snapshotSeq, crashes, eventSeq, snapshots})
}

// A wait on a run that a drive of this process holds counts on that drive: the run is not
// marked waited on (a write), and its end answers the wait at once.
func TestWaitOnARunDrivenHereMarksNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	engine := &gatedEngine{started: make(chan string, 1), gate: make(chan struct{})}
	b.startWorker(t, engine)
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[]}`}, 50*time.Millisecond, IsFinal)
	require.NoError(t, err)
	require.Equal(t, run.ID, <-engine.started)
	require.Equal(t, StatusRunning, run.Status)

	done := b.waitChange(run.ID)
	require.Never(t, func() bool { return b.statusWatched(t, run.ID) }, 300*time.Millisecond, 20*time.Millisecond,
		"a run driven here is not marked waited on")
	close(engine.gate)
	got := <-done
	require.NoError(t, got.err)
	require.Equal(t, StatusSucceeded, got.run.Status)
	require.False(t, b.statusWatched(t, run.ID), "the run was never marked")
	// The end the drive committed, as the database has it.
	stored, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.JSONEq(t, string(stored.Result), string(got.run.Result))
	require.True(t, stored.FinishedAt.Equal(*got.run.FinishedAt), "finished_at %v, handed %v", stored.FinishedAt, got.run.FinishedAt)
	require.True(t, stored.UpdatedAt.Equal(got.run.UpdatedAt))
	require.Equal(t, stored.SnapshotSeq, got.run.SnapshotSeq)
	require.Equal(t, stored.Lineage, got.run.Lineage)
	require.Empty(t, got.run.Pending)
	require.Equal(t, stored.Code, got.run.Code)
}

// A wait that follows an outcome posted to this process (which resumes the run directly)
// counts on the resume's drive from the outcome's answer on.
func TestWaitAfterADirectResumeMarksNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t, newScriptEngine())
	parked := func(status string) bool { return status == StatusSuspended || IsFinal(status) }
	for range 5 {
		run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[{"tool":"t.wait","durable":true}]}`}, 30*time.Second, parked)
		require.NoError(t, err)
		require.Equal(t, StatusSuspended, run.Status)
		got, err := b.store.RecordOutcome(b.ctx, run.ID, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)})
		require.NoError(t, err)
		require.Equal(t, OutcomeRecorded, got)
		waited := <-b.waitChange(run.ID)
		require.NoError(t, waited.err)
		if waited.run.Status == StatusRunning {
			waited = <-b.waitChange(run.ID) // read before the resume ended
			require.NoError(t, waited.err)
		}
		require.Equal(t, StatusSucceeded, waited.run.Status)
		require.JSONEq(t, `{"ok":true,"value":["yes"]}`, string(waited.run.Result))
		require.False(t, b.statusWatched(t, run.ID), "the run was never marked")
		// Answered from the resume's read of the run and the end its drive committed: as the
		// database has the run.
		stored, err := b.store.GetRun(b.ctx, run.ID)
		require.NoError(t, err)
		require.Equal(t, stored.Code, waited.run.Code)
		require.JSONEq(t, string(stored.Limits), string(waited.run.Limits))
		require.True(t, stored.CreatedAt.Equal(waited.run.CreatedAt))
		require.True(t, stored.UpdatedAt.Equal(waited.run.UpdatedAt), "updated_at %v, handed %v", stored.UpdatedAt, waited.run.UpdatedAt)
		require.True(t, stored.FinishedAt.Equal(*waited.run.FinishedAt))
		require.Equal(t, stored.SnapshotSeq, waited.run.SnapshotSeq)
		require.Equal(t, stored.Lineage, waited.run.Lineage)
		require.Empty(t, waited.run.Pending)
	}
}

// A wait on a run driven here still sees a change made elsewhere (another process's cancel,
// which nothing here announces) within a heartbeat interval.
func TestWaitOnARunDrivenHereSeesChangesMadeElsewhere(t *testing.T) {
	t.Parallel()
	b := setupWith(t, func(c *Config) { c.LeaseTTL = 3 * time.Second }) // heartbeats every second
	engine := &gatedEngine{started: make(chan string, 1), gate: make(chan struct{})}
	b.startWorker(t, engine)
	t.Cleanup(func() { close(engine.gate) }) // before the worker stops
	run, _, err := b.store.CreateRunWait(b.ctx, NewRun{Code: `{"steps":[]}`}, 50*time.Millisecond, IsFinal)
	require.NoError(t, err)
	require.Equal(t, run.ID, <-engine.started)

	done := b.waitChange(run.ID)
	other, err := New(b.store.pool, b.store.cfg)
	require.NoError(t, err)
	t.Cleanup(other.Close)
	time.Sleep(100 * time.Millisecond) // the wait has read the run
	cancelAt := time.Now()
	_, err = other.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	got := <-done
	require.NoError(t, got.err)
	require.Equal(t, StatusCancelled, got.run.Status)
	require.Less(t, got.at.Sub(cancelAt), 3*time.Second, "seen within a heartbeat interval (1 s) and a margin")
	t.Logf("the cancel was seen after %s", got.at.Sub(cancelAt))
}

// waitResult is what a WaitRunChange in the background returned, and when.
type waitResult struct {
	run Run
	err error
	at  time.Time
}

// waitChange starts WaitRunChange on run id (for 30 s) in the background.
func (b *testBundle) waitChange(id string) chan waitResult {
	done := make(chan waitResult, 1)
	go func() {
		run, err := b.store.WaitRunChange(b.ctx, id, 30*time.Second)
		done <- waitResult{run, err, time.Now()}
	}()
	return done
}

// statusWatched reports whether run id is marked waited on (RunMarkStatusWatched).
func (b *testBundle) statusWatched(t *testing.T, id string) bool {
	var marked bool
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT status_watched_until IS NOT NULL FROM runs WHERE id = $1", id).Scan(&marked))
	return marked
}

// A direct drive that suspends its run in one round trip hands the run, read in the
// suspension's transaction, to the client waiting on its creation: as the database has it.
func TestDirectSuspensionIsHandedToTheCreationsWait(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := b.startWorker(t, newScriptEngine())
	require.True(t, w.reserveDirect(0))
	run, ended, err := b.store.insertRunDirect(b.ctx, uuid.NewString(), NewRun{Code: `{"steps":[{"tool":"t.wait","durable":true}]}`,
		Limits: json.RawMessage(`{}`)}, w)
	require.NoError(t, err)
	parked, ok := waitEnded(b.ctx, ended, time.Now().Add(30*time.Second))
	require.True(t, ok, "the suspension was handed over")
	require.Equal(t, StatusSuspended, parked.Status)
	stored, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, stored, parked)
	require.Len(t, parked.Pending, 1)
	require.Equal(t, toolcall.Key(run.ID, 1), parked.Pending[0].Key)
}

// The insert of a directly driven run reads the toolsets the run may use as ToolsetListOfRun
// reads them for any later drive: the same rows, in the same order, with no toolset, all of
// them (a run naming none) or the named ones.
func TestRunInsertLeasedReadsTheToolsetsAsTheListDoes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	store, pool := b.store, b.store.pool
	insert := func(names []string) []toolsetRow {
		t.Helper()
		id := uuid.NewString()
		n := NewRun{Code: "1", Limits: json.RawMessage(`{}`), Toolsets: names}
		stored, found, err := scanRunInsertLeased(pool.Query(b.ctx, q("RunInsertLeased"), n.Code, n.Limits, n.Toolsets, nil, nil,
			n.hash(), nil, id, "a-worker", store.cfg.LeaseTTL.String()))
		require.NoError(t, err)
		require.Equal(t, id, stored.ID)
		rows, err := pool.Query(b.ctx, q("ToolsetListOfRun"), id)
		require.NoError(t, err)
		listed, err := pgx.CollectRows(rows, scanRunToolset)
		require.NoError(t, err)
		if len(listed) == 0 {
			require.Empty(t, found, "toolsets of a run naming %v", names)
		} else {
			require.Equal(t, listed, found, "toolsets of a run naming %v", names)
		}
		return found
	}
	require.Empty(t, insert(nil), "no toolset yet")

	for _, ts := range []Toolset{
		{Name: "zeta", URL: "http://127.0.0.1:1/z", Secret: "s", Manifest: json.RawMessage(`{"tools":[{"path":"a"}]}`)},
		{Name: "al", URL: "http://127.0.0.1:1/a", Description: "short name"},
		{Name: "beta", URL: "http://127.0.0.1:1/b", Manifest: json.RawMessage(`{"tools":[{"path":"b"}]}`)},
	} {
		_, err := store.CreateToolset(b.ctx, ts)
		require.NoError(t, err)
	}
	all := insert(nil)
	require.Len(t, all, 3)
	require.ElementsMatch(t, []string{"zeta", "al", "beta"}, []string{all[0].Name, all[1].Name, all[2].Name})
	named := insert([]string{"zeta", "beta"})
	require.Len(t, named, 2)
	require.JSONEq(t, `{"tools":[{"path":"a"}]}`, string(named[slices.IndexFunc(named, func(r toolsetRow) bool { return r.Name == "zeta" })].Manifest))
	require.Empty(t, insert([]string{}), "a run naming an empty list may use no toolset")

	_, found, err := scanRunInsertLeased(pool.Query(b.ctx, q("RunInsertLeased"), "1", json.RawMessage(`{}`), []string{"zeta", "gone"},
		nil, nil, "h", nil, uuid.NewString(), "a-worker", store.cfg.LeaseTTL.String()))
	require.ErrorIs(t, err, pgx.ErrNoRows, "a missing toolset stores nothing")
	require.Nil(t, found)
}

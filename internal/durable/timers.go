package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/codemode/codemode/internal/toolcall"
)

// QueueTimers is the queue of timer.fire jobs: a queue of their own, so that timers fire on
// time however busy the runs and delivery queues are.
const QueueTimers = "timers"

// TimerArgs is the timer.fire job: at the instant a durable timer (tools.time.sleep,
// tools.time.sleepUntil) ends, post its outcome, which resumes the run. Unique per call.
type TimerArgs struct {
	// RunID and CallID name the timer's call.
	RunID  string `json:"run_id" river:"unique"`
	CallID int    `json:"call_id" river:"unique"`
	// Output is what the call succeeds with.
	Output json.RawMessage `json:"output"`
}

// Kind implements river.JobArgs.
func (TimerArgs) Kind() string { return "timer.fire" }

// InsertOpts makes the job unique per call.
func (TimerArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueTimers, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// TimerPending implements Host. It commits synchronously (not as the journal does): the
// instant is fixed when the timer starts, so a lost record would restart the timer later.
//
// The timer.fire job is stored available with its scheduled_at in the future rather than in
// River's scheduled state: River makes scheduled jobs available only from its leader, every 5
// seconds, and after a crash of the leader a new one is elected only when its lease expires
// (some 15 seconds), whereas any worker fetches an available job as soon as its scheduled_at
// has passed (River fetches only such jobs), at its next fetch poll. A timer then fires within
// WorkerConfig.FetchPollInterval of its instant, also on a worker started just after every
// other was killed, and at once on recovery when the instant passed while none was running.
func (l *Lease) TimerPending(ctx context.Context, callID int, handle json.RawMessage, until time.Time, output json.RawMessage) error {
	handle = storable(handle)
	err := l.fenced(ctx, func(tx pgx.Tx, _ int) error {
		if _, err := tx.Exec(ctx, q("CallSetPending"), l.runID, callID, handle); err != nil {
			return fmt.Errorf("mark call pending: %w", err)
		}
		if err := addEvent(ctx, tx, l.runID, EventCallPending, map[string]any{"callId": callID, "timer": until.UTC()}); err != nil {
			return err
		}
		res, err := l.store.river.InsertTx(ctx, tx, TimerArgs{RunID: l.runID, CallID: callID, Output: output},
			&river.InsertOpts{ScheduledAt: until})
		if err != nil {
			return fmt.Errorf("enqueue timer.fire: %w", err)
		}
		if res.UniqueSkippedAsDuplicate {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE river_job SET state = 'available' WHERE id = $1 AND state = 'scheduled'`, res.Job.ID); err != nil {
			return fmt.Errorf("make timer.fire available: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("timer %s pending: %w", toolcall.Key(l.runID, int64(callID)), err)
	}
	return nil
}

// fireTimer posts a timer's outcome, as a client posting a durable call's outcome does: the
// run resumes if it is suspended, or takes the outcome when it suspends. A timer whose run
// ended (its call then cancelled) or was deleted is ignored.
func (s *Store) fireTimer(ctx context.Context, args TimerArgs) error {
	_, err := s.RecordOutcome(ctx, args.RunID, args.CallID, toolcall.Outcome{OK: true, Value: args.Output})
	if errors.Is(err, ErrOutcomeConflict) || errors.Is(err, ErrRunNotFound) || errors.Is(err, ErrCallNotFound) {
		s.cfg.Logger.DebugContext(ctx, "timer of a call no longer pending ignored", "run_id", args.RunID, "call_id", args.CallID, "error", err)
		return nil
	}
	return err
}

// timerWorkers is how many timer.fire jobs a worker runs at once: each is one short
// transaction.
const timerWorkers = 10

package durable

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/toolcall"
)

// Call statuses.
const (
	CallRunning   = "running"
	CallPending   = "pending"
	CallSucceeded = "succeeded"
	CallFailed    = "failed"
	CallCancelled = "cancelled"
)

// Call is one tool call of a run.
type Call struct {
	CallID    int
	Key       string // "<runId>:<callId>"
	Toolset   string
	Path      string
	Args      json.RawMessage
	Durable   bool
	Status    string
	Handle    json.RawMessage   // durable calls once started
	Outcome   *toolcall.Outcome // once settled
	StartedAt time.Time
	SettledAt *time.Time
}

// scanCall reads a call row. Its JSON columns are scanned through *[]byte: pgx copies JSON
// into a []byte as it is, where a json.RawMessage target goes through json.Unmarshal, which
// validates again what PostgreSQL validated (the same holds for every JSON column read into a
// json.RawMessage here).
func scanCall(r pgx.Row) (Call, error) {
	var c callColumns
	if err := r.Scan(c.dest()...); err != nil {
		return Call{}, err
	}
	return c.call()
}

// callColumns are the columns of a call row, in the order every statement returning calls
// lists them.
type callColumns struct {
	c       Call
	outcome []byte
}

func (cc *callColumns) dest() []any {
	c := &cc.c
	return []any{&c.CallID, &c.Key, &c.Toolset, &c.Path, (*[]byte)(&c.Args), &c.Durable, &c.Status, (*[]byte)(&c.Handle),
		&cc.outcome, &c.StartedAt, &c.SettledAt}
}

func (cc *callColumns) call() (Call, error) {
	c := cc.c
	if cc.outcome != nil {
		c.Outcome = &toolcall.Outcome{}
		if err := json.Unmarshal(cc.outcome, c.Outcome); err != nil {
			return Call{}, fmt.Errorf("decode outcome of call %s: %w", c.Key, err)
		}
	}
	return c, nil
}

// ListCalls returns every call of a run in call order, or ErrRunNotFound.
func (s *Store) ListCalls(ctx context.Context, runID string) ([]Call, error) {
	if err := s.runExists(ctx, runID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, q("CallList"), runID)
	if err != nil {
		return nil, fmt.Errorf("list calls of run %s: %w", runID, err)
	}
	calls, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Call, error) { return scanCall(r) })
	if err != nil {
		return nil, fmt.Errorf("list calls of run %s: %w", runID, err)
	}
	return calls, nil
}

// Recorded says what RecordOutcome did.
type Recorded int

const (
	// OutcomeRecorded: the outcome was stored (and the resume scheduled if the run waits).
	OutcomeRecorded Recorded = iota + 1
	// OutcomeDuplicate: the same outcome was already stored; nothing changed.
	OutcomeDuplicate
)

// RecordOutcome stores the outcome of a pending durable call and, when the run is suspended,
// enqueues its run.resume job in the same transaction (unique per run and snapshot sequence,
// so duplicate or concurrent posts never resume twice). A run still running picks the outcome
// up when it suspends. Errors: ErrRunNotFound, ErrCallNotFound, ErrOutcomeConflict, and
// toolcall.ErrInvalidOutcome for an outcome that is not well formed (Outcome.Validate).
func (s *Store) RecordOutcome(ctx context.Context, runID string, callID int, o toolcall.Outcome) (Recorded, error) {
	if _, err := uuid.Parse(runID); err != nil {
		return 0, fmt.Errorf("%w: %s", ErrRunNotFound, runID)
	}
	if callID < 1 || callID > math.MaxInt32 { // call ids are PostgreSQL integers
		if err := s.runExists(ctx, runID); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%w: %s", ErrCallNotFound, toolcall.Key(runID, int64(callID)))
	}
	// A malformed outcome, stored, would be refused by the resume it starts.
	if err := o.Validate(); err != nil {
		return 0, err
	}
	encoded, err := json.Marshal(o)
	if err != nil {
		return 0, fmt.Errorf("encode outcome: %w", err)
	}
	encoded = storable(encoded)
	// A suspended run is resumed by this process's worker when it has a free direct slot
	// (direct.go): leased in the outcome's transaction instead of a run.resume job enqueued.
	if direct := s.direct.Load(); direct != nil && direct.reserveDirect(0) {
		return s.recordOutcomeDirect(ctx, runID, callID, o, encoded, direct)
	}
	var result Recorded
	// A pipelined transaction (pipeTx): BEGIN, the run's lock and the look-up of the call in
	// one round trip (the look-up a statement of its own, so that it sees what a writer the
	// lock waited for committed); the writes, River's job when the run waits, and COMMIT in one
	// more (two when a job is enqueued).
	err = s.inPipe(ctx, func(tx *pipeTx) error {
		var (
			runStatus string
			seq       int
			fence     int64
			found     bool
			status    string
			handle    []byte
			current   []byte
		)
		tx.queueRow(func(r pgx.Row) error {
			err := r.Scan(&runStatus, &seq, &fence)
			found = err == nil
			if isNoRows(err) {
				return nil
			}
			return err
		}, q("RunLockForUpdate"), runID)
		err := tx.QueryRow(ctx, q("CallGetForUpdate"), runID, callID).Scan(&status, &handle, &current)
		if !found && (err == nil || isNoRows(err)) {
			return fmt.Errorf("%w: %s", ErrRunNotFound, runID)
		}
		if isNoRows(err) {
			return fmt.Errorf("%w: %s", ErrCallNotFound, toolcall.Key(runID, int64(callID)))
		}
		if err != nil {
			return fmt.Errorf("lock run and call: %w", err)
		}
		if result, err = settledBefore(runID, callID, status, current, encoded); result != 0 || err != nil {
			return err
		}
		callStatus := CallSucceeded
		if !o.OK {
			callStatus = CallFailed
		}
		if _, err := tx.Exec(ctx, q("CallSettle"), runID, callID, callStatus, encoded, false); err != nil {
			return fmt.Errorf("settle call: %w", err)
		}
		if err := addEvent(ctx, tx, runID, EventCallSettled, postedEvent(callID, o)); err != nil {
			return err
		}
		if runStatus == StatusSuspended {
			if _, err := s.river.InsertTx(ctx, tx, ResumeArgs{RunID: runID, Seq: seq}, nil); err != nil {
				return fmt.Errorf("enqueue run.resume: %w", err)
			}
		}
		result = OutcomeRecorded
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("record outcome: %w", unstorable(err))
	}
	return result, nil
}

// postedEvent is the data of a posted outcome's call.settled event.
func postedEvent(callID int, o toolcall.Outcome) map[string]any {
	return map[string]any{"callId": callID, "ok": o.OK, "posted": true}
}

// settledBefore says what a post of outcome encoded to call callID of run runID, found with
// status and stored outcome current under the locks, meets: OutcomeDuplicate when the same
// outcome is stored, ErrOutcomeConflict when another is or the call is not pending, and 0
// when the call waits for it.
func settledBefore(runID string, callID int, status string, current, encoded []byte) (Recorded, error) {
	if current != nil {
		if sameOutcome(current, encoded) {
			return OutcomeDuplicate, nil
		}
		return 0, fmt.Errorf("%w: %s", ErrOutcomeConflict, toolcall.Key(runID, int64(callID)))
	}
	if status != CallPending {
		return 0, fmt.Errorf("%w: call %s is %s", ErrOutcomeConflict, toolcall.Key(runID, int64(callID)), status)
	}
	return 0, nil
}

// recordOutcomeDirect is RecordOutcome in a process whose worker w has a free direct slot
// (reserved by the caller): one round trip. BEGIN, the run's lock, the look-up of the call (a
// statement of its own, so that it sees what a writer the lock waited for committed), the
// writes in one statement that settles the call only when it is pending without an outcome
// and, when the run is suspended, leases it to w (CallSettlePosted), the reads of what the
// resume's drive needs (queueDriveInput) and of the run as it is then (for the waits that
// follow, see drivenRuns), and COMMIT are sent together; what the post met is
// decided from the answers, and w resumes the run at once when it was leased.
func (s *Store) recordOutcomeDirect(ctx context.Context, runID string, callID int, o toolcall.Outcome, encoded []byte,
	w *Worker) (Recorded, error) {
	eventRaw, err := eventData(EventCallSettled, postedEvent(callID, o))
	if err != nil {
		w.releaseDirect()
		return 0, err
	}
	callStatus := CallSucceeded
	if !o.OK {
		callStatus = CallFailed
	}
	var (
		runFound, callFound, settled, leased bool
		status                               string
		current                              []byte
		r                                    directResume
		view                                 Run // the run after the lease, with its pending calls and lineage
	)
	err = s.inPipe(ctx, func(tx *pipeTx) error {
		runFound, callFound, settled, leased = false, false, false, false
		tx.queueRow(func(row pgx.Row) error {
			var (
				runStatus string
				seq       int
				fence     int64
			)
			return foundRow(&runFound, row.Scan(&runStatus, &seq, &fence))
		}, q("RunLockForUpdate"), runID)
		tx.queueRow(func(row pgx.Row) error {
			var handle []byte
			return foundRow(&callFound, row.Scan(&status, &handle, &current))
		}, q("CallGetForUpdate"), runID, callID)
		tx.queueRow(func(row pgx.Row) error {
			return foundRow(&settled, row.Scan(&leased, &r.fence, &r.seq, &r.from, &r.crashes))
		}, q("CallSettlePosted"), runID, callID, callStatus, encoded, eventRaw, w.id, s.cfg.LeaseTTL.String())
		tx.queueRead(func(b *pgx.Batch) { queueDriveInput(b, runID) }, func(br pgx.BatchResults) error {
			if leased {
				return r.input.read(br)
			}
			// Not resumed here: the answers are not needed.
			if _, err := br.Exec(); err != nil {
				return err
			}
			_, err := br.Exec()
			return err
		})
		// The run as the API shows it, leased: a wait that follows starts from it (drivenRuns).
		queueRunPending(tx, runID, func() bool { return leased }, func(r Run) { view = r })
		return nil
	})
	if err != nil || !settled || !leased {
		w.releaseDirect()
	}
	if err != nil {
		return 0, fmt.Errorf("record outcome: %w", unstorable(err))
	}
	if settled {
		if leased {
			// Driven here from now on, before the poster hears of it: a wait that follows
			// counts on the drive (see drivenRuns).
			s.drivenHere.add(runID, &view)
			go w.resumeDirect(runID, r)
		}
		return OutcomeRecorded, nil
	}
	switch {
	case !runFound:
		return 0, fmt.Errorf("%w: %s", ErrRunNotFound, runID)
	case !callFound:
		return 0, fmt.Errorf("%w: %s", ErrCallNotFound, toolcall.Key(runID, int64(callID)))
	}
	result, err := settledBefore(runID, callID, status, current, encoded)
	if result == 0 && err == nil {
		// Pending without an outcome under the locks, yet not settled: never expected.
		err = fmt.Errorf("%w: call %s was not settled", ErrOutcomeConflict, toolcall.Key(runID, int64(callID)))
	}
	if err != nil {
		return 0, fmt.Errorf("record outcome: %w", err)
	}
	return result, nil
}

// foundRow sets found to whether a one-row scan found its row, and returns the scan's error
// but for no row.
func foundRow(found *bool, err error) error {
	*found = err == nil
	if isNoRows(err) {
		return nil
	}
	return err
}

// sameOutcome compares two encoded outcomes as JSON values (key order and spacing ignored).
func sameOutcome(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(a, b)
	}
	ea, _ := json.Marshal(va)
	eb, _ := json.Marshal(vb)
	return bytes.Equal(ea, eb)
}

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
// up when it suspends. Errors: ErrRunNotFound, ErrCallNotFound, ErrOutcomeConflict.
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
	encoded, err := json.Marshal(o)
	if err != nil {
		return 0, fmt.Errorf("encode outcome: %w", err)
	}
	encoded = storable(encoded)
	var result Recorded
	// A suspended run is resumed by this process's worker when it has a free direct slot
	// (direct.go): leased in this transaction instead of a run.resume job enqueued.
	direct := s.direct.Load()
	if direct != nil && !direct.reserveDirect(0) {
		direct = nil
	}
	var resume *directResume // the lease taken for direct's resume
	// A pipelined transaction (pipeTx): BEGIN, the run's lock and the look-up of the call in
	// one round trip (the look-up a statement of its own, so that it sees what a writer the
	// lock waited for committed); the writes, River's job (or the lease) when the run waits,
	// and COMMIT in one more (two when a job is enqueued). A direct resume's lease comes with
	// the reads of what its drive needs (queueDriveInput).
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
		if current != nil {
			if sameOutcome(current, encoded) {
				result = OutcomeDuplicate
				return nil
			}
			return fmt.Errorf("%w: %s", ErrOutcomeConflict, toolcall.Key(runID, int64(callID)))
		}
		if status != CallPending {
			return fmt.Errorf("%w: call %s is %s", ErrOutcomeConflict, toolcall.Key(runID, int64(callID)), status)
		}
		callStatus := CallSucceeded
		if !o.OK {
			callStatus = CallFailed
		}
		if _, err := tx.Exec(ctx, q("CallSettle"), runID, callID, callStatus, encoded, false); err != nil {
			return fmt.Errorf("settle call: %w", err)
		}
		if err := addEvent(ctx, tx, runID, EventCallSettled, map[string]any{"callId": callID, "ok": o.OK, "posted": true}); err != nil {
			return err
		}
		if runStatus == StatusSuspended && direct != nil {
			// The lease commits with the outcome, waiting for the disk like it.
			// So do the reads of what the drive needs, which see the outcome: the drive
			// starts without another round trip.
			r := &directResume{seq: seq}
			tx.queueRow(func(row pgx.Row) error {
				return row.Scan(&r.fence, &r.seq, &r.from, &r.crashes)
			}, q("RunLeaseResume"), runID, nil, s.cfg.LeaseTTL.String(), direct.id, seq, nil)
			tx.queueRead(func(b *pgx.Batch) { queueDriveInput(b, runID) }, func(br pgx.BatchResults) error {
				if err := r.input.read(br); err != nil {
					return err
				}
				resume = r
				return nil
			})
		} else if runStatus == StatusSuspended {
			if _, err := s.river.InsertTx(ctx, tx, ResumeArgs{RunID: runID, Seq: seq}, nil); err != nil {
				return fmt.Errorf("enqueue run.resume: %w", err)
			}
		}
		result = OutcomeRecorded
		return nil
	})
	if direct != nil {
		if err == nil && resume != nil {
			go direct.resumeDirect(runID, *resume)
		} else {
			direct.releaseDirect()
		}
	}
	if err != nil {
		return 0, fmt.Errorf("record outcome: %w", unstorable(err))
	}
	return result, nil
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

package durable

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

var (
	// ErrNotRetryable: only a failed or cancelled run can be retried.
	ErrNotRetryable = errors.New("run not retryable")
	// ErrForkPointNotFound: the run's history names no snapshot with that sequence number, or
	// no settlement of that call (never taken or settled, or its events were deleted by
	// retention).
	ErrForkPointNotFound = errors.New("fork point not found in the run's history")
)

// Event types of lineage.
const (
	// EventLineage opens the history of a run started from another: data has retriedFrom, or
	// forkedFrom, fromSnapshot or afterCall, and replayedCalls.
	EventLineage = "lineage"
	// EventDerived is added to a run's history when another run is started from it: data has
	// runId (the new run) and as ("retry" or "fork").
	EventDerived = "derived"
)

// Lineage says where a run came from and which runs were started from it.
type Lineage struct {
	// RetriedFrom is the run this one retries; empty if none.
	RetriedFrom string
	// ForkedFrom is the run this one was forked from, at snapshot ForkedFromSeq (0: from its
	// start) or, when ForkedAfterCall is above 0, right after that call settled, with
	// ReplayedCalls of its calls answered from that run's records.
	ForkedFrom      string
	ForkedFromSeq   int
	ForkedAfterCall int
	ReplayedCalls   int
	// ScheduleID is the schedule that started this run at its tick ScheduledFor; empty if none.
	ScheduleID   string
	ScheduledFor *time.Time
	// Derived are the runs retried or forked from this one.
	Derived []string
}

// RunLineage returns the lineage of a run, or ErrRunNotFound.
// One statement reads it and tells whether the run exists.
func (s *Store) RunLineage(ctx context.Context, runID string) (Lineage, error) {
	if _, err := uuid.Parse(runID); err != nil {
		return Lineage{}, fmt.Errorf("%w: %s", ErrRunNotFound, runID)
	}
	var c lineageColumns
	if err := s.pool.QueryRow(ctx, q("LineageGet"), runID).Scan(c.dest()...); err != nil {
		if isNoRows(err) {
			return Lineage{}, fmt.Errorf("%w: %s", ErrRunNotFound, runID)
		}
		return Lineage{}, fmt.Errorf("lineage of run %s: %w", runID, err)
	}
	return c.lineage(), nil
}

// lineageColumns are the columns of LineageGet (also read by RunGetPending).
type lineageColumns struct {
	retried, forked, schedule *uuid.UUID
	seq, afterCall            *int
	replayed                  int
	scheduledFor              *time.Time
	derived                   []uuid.UUID
}

func (c *lineageColumns) dest() []any {
	return []any{&c.retried, &c.forked, &c.seq, &c.afterCall, &c.replayed, &c.schedule, &c.scheduledFor, &c.derived}
}

func (c *lineageColumns) lineage() Lineage {
	l := Lineage{ReplayedCalls: c.replayed, ScheduledFor: c.scheduledFor}
	if c.retried != nil {
		l.RetriedFrom = c.retried.String()
	}
	if c.forked != nil {
		l.ForkedFrom = c.forked.String()
	}
	if c.seq != nil {
		l.ForkedFromSeq = *c.seq
	}
	if c.afterCall != nil {
		l.ForkedAfterCall = *c.afterCall
	}
	if c.schedule != nil {
		l.ScheduleID = c.schedule.String()
	}
	for _, d := range c.derived {
		l.Derived = append(l.Derived, d.String())
	}
	return l
}

// RetryRun starts a new run with the code, input, toolsets and limits of a failed or
// cancelled one (its webhook is not carried over: its secret is not kept in the clear).
// Errors: ErrRunNotFound, ErrNotRetryable, ErrToolsetNotFound (a toolset it names is gone).
// With idempotencyKey (empty: none), a retry of the same run with the same key returns the run
// the first one started (created false); the key used for another request is
// ErrIdempotencyConflict.
func (s *Store) RetryRun(ctx context.Context, runID, idempotencyKey string) (run Run, created bool, err error) {
	orig, err := s.getRunRow(ctx, runID)
	if err != nil {
		return Run{}, false, err
	}
	if orig.Status != StatusFailed && orig.Status != StatusCancelled {
		return Run{}, false, fmt.Errorf("%w: run %s is %s; only a failed or cancelled run can be retried", ErrNotRetryable, runID, orig.Status)
	}
	n := NewRun{Code: orig.Code, Toolsets: orig.Toolsets, Limits: orig.Limits, Input: orig.Input,
		IdempotencyKey: idempotencyKey, origin: "retry " + runID}
	n.afterInsert = func(ctx context.Context, tx pgx.Tx, id string) error {
		if _, err := tx.Exec(ctx, q("LineageInsert"), id, runID, nil, nil, 0, nil); err != nil {
			return fmt.Errorf("record lineage: %w", err)
		}
		return s.lineageEvents(ctx, tx, runID, id, "retry", map[string]any{"retriedFrom": runID})
	}
	return s.CreateRun(ctx, n)
}

// ForkPoint names the point of a run's history a fork starts from: snapshot Snapshot (the seq
// of one of its checkpointed, suspended or yielded events; 0: its start) or, when AfterCall is
// above 0, the settlement of call AfterCall.
type ForkPoint struct {
	Snapshot  int
	AfterCall int
}

// ForkRun starts a new run from point of run runID's history: the new run executes code (the
// original's when empty) from the beginning, and the calls the original had settled by that
// point are copied to it under its own keys, so its program is answered from their records
// instead of calling the tools again; every later call is made anew, against the toolsets as
// registered now. A snapshot's bytes are not used (a finished run keeps none, and new code
// could not resume them): its sequence number names the point, found in the run's events, as
// a call's settlement is. Errors: ErrRunNotFound, ErrForkPointNotFound, ErrToolsetNotFound.
// With idempotencyKey (empty: none), the same fork (run, point and code) with the same key
// returns the run the first one started (created false, replayed 0); the key used for another
// request is ErrIdempotencyConflict.
func (s *Store) ForkRun(ctx context.Context, runID string, point ForkPoint, code, idempotencyKey string) (run Run, replayed int, created bool, err error) {
	orig, err := s.getRunRow(ctx, runID)
	if err != nil {
		return Run{}, 0, false, err
	}
	if code == "" {
		code = orig.Code
	}
	n := NewRun{Code: code, Toolsets: orig.Toolsets, Limits: orig.Limits, Input: orig.Input,
		IdempotencyKey: idempotencyKey, origin: fmt.Sprintf("fork %s snapshot %d after call %d", runID, point.Snapshot, point.AfterCall)}
	n.afterInsert = func(ctx context.Context, tx pgx.Tx, id string) error {
		before, err := forkPointEvent(ctx, tx, runID, point)
		if err != nil {
			return err
		}
		if before > 0 {
			tag, err := tx.Exec(ctx, q("ForkCopyCalls"), runID, id, before)
			if err != nil {
				return fmt.Errorf("copy calls: %w", err)
			}
			replayed = int(tag.RowsAffected())
		}
		var seq, afterCall any = point.Snapshot, nil
		data := map[string]any{"forkedFrom": runID, "replayedCalls": replayed, "codeChanged": code != orig.Code}
		if point.AfterCall > 0 {
			seq, afterCall = nil, point.AfterCall
			data["afterCall"] = point.AfterCall
		} else {
			data["fromSnapshot"] = point.Snapshot
		}
		if _, err := tx.Exec(ctx, q("LineageInsert"), id, nil, runID, seq, replayed, afterCall); err != nil {
			return fmt.Errorf("record lineage: %w", err)
		}
		return s.lineageEvents(ctx, tx, runID, id, "fork", data)
	}
	run, created, err = s.CreateRun(ctx, n)
	return run, replayed, created, err
}

// forkPointEvent returns the sequence number of the first event of run runID past point: the
// calls whose settlement events come before it are the fork's. 0 for the run's start.
func forkPointEvent(ctx context.Context, tx pgx.Tx, runID string, point ForkPoint) (int64, error) {
	var (
		statement, what string
		arg             int
	)
	switch {
	case point.AfterCall > 0:
		statement, what, arg = "ForkPointCallEvent", "the settlement of call", point.AfterCall
	case point.Snapshot > 0:
		statement, what, arg = "ForkPointEvent", "snapshot", point.Snapshot
	default:
		return 0, nil
	}
	var at int64
	if err := tx.QueryRow(ctx, q(statement), runID, arg).Scan(&at); err != nil {
		if isNoRows(err) {
			return 0, fmt.Errorf("%w: run %s, %s %d", ErrForkPointNotFound, runID, what, arg)
		}
		return 0, fmt.Errorf("find %s %d: %w", what, arg, err)
	}
	if point.AfterCall > 0 {
		at++ // the call's own settlement is before the point
	}
	return at, nil
}

// lineageEvents records the lineage event of new run id and the derived event of the run it
// came from; the original's row is locked for its event sequence.
func (s *Store) lineageEvents(ctx context.Context, tx pgx.Tx, from, id, as string, data map[string]any) error {
	if err := addEvent(ctx, tx, id, EventLineage, data); err != nil {
		return err
	}
	var (
		status string
		seq    int
		fence  int64
	)
	if err := tx.QueryRow(ctx, q("RunLockForUpdate"), from).Scan(&status, &seq, &fence); err != nil {
		return fmt.Errorf("lock run %s: %w", from, err)
	}
	return addEvent(ctx, tx, from, EventDerived, map[string]any{"runId": id, "as": as})
}

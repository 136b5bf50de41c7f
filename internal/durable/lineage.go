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
	// ErrForkPointNotFound: the run's history names no snapshot with that sequence number
	// (never taken, or its events were deleted by retention).
	ErrForkPointNotFound = errors.New("snapshot not found in the run's history")
)

// Event types of lineage.
const (
	// EventLineage opens the history of a run started from another: data has retriedFrom, or
	// forkedFrom, fromSnapshot and replayedCalls.
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
	// start), with its first ReplayedCalls calls answered from that run's records.
	ForkedFrom    string
	ForkedFromSeq int
	ReplayedCalls int
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
	seq                       *int
	replayed                  int
	scheduledFor              *time.Time
	derived                   []uuid.UUID
}

func (c *lineageColumns) dest() []any {
	return []any{&c.retried, &c.forked, &c.seq, &c.replayed, &c.schedule, &c.scheduledFor, &c.derived}
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
func (s *Store) RetryRun(ctx context.Context, runID string) (Run, error) {
	orig, err := s.getRunRow(ctx, runID)
	if err != nil {
		return Run{}, err
	}
	if orig.Status != StatusFailed && orig.Status != StatusCancelled {
		return Run{}, fmt.Errorf("%w: run %s is %s; only a failed or cancelled run can be retried", ErrNotRetryable, runID, orig.Status)
	}
	n := NewRun{Code: orig.Code, Toolsets: orig.Toolsets, Limits: orig.Limits, Input: orig.Input}
	n.afterInsert = func(ctx context.Context, tx pgx.Tx, id string) error {
		if _, err := tx.Exec(ctx, q("LineageInsert"), id, runID, nil, nil, 0); err != nil {
			return fmt.Errorf("record lineage: %w", err)
		}
		return s.lineageEvents(ctx, tx, runID, id, "retry", map[string]any{"retriedFrom": runID})
	}
	run, _, err := s.CreateRun(ctx, n)
	return run, err
}

// ForkRun starts a new run from the point of run runID's history where it took snapshot seq
// (0: its start): the new run executes code (the original's when empty) from the beginning,
// and the calls the original had settled by that point are copied to it under its own keys,
// so its program is answered from their records instead of calling the tools again; every
// later call is made anew, against the toolsets as registered now. The snapshot's bytes are
// not used (a finished run keeps none, and new code could not resume them): the sequence
// number names the point, found in the run's events. Errors: ErrRunNotFound,
// ErrForkPointNotFound, ErrToolsetNotFound.
func (s *Store) ForkRun(ctx context.Context, runID string, seq int, code string) (run Run, replayed int, err error) {
	orig, err := s.getRunRow(ctx, runID)
	if err != nil {
		return Run{}, 0, err
	}
	if code == "" {
		code = orig.Code
	}
	n := NewRun{Code: code, Toolsets: orig.Toolsets, Limits: orig.Limits, Input: orig.Input}
	n.afterInsert = func(ctx context.Context, tx pgx.Tx, id string) error {
		if seq > 0 {
			var at int64
			if err := tx.QueryRow(ctx, q("ForkPointEvent"), runID, seq).Scan(&at); err != nil {
				if isNoRows(err) {
					return fmt.Errorf("%w: run %s, snapshot %d", ErrForkPointNotFound, runID, seq)
				}
				return fmt.Errorf("find snapshot %d: %w", seq, err)
			}
			tag, err := tx.Exec(ctx, q("ForkCopyCalls"), runID, id, at)
			if err != nil {
				return fmt.Errorf("copy calls: %w", err)
			}
			replayed = int(tag.RowsAffected())
		}
		if _, err := tx.Exec(ctx, q("LineageInsert"), id, nil, runID, seq, replayed); err != nil {
			return fmt.Errorf("record lineage: %w", err)
		}
		return s.lineageEvents(ctx, tx, runID, id, "fork", map[string]any{
			"forkedFrom": runID, "fromSnapshot": seq, "replayedCalls": replayed, "codeChanged": code != orig.Code,
		})
	}
	run, _, err = s.CreateRun(ctx, n)
	return run, replayed, err
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

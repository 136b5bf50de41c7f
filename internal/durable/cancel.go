package durable

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"

	"github.com/codemode/codemode/internal/toolcall"
)

// CancelRun ends a queued, running or suspended run as cancelled: its lease's fencing sequence
// is bumped (a driver still running it fails its next write and stops), its open calls are
// marked cancelled, and a call.cancel job is enqueued for each durable call that had started,
// all in one transaction. Cancelling a cancelled run is a no-op; a run that succeeded or failed
// gives ErrRunFinished.
func (s *Store) CancelRun(ctx context.Context, runID string) (Run, error) {
	if err := s.runExists(ctx, runID); err != nil {
		return Run{}, err
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var (
			status string
			seq    int
			fence  int64
		)
		if err := tx.QueryRow(ctx, q("RunLockForUpdate"), runID).Scan(&status, &seq, &fence); err != nil {
			return fmt.Errorf("lock run: %w", err)
		}
		switch status {
		case StatusCancelled:
			return nil
		case StatusSucceeded, StatusFailed:
			return fmt.Errorf("%w: run %s %s", ErrRunFinished, runID, status)
		}
		if err := s.cancelPendingCalls(ctx, tx, runID); err != nil {
			return err
		}
		if status == StatusRunning {
			if err := s.cancelDriverJob(ctx, tx, runID); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, q("RunCancel"), runID); err != nil {
			return fmt.Errorf("cancel run: %w", err)
		}
		if _, err := tx.Exec(ctx, q("SnapshotDeleteRun"), runID); err != nil {
			return fmt.Errorf("delete snapshots: %w", err)
		}
		if err := addEvent(ctx, tx, runID, EventCancelled, map[string]any{"from": status}); err != nil {
			return err
		}
		return s.enqueueWebhooks(ctx, tx, runID, WebhookRunCancelled, map[string]any{
			"runId": runID, "status": StatusCancelled,
		})
	})
	if err != nil {
		return Run{}, fmt.Errorf("cancel run %s: %w", runID, err)
	}
	if w := s.direct.Load(); w != nil {
		w.interruptLocal(runID) // a direct drive has no River job to cancel
	}
	return s.GetRun(ctx, runID)
}

// cancelPendingCalls marks the run's open calls cancelled and enqueues call.cancel for those
// with a durable handle.
func (s *Store) cancelPendingCalls(ctx context.Context, tx pgx.Tx, runID string) error {
	rows, err := tx.Query(ctx, q("CallCancelPending"), runID)
	if err != nil {
		return fmt.Errorf("cancel calls: %w", err)
	}
	type cancelled struct {
		id        int
		hasHandle bool
	}
	calls, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (cancelled, error) {
		var c cancelled
		err := r.Scan(&c.id, &c.hasHandle)
		return c, err
	})
	if err != nil {
		return fmt.Errorf("cancel calls: %w", err)
	}
	var withHandle []int
	for _, c := range calls {
		if c.hasHandle {
			withHandle = append(withHandle, c.id)
		}
	}
	return s.enqueueCallCancels(ctx, tx, runID, withHandle)
}

// enqueueCallCancels enqueues the call.cancel jobs of cancelled calls whose durable work has a
// handle at its tool.
func (s *Store) enqueueCallCancels(ctx context.Context, tx pgx.Tx, runID string, callIDs []int) error {
	for _, id := range callIDs {
		if _, err := s.river.InsertTx(ctx, tx, CancelCallArgs{RunID: runID, CallID: id}, nil); err != nil {
			return fmt.Errorf("enqueue call.cancel: %w", err)
		}
	}
	return nil
}

// cancelDriverJob cancels the River job driving a running run: River tells the worker
// running it, which interrupts the program at its next instruction boundary (a CPU-bound one
// too) instead of at its next write.
func (s *Store) cancelDriverJob(ctx context.Context, tx pgx.Tx, runID string) error {
	var job *int64
	if err := tx.QueryRow(ctx, q("RunLeaseOwner"), runID).Scan(&job); err != nil {
		return fmt.Errorf("lease owner: %w", err)
	}
	if job == nil {
		return nil
	}
	if _, err := s.river.JobCancelTx(ctx, tx, *job); err != nil && !errors.Is(err, rivertype.ErrNotFound) {
		return fmt.Errorf("cancel job %d driving the run: %w", *job, err)
	}
	return nil
}

// callToCancel loads what Engine.CancelCall needs to cancel a call: false when the call or its
// toolset is gone (nothing to tell).
func (s *Store) callToCancel(ctx context.Context, runID string, callID int) (CallCancel, bool, error) {
	c := CallCancel{RunID: runID, CallID: callID}
	var (
		sealed []byte
		plain  *string
	)
	err := s.pool.QueryRow(ctx, q("CallGetForCancel"), runID, callID).Scan(&c.Key, &c.Toolset.Name, &c.Path, &c.Handle,
		&c.Toolset.URL, &plain, &sealed)
	if isNoRows(err) {
		return CallCancel{}, false, nil
	}
	if err != nil {
		return CallCancel{}, false, fmt.Errorf("load call %s: %w", toolcall.Key(runID, int64(callID)), err)
	}
	if c.Toolset.Secret, err = s.openSecret(sealed, plain, whereToolset); err != nil {
		return CallCancel{}, false, fmt.Errorf("cancel %s: %w", c.Key, err)
	}
	return c, true, nil
}

package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"
)

// Crash recovery. A drive holds its run's lease for Config.LeaseTTL past its latest write or
// heartbeat, and heartbeats every WorkerConfig.HeartbeatInterval while it lives. Every worker
// looks every WorkerConfig.RedriveInterval for runs still running whose lease expired: their
// worker was lost (killed, crashed, cut off from the database). It puts each back on the queue
// under a new fencing sequence, so the lost driver can never write again, and enqueues a
// run.redrive job; whichever worker takes it continues from the latest checkpoint and records
// a redriven event naming both workers. The River job of the lost driver is cancelled, so
// River's own rescue of stuck jobs does not drive the run once more. A run whose worker was
// lost WorkerConfig.MaxCrashes times ends failed instead.

// heartbeat extends the lease; ok is false when the lease was lost (another driver or a cancel
// took the run).
func (s *Store) heartbeat(ctx context.Context, l *Lease) (ok bool, err error) {
	var id string
	err = s.pool.QueryRow(ctx, q("RunHeartbeat"), l.runID, l.fence, s.cfg.LeaseTTL.String()).Scan(&id)
	if isNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("heartbeat run %s: %w", l.runID, err)
	}
	return true, nil
}

// holdLease keeps the run leased to l's driver for d from now, when l still holds it.
func (s *Store) holdLease(ctx context.Context, l *Lease, d time.Duration) error {
	_, err := s.pool.Exec(ctx, q("RunHeartbeat"), l.runID, l.fence, d.String())
	if err != nil {
		return fmt.Errorf("hold run %s: %w", l.runID, err)
	}
	return nil
}

// leases are the drives live in one worker, for the drain to requeue those it could not wait
// for.
type leases struct {
	mu   sync.Mutex
	live map[*Lease]int64 // lease → its River job (0: a direct drive)
}

func (ls *leases) add(l *Lease, jobID int64) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.live == nil {
		ls.live = map[*Lease]int64{}
	}
	ls.live[l] = jobID
}

func (ls *leases) remove(l *Lease) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	delete(ls.live, l)
}

// liveLease is a lease with its River job.
type liveLease struct {
	lease *Lease
	job   int64
}

func (ls *leases) list() []liveLease {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	out := make([]liveLease, 0, len(ls.live))
	for l, job := range ls.live {
		out = append(out, liveLease{l, job})
	}
	return out
}

// keepAlive heartbeats the lease until the returned stop is called. The returned context is
// ctx, also cancelled when a heartbeat finds the lease lost: the engine then stops at its next
// safe point and its write fails with ErrLeaseLost.
func (w *Worker) keepAlive(ctx context.Context, l *Lease, jobID int64) (context.Context, func()) {
	driveCtx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(w.cfg.HeartbeatInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			beatCtx, cancelBeat := context.WithTimeout(context.Background(), w.cfg.HeartbeatInterval)
			ok, err := w.store.heartbeat(beatCtx, l)
			cancelBeat()
			if err != nil {
				w.log.Warn("heartbeat failed", "run_id", l.runID, "error", err)
				continue
			}
			if !ok {
				cancel(ErrLeaseLost)
				return
			}
		}
	}()
	l.interrupt = cancel
	w.live.add(l, jobID)
	w.store.drivenHere.add(l.runID, nil)
	return driveCtx, func() {
		close(done)
		wg.Wait()
		cancel(nil)
		w.live.remove(l)
		w.store.endDriveHere(l.runID)
	}
}

// interruptLocal stops this worker's drives of run runID at their next safe point: a cancel
// this process committed fenced them off. A drive with a River job is also stopped by the
// job's cancellation, from any process; a direct drive has none, and a cancel from another
// process reaches it at its next heartbeat.
func (w *Worker) interruptLocal(runID string) {
	for _, live := range w.live.list() {
		if live.lease.runID == runID {
			live.lease.interrupt(ErrLeaseLost)
		}
	}
}

// redriveLoop re-drives runs whose worker was lost, every RedriveInterval until ctx ends.
func (w *Worker) redriveLoop(ctx context.Context) {
	t := time.NewTicker(w.cfg.RedriveInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := w.store.redriveExpired(ctx, 100); err != nil && ctx.Err() == nil {
			w.log.Warn("re-drive of runs with expired leases failed", "error", err)
		}
	}
}

// redriveExpired puts back on the queue up to limit runs whose lease expired while running,
// counting a crash for each, and enqueues their run.redrive jobs. It returns how many it
// re-queued.
func (s *Store) redriveExpired(ctx context.Context, limit int) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		n = 0
		rows, err := tx.Query(ctx, q("RunListExpired"), limit)
		if err != nil {
			return fmt.Errorf("list expired leases: %w", err)
		}
		type expired struct {
			id      string
			job     *int64
			worker  string
			seq     int
			crashes int
		}
		runs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (expired, error) {
			var e expired
			err := r.Scan(&e.id, &e.job, &e.worker, &e.seq, &e.crashes)
			return e, err
		})
		if err != nil {
			return fmt.Errorf("list expired leases: %w", err)
		}
		for _, e := range runs {
			if _, err := s.requeue(ctx, tx, e.id, nil, e.job, true); err != nil {
				return err
			}
			s.cfg.Logger.WarnContext(ctx, "run lost its worker; re-driving it from its latest checkpoint",
				"run_id", e.id, "worker", e.worker, "crashes", e.crashes+1)
			n++
		}
		return nil
	})
	return n, err
}

// requeue puts a running run back on the queue under a new fence (fence, when not nil, must be
// the current one) and enqueues its run.redrive job; job, when not nil, is the River job of
// the driver being fenced off, cancelled so that River does not retry it. crashed counts the
// re-drive as a lost worker. It reports whether the run was requeued.
func (s *Store) requeue(ctx context.Context, tx pgx.Tx, runID string, fence, job *int64, crashed bool) (bool, error) {
	var (
		newFence int64
		seq      int
	)
	err := tx.QueryRow(ctx, q("RunRequeue"), runID, fence, crashed).Scan(&newFence, &seq)
	if isNoRows(err) {
		return false, nil // no longer running, or taken by another driver
	}
	if err != nil {
		return false, fmt.Errorf("requeue run %s: %w", runID, err)
	}
	if _, err := s.river.InsertTx(ctx, tx, RedriveArgs{RunID: runID, Fence: newFence, Seq: seq}, nil); err != nil {
		return false, fmt.Errorf("enqueue run.redrive: %w", err)
	}
	if job != nil {
		if _, err := s.river.JobCancelTx(ctx, tx, *job); err != nil && !errors.Is(err, rivertype.ErrNotFound) {
			return false, fmt.Errorf("cancel job %d of the fenced-off driver: %w", *job, err)
		}
	}
	return true, nil
}

// requeueLive puts back on the queue the runs this worker still drives (a drain that ran out
// of time): another worker continues each from its latest checkpoint.
func (w *Worker) requeueLive(ctx context.Context) error {
	var errs []error
	for _, live := range w.live.list() {
		l := live.lease
		requeued := false
		err := w.store.inTx(ctx, func(tx pgx.Tx) error {
			fence := l.fence
			var err error
			var job *int64 // a direct drive has no River job
			if live.job != 0 {
				job = &live.job
			}
			if requeued, err = w.store.requeue(ctx, tx, l.runID, &fence, job, false); err != nil || !requeued {
				return err
			}
			return addEvent(ctx, tx, l.runID, EventRequeued, map[string]any{"worker": w.id})
		})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if requeued {
			w.log.WarnContext(ctx, "drain ran out of time; run put back on the queue", "run_id", l.runID)
		}
	}
	return errors.Join(errs...)
}

// crashedResult is the Result of a run that crashed its worker too often.
func crashedResult(n int) json.RawMessage {
	return failedResult("InternalError", fmt.Sprintf("the run crashed its worker %d times", n))
}

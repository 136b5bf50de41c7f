package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Direct drives. A process that serves the API and runs a worker on the same store (codemode
// dev) drives a run it accepts itself, at once, when a client waits for the run and the worker
// has a free direct slot (WorkerConfig.DirectRuns; one that frees within the fetch cooldown,
// the least a queued run waits for its fetch, is waited for): the run is stored already leased to the
// worker, under fence 1 and with no River job (RunInsertLeased), and driven in this process.
// That spares the queue's round trips (the job's insert, fetch, completion and the lease),
// which a short run spends most of its time on. Every other run, and every run past the free
// slots, goes through the queue as before.
//
// An outcome posted to a suspended run through such a store (RecordOutcome) is resumed the same
// way: the outcome's transaction leases the run to the worker instead of enqueuing a
// run.resume job, and the worker resumes it at once (resumeDirect).
//
// A direct drive is a drive like any other from its lease on: it heartbeats, checkpoints,
// suspends and finishes through the same Lease. What differs is who takes over when it cannot
// go on, and how a cancel reaches it:
//   - the process dies: the lease stops being heartbeated and expires, and the redrive loop of
//     any worker puts the run back on the queue with a run.redrive job (redriven event), as for
//     a run.execute job's drive (the run was stored before the client was told of it);
//   - the drive fails (an engine or database error): the run is put back on the queue under a
//     new fence with a run.redrive job, whose attempts retry it as a run.execute job's would
//     (requeued event with the error);
//   - the worker drains: the drive's context is cancelled with the River jobs', so the engine
//     yields at its next safe point and the run is requeued from its checkpoint; a drive still
//     live when the drain runs out of time is requeued by Stop (requeueLive);
//   - the run is cancelled: with no River job to cancel, CancelRun interrupts the drive in
//     this process (Worker.interruptLocal); a cancel from another process reaches it at its
//     next heartbeat, which finds the lease gone.

// directDrives are a worker's direct slots and the drives using them.
type directDrives struct {
	mu     sync.Mutex
	closed bool          // Stop began: no new drive
	slots  chan struct{} // a token per drive being stored or driven
	wg     sync.WaitGroup
	ctx    context.Context // cancelled by Stop
	cancel context.CancelFunc
}

// startDirect opens the worker's direct slots and offers them to its store's run inserts. A
// store takes one worker's direct drives: a second worker started on it drives only jobs.
func (w *Worker) startDirect(ctx context.Context) {
	if w.cfg.DirectRuns <= 0 {
		return
	}
	d := &w.direct
	d.ctx, d.cancel = context.WithCancel(context.WithoutCancel(ctx))
	d.slots = make(chan struct{}, w.cfg.DirectRuns)
	w.store.direct.CompareAndSwap(nil, w)
}

// stopDirect takes no new direct drive and cancels the live ones (they yield at their next
// safe point); waitDirect waits for them.
func (w *Worker) stopDirect() {
	w.store.direct.CompareAndSwap(w, nil)
	d := &w.direct
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	if d.cancel != nil {
		d.cancel()
	}
}

// waitDirect waits until the direct drives have ended, or ctx ends.
func (w *Worker) waitDirect(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		w.direct.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reserveDirect takes a direct slot, waiting up to wait for one to free, and reports whether
// it got one; the caller either drives the run (driveDirect, which gives the slot back) or
// gives it back (releaseDirect).
func (w *Worker) reserveDirect(wait time.Duration) bool {
	d := &w.direct
	d.mu.Lock()
	if d.closed || d.slots == nil {
		d.mu.Unlock()
		return false
	}
	d.wg.Add(1) // Stop waits for a reservation in progress
	d.mu.Unlock()
	select {
	case d.slots <- struct{}{}:
		return true
	default:
	}
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case d.slots <- struct{}{}:
			return true
		case <-timer.C:
		case <-d.ctx.Done():
		}
	}
	d.wg.Done()
	return false
}

func (w *Worker) releaseDirect() {
	<-w.direct.slots
	w.direct.wg.Done()
}

// driveDirect drives a run leased to this worker without a job (insertRunDirect, or a resume
// RecordOutcome leased), in a slot reserveDirect took, from snapshot l.seq (0: the source)
// until it finishes, suspends or yields (DriveTimeout, or a drain); a drive that fails puts
// the run back on the queue. It closes ended, when not nil, when it returns.
func (w *Worker) driveDirect(l *Lease, ended chan Run) {
	defer w.releaseDirect()
	if ended != nil {
		defer close(ended)
	}
	growStack()
	ctx, cancel := context.WithTimeout(w.direct.ctx, w.cfg.DriveTimeout)
	defer cancel()
	log := w.log.With("run_id", l.runID, "direct", true)
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("drive panicked: %v", r)
			}
		}()
		return w.driveLeased(ctx, log, l, 0, l.seq, false)
	}()
	if err == nil {
		return
	}
	log.WarnContext(ctx, "direct drive failed; the run goes back on the queue", "error", err)
	w.requeueDirect(l, err)
}

// requeueDirect puts a run this worker was to drive directly back on the queue, fenced off
// from l, with a requeued event naming cause. When even that fails, the lease expires and the
// redrive loop of a worker takes the run.
func (w *Worker) requeueDirect(l *Lease, cause error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.store.inTx(ctx, func(tx pgx.Tx) error {
		fence := l.fence
		requeued, err := w.store.requeue(ctx, tx, l.runID, &fence, nil, false)
		if err != nil || !requeued {
			return err
		}
		return addEvent(ctx, tx, l.runID, EventRequeued, map[string]any{"worker": w.id, "error": cause.Error()})
	})
	if err != nil {
		w.log.Error("could not put the run back on the queue; it is re-driven when its lease expires",
			"run_id", l.runID, "error", err)
	}
}

// directResume is the lease RecordOutcome took on a suspended run for its direct resume.
type directResume struct {
	fence   int64
	seq     int
	from    *string // the lost worker when the run was re-driven (RunLeaseResume)
	crashes int
	input   driveRows // what the drive needs, read in the lease's transaction
}

// resumeDirect drives the resume of run runID under r, in a slot reserveDirect took; when
// what the lease's transaction read cannot be opened the run goes back on the queue. The run
// counts as driven here (drivenRuns) from the lease's transaction to the end of the drive.
func (w *Worker) resumeDirect(runID string, r directResume) {
	defer w.store.endDriveHere(runID)
	l := &Lease{store: w.store, runID: runID, fence: r.fence, crashes: r.crashes, worker: w.id, seq: r.seq}
	in, known, err := w.store.openDriveInput(r.input, runID)
	if err == nil {
		err = l.recordRedriven(w.direct.ctx, r.from)
	}
	if err != nil {
		defer w.releaseDirect()
		w.requeueDirect(l, err)
		return
	}
	l.input, l.knownCalls = &in, known
	w.driveDirect(l, nil)
}

// insertRunDirect stores run n as id leased to worker w, in a slot reserveDirect took, and
// starts its drive; the slot is given back when the run could not be stored. One statement
// inserts the run and returns it with its toolsets (RunInsertLeased). The returned
// channel receives the run as it is once the drive stored its end (without reading it back)
// or its suspension of one round trip (read in the suspension's transaction), and is closed
// when the drive is over.
func (s *Store) insertRunDirect(ctx context.Context, id string, n NewRun, w *Worker) (Run, <-chan Run, error) {
	started := false
	defer func() {
		if !started {
			w.releaseDirect()
		}
	}()
	whURL, whSecret, err := s.runWebhook(n)
	if err != nil {
		return Run{}, nil, err
	}
	run, found, err := scanRunInsertLeased(s.pool.Query(ctx, q("RunInsertLeased"), n.Code, n.Limits, n.Toolsets, whURL, whSecret,
		n.hash(), inputArg(n.Input), id, w.id, s.cfg.LeaseTTL.String()))
	if isNoRows(err) {
		return Run{}, nil, s.missingToolset(ctx, n.Toolsets)
	}
	if err != nil {
		// Whether the insert committed is unknown: a stored run is leased to this worker,
		// and re-driven once its lease expires.
		return Run{}, nil, err
	}
	in := &driveInput{spec: RunSpec{RunID: id, Code: run.Code, Limits: run.Limits, Input: run.Input}, toolsets: run.Toolsets,
		hasWebhook: run.Webhook != nil}
	lease := &Lease{store: s, runID: id, fence: 1, input: in, worker: w.id}
	ended := make(chan Run, 1)
	lease.finished = func(status string, result json.RawMessage, at time.Time, seq int) {
		end := run
		end.Status, end.Result, end.FinishedAt, end.UpdatedAt, end.SnapshotSeq = status, result, &at, at, seq
		select {
		case ended <- end:
		default: // a run ends once; never block its drive
		}
	}
	lease.suspended = func(parked Run) {
		select {
		case ended <- parked:
		default: // a drive parks its run once; never block it
		}
	}
	started = true
	if in.spec.Toolsets, err = s.openToolsets(found); err != nil {
		close(ended)
		go func() {
			defer w.releaseDirect()
			w.requeueDirect(lease, err)
		}()
		return run, ended, nil
	}
	go w.driveDirect(lease, ended)
	return run, ended, nil
}

// scanRunInsertLeased reads the rows of RunInsertLeased: the run, and the toolsets it may use
// (as scanRunToolset reads them). pgx.ErrNoRows when there is none: nothing was stored.
func scanRunInsertLeased(rows pgx.Rows, err error) (Run, []toolsetRow, error) {
	if err != nil {
		return Run{}, nil, err
	}
	defer rows.Close()
	var (
		run   Run
		found []toolsetRow
		read  bool
	)
	for rows.Next() {
		var (
			c   runColumns
			has bool
			t   toolsetRow
		)
		if err := rows.Scan(append(c.dest(), &has, &t.Name, &t.URL, &t.plain, &t.sealed, &t.Description,
			(*[]byte)(&t.Manifest), &t.CreatedAt, &t.Kind, &t.Source, &t.authSealed, &t.Deleted)...); err != nil {
			return Run{}, nil, err
		}
		if !read {
			run, read = c.run(), true
		}
		if has {
			found = append(found, t)
		}
	}
	if err := rows.Err(); err != nil {
		return Run{}, nil, err
	}
	if !read {
		return Run{}, nil, pgx.ErrNoRows
	}
	return run, found, nil
}

// waitEnded waits for the run a direct drive ended or suspended (insertRunDirect's channel)
// until deadline or ctx's end; ok is false when the drive ended otherwise (yielded, requeued,
// suspended the two-trip way) or the wait was over first.
func waitEnded(ctx context.Context, ended <-chan Run, deadline time.Time) (run Run, ok bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case run, ok = <-ended:
		return run, ok
	case <-timer.C:
	case <-ctx.Done():
	}
	return Run{}, false
}

// missingToolset returns ErrToolsetNotFound naming the first of names that does not exist.
func (s *Store) missingToolset(ctx context.Context, names []string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error { return checkToolsets(ctx, tx, names) })
	if err == nil {
		return errors.New("create run: a toolset was deleted while the run was stored")
	}
	return err
}

package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/codemode/codemode/internal/toolcall"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// WorkerConfig configures a Worker.
type WorkerConfig struct {
	// MaxRuns is how many runs this worker drives at once. Default 10.
	MaxRuns int
	// DirectRuns is how many runs this worker drives directly at once, on top of MaxRuns: runs
	// created through its own store (an API served by the same process, as codemode dev does)
	// by a client that waits for them, stored already leased to the worker and driven at once
	// rather than through the queue (see direct.go). Default MaxRuns; negative: none.
	DirectRuns int
	// MaxDeliveries is how many webhook deliveries and call cancellations it sends at once.
	// Default 10.
	MaxDeliveries int
	// FetchCooldown is the shortest time between two fetches of jobs; a new job notified
	// sooner waits for it. Lower means lower latency from outcome to resume, at the cost of
	// more queries under load. Default 5 ms: a job then waits 2.5 ms on average for the
	// fetch instead of 10 ms (at 20 ms), at up to 200 fetch queries a second per worker under
	// load.
	FetchCooldown time.Duration
	// FetchPollInterval is how often it polls for jobs when no notification arrives. Default
	// 500 ms; at least FetchCooldown.
	FetchPollInterval time.Duration
	// DriveTimeout bounds one drive of a run (one job): when it elapses the engine yields at
	// its next safe point and the run continues in a new job, from its checkpoint. Default 5
	// minutes.
	DriveTimeout time.Duration
	// RescueStuckJobsAfter is how long a job may stay running before River hands it to another
	// worker; it is how long runs in flight on a crashed (SIGKILLed) worker wait before they
	// are re-driven from their latest checkpoint. Default DriveTimeout + 1 minute; at least
	// DriveTimeout.
	RescueStuckJobsAfter time.Duration
	// ID names this worker in River's tables, logs and runs' redriven events. Default: chosen
	// by River.
	ID string
	// HeartbeatInterval is how often a live drive extends its run's lease (Config.LeaseTTL).
	// Default a third of LeaseTTL (2 s); below LeaseTTL.
	HeartbeatInterval time.Duration
	// RedriveInterval is how often the worker looks for runs whose worker stopped
	// heartbeating, to re-drive them. A killed worker's runs are re-driven within LeaseTTL +
	// RedriveInterval (plus a job fetch) of its last heartbeat. Default 1 second.
	RedriveInterval time.Duration
	// MaxCrashes is how many times a run may lose its worker (crash, OOM kill, SIGKILL):
	// when it lost it that many times, the run ends failed ("the run crashed its worker N
	// times") instead of being re-driven once more. Default 3.
	MaxCrashes int
	// Metrics receives the worker's measurements (NewMetrics); nil records none.
	Metrics *Metrics
	// Retention is how long the snapshots, events and webhook deliveries of a finished run
	// are kept; a periodic job (one pass per RetentionInterval across all workers, run by
	// whichever worker takes it) deletes them after that. The runs row and its calls are
	// kept. Default 7 days; negative: kept forever (this worker schedules no pass). Give
	// every worker the same value: the pass uses that of the worker that scheduled it.
	Retention time.Duration
	// RetentionInterval is how often the retention pass runs. Default 1 hour; at least 1s.
	RetentionInterval time.Duration
	// RetentionBatch is the most rows one statement of the retention pass deletes (and the
	// runs it takes at a time). Default 1,000.
	RetentionBatch int
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c WorkerConfig) WithDefaults() WorkerConfig {
	if c.MaxRuns == 0 {
		c.MaxRuns = 10
	}
	if c.DirectRuns == 0 {
		c.DirectRuns = c.MaxRuns
	}
	if c.MaxDeliveries == 0 {
		c.MaxDeliveries = 10
	}
	if c.FetchCooldown == 0 {
		c.FetchCooldown = 5 * time.Millisecond
	}
	if c.FetchPollInterval == 0 {
		c.FetchPollInterval = 500 * time.Millisecond
	}
	if c.DriveTimeout == 0 {
		c.DriveTimeout = 5 * time.Minute
	}
	if c.RescueStuckJobsAfter == 0 {
		c.RescueStuckJobsAfter = c.DriveTimeout + time.Minute
	}
	if c.RedriveInterval == 0 {
		c.RedriveInterval = time.Second
	}
	if c.MaxCrashes == 0 {
		c.MaxCrashes = 3
	}
	if c.Retention == 0 {
		c.Retention = DefaultRetention
	}
	if c.RetentionInterval == 0 {
		c.RetentionInterval = time.Hour
	}
	if c.RetentionBatch == 0 {
		c.RetentionBatch = 1000
	}
	return c
}

// DefaultRetention is how long a finished run's snapshots, events and webhook deliveries are
// kept by default (WorkerConfig.Retention).
const DefaultRetention = 7 * 24 * time.Hour

func (c WorkerConfig) validate() error {
	if c.RetentionInterval < time.Second || c.RetentionBatch < 1 {
		return fmt.Errorf("durable: RetentionInterval %s must be at least 1s and RetentionBatch positive", c.RetentionInterval)
	}
	if c.MaxRuns < 1 || c.MaxDeliveries < 1 {
		return fmt.Errorf("durable: MaxRuns and MaxDeliveries must be positive")
	}
	if c.RescueStuckJobsAfter < c.DriveTimeout {
		return fmt.Errorf("durable: RescueStuckJobsAfter %s is below DriveTimeout %s", c.RescueStuckJobsAfter, c.DriveTimeout)
	}
	if c.HeartbeatInterval <= 0 || c.RedriveInterval <= 0 || c.MaxCrashes < 1 {
		return fmt.Errorf("durable: HeartbeatInterval, RedriveInterval and MaxCrashes must be positive")
	}
	if c.FetchCooldown < time.Millisecond || c.FetchPollInterval < c.FetchCooldown {
		return fmt.Errorf("durable: FetchCooldown %s must be at least 1ms and at most FetchPollInterval %s",
			c.FetchCooldown, c.FetchPollInterval)
	}
	return nil
}

// Queue names.
const (
	QueueRuns     = "runs"     // run.execute, run.resume
	QueueDelivery = "delivery" // webhook.deliver, call.cancel
)

// Worker drives runs with an Engine and delivers webhooks, as River workers. Any number of
// workers may run against one database.
type Worker struct {
	store  *Store
	engine Engine
	river  *river.Client[pgx.Tx]
	log    *slog.Logger
	cfg    WorkerConfig
	id     string
	live   leases
	// started is set by Start and cleared by Stop (see Ready).
	started atomic.Bool
	// stopRedrive ends the loop started by Start that re-drives runs of lost workers.
	stopRedrive context.CancelFunc
	redriveDone chan struct{}
	// direct are the runs it drives without a job (direct.go).
	direct directDrives
}

// NewWorker returns a worker; Start begins taking jobs.
func NewWorker(store *Store, engine Engine, cfg WorkerConfig) (*Worker, error) {
	cfg = cfg.WithDefaults()
	if cfg.HeartbeatInterval == 0 {
		cfg.HeartbeatInterval = store.cfg.heartbeatInterval()
	}
	if cfg.HeartbeatInterval >= store.cfg.LeaseTTL {
		return nil, fmt.Errorf("durable: HeartbeatInterval %s is not below LeaseTTL %s", cfg.HeartbeatInterval, store.cfg.LeaseTTL)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if engine == nil {
		return nil, errors.New("durable: NewWorker needs an Engine")
	}
	w := &Worker{store: store, engine: engine, log: store.cfg.Logger, cfg: cfg}
	workers := river.NewWorkers()
	river.AddWorker(workers, &runJobWorker[ExecuteArgs]{work: func(ctx context.Context, job *river.Job[ExecuteArgs]) error {
		return w.drive(ctx, job.Args.RunID, job.ID, 0, job.Attempt, job.MaxAttempts, retryOf(job.JobRow))
	}})
	river.AddWorker(workers, &runJobWorker[ResumeArgs]{work: func(ctx context.Context, job *river.Job[ResumeArgs]) error {
		return w.drive(ctx, job.Args.RunID, job.ID, job.Args.Seq, job.Attempt, job.MaxAttempts, retryOf(job.JobRow))
	}})
	river.AddWorker(workers, &runJobWorker[RedriveArgs]{work: func(ctx context.Context, job *river.Job[RedriveArgs]) error {
		return w.drive(ctx, job.Args.RunID, job.ID, job.Args.Seq, job.Attempt, job.MaxAttempts, retryOf(job.JobRow))
	}})
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[WebhookArgs]) error {
		return store.deliverWebhook(ctx, job.Args.DeliveryID, job.Attempt >= job.MaxAttempts)
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[CancelCallArgs]) error {
		return w.cancelCall(ctx, job.Args.RunID, job.Args.CallID)
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[TimerArgs]) error {
		return store.fireTimer(ctx, job.Args)
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, _ *river.Job[ScheduleTickArgs]) error {
		_, err := store.FireSchedules(ctx, time.Now())
		return err
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[RetentionArgs]) error {
		retention := time.Duration(job.Args.RetentionMicros) * time.Microsecond
		stats, err := store.PruneFinished(ctx, retention, cfg.RetentionBatch)
		if err != nil {
			return err
		}
		store.cfg.Logger.InfoContext(ctx, "pruned the data of finished runs", "retention", retention, "runs", stats.Runs,
			"snapshots", stats.Snapshots, "events", stats.Events, "deliveries", stats.Deliveries)
		return nil
	}))
	periodic := []*river.PeriodicJob{scheduleJob()}
	if cfg.Retention > 0 {
		periodic = append(periodic, retentionJob(cfg))
	}
	client, err := river.NewClient(riverpgxv5.New(store.pool), &river.Config{
		ID:     cfg.ID,
		Logger: store.cfg.Logger,
		Queues: map[string]river.QueueConfig{
			QueueRuns:        {MaxWorkers: cfg.MaxRuns},
			QueueDelivery:    {MaxWorkers: cfg.MaxDeliveries},
			QueueMaintenance: {MaxWorkers: 1},
			QueueTimers:      {MaxWorkers: timerWorkers},
		},
		Workers:              workers,
		PeriodicJobs:         periodic,
		FetchCooldown:        cfg.FetchCooldown,
		FetchPollInterval:    cfg.FetchPollInterval,
		JobTimeout:           cfg.DriveTimeout,
		RescueStuckJobsAfter: cfg.RescueStuckJobsAfter,
	})
	if err != nil {
		return nil, fmt.Errorf("durable: river client: %w", err)
	}
	w.river = client
	w.id = client.ID()
	cfg.Metrics.watchQueue(store.pool)
	return w, nil
}

// cancelCall has the engine, which alone speaks the tool protocol, tell a call's toolset to
// cancel the work of a call left pending when its run ended. A refusal is final: the job is
// cancelled rather than retried.
func (w *Worker) cancelCall(ctx context.Context, runID string, callID int) error {
	c, ok, err := w.store.callToCancel(ctx, runID, callID)
	if err != nil || !ok {
		return err
	}
	err = w.engine.CancelCall(ctx, c)
	if errors.Is(err, ErrPermanent) {
		w.log.WarnContext(ctx, "the toolset refused to cancel a call; not retried", "run_id", runID, "key", c.Key, "error", err)
		return river.JobCancel(err)
	}
	return err
}

// ID returns the worker's id, as recorded on the runs it drives.
func (w *Worker) ID() string { return w.id }

// Start begins taking jobs, and re-driving the runs of workers that stopped heartbeating; it
// returns at once.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.river.Start(ctx); err != nil {
		return fmt.Errorf("durable: start worker: %w", err)
	}
	w.started.Store(true)
	w.startDirect(ctx)
	redriveCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w.stopRedrive, w.redriveDone = cancel, make(chan struct{})
	go func() {
		defer close(w.redriveDone)
		w.redriveLoop(redriveCtx)
	}()
	return nil
}

// Stop drains the worker: it stops taking jobs and cancels the running ones' contexts, so the
// engine yields each run at its next safe point (a CPU-bound program within about a thousand
// instructions) with a snapshot, which is stored and the run put back on the queue for another
// worker; then it waits for them. When ctx is about to end with drives still live (calls in
// flight that do not settle in time), it puts their runs back on the queue itself, fenced off
// from the drives, so no run is left running on a stopped worker.
func (w *Worker) Stop(ctx context.Context) error {
	w.started.Store(false)
	w.stopDirect()
	if w.stopRedrive != nil {
		w.stopRedrive()
		<-w.redriveDone
	}
	riverCtx := ctx
	if deadline, ok := ctx.Deadline(); ok {
		// Keep part of the time to requeue the runs of drives still live.
		reserve := min(time.Until(deadline)/4, time.Second)
		var cancel context.CancelFunc
		riverCtx, cancel = context.WithDeadline(ctx, deadline.Add(-reserve))
		defer cancel()
	}
	err := w.river.StopAndCancel(riverCtx)
	if err == nil {
		err = w.waitDirect(riverCtx)
	}
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && riverCtx.Err() != nil {
		if rerr := w.requeueLive(context.WithoutCancel(ctx)); rerr != nil {
			return fmt.Errorf("durable: stop worker: %w; requeue its runs: %w", err, rerr)
		}
		return nil
	}
	return fmt.Errorf("durable: stop worker: %w", err)
}

// Wait waits until the drives a Stop left running (their runs requeued) have ended too.
func (w *Worker) Wait(ctx context.Context) error {
	select {
	case <-w.river.Stopped():
		return w.waitDirect(ctx)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drive takes the run's lease and runs the program until it finishes, suspends or yields.
// resumeSeq is 0 for run.execute, else the snapshot sequence of a run.resume job. On the job's
// last attempt (of maxAttempts) an engine error fails the run (an internal error) instead of
// leaving it running; so does, at once, a write the database refuses for good (ErrUnstorable).
// retry, on a job's later attempts, describes the failed attempt (see retryOf).
func (w *Worker) drive(ctx context.Context, runID string, jobID int64, resumeSeq, attempt, maxAttempts int, retry map[string]any) error {
	growStack()
	log := w.log.With("run_id", runID, "job_id", jobID)
	lease, seq, err := w.store.acquireAs(ctx, runID, jobID, resumeSeq, w.id)
	if errors.Is(err, errNoLease) {
		log.DebugContext(ctx, "run not available to this job")
		return nil
	}
	if err != nil {
		return err
	}
	if lease.redriven && lease.crashes >= w.cfg.MaxCrashes {
		log.ErrorContext(ctx, "the run crashed its worker too often; failing it", "crashes", lease.crashes)
		if err := lease.finish(ctx, Outcome{Kind: Finished, OK: false, Result: crashedResult(lease.crashes)}); err != nil && !errors.Is(err, ErrLeaseLost) {
			return fmt.Errorf("fail run %s: %w", runID, err)
		}
		return nil
	}
	if retry != nil {
		log.WarnContext(ctx, "run retried after a failed drive", "attempt", retry["attempt"], "error", retry["error"])
		lease.deferEvent(EventRetried, retry)
	}
	err = w.driveLeased(ctx, log, lease, jobID, seq, attempt >= maxAttempts)
	if err != nil && attempt < maxAttempts {
		// The job will be retried: keep the run leased to it until then, so that the lease
		// does not expire in between and the run count as one whose worker was lost.
		hold := runRetryDelay(attempt) + w.store.cfg.LeaseTTL
		holdCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if herr := w.store.holdLease(holdCtx, lease, hold); herr != nil {
			log.WarnContext(ctx, "could not hold the run for its retry", "error", herr)
		}
		log.WarnContext(ctx, "drive failed; the run will be retried", "attempt", attempt,
			"retry_in", runRetryDelay(attempt), "error", err)
	}
	return err
}

// driveLeased drives the run under lease until it finishes, suspends or yields; seq is the
// snapshot it continues from (0: the source).
func (w *Worker) driveLeased(ctx context.Context, log *slog.Logger, lease *Lease, jobID int64, seq int, lastAttempt bool) error {
	runID := lease.runID
	outcome := driveError
	done := w.cfg.Metrics.driveStarted(seq == 0)
	defer func() { done(outcome) }()
	host := w.cfg.Metrics.host(lease)
	ctx, stopBeat := w.keepAlive(ctx, lease, jobID)
	defer stopBeat()
	in := lease.input
	spec := in.spec
	var (
		out Outcome
		err error
	)
	if seq == 0 {
		lease.deferEvent(EventStarted, map[string]any{"worker": w.id})
		out, err = w.engine.Start(ctx, spec, host)
	} else {
		if in.snapshot.State == nil {
			// Only the run's lease holder writes snapshots, and a newer one deletes the older
			// ones: the latest, read with the lease, is missing only when another driver (or a
			// cancel) took the run since.
			log.InfoContext(ctx, "lease lost before resuming; another driver or a cancel took the run")
			return nil
		}
		for _, o := range in.settled {
			lease.unapplied = append(lease.unapplied, o.CallID)
		}
		lease.deferEvent(EventResumed, map[string]any{"seq": seq, "outcomes": len(in.settled), "worker": w.id})
		out, err = w.engine.Resume(ctx, spec, in.snapshot, in.settled, host)
	}
	if errors.Is(err, ErrLeaseLost) {
		outcome = driveLost
		log.InfoContext(ctx, "lease lost; another driver or a cancel took the run")
		return nil
	}
	// The outcome is stored even when ctx was cancelled by a drain.
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err != nil && IsUnstorable(err) {
		outcome = driveFailed
		return w.failUnstorable(storeCtx, log, lease, err)
	}
	if errors.Is(err, ErrReplayDiverged) {
		// Driving the program again would meet the same divergence: the run fails now.
		log.ErrorContext(ctx, "the program diverged from its recorded calls; failing the run", "error", err)
		out, err = Outcome{Kind: Finished, OK: false, Result: failedResult("ExecutionFailure", err.Error())}, nil
	}
	if err != nil && !lastAttempt && drivingAgainCannotHelp(err) {
		log.ErrorContext(ctx, "the run cannot be driven, and driving it again would not help; failing the run", "error", err)
		lastAttempt = true
	}
	if err != nil && lastAttempt {
		log.ErrorContext(ctx, "engine failed on the last attempt; failing the run", "error", err)
		out = Outcome{Kind: Finished, OK: false, Result: failedResult("InternalError", "the run could not be driven: "+err.Error())}
	} else if err != nil {
		return fmt.Errorf("drive run %s: %w", runID, err)
	}
	switch out.Kind {
	case Finished:
		err = lease.finish(storeCtx, out)
	case Suspended:
		err = lease.suspend(storeCtx, out.Snapshot, false)
	case Yielded:
		err = lease.suspend(storeCtx, out.Snapshot, true)
	default:
		err = fmt.Errorf("engine returned an outcome of unknown kind %d", out.Kind)
	}
	if errors.Is(err, ErrLeaseLost) {
		outcome = driveLost
		log.InfoContext(ctx, "lease lost before storing the outcome")
		return nil
	}
	if IsUnstorable(err) {
		outcome = driveFailed
		return w.failUnstorable(storeCtx, log, lease, err)
	}
	if err != nil {
		return fmt.Errorf("store outcome of run %s: %w", runID, err)
	}
	outcome = driveOutcome(out)
	switch out.Kind {
	case Suspended:
		w.cfg.Metrics.snapshot("suspend", out.Snapshot.Len())
	case Yielded:
		w.cfg.Metrics.snapshot("yield", out.Snapshot.Len())
	}
	log.InfoContext(ctx, "run driven", "outcome", out.Kind)
	return nil
}

// driveOutcome names out's kind as a codemode_worker_drives_total outcome.
func driveOutcome(out Outcome) string {
	switch {
	case out.Kind == Suspended:
		return driveSuspended
	case out.Kind == Yielded:
		return driveYielded
	case out.OK:
		return driveSucceeded
	}
	return driveFailed
}

// failUnstorable ends a run whose data the database refused for good (ErrUnstorable): a retry
// would drive the program again and meet the same refusal, so the run fails with a
// StorageError naming the cause and the job ends. When even that cannot be stored the job is
// cancelled (river.JobCancel), never retried.
func (w *Worker) failUnstorable(ctx context.Context, log *slog.Logger, lease *Lease, cause error) error {
	log.ErrorContext(ctx, "the run's data cannot be stored; failing the run", "error", cause)
	err := lease.finish(ctx, Outcome{Kind: Finished, OK: false, Result: failedResult("StorageError", "the run's data cannot be stored: "+cause.Error())})
	if err == nil || errors.Is(err, ErrLeaseLost) {
		return nil
	}
	if IsUnstorable(err) {
		log.ErrorContext(ctx, "the run's failure cannot be stored either; cancelling the job", "error", err)
		return river.JobCancel(fmt.Errorf("run %s: %w", lease.runID, err))
	}
	return fmt.Errorf("fail run %s: %w", lease.runID, err)
}

// drivingAgainCannotHelp tells an engine error that a retry of the drive would meet again:
// the run's stored data is at fault (tools its recorded manifests cannot make, an outcome
// stored malformed), not a passing condition. Such a run fails with an InternalError at once
// rather than stay running through every attempt.
func drivingAgainCannotHelp(err error) bool {
	return errors.Is(err, ErrPermanent) || errors.Is(err, toolcall.ErrInvalidOutcome)
}

// failedResult is the Result of a run the worker ends itself, failed with a diagnostic of kind
// and message: data the database refused (StorageError), a program that diverged from its
// recorded calls (ExecutionFailure), a run it could not drive or that kept crashing its
// worker (InternalError).
func failedResult(kind, message string) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{
		"ok":    false,
		"error": map[string]any{"kind": kind, "message": message},
		"logs":  []any{},
	})
	return raw
}

// runRetryDelay is how long a run job waits before attempt+1 after a drive failed for a reason
// that may pass (the database or a network briefly unreachable): attempt² seconds, at most 30
// s, so a run goes on soon after the cause is gone rather than after River's default backoff
// of attempt⁴ seconds (days, by the last attempts).
func runRetryDelay(attempt int) time.Duration {
	return min(time.Duration(attempt*attempt)*time.Second, 30*time.Second)
}

// runJobWorker is the River worker of a job that drives a run, retried after runRetryDelay.
type runJobWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	work func(ctx context.Context, job *river.Job[T]) error
}

// Work implements river.Worker.
func (r *runJobWorker[T]) Work(ctx context.Context, job *river.Job[T]) error { return r.work(ctx, job) }

// NextRetry implements river.Worker.
func (r *runJobWorker[T]) NextRetry(job *river.Job[T]) time.Time {
	return time.Now().Add(runRetryDelay(job.Attempt))
}

// growStackIndex is always 0: read through a variable, so that growStack's array is kept.
var growStackIndex int

// growStack grows the calling goroutine's stack to at least driveStack bytes at once. River
// runs every job on a new goroutine, with Go's initial stack (8 KB); a drive goes much deeper
// (River's executor, the drive, the interpreter's dispatch loop and its calls, pgx), and a
// stack grown by doublings at depth is copied, and every frame on it re-walked, at each one.
// Grown first, while the stack is shallow, it is copied once with a few frames.
//
//go:noinline
func growStack() byte {
	var pad [driveStack]byte
	return pad[growStackIndex]
}

// driveStack is the stack a drive starts with (see growStack).
const driveStack = 64 << 10

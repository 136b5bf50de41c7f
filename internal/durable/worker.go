package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// WorkerConfig configures a Worker.
type WorkerConfig struct {
	// MaxRuns is how many runs this worker drives at once. Default 10.
	MaxRuns int
	// MaxDeliveries is how many webhook deliveries and call cancellations it sends at once.
	// Default 10.
	MaxDeliveries int
	// FetchCooldown is the shortest time between two fetches of jobs; a new job notified
	// sooner waits for it. Lower means lower latency from outcome to resume, at the cost of
	// more queries under load. Default 20 ms.
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
	// ID names this worker in River's tables and logs. Default: chosen by River.
	ID string
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c WorkerConfig) WithDefaults() WorkerConfig {
	if c.MaxRuns == 0 {
		c.MaxRuns = 10
	}
	if c.MaxDeliveries == 0 {
		c.MaxDeliveries = 10
	}
	if c.FetchCooldown == 0 {
		c.FetchCooldown = 20 * time.Millisecond
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
	return c
}

func (c WorkerConfig) validate() error {
	if c.MaxRuns < 1 || c.MaxDeliveries < 1 {
		return fmt.Errorf("durable: MaxRuns and MaxDeliveries must be positive")
	}
	if c.RescueStuckJobsAfter < c.DriveTimeout {
		return fmt.Errorf("durable: RescueStuckJobsAfter %s is below DriveTimeout %s", c.RescueStuckJobsAfter, c.DriveTimeout)
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
}

// NewWorker returns a worker; Start begins taking jobs.
func NewWorker(store *Store, engine Engine, cfg WorkerConfig) (*Worker, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if engine == nil {
		return nil, errors.New("durable: NewWorker needs an Engine")
	}
	w := &Worker{store: store, engine: engine, log: store.cfg.Logger}
	workers := river.NewWorkers()
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[ExecuteArgs]) error {
		return w.drive(ctx, job.Args.RunID, job.ID, 0, job.Attempt >= job.MaxAttempts, retryOf(job.JobRow))
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[ResumeArgs]) error {
		return w.drive(ctx, job.Args.RunID, job.ID, job.Args.Seq, job.Attempt >= job.MaxAttempts, retryOf(job.JobRow))
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[WebhookArgs]) error {
		return store.deliverWebhook(ctx, job.Args.DeliveryID, job.Attempt >= job.MaxAttempts)
	}))
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[CancelCallArgs]) error {
		return store.cancelCall(ctx, job.Args.RunID, job.Args.CallID)
	}))
	client, err := river.NewClient(riverpgxv5.New(store.pool), &river.Config{
		ID:     cfg.ID,
		Logger: store.cfg.Logger,
		Queues: map[string]river.QueueConfig{
			QueueRuns:     {MaxWorkers: cfg.MaxRuns},
			QueueDelivery: {MaxWorkers: cfg.MaxDeliveries},
		},
		Workers:              workers,
		FetchCooldown:        cfg.FetchCooldown,
		FetchPollInterval:    cfg.FetchPollInterval,
		JobTimeout:           cfg.DriveTimeout,
		RescueStuckJobsAfter: cfg.RescueStuckJobsAfter,
	})
	if err != nil {
		return nil, fmt.Errorf("durable: river client: %w", err)
	}
	w.river = client
	return w, nil
}

// Start begins taking jobs; it returns at once.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.river.Start(ctx); err != nil {
		return fmt.Errorf("durable: start worker: %w", err)
	}
	return nil
}

// Stop drains the worker: it stops taking jobs and cancels the running ones' contexts, so the
// engine yields each run at its next safe point with a snapshot, which is stored and the run
// put back on the queue for another worker; then it waits for them (until ctx ends).
func (w *Worker) Stop(ctx context.Context) error {
	if err := w.river.StopAndCancel(ctx); err != nil {
		return fmt.Errorf("durable: stop worker: %w", err)
	}
	return nil
}

// drive takes the run's lease and runs the program until it finishes, suspends or yields.
// resumeSeq is 0 for run.execute, else the snapshot sequence of a run.resume job. On the job's
// last attempt an engine error fails the run (an internal error) instead of leaving it running;
// so does, at once, a write the database refuses for good (ErrUnstorable).
func (w *Worker) drive(ctx context.Context, runID string, jobID int64, resumeSeq int, lastAttempt bool, retry map[string]any) error {
	log := w.log.With("run_id", runID, "job_id", jobID)
	lease, seq, err := w.store.acquire(ctx, runID, jobID, resumeSeq)
	if errors.Is(err, errNoLease) {
		log.DebugContext(ctx, "run not available to this job")
		return nil
	}
	if err != nil {
		return err
	}
	if retry != nil {
		log.WarnContext(ctx, "run retried after a failed drive", "attempt", retry["attempt"], "error", retry["error"])
		lease.deferEvent(EventRetried, retry)
	}
	spec, err := w.store.runSpec(ctx, runID)
	if err != nil {
		return err
	}
	var out Outcome
	if seq == 0 {
		lease.deferEvent(EventStarted, nil)
		out, err = w.engine.Start(ctx, spec, lease)
	} else {
		var (
			snapshot []byte
			settled  []CallOutcome
		)
		snapshot, settled, err = w.store.resumeInput(ctx, runID, seq)
		if err != nil {
			return err
		}
		for _, o := range settled {
			lease.unapplied = append(lease.unapplied, o.CallID)
		}
		lease.deferEvent(EventResumed, map[string]any{"seq": seq, "outcomes": len(settled)})
		out, err = w.engine.Resume(ctx, spec, snapshot, settled, lease)
	}
	if errors.Is(err, ErrLeaseLost) {
		log.InfoContext(ctx, "lease lost; another driver or a cancel took the run")
		return nil
	}
	// The outcome is stored even when ctx was cancelled by a drain.
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err != nil && IsUnstorable(err) {
		return w.failUnstorable(storeCtx, log, lease, err)
	}
	if err != nil && lastAttempt {
		log.ErrorContext(ctx, "engine failed on the last attempt; failing the run", "error", err)
		out = Outcome{Kind: Finished, OK: false, Result: internalErrorResult(err)}
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
		log.InfoContext(ctx, "lease lost before storing the outcome")
		return nil
	}
	if IsUnstorable(err) {
		return w.failUnstorable(storeCtx, log, lease, err)
	}
	if err != nil {
		return fmt.Errorf("store outcome of run %s: %w", runID, err)
	}
	log.InfoContext(ctx, "run driven", "outcome", out.Kind)
	return nil
}

// failUnstorable ends a run whose data the database refused for good (ErrUnstorable): a retry
// would drive the program again and meet the same refusal, so the run fails with a
// StorageError naming the cause and the job ends. When even that cannot be stored the job is
// cancelled (river.JobCancel), never retried.
func (w *Worker) failUnstorable(ctx context.Context, log *slog.Logger, lease *Lease, cause error) error {
	log.ErrorContext(ctx, "the run's data cannot be stored; failing the run", "error", cause)
	err := lease.finish(ctx, Outcome{Kind: Finished, OK: false, Result: storageErrorResult(cause)})
	if err == nil || errors.Is(err, ErrLeaseLost) {
		return nil
	}
	if IsUnstorable(err) {
		log.ErrorContext(ctx, "the run's failure cannot be stored either; cancelling the job", "error", err)
		return river.JobCancel(fmt.Errorf("run %s: %w", lease.runID, err))
	}
	return fmt.Errorf("fail run %s: %w", lease.runID, err)
}

// storageErrorResult is the Result of a run whose data the database refused.
func storageErrorResult(err error) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{
		"ok":    false,
		"error": map[string]any{"kind": "StorageError", "message": "the run's data cannot be stored: " + err.Error()},
		"logs":  []any{},
	})
	return raw
}

// internalErrorResult is the Result of a run the engine could not drive.
func internalErrorResult(err error) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{
		"ok":    false,
		"error": map[string]any{"kind": "InternalError", "message": "the run could not be driven: " + err.Error()},
		"logs":  []any{},
	})
	return raw
}

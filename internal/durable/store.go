package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

// Config configures a Store.
type Config struct {
	// Logger receives the store's and workers' logs. Default: discard.
	Logger *slog.Logger
	// LeaseTTL is how long a driver's lease on a run lasts without a write or a heartbeat; a
	// run whose lease expired lost its worker and is re-driven by another one. Every write
	// through the Host extends it, and a worker's drives heartbeat every
	// WorkerConfig.HeartbeatInterval. Default 6 seconds.
	LeaseTTL time.Duration
	// Secrets encrypts the signing secrets of toolsets and webhooks at rest (internal/secretbox,
	// CODEMODE_SECRET_KEY). Without it, storing a secret fails with ErrNoSecretKey.
	Secrets *secretbox.Keyring
	// Egress is the policy of webhook deliveries and durable-call cancellations
	// (internal/egress). Default: the zero policy, public addresses only.
	Egress egress.Policy
	// HTTPClient makes webhook deliveries and durable-call cancellations. Default: a client
	// obeying Egress with a 30-second timeout.
	HTTPClient HTTPDoer
	// SynchronousJournal makes the records of calls, checkpoints and leases wait for the disk
	// like every other write, instead of committing with synchronous_commit off: a PostgreSQL
	// crash then loses none of them, so no call in flight before it is repeated, at the cost
	// of a disk flush per call. Default false.
	SynchronousJournal bool
	// WebhookDisableAfter is how many deliveries in a row of a subscription may fail (each
	// after all its attempts) before the subscription is disabled. Default
	// DefaultWebhookDisableAfter.
	WebhookDisableAfter int
	// CallStartDelay is how long a new call's row may wait to be written with its settlement
	// instead of on its own (see the constant CallStartDelay, the default). Negative: every
	// call's start is written before the call is made.
	CallStartDelay time.Duration
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c Config) WithDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = 6 * time.Second
	}
	if c.HTTPClient == nil {
		c.HTTPClient = c.Egress.Client(30 * time.Second)
	}
	if c.WebhookDisableAfter == 0 {
		c.WebhookDisableAfter = DefaultWebhookDisableAfter
	}
	if c.CallStartDelay == 0 {
		c.CallStartDelay = CallStartDelay
	}
	return c
}

// heartbeatInterval is how often a drive extends its lease unless its worker says otherwise
// (WorkerConfig.HeartbeatInterval): a third of LeaseTTL, so that two heartbeats may fail
// before the lease expires.
func (c Config) heartbeatInterval() time.Duration { return c.LeaseTTL / 3 }

func (c Config) validate() error {
	if c.LeaseTTL < time.Second {
		return fmt.Errorf("durable: LeaseTTL %s is below one second", c.LeaseTTL)
	}
	if c.WebhookDisableAfter < 1 {
		return fmt.Errorf("durable: WebhookDisableAfter %d is below 1", c.WebhookDisableAfter)
	}
	return nil
}

// Store is the PostgreSQL store. It is safe for concurrent use.
type Store struct {
	pool  *pgxpool.Pool
	river *river.Client[pgx.Tx] // insert-only
	cfg   Config
	watch *runWatch // wakes WaitRun on run status changes
	// insertNotified is when RunInsert last notified River's producers (Unix nanoseconds).
	insertNotified atomic.Int64
	// finishSubscribed: the latest finish found webhook subscriptions to notify, or its
	// one-trip attempt was refused (see Lease.finish).
	finishSubscribed atomic.Bool
	// pendingSubscribed is finishSubscribed for the call.pending event (see Lease.CallPending).
	pendingSubscribed atomic.Bool
	// suspendSubscribed is finishSubscribed for the run.suspended event, also set when a
	// suspension found posted outcomes to resume with (see Lease.suspend).
	suspendSubscribed atomic.Bool
	// direct is the worker driving this store's new runs directly (direct.go); nil: none.
	direct atomic.Pointer[Worker]
	// journal sends the one-shot journal writes of this store's leases together (group commit).
	journal journalGroup
	// drivenHere are the runs a live drive of this process holds the lease of (see
	// Store.waitRun).
	drivenHere drivenRuns
	// eventsWatchFor, when not 0, replaces the constant eventsWatchFor (tests).
	eventsWatchFor time.Duration
}

// New returns a store on pool, whose database must be migrated (package migrate).
func New(pool *pgxpool.Pool, cfg Config) (*Store, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	// An insert-only client still rate-limits its insert notifications per queue by
	// FetchCooldown (River's default: 100 ms); a job inserted inside that window would wait
	// for the workers' next poll. The minimum lets nearly every insert wake a worker at once
	// (workers coalesce wake-ups by their own cooldown).
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: cfg.Logger, FetchCooldown: river.FetchCooldownMin})
	if err != nil {
		return nil, fmt.Errorf("durable: river insert client: %w", err)
	}
	return &Store{pool: pool, river: client, cfg: cfg, watch: newRunWatch(pool), journal: journalGroup{pool: pool}}, nil
}

// Close stops the store's background work (the connection that listens for run status
// changes while requests wait on runs). It does not close the pool.
func (s *Store) Close() { s.watch.close() }

// Pool returns the store's connection pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// inTx runs fn in a transaction, committing when it returns nil.
// journalCommitMode is the synchronous_commit a journal transaction commits with, which its
// first statement sets itself (the lease and lock statements take it as a parameter): off, or
// nil with Config.SynchronousJournal, whose journal follows the server's setting like every
// other write. Set by set_config with is_local, it lasts until the transaction ends (a batch
// without BEGIN is one implicit transaction: one Sync, its statements each with their own
// snapshot, committed at the end or rolled back at the first error).
func (s *Store) journalCommitMode() *string {
	if s.cfg.SynchronousJournal {
		return nil
	}
	off := "off"
	return &off
}

func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, fn)
}

// addEvent appends an event to the run's timeline; the caller holds the run's row lock or owns
// the transaction that created the run.
func addEvent(ctx context.Context, tx pgx.Tx, runID, typ string, data any) error {
	raw, err := eventData(typ, data)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, q("EventInsert"), runID, typ, raw); err != nil {
		return fmt.Errorf("insert %s event: %w", typ, err)
	}
	return nil
}

// eventData encodes an event's data as stored.
func eventData(typ string, data any) ([]byte, error) {
	raw := []byte("{}")
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return nil, fmt.Errorf("encode %s event: %w", typ, err)
		}
		raw = storable(raw)
	}
	return raw, nil
}

// Event types recorded in a run's timeline.
const (
	EventCreated      = "created"
	EventStarted      = "started"
	EventResumed      = "resumed"
	EventCallStarted  = "call.started"
	EventCallPending  = "call.pending"
	EventCallSettled  = "call.settled"
	EventCheckpointed = "checkpointed"
	EventSuspended    = "suspended"
	EventYielded      = "yielded"
	EventFinished     = "finished"
	EventCancelled    = "cancelled"
	// EventRedriven: the run's worker stopped heartbeating (it crashed or was killed) and
	// another worker took the run over from its latest checkpoint; data names both workers
	// ("from", "to") and counts the run's crashes so far.
	EventRedriven = "redriven"
	// EventRequeued: a draining worker ran out of time and put the run back on the queue.
	EventRequeued = "requeued"
	// EventLog: the program wrote a console line; data has its level, text and time (see
	// Lease.Log).
	EventLog = "log"
	// EventRetried: River retried a drive after a failed one; data has the attempt and the
	// previous error.
	EventRetried = "retried"
)

// Event is one entry of a run's timeline.
type Event struct {
	// Seq numbers the run's events from 1.
	Seq int64
	// Type is one of the Event* constants.
	Type string
	// Data holds the event's details (JSON object).
	Data json.RawMessage
	// At is when it happened.
	At time.Time
}

// ListEvents returns up to limit events of a run with a sequence number above after, in order.
func (s *Store) ListEvents(ctx context.Context, runID string, after int64, limit int) ([]Event, error) {
	if err := s.runExists(ctx, runID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, q("EventList"), runID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list events of run %s: %w", runID, err)
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) {
		var e Event
		err := r.Scan(&e.Seq, &e.Type, (*[]byte)(&e.Data), &e.At)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("list events of run %s: %w", runID, err)
	}
	return events, nil
}

// runExists returns ErrRunNotFound when the run does not exist (one statement: the run's row,
// without its pending calls).
func (s *Store) runExists(ctx context.Context, runID string) error {
	_, err := s.getRunRow(ctx, runID)
	return err
}

func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// EventsSince returns up to limit events of a run with a sequence number above after, and the
// run's status read before them (so that every event written before a final status is among
// them, or a later page), in two queries: what a live event stream reads when woken.
func (s *Store) EventsSince(ctx context.Context, runID string, after int64, limit int) ([]Event, string, error) {
	run, err := s.getRunRow(ctx, runID)
	if err != nil {
		return nil, "", err
	}
	rows, err := s.pool.Query(ctx, q("EventList"), runID, after, limit)
	if err != nil {
		return nil, "", fmt.Errorf("list events of run %s: %w", runID, err)
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) {
		var e Event
		err := r.Scan(&e.Seq, &e.Type, (*[]byte)(&e.Data), &e.At)
		return e, err
	})
	if err != nil {
		return nil, "", fmt.Errorf("list events of run %s: %w", runID, err)
	}
	return events, run.Status, nil
}

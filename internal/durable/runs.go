package durable

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/codemode/codemode/internal/toolcall"
)

// Run statuses.
const (
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusSuspended = "suspended"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// IsFinal reports whether a run status is final (succeeded, failed or cancelled).
func IsFinal(status string) bool {
	return status == StatusSucceeded || status == StatusFailed || status == StatusCancelled
}

// Webhook is where a run's events are delivered.
type Webhook struct {
	// URL receives the POSTs.
	URL string `json:"url"`
	// Secret signs them (Standard Webhooks; "whsec_<base64>" or raw text). It is stored
	// encrypted and not returned when a run is read.
	Secret string `json:"secret,omitempty"`
}

// NewRun is a run to create.
type NewRun struct {
	// Code is the program (required).
	Code string
	// Toolsets names the toolsets the program may use; nil means every registered toolset.
	Toolsets []string
	// Limits is the limits object as posted; nil means {}.
	Limits json.RawMessage
	// Webhook receives the run's events; nil for none.
	Webhook *Webhook
	// IdempotencyKey makes creation idempotent: the same key with the same request returns the
	// first run; with another request ErrIdempotencyConflict. Empty: no key.
	IdempotencyKey string
	// Input is JSON the program reads as the global input; nil: none.
	Input json.RawMessage
	// afterInsert, when set, runs in the creating transaction once the run is inserted (a
	// retry or fork records its lineage and copies calls there).
	afterInsert func(ctx context.Context, tx pgx.Tx, id string) error
	// origin is, for a retry or fork, what it was started from (the run, and the fork's
	// point): part of the request an idempotency key stands for.
	origin string
}

// Run is a stored run.
type Run struct {
	ID         string
	Status     string
	Code       string
	Limits     json.RawMessage
	Toolsets   []string // nil: all
	Webhook    *Webhook
	Result     json.RawMessage // set once finished (succeeded or failed)
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
	// SnapshotSeq is the sequence number of the latest snapshot (0: none).
	SnapshotSeq int
	// Input is the JSON the program reads as the global input; nil: none was given.
	Input json.RawMessage
	// Pending lists the calls waiting for an outcome (filled by GetRun).
	Pending []Call
	// Lineage is where the run came from and the runs started from it, when read with it (by
	// GetRun); nil otherwise.
	Lineage *Lineage
}

func (n NewRun) hash() []byte {
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(n.Code)
	_ = enc.Encode(n.Toolsets)
	_ = enc.Encode(canonicalJSON(n.Limits))
	_ = enc.Encode(n.Webhook)
	if len(n.Input) > 0 { // runs without input hash as they always did
		_ = enc.Encode(canonicalJSON(n.Input))
	}
	if n.origin != "" {
		_ = enc.Encode(n.origin)
	}
	return h.Sum(nil)
}

func canonicalJSON(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v // re-encoding sorts object keys
}

// CreateRun stores a queued run and its run.execute job in one transaction. created is false
// when an earlier run with the same idempotency key and request is returned instead.
func (s *Store) CreateRun(ctx context.Context, n NewRun) (run Run, created bool, err error) {
	return s.CreateRunWait(ctx, n, 0, nil)
}

// CreateRunWait is CreateRun, then WaitRun for up to wait (none when 0) until done accepts the
// run's status. The run's id is chosen here and its status changes subscribed to before it is
// stored, so that every change is announced and the run is read once, when done (or the wait
// is over).
func (s *Store) CreateRunWait(ctx context.Context, n NewRun, wait time.Duration, done func(status string) bool) (run Run, created bool, err error) {
	if len(n.Limits) == 0 {
		n.Limits = json.RawMessage("{}")
	}
	deadline := time.Now().Add(wait)
	id := uuid.NewString()
	var (
		changed   <-chan string
		listening bool
	)
	if wait > 0 {
		var unsubscribe func()
		changed, listening, unsubscribe = s.watch.subscribeListening(ctx, id)
		defer unsubscribe()
	}
	// The pipelined insert has no transaction to hand to afterInsert (retry, fork, schedules):
	// those runs are stored in a transaction of their own.
	direct := s.direct.Load()
	switch {
	case n.IdempotencyKey == "" && n.afterInsert == nil && wait > 0 && direct != nil && direct.reserveDirect(direct.cfg.FetchCooldown):
		// A waiting client's run, driven at once by this process's worker (direct.go), which
		// hands over the ended run: no read. A slot that frees within the fetch cooldown
		// (the least a queued run would wait for its fetch) is worth waiting for.
		var ended <-chan Run
		if run, ended, err = s.insertRunDirect(ctx, id, n, direct); err == nil {
			if end, ok := waitEnded(ctx, ended, deadline); ok && done(end.Status) {
				return end, true, nil
			}
			// Yielded, requeued or suspended the two-trip way (announced to the
			// subscription), or the wait is over: the run is read.
			run, err = s.waitRun(ctx, id, deadline, done, changed, listening, nil, false)
			return run, true, err
		}
		created = true
	case n.IdempotencyKey == "" && n.afterInsert == nil:
		run, err = s.insertRun(ctx, id, n)
		created = true
	default:
		run, created, err = s.insertRunIdempotent(ctx, id, n)
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("create run: %w", unstorable(err))
	}
	if wait <= 0 {
		if created {
			return run, true, nil // a new run has no pending calls
		}
		run, err = s.GetRun(ctx, run.ID)
		return run, false, err
	}
	if !created { // an earlier run, whose changes may predate the subscription
		run, err = s.WaitRun(ctx, run.ID, time.Until(deadline), done)
		return run, false, err
	}
	run, err = s.waitRun(ctx, id, deadline, done, changed, listening, &run, false)
	return run, true, err
}

// insertRun stores a run without an idempotency key, as run id, with its run.execute job
// (RunInsert writes both): one statement in a transaction of its own, one round trip. When
// the run names toolsets, their check follows in the same transaction (BEGIN, the insert and
// the check pipelined, then COMMIT).
func (s *Store) insertRun(ctx context.Context, id string, n NewRun) (Run, error) {
	args, err := s.runInsertArgs(id, n, nil, n.hash())
	if err != nil {
		return Run{}, err
	}
	if n.Toolsets == nil {
		return scanRun(s.pool.QueryRow(ctx, q("RunInsert"), args...))
	}
	tx, err := s.beginPipe(ctx)
	if err != nil {
		return Run{}, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var run Run
	tx.queueRow(func(row pgx.Row) (err error) {
		run, err = scanRun(row)
		return err
	}, q("RunInsert"), args...)
	if err := checkToolsets(ctx, tx, n.Toolsets); err != nil {
		return Run{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return Run{}, err
	}
	return run, nil
}

// runInsertArgs returns RunInsert's arguments for run id with idempotency key key (nil: none)
// and request hash hash. The last ones are the run.execute job it writes: River's kind and
// queue of ExecuteArgs, River's default attempts and priority (an insert-only client sets
// neither), and the payload of River's insert notification, or nil when one was sent less than
// River's minimal fetch cooldown ago (as River's own insert rate-limits them): the workers'
// fetch after that notification, or their poll, takes the job.
func (s *Store) runInsertArgs(id string, n NewRun, key *string, hash []byte) ([]any, error) {
	whURL, whSecret, err := s.runWebhook(n)
	if err != nil {
		return nil, err
	}
	var payload *string
	now := time.Now().UnixNano()
	if last := s.insertNotified.Load(); now-last >= int64(river.FetchCooldownMin) && s.insertNotified.CompareAndSwap(last, now) {
		p := executeNotifyPayload
		payload = &p
	}
	var job ExecuteArgs
	return []any{n.Code, n.Limits, n.Toolsets, whURL, whSecret, key, hash, inputArg(n.Input), id,
		job.Kind(), job.InsertOpts().Queue, river.MaxAttemptsDefault, river.PriorityDefault, payload}, nil
}

// executeNotifyPayload is River's insert notification for ExecuteArgs' queue.
var executeNotifyPayload = fmt.Sprintf(`{"queue": %q}`, ExecuteArgs{}.InsertOpts().Queue)

// insertRunIdempotent stores a run with an idempotency key, as run id unless the key exists;
// created is false when an earlier run with the same key and request is returned instead.
func (s *Store) insertRunIdempotent(ctx context.Context, id string, n NewRun) (run Run, created bool, err error) {
	var key *string // NULL: no idempotency key, never a conflict
	if n.IdempotencyKey != "" {
		key = &n.IdempotencyKey
	}
	hash := n.hash()
	args, err := s.runInsertArgs(id, n, key, hash)
	if err != nil {
		return Run{}, false, err
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if n.Toolsets != nil {
			if err := checkToolsets(ctx, tx, n.Toolsets); err != nil {
				return err
			}
		}
		inserted, err := scanRun(tx.QueryRow(ctx, q("RunInsert"), args...))
		if isNoRows(err) { // the idempotency key exists
			var (
				uid      uuid.UUID
				prevHash []byte
			)
			if err := tx.QueryRow(ctx, q("RunByIdempotencyKey"), key).Scan(&uid, &prevHash); err != nil {
				return fmt.Errorf("look up idempotency key: %w", err)
			}
			if !bytes.Equal(prevHash, hash) {
				return ErrIdempotencyConflict
			}
			run = Run{ID: uid.String()}
			return nil
		}
		if err != nil {
			return fmt.Errorf("insert run: %w", err)
		}
		run, created = inserted, true
		if n.afterInsert != nil {
			if err := n.afterInsert(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	return run, created, err
}

// runWebhook returns the run's webhook URL and sealed secret as stored (nil without one).
func (s *Store) runWebhook(n NewRun) (*string, []byte, error) {
	if n.Webhook == nil {
		return nil, nil, nil
	}
	secret, err := s.seal(n.Webhook.Secret, whereRunWebhook)
	if err != nil {
		return nil, nil, err
	}
	return &n.Webhook.URL, secret, nil
}

// inputArg is a run's input as the RunInsert query takes it: NULL when none was given.
func inputArg(input json.RawMessage) any {
	if len(input) == 0 {
		return nil
	}
	return storable(input)
}

func checkToolsets(ctx context.Context, tx pgx.Tx, names []string) error {
	rows, err := tx.Query(ctx, q("ToolsetListNamed"), names)
	if err != nil {
		return fmt.Errorf("check toolsets: %w", err)
	}
	found, err := pgx.CollectRows(rows, scanToolset)
	if err != nil {
		return fmt.Errorf("check toolsets: %w", err)
	}
	have := map[string]bool{}
	for _, t := range found {
		have[t.Name] = true
	}
	for _, name := range names {
		if !have[name] {
			return fmt.Errorf("%w: %s", ErrToolsetNotFound, name)
		}
	}
	return nil
}

func scanRun(r pgx.Row) (Run, error) {
	var c runColumns
	if err := r.Scan(c.dest()...); err != nil {
		return Run{}, err
	}
	return c.run(), nil
}

// runColumns are the run columns every statement returning a run starts with (RunGet's).
type runColumns struct {
	r                     Run
	uid                   uuid.UUID
	whURL, whSecret       *string
	limits, result, input []byte
}

func (c *runColumns) dest() []any {
	return []any{&c.uid, &c.r.Status, &c.r.Code, &c.limits, &c.r.Toolsets, &c.whURL, &c.whSecret, &c.result,
		&c.r.SnapshotSeq, &c.r.CreatedAt, &c.r.UpdatedAt, &c.r.FinishedAt, &c.input}
}

func (c *runColumns) run() Run {
	run := c.r
	run.ID = c.uid.String()
	run.Limits = c.limits
	if c.result != nil {
		run.Result = c.result
	}
	if c.input != nil {
		run.Input = c.input
	}
	if c.whURL != nil {
		run.Webhook = &Webhook{URL: *c.whURL}
		if c.whSecret != nil {
			run.Webhook.Secret = *c.whSecret
		}
	}
	return run
}

// GetRun returns a run with its pending calls and its lineage, or ErrRunNotFound: one
// statement reads them.
func (s *Store) GetRun(ctx context.Context, id string) (Run, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Run{}, fmt.Errorf("%w: %s", ErrRunNotFound, id)
	}
	rows, err := s.pool.Query(ctx, q("RunGetPending"), id)
	if err != nil {
		return Run{}, fmt.Errorf("get run %s: %w", id, err)
	}
	return readRunPending(rows, id)
}

// queueRunPending queues in tx the read of run id as GetRun reads it (RunGetPending); when its
// answer arrives and want() holds, keep is handed the run.
func queueRunPending(tx *pipeTx, id string, want func() bool, keep func(Run)) {
	tx.queueRead(func(b *pgx.Batch) { b.Queue(q("RunGetPending"), id) }, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		if !want() {
			rows.Close()
			return rows.Err()
		}
		run, err := readRunPending(rows, id)
		if err != nil {
			return err
		}
		keep(run)
		return nil
	})
}

// readRunPending reads the rows of RunGetPending for run id and closes them.
func readRunPending(rows pgx.Rows, id string) (Run, error) {
	defer rows.Close()
	var (
		run   Run
		found bool
	)
	for rows.Next() {
		var (
			rc runColumns
			c  pendingCallColumns
			lc lineageColumns
		)
		dest := append(rc.dest(), lc.dest()...)
		dest = append(dest, &c.callID, &c.key, &c.toolset, &c.path, &c.args, &c.durable, &c.status, &c.handle,
			&c.outcome, &c.startedAt, &c.settledAt)
		if err := rows.Scan(dest...); err != nil {
			return Run{}, fmt.Errorf("get run %s: %w", id, err)
		}
		if !found {
			found = true
			run = rc.run()
			l := lc.lineage()
			run.Lineage = &l
		}
		if c.callID == nil {
			continue
		}
		call, err := c.call()
		if err != nil {
			return Run{}, err
		}
		run.Pending = append(run.Pending, call)
	}
	if err := rows.Err(); err != nil {
		return Run{}, fmt.Errorf("get run %s: %w", id, err)
	}
	if !found {
		return Run{}, fmt.Errorf("%w: %s", ErrRunNotFound, id)
	}
	return run, nil
}

// pendingCallColumns are the call columns of RunGetPending, NULL on the row of a run without
// pending calls.
type pendingCallColumns struct {
	callID                     *int
	key, toolset, path, status *string
	args, handle, outcome      []byte
	durable                    *bool
	startedAt, settledAt       *time.Time
}

func (c pendingCallColumns) call() (Call, error) {
	call := Call{CallID: *c.callID, Key: *c.key, Toolset: *c.toolset, Path: *c.path, Args: c.args,
		Durable: *c.durable, Status: *c.status, Handle: c.handle, StartedAt: *c.startedAt, SettledAt: c.settledAt}
	if c.outcome != nil {
		call.Outcome = &toolcall.Outcome{}
		if err := json.Unmarshal(c.outcome, call.Outcome); err != nil {
			return Call{}, fmt.Errorf("decode outcome of call %s: %w", call.Key, err)
		}
	}
	return call, nil
}

// withPending adds the run's pending calls to run, read after it. A finished run has none
// (its pending calls were cancelled when it ended), so it is not asked for them.
func (s *Store) withPending(ctx context.Context, run Run) (Run, error) {
	if IsFinal(run.Status) {
		return run, nil
	}
	rows, err := s.pool.Query(ctx, q("CallListPending"), run.ID)
	if err != nil {
		return Run{}, fmt.Errorf("pending calls of run %s: %w", run.ID, err)
	}
	run.Pending, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Call, error) { return scanCall(r) })
	if err != nil {
		return Run{}, fmt.Errorf("pending calls of run %s: %w", run.ID, err)
	}
	return run, nil
}

// getRunRow returns a run without its pending calls, or ErrRunNotFound.
func (s *Store) getRunRow(ctx context.Context, id string) (Run, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Run{}, fmt.Errorf("%w: %s", ErrRunNotFound, id)
	}
	run, err := scanRun(s.pool.QueryRow(ctx, q("RunGet"), id))
	if isNoRows(err) {
		return Run{}, fmt.Errorf("%w: %s", ErrRunNotFound, id)
	}
	if err != nil {
		return Run{}, fmt.Errorf("get run %s: %w", id, err)
	}
	return run, nil
}

// WaitRun returns the run once done(its status) is true or the wait is over (returning the
// run as it is then). It rereads the run when a PostgreSQL notification announces a status
// that done accepts (see runWatch); only while the listener is not listening does it also
// poll, at growing intervals (50 ms up to 1 s); otherwise it rereads every watchSafetyPoll as a
// safety net.
func (s *Store) WaitRun(ctx context.Context, id string, wait time.Duration, done func(status string) bool) (Run, error) {
	deadline := time.Now().Add(wait)
	changed, listening, unsubscribe := s.watch.subscribeListening(ctx, id)
	defer unsubscribe()
	return s.waitRun(ctx, id, deadline, done, changed, listening, nil, false)
}

// WaitRunChange returns the run once its status differs from the one it has when asked (at
// once when that is final), or when the wait is over.
func (s *Store) WaitRunChange(ctx context.Context, id string, wait time.Duration) (Run, error) {
	deadline := time.Now().Add(wait)
	var first string
	done := func(status string) bool { return status != first || IsFinal(status) }
	if !s.watch.listening() {
		// Not listening yet: a run already final is answered without connecting the listener.
		run, err := s.getRunRow(ctx, id)
		if err != nil || IsFinal(run.Status) {
			if err != nil {
				return Run{}, err
			}
			return s.withPending(ctx, run)
		}
	}
	// Subscribed before the run is read: every change after the read is announced. Read with
	// its pending calls and lineage, as the API shows it: a run this process finishes is
	// answered from that read and the end the drive committed.
	changed, listening, unsubscribe := s.watch.subscribeListening(ctx, id)
	defer unsubscribe()
	if view, ok := s.drivenHere.view(id); ok {
		// Resumed here, and read by the resume's transaction as it left the run: only the
		// resume's drive has changed it since (or a change made elsewhere, which ends the
		// drive), and the drive announces its changes here and wakes this wait when it ends.
		first = view.Status
		return s.waitRun(ctx, id, deadline, done, changed, listening, &view, true)
	}
	run, err := s.GetRun(ctx, id)
	if err != nil {
		return Run{}, err
	}
	first = run.Status
	return s.waitRun(ctx, id, deadline, done, changed, listening, &run, true)
}

// waitRun waits as WaitRun does on a subscription made before known (when not nil) was read.
func (s *Store) waitRun(ctx context.Context, id string, deadline time.Time, done func(status string) bool,
	changed <-chan string, listening bool, known *Run, knownWithCalls bool) (Run, error) {
	interval := 25 * time.Millisecond
	marked := false     // the run is marked waited on (RunMarkStatusWatched)
	waitedHere := false // the wait counted on a drive of this process once
	for {
		var run Run
		withCalls := false // run holds its pending calls
		if known != nil {
			run, known, withCalls = *known, nil, knownWithCalls
			if done(run.Status) || !time.Now().Before(deadline) {
				return s.endedWait(ctx, run, withCalls)
			}
		} else {
			// A reread takes the pending calls and the lineage with the run, in one statement:
			// the wait usually ends with it, and the API shows both.
			var err error
			run, err = s.GetRun(ctx, id)
			withCalls = true
			if err != nil {
				return Run{}, err
			}
			if done(run.Status) || !time.Now().Before(deadline) {
				return run, nil
			}
		}
		next := min(watchSafetyPoll, time.Until(deadline))
		if !marked && !waitedHere {
			// A drive of this process holds the run (drivenRuns): it announces here every
			// change it commits, and its end (a change made elsewhere ends it at its next
			// heartbeat) wakes this wait, so the run need not be marked (a write) for a
			// while; past a heartbeat interval the wait reads the run again and marks it as
			// below. When the drive finishes the run, the wait takes the end it committed
			// instead of reading the run again.
			if ends, unwatch := s.drivenHere.watchEnd(id); ends != nil {
				waitedHere = true
				woken := waitChange(ctx, changed, min(next, s.cfg.heartbeatInterval()), done)
				unwatch()
				select {
				case end := <-ends:
					if withCalls && done(end.status) {
						return end.apply(run), nil
					}
				default:
				}
				if !woken {
					return s.endedWait(ctx, run, withCalls)
				}
				continue
			}
		}
		if !marked {
			// Only runs marked waited on announce their status changes: the mark returns the
			// status as of any change made before it, and every later one is announced.
			marked = true
			status, err := s.markStatusWatched(ctx, id, deadline)
			if err != nil {
				listening = false // unannounced: poll
			} else if status != run.Status {
				continue // changed (or finished) since it was read
			}
		}
		if !listening {
			// Notifications may be missed until the listener listens: poll as well.
			interval = min(interval*2, time.Second)
			next = min(interval, next)
		}
		if !waitChange(ctx, changed, next, done) {
			return s.endedWait(ctx, run, withCalls)
		}
		listening = listening || s.watch.listening()
	}
}

// endedWait is what a wait whose context ended returns: run as last read, with its pending
// calls (read now unless withCalls says run holds them).
func (s *Store) endedWait(ctx context.Context, run Run, withCalls bool) (Run, error) {
	if withCalls {
		return run, nil
	}
	return s.withPending(context.WithoutCancel(ctx), run)
}

// statusWatchMargin is how long a run stays marked waited on after the wait's deadline: the
// wait's last reread comes after it.
const statusWatchMargin = 5 * time.Second

// markStatusWatched marks run id waited on until deadline (and a margin), and returns its
// status then: "" when it is finished or gone.
func (s *Store) markStatusWatched(ctx context.Context, id string, deadline time.Time) (string, error) {
	var status string
	err := s.pool.QueryRow(ctx, q("RunMarkStatusWatched"), id, (time.Until(deadline) + statusWatchMargin).String()).Scan(&status)
	if isNoRows(err) {
		return "", nil
	}
	return status, err
}

// waitChange waits until changed announces a status done accepts (or an unknown one), or
// interval passes; it returns false when ctx ended.
func waitChange(ctx context.Context, changed <-chan string, interval time.Duration, done func(string) bool) bool {
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case status := <-changed:
			if status == "" || done(status) {
				return true
			}
		case <-timer.C:
			return true
		}
	}
}

// ListFilter selects runs for ListRuns.
type ListFilter struct {
	// Status keeps runs with this status; empty: any.
	Status string
	// Toolset keeps runs that may use this toolset; empty: any.
	Toolset string
	// CreatedAfter keeps runs created after this time; nil: any.
	CreatedAfter *time.Time
	// Schedule keeps the runs this schedule started (its id); empty: any. An id that is not
	// a UUID is ErrInvalidFilter.
	Schedule string
	// Limit is the page size; default 50, at most 500.
	Limit int
	// Cursor continues a previous listing (its next cursor); empty: from the newest.
	Cursor string
}

// ListRuns returns runs newest first, and the cursor of the next page ("" when none).
func (s *Store) ListRuns(ctx context.Context, f ListFilter) ([]Run, string, error) {
	pg, err := newPage(f.Limit, f.Cursor)
	if err != nil {
		return nil, "", err
	}
	var status, toolset, schedule *string
	if f.Status != "" {
		status = &f.Status
	}
	if f.Toolset != "" {
		toolset = &f.Toolset
	}
	if f.Schedule != "" {
		if _, err := uuid.Parse(f.Schedule); err != nil {
			return nil, "", fmt.Errorf("%w: schedule %q is not a schedule id", ErrInvalidFilter, f.Schedule)
		}
		schedule = &f.Schedule
	}
	rows, err := s.pool.Query(ctx, q("RunList"), status, toolset, f.CreatedAfter, pg.at, pg.id, pg.limit+1, schedule)
	if err != nil {
		return nil, "", fmt.Errorf("list runs: %w", err)
	}
	runs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Run, error) { return scanRun(r) })
	if err != nil {
		return nil, "", fmt.Errorf("list runs: %w", err)
	}
	runs, next := cut(pg, runs, func(r Run) (time.Time, string) { return r.CreatedAt, r.ID })
	return runs, next, nil
}

// page is where a listing by (created_at, id) starts and how many it holds.
type page struct {
	limit int        // default 50, at most 500
	at    *time.Time // the cursor's created_at; nil: from the start
	id    *string    // the cursor's id
}

// newPage reads a listing's limit (0: the default) and cursor (a previous page's next; empty:
// from the start). Errors: ErrInvalidCursor.
func newPage(limit int, cursor string) (page, error) {
	if limit <= 0 {
		limit = 50
	}
	p := page{limit: min(limit, 500)}
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return page{}, err
		}
		p.at, p.id = &at, &id
	}
	return p, nil
}

// cut keeps the page's items of those read (its limit and one more, to know whether more
// follow) and returns the cursor of the next page ("" when none), made of the last item's
// created_at and id (key).
func cut[T any](p page, items []T, key func(T) (time.Time, string)) ([]T, string) {
	if len(items) <= p.limit {
		return items, ""
	}
	items = items[:p.limit]
	return items, encodeCursor(key(items[len(items)-1]))
}

func encodeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "|" + id))
}

func decodeCursor(c string) (time.Time, string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("%w: %w", ErrInvalidCursor, err)
	}
	atStr, id, ok := strings.Cut(string(raw), "|")
	if !ok {
		return time.Time{}, "", ErrInvalidCursor
	}
	at, err := time.Parse(time.RFC3339Nano, atStr)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("%w: %w", ErrInvalidCursor, err)
	}
	if _, err := uuid.Parse(id); err != nil {
		return time.Time{}, "", fmt.Errorf("%w: %w", ErrInvalidCursor, err)
	}
	return at, id, nil
}

// decodeUnapplied decodes the posted outcomes RunDriveInput returns (nil: none).
func decodeUnapplied(raw []byte) ([]Settled, error) {
	if raw == nil {
		return nil, nil
	}
	var rows []struct {
		CallID  int             `json:"callId"`
		Outcome json.RawMessage `json:"outcome"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, err
	}
	out := make([]Settled, len(rows))
	for i, r := range rows {
		out[i].CallID = r.CallID
		if err := json.Unmarshal(r.Outcome, &out[i].Outcome); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scanUnapplied scans a row of CallListUnapplied.
func scanUnapplied(r pgx.CollectableRow) (Settled, error) {
	var (
		o   Settled
		raw []byte
	)
	if err := r.Scan(&o.CallID, &raw); err != nil {
		return o, err
	}
	err := json.Unmarshal(raw, &o.Outcome)
	return o, err
}

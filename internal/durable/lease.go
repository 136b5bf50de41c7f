package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/toolcall"
)

// Lease is a driver's hold on one run: the fencing sequence it got when taking the run. Every
// write made through it checks the sequence under the run's row lock, so once another driver
// (or a cancel) has bumped it, the stale driver's writes fail with ErrLeaseLost. Lease
// implements Host.
type Lease struct {
	store *Store
	runID string
	fence int64
	// unapplied are posted outcomes handed to Engine.Resume, marked applied by the next state
	// write (checkpoint, suspend, yield, finish).
	unapplied []int
	// deferred are timeline events (started, resumed) written by the next fenced transaction
	// rather than one of their own, saving a commit per drive: a drive always ends with a
	// write, and a drive that crashes before it recorded nothing else either. They are timed
	// (by the database's clock, like every event) when written.
	deferred []deferredEvent
	// redriven: the run was put back on the queue because its previous worker was lost;
	// crashes counts how often that happened to the run.
	redriven bool
	crashes  int
	// knownCalls is the highest call id recorded for the run when the lease was taken: a call
	// above it is new, so its start is written without looking for a stored record first.
	knownCalls int
	// madeCalls: the lease recorded a call start.
	madeCalls bool
	// seq is the run's latest snapshot: as the lease found it, then as its writes left it.
	seq int
	// input is what the drive needs, read with the lease.
	input *driveInput
	// worker is the id of the worker driving the run ("" when unknown), recorded on the
	// events the drive writes so that a timeline shows which process did what.
	worker string
	// callStarts are when the drive started its inline calls, by call id, for the duration
	// on their call.settled events.
	callStarts map[int]time.Time
	// unwritten are the rows of started calls not written yet (see CallStartDelay), by call
	// id; timerWrites those their timers are writing or wrote.
	unwritten   map[int]*unwrittenCall
	timerWrites map[int]*unwrittenCall
	// interrupt cancels the drive's context (set by keepAlive while the drive lives).
	interrupt context.CancelCauseFunc
	// finished, when set, is told how the run ended once its end is stored (finish): status,
	// stored result, finished_at and latest snapshot, as the run's row now has them.
	finished func(status string, result json.RawMessage, at time.Time, seq int)
	// suspended, when set, is handed the run as its suspension left it, read in the
	// suspension's transaction with its pending calls and lineage, once the suspension is
	// stored; only a suspension of one round trip reads it (suspendOneTrip).
	suspended func(Run)
	// mu guards deferred, unwritten and timerWrites: console lines (Log) are queued by the
	// program's goroutine, and call rows are written by timers.
	mu sync.Mutex
	// writing is held by a write that took the deferred events, until it ended: a timer's
	// write of a call row and the driver's next write then commit in the order they took
	// their events, so the timeline's sequence numbers keep the order the events were queued
	// in. No one holding it waits for a timer's write.
	writing sync.Mutex
}

// deferredEvent is an event waiting for the lease's next write.
type deferredEvent struct {
	typ  string
	data any // encoded as JSON when written: a map, or one of the event data types (eventdata.go)
}

// deferEvent queues an event for the lease's next fenced transaction.
func (l *Lease) deferEvent(typ string, data any) {
	l.mu.Lock()
	l.deferred = append(l.deferred, deferredEvent{typ: typ, data: data})
	l.mu.Unlock()
}

// takeDeferred removes and returns the queued events; a write that fails puts them back
// (restoreDeferred) for the next one.
func (l *Lease) takeDeferred() []deferredEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.deferred
	l.deferred = nil
	return d
}

func (l *Lease) restoreDeferred(d []deferredEvent) {
	if len(d) == 0 {
		return
	}
	l.mu.Lock()
	l.deferred = append(d, l.deferred...)
	l.mu.Unlock()
}

// Log implements Host: a console line becomes a log event written by the drive's next write
// (a call's start or settlement, a checkpoint, the suspend or the finish), never by a round
// trip of its own. Lines a drive writes after its last write before a crash are lost with it
// (the re-drive runs that part of the program again and logs them anew).
func (l *Lease) Log(line LogLine) {
	l.deferEvent(EventLog, logData{Level: line.Level, Text: line.Text, Time: line.At.UTC().Format(time.RFC3339Nano),
		Truncated: line.Truncated})
}

// withWorker adds the driving worker's id to an event's data.
func (l *Lease) withWorker(data map[string]any) map[string]any {
	if l.worker != "" {
		data["worker"] = l.worker
	}
	return data
}

var _ Host = (*Lease)(nil)

// errNoLease: the run is not in a state this job may drive (already finished, cancelled, or
// driven by a live driver); the job ends without doing anything.
var errNoLease = errors.New("run not available for this job")

// acquire takes the run's lease for job jobID. resumeSeq is 0 for run.execute, else the
// snapshot sequence a run.resume job was enqueued for.
func (s *Store) acquire(ctx context.Context, runID string, jobID int64, resumeSeq int) (*Lease, int, error) {
	return s.acquireAs(ctx, runID, jobID, resumeSeq, "")
}

// acquireAs is acquire for a job of worker workerID, recorded on the run. When the run is
// re-driven because its previous worker was lost, it records a redriven event naming both
// workers (at once: a run that crashes its worker may never write anything else).
func (s *Store) acquireAs(ctx context.Context, runID string, jobID int64, resumeSeq int, workerID string) (*Lease, int, error) {
	ttl := s.cfg.LeaseTTL.String()
	var (
		fence   int64
		seq     int
		from    *string
		crashes int
		in      driveInput
		known   int
	)
	// One round trip, one transaction (a batch without BEGIN, see journalCommitMode): the
	// lease UPDATE, then (each statement seeing what the ones before it
	// wrote, and every write of earlier drivers, which the new fence now shuts out) what the
	// drive needs (queueDriveInput). When the lease is not granted the reads are wasted (and
	// answer nothing of use).
	//
	// The lease commits without waiting for the disk, like the journal (see journal): a
	// PostgreSQL crash that loses it loses every later record of the drive too (the
	// write-ahead log is flushed in order), and the run is taken again from where it was.
	// The lease UPDATE sets synchronous_commit itself (see journalCommitMode), saving a
	// statement.
	b := &pgx.Batch{}
	commitMode := s.journalCommitMode()
	if resumeSeq == 0 {
		b.Queue(q("RunLeaseExecute"), runID, jobID, ttl, workerID, commitMode)
	} else {
		b.Queue(q("RunLeaseResume"), runID, jobID, ttl, workerID, resumeSeq, commitMode)
	}
	queueDriveInput(b, runID)
	err := func() error {
		if _, err := uuid.Parse(runID); err != nil {
			return pgx.ErrNoRows
		}
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if err := br.QueryRow().Scan(&fence, &seq, &from, &crashes); err != nil {
			return err
		}
		var err error
		if in, known, err = s.readDriveInput(br, runID); err != nil {
			return err
		}
		if err := br.Close(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	}()
	if isNoRows(err) {
		return nil, 0, errNoLease
	}
	if err != nil {
		return nil, 0, fmt.Errorf("lease run %s: %w", runID, err)
	}
	l := &Lease{store: s, runID: runID, fence: fence, crashes: crashes, knownCalls: known, input: &in, worker: workerID, seq: seq}
	if err := l.recordRedriven(ctx, from); err != nil {
		return nil, 0, err
	}
	return l, seq, nil
}

// recordRedriven marks the lease as taken from worker from, a lost one, and records the run's
// redriven event naming both workers (at once: a run that crashes its worker may never write
// anything else); it does nothing when from is nil (the run was not re-driven).
func (l *Lease) recordRedriven(ctx context.Context, from *string) error {
	if from == nil {
		return nil
	}
	l.redriven = true
	return l.store.inTx(ctx, func(tx pgx.Tx) error {
		return addEvent(ctx, tx, l.runID, EventRedriven, map[string]any{"from": *from, "to": l.worker, "crashes": l.crashes})
	})
}

// queueDriveInput queues the reads of what a drive of run runID needs (readDriveInput reads
// their answers): the run's spec, the highest recorded call, whether it has a webhook, its
// latest snapshot and the posted outcomes the program has not seen in one statement, its
// toolsets in another.
func queueDriveInput(b *pgx.Batch, runID string) {
	b.Queue(q("RunDriveInput"), runID)
	b.Queue(q("ToolsetListOfRun"), runID)
}

// readDriveInput reads the answers of queueDriveInput's statements from br: the drive's
// input, and the highest call id recorded for the run.
func (s *Store) readDriveInput(br pgx.BatchResults, runID string) (driveInput, int, error) {
	var rows driveRows
	if err := rows.read(br); err != nil {
		return driveInput{}, 0, err
	}
	return s.openDriveInput(rows, runID)
}

// driveRows are the answers of queueDriveInput's statements as read, before openDriveInput
// decodes them.
type driveRows struct {
	in                       driveInput
	known                    int
	limits, input, unapplied []byte
	toolsets                 []toolsetRow
}

// read reads the answers of queueDriveInput's statements from br.
func (r *driveRows) read(br pgx.BatchResults) error {
	if err := br.QueryRow().Scan(&r.in.spec.Code, &r.limits, &r.in.toolsets, &r.known, &r.input, &r.in.hasWebhook,
		&r.in.snapshot.Header, &r.in.snapshot.State, &r.unapplied); err != nil {
		return fmt.Errorf("drive input: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return fmt.Errorf("toolsets: %w", err)
	}
	if r.toolsets, err = pgx.CollectRows(rows, scanRunToolset); err != nil {
		return fmt.Errorf("toolsets: %w", err)
	}
	return nil
}

// openDriveInput decodes what r read for a drive of run runID: the drive's input, and the
// highest call id recorded for the run.
func (s *Store) openDriveInput(r driveRows, runID string) (driveInput, int, error) {
	in := r.in
	var err error
	if in.settled, err = decodeUnapplied(r.unapplied); err != nil {
		return in, 0, fmt.Errorf("posted outcomes: %w", err)
	}
	in.spec.RunID, in.spec.Limits = runID, r.limits
	if r.input != nil {
		in.spec.Input = r.input
	}
	if in.spec.Toolsets, err = s.openToolsets(r.toolsets); err != nil {
		return in, 0, err
	}
	return in, r.known, nil
}

// driveInput is what acquire read for the drive along with the lease.
type driveInput struct {
	spec     RunSpec
	toolsets []string
	// hasWebhook: the run has a webhook of its own (besides the subscriptions).
	hasWebhook bool
	// snapshot is the run's latest snapshot (State nil when it has none); settled the posted
	// outcomes not yet applied.
	snapshot Snapshot
	settled  []Settled
}

// Fence returns the lease's fencing sequence.
func (l *Lease) Fence() int64 { return l.fence }

// fenced runs fn in a transaction holding the run's row lock, after checking the lease is still
// ours; it extends the lease.
func (l *Lease) fenced(ctx context.Context, fn func(tx pgx.Tx, seq int) error) error {
	return l.fencedTx(ctx, false, "", nil, fn)
}

// journal is fenced for the records of calls and checkpoints, which commit without waiting
// for the disk (synchronous_commit off): a PostgreSQL crash can lose the last moments of
// them, and the run is then re-driven from an earlier point and repeats those calls under the
// same idempotency keys, which toolsets deduplicate (the same holds when a worker dies during
// a call, whatever the commit mode). Every write a client or the run's end depends on (run
// creation, posted outcomes, suspend, finish, cancel) still waits for the disk, and so makes
// every journal record before it durable too: the write-ahead log is flushed in order.
func (l *Lease) journal(ctx context.Context, fn func(tx pgx.Tx, seq int) error) error {
	return l.fencedTx(ctx, true, "", nil, fn)
}

// fencedTx is fenced (journal when async). With a webhook event hook, the lock also reads who
// gets it into *receivers, set once the lock's answer arrived (at fn's first statement that
// returns rows, or a flush).
func (l *Lease) fencedTx(ctx context.Context, async bool, hook string, receivers *[]webhookReceiver, fn func(tx pgx.Tx, seq int) error) error {
	return l.fencedTxWith(ctx, async, hook, receivers, nil, nil, fn)
}

// fencedTxWith is fencedTx appending events after the lease's deferred ones, in the same
// statement. When the transaction goes in one round trip with events, a non-nil locking
// replaces that statement (EventsInsertLockingNoReceivers) with one that also writes more; it
// gets the statement's arguments.
func (l *Lease) fencedTxWith(ctx context.Context, async bool, hook string, receivers *[]webhookReceiver,
	events []deferredEvent, locking lockingStatement, fn func(tx pgx.Tx, seq int) error) error {
	// A pipelined transaction (pipeTx): BEGIN, the lock, the queued records of the lease and
	// the writes of fn travel together, up to the first statement whose answer fn needs (or
	// up to the end). When receivers are to be read, the lock's answer comes back with them
	// and is checked before COMMIT is sent, in a round trip of its own; otherwise the COMMIT
	// goes with them and the lock refuses (RunLockFencedNoReceivers) when the lease is lost or
	// somebody gets the hook's webhook. Either way the writes of a stale driver are rolled
	// back with the transaction. fn gets the lease's snapshot sequence, which only the lease
	// holder changes.
	return l.withHeldWrites(func(deferred []deferredEvent, rows []*unwrittenCall) error {
		lost := fmt.Errorf("%w: run %s", ErrLeaseLost, l.runID)
		checked, locked := false, false
		var commitMode *string // the transaction's setting: the server's
		if async {
			commitMode = l.store.journalCommitMode()
		}
		// With no receivers to fill, the transaction goes with its COMMIT in one round trip (unless
		// fn needs an answer first): its lock refuses when the lease is lost, or somebody gets the
		// hook's webhook.
		oneTrip := receivers == nil
		all := append(deferred[:len(deferred):len(deferred)], events...)
		err := l.store.inPipe(ctx, func(tx *pipeTx) error {
			eventsQueued := false
			switch {
			case oneTrip:
				scan := func(r pgx.Row) error {
					var (
						seq     *int64
						refusal *bool
					)
					if err := r.Scan(&seq, &refusal); err != nil {
						return fmt.Errorf("lock run %s: %w", l.runID, err)
					}
					checked, locked = true, seq != nil
					return nil
				}
				if len(all) == 0 {
					tx.queueRow(scan, q("RunLockFencedNoReceivers"), l.runID, l.fence, l.store.cfg.LeaseTTL.String(), hook, commitMode)
					break
				}
				// The events go with the lock, in one update of the run's row.
				types, datas, err := eventArrays(all)
				if err != nil {
					return err
				}
				sql, args := q("EventsInsertLockingNoReceivers"), []any{l.runID, l.fence, l.store.cfg.LeaseTTL.String(), hook, commitMode,
					types, datas}
				if locking != nil {
					sql, args = locking(args)
				}
				tx.queueRow(scan, sql, args...)
				eventsQueued = true
			case hook == "":
				tx.queueRow(fenceRow(lost, "lock run "+l.runID, &checked, &locked),
					q("RunLockFenced"), l.runID, l.fence, l.store.cfg.LeaseTTL.String(), commitMode)
			default:
				tx.queueRow(func(r pgx.Row) error {
					var (
						seq int64
						rc  receiverColumns
					)
					err := r.Scan(append([]any{&seq}, rc.dest()...)...)
					if isNoRows(err) {
						checked = true
						return lost
					}
					if err != nil {
						return fmt.Errorf("lock run %s: %w", l.runID, err)
					}
					checked, locked = true, true
					*receivers = rc.receivers()
					return nil
				}, q("RunLockFencedReceivers"), l.runID, l.fence, l.store.cfg.LeaseTTL.String(), hook, commitMode)
			}
			if !eventsQueued {
				if err := l.queueEvents(ctx, tx, all); err != nil {
					return err
				}
			}
			l.queueCallRows(ctx, tx, rows)
			if err := fn(tx, l.seq); err != nil {
				return err
			}
			if !checked && !oneTrip {
				if err := tx.flush(ctx); err != nil {
					return err
				}
			}
			return nil
		})
		if checked && !locked || oneTrip && hook == "" && isRefusal(err) {
			err = lost
		}
		return err
	})
}

// withHeldWrites runs write with what the lease has held back, claimed for it under the
// lease's write lock: the rows of started calls not written yet (claimed first, see
// claimCallRows) and the deferred events. When write fails, they are put back for the next.
func (l *Lease) withHeldWrites(write func(deferred []deferredEvent, rows []*unwrittenCall) error) error {
	rows := l.claimCallRows()
	l.writing.Lock()
	defer l.writing.Unlock()
	deferred := l.takeDeferred()
	err := write(deferred, rows)
	if err != nil {
		l.restoreDeferred(deferred)
		l.restoreCallRows(rows)
	}
	return err
}

// queueCallRows queues the fenced inserts of claimed call rows in tx.
func (l *Lease) queueCallRows(ctx context.Context, tx pgx.Tx, rows []*unwrittenCall) {
	for _, u := range rows {
		_, _ = tx.Exec(ctx, q("CallInsertFenced"), l.insertArgs(u)...)
	}
}

// queueEvents appends events to the run's timeline in tx, which holds the run's lock: one
// statement for all of them, writing the run's row once.
func (l *Lease) queueEvents(ctx context.Context, tx pgx.Tx, events []deferredEvent) error {
	switch len(events) {
	case 0:
		return nil
	case 1:
		return addEvent(ctx, tx, l.runID, events[0].typ, events[0].data)
	}
	types, datas, err := eventArrays(events)
	if err != nil {
		return err
	}
	// The lock before it set the commit mode: nil keeps it.
	if _, err := tx.Exec(ctx, q("EventsInsertLocking"), l.runID, types, datas, l.fence, l.store.cfg.LeaseTTL.String(), nil); err != nil {
		return fmt.Errorf("insert events: %w", err)
	}
	return nil
}

// fenceRow scans the answer of a fenced statement that returns one row (a number) while the
// lease holds and none once it is lost: it sets *checked when the answer arrived, and *held
// when it was a row; no row is lost.
func fenceRow(lost error, what string, checked, held *bool) func(pgx.Row) error {
	return func(r pgx.Row) error {
		var n int64
		err := r.Scan(&n)
		if isNoRows(err) {
			*checked = true
			return lost
		}
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		*checked, *held = true, true
		return nil
	}
}

// eventArrays encodes events as the parallel arrays of types and data (JSON texts) that
// EventsInsertLocking and RunFinishFenced take.
func eventArrays(events []deferredEvent) (types, datas []string, err error) {
	types, datas = make([]string, len(events), len(events)+1), make([]string, len(events), len(events)+1)
	for i, e := range events {
		raw, err := eventData(e.typ, e.data)
		if err != nil {
			return nil, nil, err
		}
		types[i], datas[i] = e.typ, string(raw)
	}
	return types, datas, nil
}

// oneShot is a fenced journal transaction sent in a single round trip, as one batch without
// BEGIN and COMMIT (one implicit transaction, see journalCommitMode): the lease's deferred
// events and event, and the statements queue adds. Every statement it queues
// must be guarded by the fence itself (a "...Fenced" query, a no-op unless the run is running
// under the lease's fence), since it runs whether or not the lock found the lease: for a
// stale driver the lock matches no row, the guarded statements change nothing, and
// ErrLeaseLost is returned. Like journal, it commits without waiting for the disk.
//
// The lock is the insert of its events, the deferred ones and event (nil: none), which locks
// the run's row and extends the lease as RunLockFenced does (EventInsertLocking,
// EventsInsertLocking), or RunLockFenced itself when there is no event, so every later
// statement runs under the lock.
func (l *Lease) oneShot(ctx context.Context, event *deferredEvent, queue func(b *pgx.Batch) error) (err error) {
	return l.oneShotWith(ctx, event, nil, queue)
}

// lockingStatement returns a statement that appends events and locks the run as
// EventsInsertLocking does, taking that statement's arguments (args) first, and writes more:
// the lock of a oneShotWith.
type lockingStatement func(args []any) (sql string, allArgs []any)

// oneShotWith is oneShot whose lock is locking (when not nil), which may write what queue
// would otherwise add as statements of their own.
func (l *Lease) oneShotWith(ctx context.Context, event *deferredEvent, locking lockingStatement, queue func(b *pgx.Batch) error) (err error) {
	l.writing.Lock()
	defer l.writing.Unlock()
	deferred := l.takeDeferred()
	defer func() {
		if err != nil {
			l.restoreDeferred(deferred)
		}
	}()
	b := &pgx.Batch{}
	// The lock is the first statement (readJournalWrite counts on it); it sets the commit mode.
	mode := l.store.journalCommitMode()
	events := deferred[:len(deferred):len(deferred)]
	if event != nil {
		events = append(events, *event)
	}
	switch {
	case locking != nil && len(events) > 0:
		types, datas, err := eventArrays(events)
		if err != nil {
			return err
		}
		sql, args := locking([]any{l.runID, types, datas, l.fence, l.store.cfg.LeaseTTL.String(), mode})
		b.Queue(sql, args...)
	case len(events) == 0:
		b.Queue(q("RunLockFenced"), l.runID, l.fence, l.store.cfg.LeaseTTL.String(), mode)
	case len(events) == 1:
		raw, err := eventData(events[0].typ, events[0].data)
		if err != nil {
			return err
		}
		b.Queue(q("EventInsertLocking"), l.runID, events[0].typ, raw, l.fence, l.store.cfg.LeaseTTL.String(), mode)
	default:
		// All the events in one statement: the run's row is written once.
		types, datas, err := eventArrays(events)
		if err != nil {
			return err
		}
		b.Queue(q("EventsInsertLocking"), l.runID, types, datas, l.fence, l.store.cfg.LeaseTTL.String(), mode)
	}
	if err := queue(b); err != nil {
		return err
	}
	// Sent with the one-shot writes of the store's other leases (journalGroup).
	locked, err := l.store.journal.send(ctx, b)
	if err != nil {
		return fmt.Errorf("run %s: %w", l.runID, err)
	}
	if !locked {
		return fmt.Errorf("%w: run %s", ErrLeaseLost, l.runID)
	}
	return nil
}

// CallStarted implements Host. A call above the highest one recorded when the lease was taken
// is new: its start is written without a look-up first, by its settlement's transaction when
// it settles within Config.CallStartDelay (see CallStartDelay), else on its own (fenced, in one
// round trip).
func (l *Lease) CallStarted(ctx context.Context, c CallStart) (CallRecord, error) {
	if c.CallID <= l.knownCalls {
		rec, found, err := l.storedCall(ctx, c)
		if err != nil || found {
			return rec, err
		}
	}
	args := json.RawMessage(storable(c.Args))
	if len(args) == 0 {
		args = json.RawMessage("null")
	}
	started := deferredEvent{typ: EventCallStarted, data: callStartedData{CallID: c.CallID, Path: c.Path, Worker: l.worker}}
	if l.store.cfg.CallStartDelay > 0 && plainText(c.Path) && plainText(c.Toolset) {
		// The call.started event waits in the timeline's queue, in order with the console
		// lines around it; the row waits for the call's settlement (deferCallRow). A start
		// the database would refuse is written at once instead, so that the refusal stops
		// the call before it is made.
		l.deferEvent(started.typ, started.data)
		l.deferCallRow(c, args)
	} else {
		err := l.oneShot(ctx, &started, func(b *pgx.Batch) error {
			b.Queue(q("CallInsertFenced"), l.runID, c.CallID, toolcall.Key(l.runID, int64(c.CallID)), c.Toolset, c.Path, args, c.Durable, l.fence)
			return nil
		})
		if err != nil {
			return CallRecord{}, fmt.Errorf("call %s started: %w", toolcall.Key(l.runID, int64(c.CallID)), err)
		}
	}
	l.madeCalls = true
	l.mu.Lock()
	if l.callStarts == nil {
		l.callStarts = map[int]time.Time{}
	}
	l.callStarts[c.CallID] = time.Now()
	l.mu.Unlock()
	return CallRecord{}, nil
}

// storedCall returns the record of call c, whose key may be known (a re-drive, or a fork's
// copied calls). Only the run's lease holder inserts and settles its inline calls, so the
// look-up needs no lock: a row an earlier driver wrote is committed (acquire saw it), and a
// stale driver's writes are refused. A record of another tool is refused with
// ErrReplayDiverged: its outcome answers a different call.
func (l *Lease) storedCall(ctx context.Context, c CallStart) (CallRecord, bool, error) {
	var (
		rec             CallRecord
		status, path    string
		handle, outcome []byte
	)
	key := toolcall.Key(l.runID, int64(c.CallID))
	err := l.store.pool.QueryRow(ctx, q("CallGet"), l.runID, c.CallID).Scan(&status, &handle, &outcome, &path)
	switch {
	case isNoRows(err):
		return CallRecord{}, false, nil
	case err != nil:
		return CallRecord{}, false, fmt.Errorf("call %s started: look up call: %w", key, err)
	case path != c.Path:
		return CallRecord{}, false, fmt.Errorf("%w: call %d is a call of %s in the run's record, and the program now calls %s there; "+
			"a re-driven program (after a lost worker, or a fork's copied calls) must make the same calls in the same order, "+
			"which a program whose calls depend on the clock may not", ErrReplayDiverged, c.CallID, path, c.Path)
	case outcome != nil:
		rec.Outcome = &toolcall.Outcome{}
		if err := json.Unmarshal(outcome, rec.Outcome); err != nil {
			return CallRecord{}, false, fmt.Errorf("call %s started: decode stored outcome: %w", key, err)
		}
	case status == CallPending:
		rec.Handle = handle
	}
	return rec, true, nil
}

// CallSettled implements Host.
func (l *Lease) CallSettled(ctx context.Context, callID int, o toolcall.Outcome) error {
	encoded, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("encode outcome: %w", err)
	}
	encoded = storable(encoded)
	status := CallSucceeded
	if !o.OK {
		status = CallFailed
	}
	data := callSettledData{CallID: callID, OK: o.OK, Worker: l.worker}
	l.mu.Lock()
	if at, ok := l.callStarts[callID]; ok {
		ms := time.Since(at).Milliseconds()
		data.DurationMs = &ms
		delete(l.callStarts, callID)
	}
	l.mu.Unlock()
	if !o.OK && o.Error != nil {
		data.Error = &o.Error.Message
	}
	settled := deferredEvent{typ: EventCallSettled, data: data}
	row := l.claimCallRow(callID)
	var locking lockingStatement
	if row != nil {
		// The call's row, started and settled, is written by the statement of its events.
		locking = func(args []any) (string, []any) {
			return settledCallStatement(args, callID, toolcall.Key(l.runID, int64(callID)),
				row.start.Toolset, row.start.Path, row.args, row.start.Durable, row.at, status, encoded)
		}
	}
	err = l.oneShotWith(ctx, &settled, locking, func(b *pgx.Batch) error {
		if row == nil {
			b.Queue(q("CallSettleFenced"), l.runID, callID, status, encoded, true, l.fence)
		}
		return nil
	})
	if err != nil {
		l.restoreCallRows([]*unwrittenCall{row})
		return fmt.Errorf("call %s settled: %w", toolcall.Key(l.runID, int64(callID)), err)
	}
	return nil
}

// CallPending implements Host.
func (l *Lease) CallPending(ctx context.Context, callID int, handle json.RawMessage) error {
	handle = storable(handle)
	if len(handle) == 0 {
		handle = json.RawMessage("null")
	}
	// The call.pending event is written with the lease's deferred ones, in one statement, and a
	// call whose start is not written yet gets its row as pending at once. When the run has no
	// webhook of its own and the store's last pending record found no subscription, the
	// transaction is sent with its COMMIT in one round trip, its lock refusing when somebody
	// gets the webhook after all (or the lease is lost); otherwise, and then, the lock reads
	// who gets it and their deliveries are enqueued before the COMMIT.
	row := l.claimCallRow(callID)
	pending := deferredEvent{typ: EventCallPending, data: l.withWorker(map[string]any{"callId": callID})}
	write := func(tx pgx.Tx, rowWritten bool) error {
		var err error
		switch {
		case rowWritten:
			return nil
		case row != nil:
			_, err = tx.Exec(ctx, q("CallInsertPendingFenced"), l.runID, callID, toolcall.Key(l.runID, int64(callID)),
				row.start.Toolset, row.start.Path, row.args, l.fence, row.at, handle)
		default:
			_, err = tx.Exec(ctx, q("CallSetPending"), l.runID, callID, handle)
		}
		if err != nil {
			return fmt.Errorf("mark call pending: %w", err)
		}
		return nil
	}
	var err error
	oneTrip := !l.input.hasWebhook && !l.store.pendingSubscribed.Load()
	if oneTrip {
		// A call's row not written yet is written as pending by the lock's own statement.
		var locking lockingStatement
		if row != nil {
			locking = func(args []any) (string, []any) {
				return q("EventsInsertLockingCallPendingNoReceivers"), append(args, callID, toolcall.Key(l.runID, int64(callID)),
					row.start.Toolset, row.start.Path, row.args, row.at, handle)
			}
		}
		err = l.fencedTxWith(ctx, true, WebhookCallPending, nil, []deferredEvent{pending}, locking, func(tx pgx.Tx, _ int) error {
			return write(tx, row != nil)
		})
		if isRefusal(err) {
			l.store.pendingSubscribed.Store(true)
			oneTrip, err = false, nil
		}
	}
	if !oneTrip {
		var receivers []webhookReceiver
		err = l.fencedTxWith(ctx, true, WebhookCallPending, &receivers, []deferredEvent{pending}, nil, func(tx pgx.Tx, _ int) error {
			if err := write(tx, false); err != nil {
				return err
			}
			if err := tx.(*pipeTx).flush(ctx); err != nil {
				return err
			}
			return l.store.enqueueWebhooksTo(ctx, tx, l.runID, WebhookCallPending, map[string]any{
				"runId": l.runID, "callId": callID, "key": toolcall.Key(l.runID, int64(callID)), "handle": handle,
			}, receivers)
		})
		if err == nil {
			l.store.pendingSubscribed.Store(slices.ContainsFunc(receivers, func(r webhookReceiver) bool { return r.subID != nil }))
		}
	}
	if err != nil {
		l.restoreCallRows([]*unwrittenCall{row})
		return fmt.Errorf("call %s pending: %w", toolcall.Key(l.runID, int64(callID)), err)
	}
	return nil
}

// Checkpoint implements Host.
func (l *Lease) Checkpoint(ctx context.Context, snapshot Snapshot) error {
	var next int
	err := l.journal(ctx, func(tx pgx.Tx, seq int) (err error) {
		next, err = l.writeSnapshot(ctx, tx, seq, snapshot)
		if err != nil {
			return err
		}
		return addEvent(ctx, tx, l.runID, EventCheckpointed, l.withWorker(map[string]any{"seq": next, "bytes": snapshot.Len()}))
	})
	if err != nil {
		return fmt.Errorf("checkpoint run %s: %w", l.runID, err)
	}
	l.seq = next
	return nil
}

func (l *Lease) writeSnapshot(ctx context.Context, tx pgx.Tx, seq int, snapshot Snapshot) (int, error) {
	next := seq + 1
	// The new snapshot supersedes the older ones: every job resumes from the run's latest
	// snapshot whatever sequence it names (acquire returns runs.snapshot_seq), so they are
	// deleted by the statement that writes it.
	if _, err := tx.Exec(ctx, q("SnapshotWrite"), l.runID, next, snapshot.Header, snapshot.State); err != nil {
		return 0, fmt.Errorf("write snapshot %d: %w", next, err)
	}
	if err := l.markApplied(ctx, tx); err != nil {
		return 0, err
	}
	return next, nil
}

func (l *Lease) markApplied(ctx context.Context, tx pgx.Tx) error {
	if len(l.unapplied) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, q("CallMarkApplied"), l.runID, l.unapplied); err != nil {
		return fmt.Errorf("mark outcomes applied: %w", err)
	}
	l.unapplied = nil
	return nil
}

// suspend stores the snapshot and parks the run until an outcome arrives. When outcomes were
// posted while the program ran (not yet given to it), the resume is enqueued at once.
func (l *Lease) suspend(ctx context.Context, snapshot Snapshot, yielded bool) error {
	if !yielded && !l.input.hasWebhook && !l.store.suspendSubscribed.Load() {
		unapplied := l.unapplied
		parked, err := l.suspendOneTrip(ctx, snapshot)
		if !isRefusal(err) {
			if err == nil {
				if l.suspended != nil && parked != nil {
					l.suspended(*parked)
				}
				l.store.announce(l.runID, StatusSuspended)
			}
			return err
		}
		l.store.suspendSubscribed.Store(true)
		l.unapplied = unapplied
	}
	// A suspension's lock reads who gets its webhook; the answer arrives with the pending calls.
	hook := WebhookRunSuspended
	if yielded {
		hook = ""
	}
	var (
		receivers []webhookReceiver
		parked    string // the status the run was left in
	)
	err := l.fencedTx(ctx, false, hook, &receivers, func(tx pgx.Tx, seq int) error {
		next, err := l.writeSnapshot(ctx, tx, seq, snapshot)
		if err != nil {
			return err
		}
		pending, hasUnapplied, err := pendingOrUnapplied(ctx, tx, l.runID)
		if err != nil {
			return err
		}
		status, event := StatusSuspended, EventSuspended
		if yielded {
			status, event = StatusQueued, EventYielded
		}
		ids := make([]int, len(pending))
		for i, c := range pending {
			ids[i] = c.CallID
		}
		data, err := eventData(event, l.withWorker(map[string]any{"seq": next, "bytes": snapshot.Len(), "pending": ids}))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q("RunReleaseEvent"), l.runID, status, event, data); err != nil {
			return fmt.Errorf("release run: %w", err)
		}
		parked = status
		if yielded || hasUnapplied {
			if _, err := l.store.river.InsertTx(ctx, tx, ResumeArgs{RunID: l.runID, Seq: next}, nil); err != nil {
				return fmt.Errorf("enqueue run.resume: %w", err)
			}
		}
		if yielded {
			return nil
		}
		return l.store.enqueueWebhooksTo(ctx, tx, l.runID, WebhookRunSuspended, map[string]any{
			"runId": l.runID, "status": StatusSuspended, "pending": pendingPayload(pending),
		}, receivers)
	})
	if err == nil {
		if !yielded {
			l.store.suspendSubscribed.Store(slices.ContainsFunc(receivers, func(r webhookReceiver) bool { return r.subID != nil }))
		}
		l.store.announce(l.runID, parked)
	}
	return err
}

// suspendOneTrip is suspend's transaction sent with its COMMIT, in one round trip, for a run
// with no webhook of its own when the store's last suspension found no subscription to
// run.suspended. After the run's lock, one statement (RunSuspendFenced) checks the lease,
// appends the lease's deferred events and the suspended event (which lists the pending calls
// itself), stores the snapshot and parks the run; it refuses when the lease is lost, when
// somebody gets the webhook after all, or when posted outcomes wait to be resumed with (their
// resume job must be enqueued): suspend then does it the two-trip way.
func (l *Lease) suspendOneTrip(ctx context.Context, snapshot Snapshot) (parked *Run, err error) {
	next := l.seq + 1
	err = l.withHeldWrites(func(deferred []deferredEvent, rows []*unwrittenCall) error {
		types, datas, err := eventArrays(deferred)
		if err != nil {
			return err
		}
		// The event's data as eventData encodes it (keys sorted), around the pending ids.
		head, err := eventData(EventSuspended, map[string]any{"bytes": snapshot.Len()})
		if err != nil {
			return err
		}
		tail, err := eventData(EventSuspended, l.withWorker(map[string]any{"seq": next}))
		if err != nil {
			return err
		}
		head = append(head[:len(head)-1:len(head)-1], `,"pending":`...)
		tail = append([]byte(","), tail[1:]...)
		return l.store.inPipe(ctx, func(tx *pipeTx) error {
			parked = nil
			// The run's row is locked first, by a statement of its own: the suspension's
			// statement then reads the calls as they are once the lock is held, an outcome
			// posted meanwhile (under the same lock) included. Rows its checks must see go
			// before it too: calls started and not yet written, and the posted outcomes this
			// drive applied.
			_, _ = tx.Exec(ctx, q("RunLockForUpdate"), l.runID)
			l.queueCallRows(ctx, tx, rows)
			if err := l.markApplied(ctx, tx); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, q("RunSuspendFenced"), l.runID, l.fence, types, datas, next,
				snapshot.Header, snapshot.State, string(head), string(tail)); err != nil {
				return fmt.Errorf("suspend run: %w", err)
			}
			if l.suspended != nil {
				// The run as the API shows it, for the client waiting on it (insertRunDirect),
				// read before COMMIT in the same round trip.
				queueRunPending(tx, l.runID, func() bool { return true }, func(r Run) { parked = &r })
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return parked, nil
}

// pendingOrUnapplied reads, in one statement, a suspending run's pending calls and whether
// outcomes were posted that its program has not been given.
func pendingOrUnapplied(ctx context.Context, tx pgx.Tx, runID string) (pending []Call, hasUnapplied bool, err error) {
	rows, err := tx.Query(ctx, q("CallListPendingOrUnapplied"), runID)
	if err != nil {
		return nil, false, fmt.Errorf("pending calls: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			cc                 callColumns
			isPending, unappld bool
		)
		if err := rows.Scan(append(cc.dest(), &isPending, &unappld)...); err != nil {
			return nil, false, fmt.Errorf("pending calls: %w", err)
		}
		hasUnapplied = hasUnapplied || unappld
		if !isPending {
			continue
		}
		c, err := cc.call()
		if err != nil {
			return nil, false, err
		}
		pending = append(pending, c)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("pending calls: %w", err)
	}
	return pending, hasUnapplied, nil
}

// finish stores the program's result and ends the run; calls still pending are cancelled.
// The run's snapshots are deleted: a finished run is never resumed.
func (l *Lease) finish(ctx context.Context, out Outcome) error {
	status, hook := StatusSucceeded, WebhookRunCompleted
	if !out.OK {
		status, hook = StatusFailed, WebhookRunFailed
	}
	result := json.RawMessage(storable(out.Result))
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	details := l.withWorker(finishedDetails(out.OK, result))
	details["status"] = status
	// The details carry the program's error message, any text: stored as the other program
	// data is (storable, a json column), never cast to jsonb, which refuses U+0000.
	finishedData, err := eventData(EventFinished, details)
	if err != nil {
		return err
	}
	// One statement checks the lease, ends the run and appends its events (the lease's
	// deferred ones, then "finished"): the run's row is written once, where a lock, an event
	// and the end would write three versions of it. The same statement marks the posted
	// outcomes the drive was handed applied and deletes the run's snapshots (a run at snapshot
	// 0 has none: snapshots are written with the sequence that names them, writeSnapshot).
	l.dropCallRows()
	l.writing.Lock()
	defer l.writing.Unlock()
	deferred := l.takeDeferred()
	types, datas, err := eventArrays(deferred)
	if err != nil {
		l.restoreDeferred(deferred)
		return err
	}
	types, datas = append(types, EventFinished), append(datas, string(finishedData))
	lost := fmt.Errorf("%w: run %s", ErrLeaseLost, l.runID)
	var (
		checked, ended bool
		receivers      []webhookReceiver // who gets the webhook, read by the statement that ends the run
		subscribed     bool              // some of them are webhook subscriptions
		cancels        []int             // cancelled calls with durable work at their tools, from it too
		finishedAt     time.Time         // when it ended, by the database's clock
	)
	// A run with no recorded call (none before the lease, none made under it) has none to
	// cancel: the statement does not look.
	mayHaveCalls := l.knownCalls > 0 || l.madeCalls
	// store ends the run in one transaction. With expectNone, the lease is expected held,
	// nobody to get the webhook and no call.cancel job to enqueue: the COMMIT is sent with the
	// statement, one round trip, and the statement refuses when that does not hold. Otherwise its answer is read before
	// the webhooks and cancellations it calls for are enqueued, and the COMMIT follows.
	store := func(expectNone bool) error {
		checked, ended, receivers, subscribed, cancels = false, false, nil, false, nil
		return l.store.inPipe(ctx, func(tx *pipeTx) error {
			tx.queueRow(func(r pgx.Row) error {
				var (
					held    bool
					rc      receiverColumns
					at      *time.Time
					refusal *bool
				)
				err := r.Scan(append([]any{&held}, append(rc.dest(), &cancels, &at, &refusal)...)...)
				if err != nil {
					return fmt.Errorf("finish run: %w", err)
				}
				checked = true
				if !held {
					return lost
				}
				ended, finishedAt = true, *at
				receivers, subscribed = rc.receivers(), len(rc.subIDs) > 0
				return nil
			}, q("RunFinishFenced"), l.runID, l.fence, status, result, types, datas, hook, mayHaveCalls, expectNone,
				l.unapplied, l.seq > 0)
			if expectNone {
				return nil
			}
			if !checked {
				if err := tx.flush(ctx); err != nil {
					return err
				}
			}
			if err := l.store.enqueueCallCancels(ctx, tx, l.runID, cancels); err != nil {
				return err
			}
			return l.store.enqueueWebhooksTo(ctx, tx, l.runID, hook, map[string]any{
				"runId": l.runID, "status": status, "result": result, "finishedAt": finishedAt.UTC(),
			}, receivers)
		})
	}
	// One round trip when nothing follows the statement: no webhook of the run's own, no
	// subscription the last finish of this store found, and no durable work to cancel at a
	// tool (guesses the statement checks).
	if !l.input.hasWebhook && !l.store.finishSubscribed.Load() {
		err = store(true)
		if isRefusal(err) {
			l.store.finishSubscribed.Store(true)
			err = store(false)
		}
	} else {
		err = store(false)
	}
	if err == nil {
		l.store.finishSubscribed.Store(subscribed)
		l.unapplied = nil
	}
	if checked && !ended {
		err = lost
	}
	if err != nil {
		l.restoreDeferred(deferred)
		return err
	}
	if l.finished != nil {
		l.finished(status, result, finishedAt, l.seq)
	}
	l.store.drivenHere.ended(l.runID, runEnd{status: status, result: result, at: finishedAt, seq: l.seq})
	l.store.announce(l.runID, status)
	return nil
}

// finishedDetails is what a finished event says beyond its status: for a failed run, the
// error of its Result (kind, message, and line and column when the program's source is at
// fault), so that a timeline tells why without reading the Result.
func finishedDetails(ok bool, result json.RawMessage) map[string]any {
	data := map[string]any{}
	if ok {
		return data
	}
	var r struct {
		Error map[string]any `json:"error"`
	}
	if json.Unmarshal(result, &r) != nil || r.Error == nil {
		return data
	}
	e := map[string]any{}
	for _, k := range []string{"kind", "message", "line", "column"} {
		if v, ok := r.Error[k]; ok {
			e[k] = v
		}
	}
	data["error"] = e
	return data
}

func pendingPayload(calls []Call) []map[string]any {
	out := make([]map[string]any, len(calls))
	for i, c := range calls {
		out[i] = map[string]any{"callId": c.CallID, "key": c.Key, "path": c.Path, "args": c.Args, "handle": c.Handle}
	}
	return out
}

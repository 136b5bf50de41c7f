package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/robfig/cron/v3"
)

var (
	// ErrScheduleNotFound: no schedule has the given id.
	ErrScheduleNotFound = errors.New("schedule not found")
	// ErrInvalidSchedule: the schedule's cron, every, timezone or overlap is not valid.
	ErrInvalidSchedule = errors.New("invalid schedule")
	// errTickTaken: another pass fired the tick first (or the schedule was paused or
	// deleted meanwhile).
	errTickTaken = errors.New("tick already taken")
)

// Overlap policies: what a tick does while a run the schedule started earlier has not
// finished.
const (
	// OverlapSkip: the tick starts no run (it is recorded as skipped).
	OverlapSkip = "skip"
	// OverlapQueue: the tick waits until that run has finished, then starts its run; ticks
	// that pass meanwhile are folded into it.
	OverlapQueue = "queue"
	// OverlapAllow: the tick starts its run anyway.
	OverlapAllow = "allow"
)

// MinEvery is the shortest interval of a schedule.
const MinEvery = time.Second

// NewSchedule is a schedule to create.
type NewSchedule struct {
	// Code, Input, Toolsets and Limits are those of every run, as for NewRun.
	Code     string
	Input    json.RawMessage
	Toolsets []string
	Limits   json.RawMessage
	// Cron is a cron expression (five fields, or six with seconds first, or a descriptor
	// such as @hourly), in Timezone; Every a fixed interval (at least MinEvery). Exactly one
	// is set.
	Cron  string
	Every time.Duration
	// Timezone is the IANA time zone of Cron. Default UTC.
	Timezone string
	// Overlap is OverlapSkip (default), OverlapQueue or OverlapAllow.
	Overlap string
}

// Schedule is a stored schedule.
type Schedule struct {
	ID       string
	Code     string
	Input    json.RawMessage
	Toolsets []string
	Limits   json.RawMessage
	Cron     string
	Every    time.Duration
	Timezone string
	Overlap  string
	Paused   bool
	// NextTick is the next tick to fire (it may have passed while a queued tick waits, or
	// while no worker ran).
	NextTick  time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
	// Ticks are its latest ticks, newest first (filled by GetSchedule).
	Ticks []ScheduleTick
}

// ScheduleTick is a tick a schedule consumed.
type ScheduleTick struct {
	Tick time.Time
	// RunID is the run started for it; empty when none was (see Skipped).
	RunID string
	// Skipped says why no run was started: "overlap" (OverlapSkip while the previous run
	// was active) or the error that prevented it.
	Skipped string
}

// tickSpec computes a schedule's ticks.
type tickSpec struct {
	cron  cron.Schedule
	loc   *time.Location
	every time.Duration
}

var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

func parseTickSpec(cronExpr string, every time.Duration, timezone string) (tickSpec, error) {
	if (cronExpr == "") == (every == 0) {
		return tickSpec{}, fmt.Errorf("%w: give exactly one of cron and every", ErrInvalidSchedule)
	}
	if timezone == "" {
		timezone = "UTC"
	}
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		return tickSpec{}, fmt.Errorf("%w: timezone %q: %w", ErrInvalidSchedule, timezone, err)
	}
	if every != 0 {
		if every < MinEvery || every%time.Millisecond != 0 {
			return tickSpec{}, fmt.Errorf("%w: every must be whole milliseconds, at least %s", ErrInvalidSchedule, MinEvery)
		}
		return tickSpec{every: every, loc: loc}, nil
	}
	if strings.Contains(cronExpr, "TZ=") {
		return tickSpec{}, fmt.Errorf("%w: give the time zone as timezone, not in cron", ErrInvalidSchedule)
	}
	sched, err := cronParser.Parse(cronExpr)
	if err != nil {
		return tickSpec{}, fmt.Errorf("%w: cron %q: %w", ErrInvalidSchedule, cronExpr, err)
	}
	if sched.Next(time.Now().In(loc)).IsZero() {
		return tickSpec{}, fmt.Errorf("%w: cron %q never fires", ErrInvalidSchedule, cronExpr)
	}
	return tickSpec{cron: sched, loc: loc}, nil
}

// next is the first tick after t.
func (s tickSpec) next(t time.Time) time.Time {
	if s.every != 0 {
		return t.Add(s.every)
	}
	return s.cron.Next(t.In(s.loc)).UTC()
}

// due returns the latest tick at or before now, starting from the due tick from (at or before
// now), and the tick after it: a schedule that missed ticks (no worker ran, or a queued tick
// waited) fires the latest once rather than all of them.
func (s tickSpec) due(from, now time.Time) (due, next time.Time) {
	due = from
	if s.every != 0 {
		if n := now.Sub(from) / s.every; n > 0 {
			due = from.Add(n * s.every)
		}
		return due, due.Add(s.every)
	}
	for range 100000 {
		n := s.next(due)
		if n.After(now) || n.IsZero() {
			return due, n
		}
		due = n
	}
	// Far behind a frequent cron: jump to the latest tick of the last minute or so.
	due = s.next(now.Add(-2 * time.Minute))
	for n := s.next(due); !n.After(now); n = s.next(due) {
		due = n
	}
	return due, s.next(due)
}

// CreateSchedule stores a schedule; its first tick is the first after now. Errors:
// ErrInvalidSchedule, ErrToolsetNotFound.
func (s *Store) CreateSchedule(ctx context.Context, n NewSchedule) (Schedule, error) {
	spec, err := parseTickSpec(n.Cron, n.Every, n.Timezone)
	if err != nil {
		return Schedule{}, err
	}
	if n.Timezone == "" {
		n.Timezone = "UTC"
	}
	if n.Overlap == "" {
		n.Overlap = OverlapSkip
	}
	if err := checkOverlap(n.Overlap); err != nil {
		return Schedule{}, err
	}
	if len(n.Limits) == 0 {
		n.Limits = json.RawMessage("{}")
	}
	cronExpr, everyMs := timingColumns(n.Cron, n.Every)
	first := spec.next(time.Now().UTC().Truncate(time.Millisecond))
	var out Schedule
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if n.Toolsets != nil {
			if err := checkToolsets(ctx, tx, n.Toolsets); err != nil {
				return err
			}
		}
		var err error
		out, err = scanSchedule(tx.QueryRow(ctx, q("ScheduleInsert"), n.Code, inputArg(n.Input), n.Toolsets, n.Limits,
			cronExpr, everyMs, n.Timezone, n.Overlap, first))
		return err
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("create schedule: %w", unstorable(err))
	}
	return out, nil
}

// checkOverlap refuses an overlap policy the schedules do not have.
func checkOverlap(overlap string) error {
	switch overlap {
	case OverlapSkip, OverlapQueue, OverlapAllow:
		return nil
	}
	return fmt.Errorf("%w: overlap %q (skip, queue or allow)", ErrInvalidSchedule, overlap)
}

// timingColumns are a schedule's cron and every as stored: the one not used is NULL.
func timingColumns(cronExpr string, every time.Duration) (*string, *int64) {
	var c *string
	if cronExpr != "" {
		c = &cronExpr
	}
	var ms *int64
	if every != 0 {
		v := every.Milliseconds()
		ms = &v
	}
	return c, ms
}

func scanSchedule(r pgx.Row) (Schedule, error) {
	var (
		sc            Schedule
		id            uuid.UUID
		input, limits []byte
		cronExpr      *string
		everyMs       *int64
	)
	err := r.Scan(&id, &sc.Code, &input, &sc.Toolsets, &limits, &cronExpr, &everyMs, &sc.Timezone, &sc.Overlap,
		&sc.Paused, &sc.NextTick, &sc.CreatedAt, &sc.UpdatedAt)
	if err != nil {
		return Schedule{}, err
	}
	sc.ID, sc.Limits = id.String(), limits
	if input != nil {
		sc.Input = input
	}
	if cronExpr != nil {
		sc.Cron = *cronExpr
	}
	if everyMs != nil {
		sc.Every = time.Duration(*everyMs) * time.Millisecond
	}
	return sc, nil
}

// ScheduleChange is a change to a schedule (UpdateSchedule): nil fields are left as they are.
type ScheduleChange struct {
	Code     *string
	Input    json.RawMessage // nil: unchanged
	Toolsets *[]string
	Limits   json.RawMessage // nil: unchanged
	// Cron or Every (at most one) replaces the timing, dropping the other.
	Cron     *string
	Every    *time.Duration
	Timezone *string
	Overlap  *string
	// ClearInput removes the input: later runs get none (Input must be nil).
	ClearInput bool
	// AllToolsets lets later runs use every registered toolset, as a schedule created without
	// a list does (Toolsets must be nil).
	AllToolsets bool
}

// UpdateSchedule changes a schedule. With Cron, Every or Timezone its next tick becomes the
// first after now under the new timing; otherwise it keeps its next tick. Its ticks and the
// runs they started are kept; a pass firing a tick of the schedule as it was before does not
// claim it (ScheduleClaimTick), so every tick after the change starts its run with the change.
// Errors: ErrScheduleNotFound, ErrInvalidSchedule, ErrToolsetNotFound.
func (s *Store) UpdateSchedule(ctx context.Context, id string, ch ScheduleChange) (Schedule, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Schedule{}, fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	if ch.Cron != nil && ch.Every != nil {
		return Schedule{}, fmt.Errorf("%w: give at most one of cron and every", ErrInvalidSchedule)
	}
	if ch.ClearInput && ch.Input != nil || ch.AllToolsets && ch.Toolsets != nil {
		return Schedule{}, fmt.Errorf("%w: a field is both cleared and set", ErrInvalidSchedule)
	}
	var out Schedule
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		sc, err := scanSchedule(tx.QueryRow(ctx, q("ScheduleGetForUpdate"), id))
		if isNoRows(err) {
			return fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
		}
		if err != nil {
			return err
		}
		if ch.Code != nil {
			sc.Code = *ch.Code
		}
		if ch.Input != nil {
			sc.Input = ch.Input
		}
		if ch.ClearInput {
			sc.Input = nil
		}
		if ch.AllToolsets {
			sc.Toolsets = nil
		}
		if ch.Toolsets != nil {
			if err := checkToolsets(ctx, tx, *ch.Toolsets); err != nil {
				return err
			}
			sc.Toolsets = *ch.Toolsets
		}
		if ch.Limits != nil {
			sc.Limits = ch.Limits
		}
		if ch.Cron != nil {
			sc.Cron, sc.Every = *ch.Cron, 0
		}
		if ch.Every != nil {
			sc.Cron, sc.Every = "", *ch.Every
		}
		if ch.Timezone != nil {
			sc.Timezone = *ch.Timezone
			if sc.Timezone == "" {
				sc.Timezone = "UTC"
			}
		}
		if ch.Overlap != nil {
			if err := checkOverlap(*ch.Overlap); err != nil {
				return err
			}
			sc.Overlap = *ch.Overlap
		}
		spec, err := parseTickSpec(sc.Cron, sc.Every, sc.Timezone)
		if err != nil {
			return err
		}
		if ch.Cron != nil || ch.Every != nil || ch.Timezone != nil {
			sc.NextTick = spec.next(time.Now().UTC().Truncate(time.Millisecond))
		}
		cronExpr, everyMs := timingColumns(sc.Cron, sc.Every)
		out, err = scanSchedule(tx.QueryRow(ctx, q("ScheduleUpdate"), id, sc.Code, inputArg(sc.Input), sc.Toolsets,
			sc.Limits, cronExpr, everyMs, sc.Timezone, sc.Overlap, sc.NextTick))
		return err
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("update schedule %s: %w", id, unstorable(err))
	}
	return out, nil
}

// scheduleRow returns a schedule, or ErrScheduleNotFound.
func (s *Store) scheduleRow(ctx context.Context, id string) (Schedule, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Schedule{}, fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	sc, err := scanSchedule(s.pool.QueryRow(ctx, q("ScheduleGet"), id))
	if isNoRows(err) {
		return Schedule{}, fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	if err != nil {
		return Schedule{}, fmt.Errorf("get schedule %s: %w", id, err)
	}
	return sc, nil
}

// GetSchedule returns a schedule with its latest ticks (at most ticks of them), or
// ErrScheduleNotFound.
func (s *Store) GetSchedule(ctx context.Context, id string, ticks int) (Schedule, error) {
	sc, err := s.scheduleRow(ctx, id)
	if err != nil {
		return Schedule{}, err
	}
	rows, err := s.pool.Query(ctx, q("ScheduleTicks"), id, ticks)
	if err != nil {
		return Schedule{}, fmt.Errorf("ticks of schedule %s: %w", id, err)
	}
	sc.Ticks, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ScheduleTick, error) {
		var (
			t       ScheduleTick
			run     *uuid.UUID
			skipped *string
		)
		if err := r.Scan(&t.Tick, &run, &skipped); err != nil {
			return t, err
		}
		if run != nil {
			t.RunID = run.String()
		}
		if skipped != nil {
			t.Skipped = *skipped
		}
		return t, nil
	})
	if err != nil {
		return Schedule{}, fmt.Errorf("ticks of schedule %s: %w", id, err)
	}
	return sc, nil
}

// ListSchedules returns a page of at most limit schedules (default 50, at most 500), oldest
// first, after cursor (a previous page's next; empty: from the oldest), and the cursor of the
// page after it ("" when none). Errors: ErrInvalidCursor.
func (s *Store) ListSchedules(ctx context.Context, limit int, cursor string) ([]Schedule, string, error) {
	pg, err := newPage(limit, cursor)
	if err != nil {
		return nil, "", err
	}
	rows, err := s.pool.Query(ctx, q("ScheduleList"), pg.at, pg.id, pg.limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list schedules: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Schedule, error) { return scanSchedule(r) })
	if err != nil {
		return nil, "", fmt.Errorf("list schedules: %w", err)
	}
	out, next := cut(pg, out, func(sc Schedule) (time.Time, string) { return sc.CreatedAt, sc.ID })
	return out, next, nil
}

// DeleteSchedule deletes a schedule and its ticks; the runs it started keep their link to
// it (Lineage.ScheduleID). Errors: ErrScheduleNotFound.
func (s *Store) DeleteSchedule(ctx context.Context, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	tag, err := s.pool.Exec(ctx, q("ScheduleDelete"), id)
	if err != nil {
		return fmt.Errorf("delete schedule %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	return nil
}

// PauseSchedule stops a schedule from firing (paused true) or starts it again; a resumed
// schedule fires from its first tick after now (those that passed while it was paused are
// not fired). Errors: ErrScheduleNotFound.
func (s *Store) PauseSchedule(ctx context.Context, id string, paused bool) (Schedule, error) {
	sc, err := s.scheduleRow(ctx, id)
	if err != nil {
		return Schedule{}, err
	}
	var next *time.Time
	if !paused && sc.Paused {
		spec, err := parseTickSpec(sc.Cron, sc.Every, sc.Timezone)
		if err != nil {
			return Schedule{}, err
		}
		// A tick still ahead is kept; one that passed while paused is not fired.
		n := sc.NextTick
		if now := time.Now(); !n.After(now) {
			_, n = spec.due(n, now)
		}
		next = &n
	}
	sc, err = scanSchedule(s.pool.QueryRow(ctx, q("ScheduleSetPaused"), id, paused, next))
	if isNoRows(err) {
		return Schedule{}, fmt.Errorf("%w: %s", ErrScheduleNotFound, id)
	}
	if err != nil {
		return Schedule{}, fmt.Errorf("pause schedule %s: %w", id, err)
	}
	return sc, nil
}

// FireSchedules fires the ticks of schedules that are due at now: each starts a run (or is
// skipped, or waits, as the schedule's overlap policy says) and moves the schedule to its next
// tick. A tick starts at most one run however many passes run at once: the pass locks the
// schedule at that tick and moves it on in the transaction that creates the run, and the tick
// is recorded under a unique (schedule, tick) key in it too. It returns how many runs it
// started.
func (s *Store) FireSchedules(ctx context.Context, now time.Time) (int, error) {
	rows, err := s.pool.Query(ctx, q("ScheduleDue"), now, 100)
	if err != nil {
		return 0, fmt.Errorf("due schedules: %w", err)
	}
	due, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Schedule, error) { return scanSchedule(r) })
	if err != nil {
		return 0, fmt.Errorf("due schedules: %w", err)
	}
	started := 0
	for _, sc := range due {
		ok, err := s.fireSchedule(ctx, sc, now)
		if err != nil {
			return started, fmt.Errorf("schedule %s: %w", sc.ID, err)
		}
		if ok {
			started++
		}
	}
	return started, nil
}

// fireSchedule fires sc's due tick; it reports whether it started a run.
func (s *Store) fireSchedule(ctx context.Context, sc Schedule, now time.Time) (bool, error) {
	spec, err := parseTickSpec(sc.Cron, sc.Every, sc.Timezone)
	if err != nil {
		return false, err
	}
	tick, next := spec.due(sc.NextTick, now)
	if sc.Overlap != OverlapAllow {
		var active bool
		if err := s.pool.QueryRow(ctx, q("ScheduleHasActiveRun"), sc.ID).Scan(&active); err != nil {
			return false, fmt.Errorf("active runs: %w", err)
		}
		if active && sc.Overlap == OverlapQueue {
			return false, nil // the tick waits for the active run to finish
		}
		if active {
			return false, s.skipTick(ctx, sc, tick, next, "overlap")
		}
	}
	n := NewRun{Code: sc.Code, Toolsets: sc.Toolsets, Limits: sc.Limits, Input: sc.Input}
	n.afterInsert = func(ctx context.Context, tx pgx.Tx, id string) error {
		if err := s.claimTick(ctx, tx, sc, tick, next, id, ""); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q("LineageInsertScheduled"), id, sc.ID, tick); err != nil {
			return fmt.Errorf("record lineage: %w", err)
		}
		return addEvent(ctx, tx, id, EventLineage, map[string]any{"scheduleId": sc.ID, "tick": tick.UTC()})
	}
	_, _, err = s.CreateRun(ctx, n)
	switch {
	case errors.Is(err, errTickTaken):
		return false, nil
	case errors.Is(err, ErrToolsetNotFound), errors.Is(err, ErrUnstorable):
		// The run cannot be created (a toolset it names was deleted, say): the tick is
		// recorded with the reason rather than retried at every pass.
		s.cfg.Logger.WarnContext(ctx, "scheduled run not started", "schedule_id", sc.ID, "tick", tick, "error", err)
		return false, s.skipTick(ctx, sc, tick, next, err.Error())
	case err != nil:
		return false, err
	}
	return true, nil
}

// skipTick records a tick of sc (as read) that starts no run and moves the schedule on.
func (s *Store) skipTick(ctx context.Context, sc Schedule, tick, next time.Time, why string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error { return s.claimTick(ctx, tx, sc, tick, next, "", why) })
	if errors.Is(err, errTickTaken) {
		return nil
	}
	return err
}

// claimTick takes the tick of schedule sc, as the pass read it, in tx: it fails with
// errTickTaken unless the schedule still waits at sc.NextTick unchanged since (locking it),
// records the tick and moves the schedule to next.
func (s *Store) claimTick(ctx context.Context, tx pgx.Tx, sc Schedule, tick, next time.Time, runID, skipped string) error {
	id := sc.ID
	var one int
	if err := tx.QueryRow(ctx, q("ScheduleClaimTick"), id, sc.NextTick, sc.UpdatedAt).Scan(&one); err != nil {
		if isNoRows(err) {
			return errTickTaken
		}
		return fmt.Errorf("claim tick: %w", err)
	}
	var run, why any
	if runID != "" {
		run = runID
	}
	if skipped != "" {
		why = skipped
	}
	tag, err := tx.Exec(ctx, q("ScheduleTickInsert"), id, tick, run, why)
	if err != nil {
		return fmt.Errorf("record tick: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errTickTaken
	}
	if _, err := tx.Exec(ctx, q("ScheduleAdvance"), id, next); err != nil {
		return fmt.Errorf("advance schedule: %w", err)
	}
	return nil
}

// ScheduleTickArgs is the schedule.tick job: fire the due ticks of every schedule. A periodic
// job, added by River's elected leader every scheduleInterval.
type ScheduleTickArgs struct{}

// Kind implements river.JobArgs.
func (ScheduleTickArgs) Kind() string { return "schedule.tick" }

// scheduleInterval is how often the due ticks are fired: a tick fires at most about this
// late (plus a job fetch).
const scheduleInterval = time.Second

// scheduleJob is the periodic job firing schedules.
func scheduleJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(scheduleInterval),
		func() (river.JobArgs, *river.InsertOpts) {
			return ScheduleTickArgs{}, &river.InsertOpts{
				Queue: QueueTimers,
				// Passes are idempotent; one per interval is enough, whoever adds it.
				UniqueOpts:  river.UniqueOpts{ByPeriod: scheduleInterval},
				MaxAttempts: 1,
			}
		},
		&river.PeriodicJobOpts{ID: ScheduleTickArgs{}.Kind(), RunOnStart: true})
}

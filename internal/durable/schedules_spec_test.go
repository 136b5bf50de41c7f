package durable

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTickSpec(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		return v
	}

	every, err := parseTickSpec("", 2*time.Second, "")
	require.NoError(t, err)
	due, next := every.due(at("2026-01-01T00:00:00Z"), at("2026-01-01T00:00:00Z"))
	require.Equal(t, at("2026-01-01T00:00:00Z"), due)
	require.Equal(t, at("2026-01-01T00:00:02Z"), next)
	// Missed ticks fold into the latest.
	due, next = every.due(at("2026-01-01T00:00:00Z"), at("2026-01-01T00:00:07Z"))
	require.Equal(t, at("2026-01-01T00:00:06Z"), due)
	require.Equal(t, at("2026-01-01T00:00:08Z"), next)

	// Nine every morning in Paris: 08:00 UTC in winter.
	paris, err := parseTickSpec("0 9 * * *", 0, "Europe/Paris")
	require.NoError(t, err)
	require.Equal(t, at("2026-01-02T08:00:00Z"), paris.next(at("2026-01-01T08:00:00Z")))
	require.Equal(t, at("2026-07-01T07:00:00Z"), paris.next(at("2026-06-30T08:00:00Z")), "summer time")
	due, next = paris.due(at("2026-01-01T08:00:00Z"), at("2026-01-04T12:00:00Z"))
	require.Equal(t, at("2026-01-04T08:00:00Z"), due)
	require.Equal(t, at("2026-01-05T08:00:00Z"), next)

	seconds, err := parseTickSpec("*/5 * * * * *", 0, "UTC")
	require.NoError(t, err)
	require.Equal(t, at("2026-01-01T00:00:05Z"), seconds.next(at("2026-01-01T00:00:01Z")))
	// Far behind a frequent cron, it still lands on the latest tick.
	due, _ = seconds.due(at("2020-01-01T00:00:00Z"), at("2026-01-01T00:00:07Z"))
	require.Equal(t, at("2026-01-01T00:00:05Z"), due)

	hourly, err := parseTickSpec("@hourly", 0, "")
	require.NoError(t, err)
	require.Equal(t, at("2026-01-01T01:00:00Z"), hourly.next(at("2026-01-01T00:10:00Z")))

	for _, bad := range []struct {
		cron     string
		every    time.Duration
		timezone string
	}{
		{cron: "", every: 0},
		{cron: "* * * * *", every: time.Second},
		{every: 500 * time.Millisecond},
		{every: time.Second + time.Microsecond},
		{cron: "61 * * * *"},
		{cron: "not cron"},
		{cron: "CRON_TZ=Europe/Paris 0 9 * * *"},
		{cron: "0 9 * * *", timezone: "Mars/Olympus"},
		{cron: "0 0 30 2 *"},
	} {
		_, err := parseTickSpec(bad.cron, bad.every, bad.timezone)
		require.ErrorIs(t, err, ErrInvalidSchedule, "%+v", bad)
	}
}

func TestPauseAndResumeSchedule(t *testing.T) {
	t.Parallel()
	b := setup(t)
	s, ctx := b.store, b.ctx
	sc, err := s.CreateSchedule(ctx, NewSchedule{Code: "1", Every: time.Hour})
	require.NoError(t, err)
	first := sc.NextTick

	// Paused and resumed before its next tick: that tick is kept.
	paused, err := s.PauseSchedule(ctx, sc.ID, true)
	require.NoError(t, err)
	require.True(t, paused.Paused)
	resumed, err := s.PauseSchedule(ctx, sc.ID, false)
	require.NoError(t, err)
	require.False(t, resumed.Paused)
	require.Equal(t, first, resumed.NextTick)

	// Resumed after ticks passed while paused: they are not fired, the next one after now is.
	_, err = s.PauseSchedule(ctx, sc.ID, true)
	require.NoError(t, err)
	_, err = s.pool.Exec(ctx, `UPDATE schedules SET next_tick = next_tick - interval '5 hours' WHERE id = $1`, sc.ID)
	require.NoError(t, err)
	n, err := s.FireSchedules(ctx, time.Now())
	require.NoError(t, err)
	require.Zero(t, n, "a paused schedule fires nothing")
	resumed, err = s.PauseSchedule(ctx, sc.ID, false)
	require.NoError(t, err)
	require.Equal(t, first, resumed.NextTick, "the ticks that passed are skipped, on the schedule's grid")
	got, err := s.GetSchedule(ctx, sc.ID, 10)
	require.NoError(t, err)
	require.Empty(t, got.Ticks)

	require.NoError(t, s.DeleteSchedule(ctx, sc.ID))
	_, err = s.GetSchedule(ctx, sc.ID, 10)
	require.ErrorIs(t, err, ErrScheduleNotFound)
	_, err = s.PauseSchedule(ctx, sc.ID, true)
	require.ErrorIs(t, err, ErrScheduleNotFound)
}

// A change to a schedule keeps its next tick unless it changes the timing, and a pass that
// read the schedule before the change does not fire its tick with what it read: the next pass
// fires it with the change.
func TestUpdateSchedule(t *testing.T) {
	t.Parallel()
	b := setup(t)
	s, ctx := b.store, b.ctx
	sc, err := s.CreateSchedule(ctx, NewSchedule{Code: "return 1", Every: time.Hour})
	require.NoError(t, err)

	code := "return 2"
	changed, err := s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Code: &code, Input: json.RawMessage(`{"n":5}`)})
	require.NoError(t, err)
	require.Equal(t, "return 2", changed.Code)
	require.JSONEq(t, `{"n":5}`, string(changed.Input))
	require.Equal(t, sc.NextTick, changed.NextTick, "no timing change: the next tick is kept")
	require.True(t, changed.UpdatedAt.After(sc.UpdatedAt))

	// The tick is due; a pass read the schedule, then it changed: that pass claims nothing.
	_, err = s.pool.Exec(ctx, `UPDATE schedules SET next_tick = now() - interval '1 second' WHERE id = $1`, sc.ID)
	require.NoError(t, err)
	stale, err := s.scheduleRow(ctx, sc.ID)
	require.NoError(t, err)
	code = "return 3"
	_, err = s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Code: &code})
	require.NoError(t, err)
	started, err := s.fireSchedule(ctx, stale, time.Now())
	require.NoError(t, err)
	require.False(t, started, "a pass firing the schedule as it was before the change")
	got, err := s.GetSchedule(ctx, sc.ID, 10)
	require.NoError(t, err)
	require.Empty(t, got.Ticks)
	n, err := s.FireSchedules(ctx, time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got, err = s.GetSchedule(ctx, sc.ID, 10)
	require.NoError(t, err)
	require.Len(t, got.Ticks, 1)
	run, err := s.GetRun(ctx, got.Ticks[0].RunID)
	require.NoError(t, err)
	require.Equal(t, "return 3", run.Code)
	require.JSONEq(t, `{"n":5}`, string(run.Input))

	// A new timing: the next tick is the first after now under it.
	every := 90 * time.Minute
	before := time.Now()
	changed, err = s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Every: &every})
	require.NoError(t, err)
	require.Equal(t, every, changed.Every)
	require.WithinDuration(t, before.Add(every), changed.NextTick, 5*time.Second)
	cronExpr, tz := "0 9 * * *", "Europe/Paris"
	changed, err = s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Cron: &cronExpr, Timezone: &tz})
	require.NoError(t, err)
	require.Zero(t, changed.Every, "cron replaces every")
	require.Equal(t, cronExpr, changed.Cron)
	paris, err := time.LoadLocation(tz)
	require.NoError(t, err)
	local := changed.NextTick.In(paris)
	require.Equal(t, []int{9, 0, 0}, []int{local.Hour(), local.Minute(), local.Second()})
	require.True(t, changed.NextTick.After(time.Now()))

	// Refusals leave the schedule as it was.
	bad := "nope"
	for name, ch := range map[string]ScheduleChange{
		"both timings":             {Cron: &cronExpr, Every: &every},
		"bad cron":                 {Cron: &bad},
		"bad timezone":             {Timezone: &bad},
		"bad overlap":              {Overlap: &bad},
		"input cleared and set":    {ClearInput: true, Input: json.RawMessage(`1`)},
		"toolsets cleared and set": {AllToolsets: true, Toolsets: &[]string{}},
	} {
		_, err := s.UpdateSchedule(ctx, sc.ID, ch)
		require.ErrorIs(t, err, ErrInvalidSchedule, name)
	}
	_, err = s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Toolsets: &[]string{"missing"}})
	require.ErrorIs(t, err, ErrToolsetNotFound)
	_, err = s.UpdateSchedule(ctx, "00000000-0000-0000-0000-000000000000", ScheduleChange{Code: &code})
	require.ErrorIs(t, err, ErrScheduleNotFound)
	_, err = s.UpdateSchedule(ctx, "nope", ScheduleChange{Code: &code})
	require.ErrorIs(t, err, ErrScheduleNotFound)
	after, err := s.scheduleRow(ctx, sc.ID)
	require.NoError(t, err)
	require.Equal(t, changed.UpdatedAt, after.UpdatedAt)
	require.Equal(t, cronExpr, after.Cron)

	// The input and the toolset list removed: none, and every toolset.
	listed, err := s.UpdateSchedule(ctx, sc.ID, ScheduleChange{Toolsets: &[]string{}})
	require.NoError(t, err)
	require.NotNil(t, listed.Toolsets, "a list of no toolsets")
	require.NotNil(t, listed.Input)
	cleared, err := s.UpdateSchedule(ctx, sc.ID, ScheduleChange{ClearInput: true, AllToolsets: true})
	require.NoError(t, err)
	require.Nil(t, cleared.Input)
	require.Nil(t, cleared.Toolsets)
	stored, err := s.scheduleRow(ctx, sc.ID)
	require.NoError(t, err)
	require.Nil(t, stored.Input)
	require.Nil(t, stored.Toolsets)
}

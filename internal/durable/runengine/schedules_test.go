package runengine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
)

// scheduledRuns returns the runs whose lineage names schedule id, with their ticks.
func (b *testBundle) scheduledRuns(t *testing.T, id string) map[string]time.Time {
	t.Helper()
	rows, err := b.store.Pool().Query(b.ctx, `SELECT run_id::text, schedule_tick FROM run_lineage WHERE schedule_id = $1`, id)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var (
			run  string
			tick time.Time
		)
		require.NoError(t, rows.Scan(&run, &tick))
		out[run] = tick
	}
	require.NoError(t, rows.Err())
	return out
}

// TestScheduleEveryTwoSecondsStartsOneRunPerTick fires a schedule every 2 s with two workers,
// and with more passes of its own at the same time: every tick started exactly one run, at the
// schedule's ticks, each run linked to its schedule and tick.
func TestScheduleEveryTwoSecondsStartsOneRunPerTick(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	b.startWorker(t)
	sc, err := b.store.CreateSchedule(b.ctx, durable.NewSchedule{Code: `return input.n * 2`, Input: []byte(`{"n": 21}`),
		Every: 2 * time.Second, Overlap: durable.OverlapAllow})
	require.NoError(t, err)

	// More passes racing the workers' own.
	ctx, stop := context.WithCancel(b.ctx)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, err := b.store.FireSchedules(ctx, time.Now())
				if ctx.Err() == nil {
					require.NoError(t, err)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
	waitDB(t, time.Minute, "four ticks", func() bool {
		got, err := b.store.GetSchedule(b.ctx, sc.ID, 100)
		require.NoError(t, err)
		return len(got.Ticks) >= 4
	})
	stop()
	wg.Wait()
	_, err = b.store.PauseSchedule(b.ctx, sc.ID, true)
	require.NoError(t, err)

	got, err := b.store.GetSchedule(b.ctx, sc.ID, 100)
	require.NoError(t, err)
	runs := b.scheduledRuns(t, sc.ID)
	require.Len(t, runs, len(got.Ticks), "one run per tick")
	seen := map[time.Time]bool{}
	for _, tick := range got.Ticks {
		require.NotEmpty(t, tick.RunID, "tick %s started a run", tick.Tick)
		require.Equal(t, tick.Tick, runs[tick.RunID], "run %s links to its tick", tick.RunID)
		require.False(t, seen[tick.Tick])
		seen[tick.Tick] = true
		since := tick.Tick.Sub(sc.NextTick)
		require.Zero(t, since%(2*time.Second), "tick %s is on the schedule's grid", tick.Tick)
		r := b.waitStatus(t, tick.RunID, durable.StatusSucceeded, durable.StatusFailed)
		require.Equal(t, "42", okValue(t, r))
		l, err := b.store.RunLineage(b.ctx, tick.RunID)
		require.NoError(t, err)
		require.Equal(t, sc.ID, l.ScheduleID)
	}
}

// TestScheduleOverlap checks the overlap policies with runs that outlast the interval: skip
// records the ticks that found a run active and starts none for them; queue starts its runs
// one after the other, never two at once.
func TestScheduleOverlap(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.startWorker(t)
	code := `await tools.time.sleep({ms: 2500}); return 1`
	skip, err := b.store.CreateSchedule(b.ctx, durable.NewSchedule{Code: code, Every: time.Second, Overlap: durable.OverlapSkip})
	require.NoError(t, err)
	queue, err := b.store.CreateSchedule(b.ctx, durable.NewSchedule{Code: code, Every: time.Second, Overlap: durable.OverlapQueue})
	require.NoError(t, err)
	waitDB(t, time.Minute, "two runs of the queue schedule", func() bool { return len(b.scheduledRuns(t, queue.ID)) >= 2 })
	for _, id := range []string{skip.ID, queue.ID} {
		_, err := b.store.PauseSchedule(b.ctx, id, true)
		require.NoError(t, err)
	}

	got, err := b.store.GetSchedule(b.ctx, skip.ID, 100)
	require.NoError(t, err)
	skipped := 0
	for _, tick := range got.Ticks {
		if tick.RunID == "" {
			require.Equal(t, "overlap", tick.Skipped)
			skipped++
		}
	}
	require.Positive(t, skipped, "ticks during an active run are skipped: %+v", got.Ticks)

	got, err = b.store.GetSchedule(b.ctx, queue.ID, 100)
	require.NoError(t, err)
	var prevEnd time.Time
	for i := len(got.Ticks) - 1; i >= 0; i-- { // oldest first
		tick := got.Ticks[i]
		require.NotEmpty(t, tick.RunID, "a queued tick waits, it is not skipped")
		r := b.waitStatus(t, tick.RunID, durable.StatusSucceeded, durable.StatusFailed)
		require.False(t, r.CreatedAt.Before(prevEnd), "run %s started before the previous one finished", r.ID)
		prevEnd = *r.FinishedAt
	}
}

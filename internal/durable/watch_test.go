package durable

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// received returns the status ch gets within a generous bound (a notification normally
// arrives in about a millisecond; the bound only keeps a broken listener from hanging), or
// "timeout".
func received(ch <-chan string) string {
	select {
	case status := <-ch:
		return status
	case <-time.After(10 * time.Second):
		return "timeout"
	}
}

// markWaitedOn marks runs waited on for a minute, as a wait does: only then are their status
// changes announced.
func (b *testBundle) markWaitedOn(t *testing.T, ids ...string) {
	t.Helper()
	for _, id := range ids {
		_, err := b.store.markStatusWatched(b.ctx, id, time.Now().Add(time.Minute))
		require.NoError(t, err)
	}
}

func TestRunWatchDeliversStatusChanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	other, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "y"})
	require.NoError(t, err)

	changed, unsubscribe := b.store.watch.subscribe(b.ctx, run.ID)
	defer unsubscribe()
	otherChanged, unsubscribeOther := b.store.watch.subscribe(b.ctx, other.ID)
	defer unsubscribeOther()
	b.markWaitedOn(t, run.ID, other.ID)

	// A write that leaves the other run's status alone announces nothing. Notifications
	// arrive in commit order on one connection and are dispatched in turn, so once the
	// cancellation committed after it has been received, a wrong one would have been too.
	_, err = b.store.pool.Exec(b.ctx, "UPDATE runs SET status = status, updated_at = now() WHERE id = $1", other.ID)
	require.NoError(t, err)
	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, received(changed), "the waiter of the cancelled run gets its new status")
	select {
	case <-otherChanged:
		t.Fatal("the waiter of a run whose status did not change was woken")
	default:
	}
}

func TestRunWatchReconnectsAndWakesEveryone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	changed, unsubscribe := b.store.watch.subscribe(b.ctx, run.ID)
	defer unsubscribe()
	b.markWaitedOn(t, run.ID)

	// Kill the listening connection: the watcher reconnects and wakes every waiter, since a
	// change may have happened while it was away.
	var killed bool
	require.NoError(t, b.store.pool.QueryRow(b.ctx,
		`SELECT bool_or(pg_terminate_backend(pid)) FROM pg_stat_activity
		 WHERE datname = current_database() AND query LIKE 'LISTEN %'`).Scan(&killed))
	require.True(t, killed, "found the listening connection")
	require.Equal(t, "", received(changed), "woken after the reconnection, with an unknown status")

	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, received(changed), "notifications flow again after the reconnection")
}

func TestStoreCloseStopsTheListener(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	got, err := b.store.WaitRun(b.ctx, run.ID, 10*time.Millisecond, func(string) bool { return false })
	require.NoError(t, err)
	require.Equal(t, StatusQueued, got.Status)
	b.store.Close()
	b.store.watch.mu.Lock()
	running := b.store.watch.running
	b.store.watch.mu.Unlock()
	require.False(t, running)
}

func TestRunWatchKeepsTheLatestStatusForALaggingWaiter(t *testing.T) {
	t.Parallel()
	w := newRunWatch(nil)
	ch := make(chan string, 1)
	w.waiters["r"] = map[chan string]struct{}{ch: {}}
	w.wake("r", StatusRunning)
	w.wake("r", StatusSucceeded)
	w.wake("other", StatusFailed)
	require.Equal(t, StatusSucceeded, <-ch)
	select {
	case s := <-ch:
		t.Fatalf("got a second status %q", s)
	default:
	}
}

// A run created with a wait is subscribed to before it is stored: a change right after the
// creation (here a cancel from another goroutine) wakes the waiter, which reads the run once.
func TestCreateRunWaitSeesChangesRightAfterCreation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ids := make(chan string, 1)
	go func() {
		// The run's id appears with its row; cancel it as soon as it does.
		for {
			var id string
			err := b.store.pool.QueryRow(b.ctx, "SELECT id::text FROM runs WHERE code = 'waited'").Scan(&id)
			if err == nil {
				_, _ = b.store.CancelRun(b.ctx, id)
				ids <- id
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	run, created, err := b.store.CreateRunWait(b.ctx, NewRun{Code: "waited"}, time.Minute, IsFinal)
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, StatusCancelled, run.Status)
	require.Equal(t, <-ids, run.ID)

	// The same idempotent request again returns the first run, final at once.
	first, created, err := b.store.CreateRunWait(b.ctx, NewRun{Code: "keyed", IdempotencyKey: "k"}, 0, nil)
	require.NoError(t, err)
	require.True(t, created)
	_, err = b.store.CancelRun(b.ctx, first.ID)
	require.NoError(t, err)
	again, created, err := b.store.CreateRunWait(b.ctx, NewRun{Code: "keyed", IdempotencyKey: "k"}, time.Minute, IsFinal)
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, first.ID, again.ID)
	require.Equal(t, StatusCancelled, again.Status)
}

// WaitRunChange answers a final run at once, and another once its status changes.
func TestWaitRunChange(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	done := make(chan Run, 1)
	go func() {
		got, err := b.store.WaitRunChange(b.ctx, run.ID, time.Minute)
		if err == nil {
			done <- got
		}
		close(done)
	}()
	for !b.store.watch.listening() { // the waiter subscribed (or is about to read first)
		time.Sleep(time.Millisecond)
	}
	_, err = b.store.CancelRun(b.ctx, run.ID)
	require.NoError(t, err)
	got := <-done
	require.Equal(t, StatusCancelled, got.Status)

	again, err := b.store.WaitRunChange(b.ctx, run.ID, time.Minute)
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, again.Status, "a final run is answered at once")

	_, err = b.store.WaitRunChange(b.ctx, "00000000-0000-0000-0000-000000000000", time.Minute)
	require.ErrorIs(t, err, ErrRunNotFound)
}

// A change this process committed wakes its own waiters at once, without PostgreSQL's
// notification (none is sent here: nothing changed in the database).
func TestAnnounceWakesThisProcesssWaiters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const id = "0b8f6f3e-5d2a-4f7e-9d1c-3a2b1c0d9e8f"
	status, unsubscribe := b.store.watch.subscribe(b.ctx, id)
	defer unsubscribe()
	events, unsubscribeEvents := b.store.WatchEvents(b.ctx, id)
	defer unsubscribeEvents()
	b.store.announce(id, StatusSucceeded)
	require.Equal(t, StatusSucceeded, received(status))
	require.Equal(t, "events", received(events))
}

// viewerAndListener returns a second store on b's database, standing for another API process
// (only PostgreSQL's notifications can wake its waiters: announce wakes the committing store's
// alone), and a function returning the payload of the next notification on channel.
func (b *testBundle) viewerAndListener(t *testing.T, channel string) (*Store, func() string) {
	t.Helper()
	viewer, err := New(b.store.pool, b.store.cfg)
	require.NoError(t, err)
	t.Cleanup(viewer.Close)
	listener, err := b.store.pool.Acquire(b.ctx)
	require.NoError(t, err)
	t.Cleanup(listener.Release)
	_, err = listener.Exec(b.ctx, "LISTEN "+channel)
	require.NoError(t, err)
	return viewer, func() string {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		defer cancel()
		n, err := listener.Conn().WaitForNotification(ctx)
		require.NoError(t, err)
		return n.Payload
	}
}

// Only watched runs' events are announced: a run nobody streams appends its events without a
// notification, while a run another process watches wakes that process's watch, also after
// the watch's first mark would have lapsed (the watch renews it).
func TestOnlyWatchedRunsAnnounceTheirEvents(t *testing.T) {
	t.Parallel()
	b := setup(t)
	viewer, nextNotification := b.viewerAndListener(t, runEventsChannel)
	viewer.eventsWatchFor = 300 * time.Millisecond

	unwatched, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	watched, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "y"})
	require.NoError(t, err)
	events, unwatch := viewer.WatchEvents(b.ctx, watched.ID)
	defer unwatch()
	time.Sleep(time.Second) // past the first mark's 300 ms: only renewals keep it

	// Notifications arrive in commit order: had the unwatched run's cancellation announced its
	// event, that notification would come before the watched run's.
	_, err = b.store.CancelRun(b.ctx, unwatched.ID)
	require.NoError(t, err)
	_, err = b.store.CancelRun(b.ctx, watched.ID)
	require.NoError(t, err)
	require.Equal(t, watched.ID, nextNotification(), "the first announcement is the watched run's")
	require.Equal(t, "events", received(events), "the other process's watch is woken")

	// A run whose watch ended is not announced once its mark lapses.
	again, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "z"})
	require.NoError(t, err)
	_, stop := viewer.WatchEvents(b.ctx, again.ID)
	stop()
	time.Sleep(400 * time.Millisecond)
	_, err = b.store.CancelRun(b.ctx, again.ID)
	require.NoError(t, err)
	last, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "w"})
	require.NoError(t, err)
	_, unwatchLast := viewer.WatchEvents(b.ctx, last.ID)
	defer unwatchLast()
	_, err = b.store.CancelRun(b.ctx, last.ID)
	require.NoError(t, err)
	require.Equal(t, last.ID, nextNotification(), "a lapsed mark announces nothing")
}

// Only runs somebody waits on announce their status changes: a wait in another process (a
// second store) marks its run and is woken by the announcement, while a run nobody waits on
// changes status without one.
func TestOnlyWaitedOnRunsAnnounceTheirStatus(t *testing.T) {
	t.Parallel()
	b := setup(t)
	viewer, nextNotification := b.viewerAndListener(t, runStatusChannel)

	unwatched, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	waited, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "y"})
	require.NoError(t, err)
	type result struct {
		run Run
		err error
	}
	done := make(chan result, 1)
	go func() {
		run, err := viewer.WaitRun(b.ctx, waited.ID, time.Minute, IsFinal)
		done <- result{run, err}
	}()
	require.Eventually(t, func() bool { return b.statusWatched(t, waited.ID) }, 10*time.Second, 10*time.Millisecond,
		"the wait marks its run")

	// Notifications arrive in commit order: had the unwatched run's cancellation been
	// announced, that notification would come first.
	_, err = b.store.CancelRun(b.ctx, unwatched.ID)
	require.NoError(t, err)
	start := time.Now()
	_, err = b.store.CancelRun(b.ctx, waited.ID)
	require.NoError(t, err)
	require.Equal(t, waited.ID+" "+StatusCancelled, nextNotification(), "the first announcement is the waited-on run's")

	got := <-done
	require.NoError(t, got.err)
	require.Equal(t, StatusCancelled, got.run.Status)
	// The wait's only timer is the 15 s safety reread: an answer within 5 s came by the
	// announcement (typically within milliseconds).
	require.Less(t, time.Since(start), 5*time.Second, "the wait is woken by the announcement")
}

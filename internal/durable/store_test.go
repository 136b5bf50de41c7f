package durable

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolcall"
)

func TestMain(m *testing.M) {
	if os.Getenv(childWorkerEnv) != "" {
		runChildWorker() // this test binary was started as a worker process
		return
	}
	pgtest.Main(m)
}

type testBundle struct {
	store *Store
	ctx   context.Context
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	return setupWith(t, func(*Config) {})
}

// setupWith is setup with a Store whose config change adjusts.
func setupWith(t *testing.T, change func(*Config)) *testBundle {
	t.Helper()
	pool, _ := pgtest.NewDB(t)
	cfg := Config{Logger: slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})), Egress: egress.Local(), Secrets: secretbox.Ephemeral()}
	change(&cfg)
	store, err := New(pool, cfg)
	require.NoError(t, err)
	t.Cleanup(store.Close)
	return &testBundle{store: store, ctx: context.Background()}
}

// tWriter sends logs to t.Log.
type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

func (b *testBundle) jobCount(t *testing.T, kind string) int {
	t.Helper()
	var n int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT count(*) FROM river_job WHERE kind = $1", kind).Scan(&n))
	return n
}

func TestCreateRunEnqueuesExecuteAndIsIdempotent(t *testing.T) {
	t.Parallel()
	b := setup(t)

	run, created, err := b.store.CreateRun(b.ctx, NewRun{Code: "1", Limits: json.RawMessage(`{"timeoutMs": 5, "maxToolCalls": 2}`), IdempotencyKey: "k1"})
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, StatusQueued, run.Status)
	require.JSONEq(t, `{"timeoutMs": 5, "maxToolCalls": 2}`, string(run.Limits))
	require.Equal(t, 1, b.jobCount(t, "run.execute"))
	stored, err := b.store.GetRun(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, stored.CreatedAt, run.CreatedAt, "the run returned is the run stored")
	require.Equal(t, stored.Code, run.Code)
	events, err := b.store.ListEvents(b.ctx, run.ID, 0, 10)
	require.NoError(t, err)
	require.Len(t, events, 1)
	require.Equal(t, int64(1), events[0].Seq)
	require.Equal(t, EventCreated, events[0].Type)
	require.JSONEq(t, `{}`, string(events[0].Data))

	tests := []struct {
		name    string
		run     NewRun
		same    bool
		wantErr error
	}{
		{name: "same key same body, keys reordered", run: NewRun{Code: "1", Limits: json.RawMessage(`{"maxToolCalls":2,"timeoutMs":5}`), IdempotencyKey: "k1"}, same: true},
		{name: "same key other code", run: NewRun{Code: "2", IdempotencyKey: "k1"}, wantErr: ErrIdempotencyConflict},
		{name: "no key", run: NewRun{Code: "1"}},
		{name: "unknown toolset", run: NewRun{Code: "1", Toolsets: []string{"nope"}}, wantErr: ErrToolsetNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, created, err := b.store.CreateRun(b.ctx, tt.run)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, !tt.same, created)
			require.Equal(t, tt.same, got.ID == run.ID)
		})
	}
	require.Equal(t, 2, b.jobCount(t, "run.execute"), "one job per created run")
	// The job is inserted only with its run: a unique key would cost a hash and an entry in
	// River's unique index for nothing.
	var keyed int
	require.NoError(t, b.store.pool.QueryRow(b.ctx,
		"SELECT count(*) FROM river_job WHERE kind = 'run.execute' AND unique_key IS NOT NULL").Scan(&keyed))
	require.Zero(t, keyed, "run.execute jobs carry no unique key")
}

func TestCreateRunConcurrentSameKey(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x", IdempotencyKey: "same"})
			require.NoError(t, err)
			ids[i] = run.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		require.Equal(t, ids[0], id)
	}
	require.Equal(t, 1, b.jobCount(t, "run.execute"))
}

func TestListRunsPaginatesNewestFirst(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var ids []string
	for range 5 {
		run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
		require.NoError(t, err)
		ids = append(ids, run.ID)
	}
	_, err := b.store.pool.Exec(b.ctx, "UPDATE runs SET status = 'failed' WHERE id = $1", ids[0])
	require.NoError(t, err)

	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		runs, next, err := b.store.ListRuns(b.ctx, ListFilter{Limit: 2, Cursor: cursor})
		require.NoError(t, err)
		for _, r := range runs {
			got = append(got, r.ID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	want := []string{ids[4], ids[3], ids[2], ids[1], ids[0]}
	require.Equal(t, want, got)

	failed, next, err := b.store.ListRuns(b.ctx, ListFilter{Status: StatusFailed})
	require.NoError(t, err)
	require.Empty(t, next)
	require.Len(t, failed, 1)
	require.Equal(t, ids[0], failed[0].ID)

	_, _, err = b.store.ListRuns(b.ctx, ListFilter{Cursor: "!!"})
	require.ErrorIs(t, err, ErrInvalidCursor)
}

// The toolset filter keeps the runs that name the toolset, and the runs naming none that
// called it; not every run that names none.
func TestListRunsToolsetFilterIsExact(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, name := range []string{"ops", "other"} {
		_, err := b.store.CreateToolset(b.ctx, Toolset{Name: name, URL: "http://127.0.0.1:1"})
		require.NoError(t, err)
	}
	named, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x", Toolsets: []string{"ops"}})
	require.NoError(t, err)
	_, _, err = b.store.CreateRun(b.ctx, NewRun{Code: "x", Toolsets: []string{"other"}})
	require.NoError(t, err)
	_, _, err = b.store.CreateRun(b.ctx, NewRun{Code: "x"}) // names none, calls nothing
	require.NoError(t, err)
	caller, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"}) // names none, calls ops
	require.NoError(t, err)
	_, err = b.store.pool.Exec(b.ctx, "INSERT INTO calls (run_id, call_id, key, toolset, path) VALUES ($1, 1, $2, 'ops', 'ops.math.add')",
		caller.ID, toolcall.Key(caller.ID, 1))
	require.NoError(t, err)

	runs, _, err := b.store.ListRuns(b.ctx, ListFilter{Toolset: "ops"})
	require.NoError(t, err)
	var got []string
	for _, r := range runs {
		got = append(got, r.ID)
	}
	require.Equal(t, []string{caller.ID, named.ID}, got)
}

func TestGetRunUnknown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct{ name, id string }{
		{name: "not a uuid", id: "nope"},
		{name: "unknown uuid", id: "8a4b1f2e-4b7b-4a57-9bb4-6f0b7a9f3c11"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.store.GetRun(b.ctx, tt.id)
			require.ErrorIs(t, err, ErrRunNotFound)
			_, err = b.store.ListCalls(b.ctx, tt.id)
			require.ErrorIs(t, err, ErrRunNotFound)
			_, err = b.store.RecordOutcome(b.ctx, tt.id, 1, toolcall.Outcome{OK: true})
			require.ErrorIs(t, err, ErrRunNotFound)
			_, err = b.store.CancelRun(b.ctx, tt.id)
			require.ErrorIs(t, err, ErrRunNotFound)
			_, err = b.store.RunLineage(b.ctx, tt.id)
			require.ErrorIs(t, err, ErrRunNotFound)
			_, err = b.store.ListEvents(b.ctx, tt.id, 0, 10)
			require.ErrorIs(t, err, ErrRunNotFound)
		})
	}
}

// A run started from no other has an empty lineage, read in the statement that finds the run.
func TestRunLineageOfPlainRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "1"})
	require.NoError(t, err)
	l, err := b.store.RunLineage(b.ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, Lineage{}, l)
}

func TestToolsets(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ts, err := b.store.CreateToolset(b.ctx, Toolset{Name: "ops", URL: "http://127.0.0.1:1/", Secret: "s", Manifest: json.RawMessage(`{"tools":[{"path":"a"}]}`)})
	require.NoError(t, err)
	require.Equal(t, "ops", ts.Name)
	require.Equal(t, "s", ts.Secret)
	_, err = b.store.CreateToolset(b.ctx, Toolset{Name: "ops", URL: "http://x"})
	require.ErrorIs(t, err, ErrToolsetExists)
	_, err = b.store.CreateToolset(b.ctx, Toolset{Name: "two", URL: "http://y"})
	require.NoError(t, err)

	all, err := b.store.ListToolsets(b.ctx, nil)
	require.NoError(t, err)
	require.Len(t, all, 2)
	named, err := b.store.ListToolsets(b.ctx, []string{"two"})
	require.NoError(t, err)
	require.Len(t, named, 1)

	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x", Toolsets: []string{"ops"}})
	require.NoError(t, err)
	require.Equal(t, []string{"ops"}, run.Toolsets)

	require.NoError(t, b.store.DeleteToolset(b.ctx, "two", false), "no run not yet final names it")
	require.ErrorIs(t, b.store.DeleteToolset(b.ctx, "two", false), ErrToolsetNotFound)
	_, err = b.store.GetToolset(b.ctx, "two")
	require.ErrorIs(t, err, ErrToolsetNotFound)

	// The queued run may call ops: deleting it needs force.
	err = b.store.DeleteToolset(b.ctx, "ops", false)
	require.ErrorIs(t, err, ErrToolsetInUse)
	require.Contains(t, err.Error(), run.ID)
	require.NoError(t, b.store.DeleteToolset(b.ctx, "ops", true))
	_, err = b.store.GetToolset(b.ctx, "ops")
	require.ErrorIs(t, err, ErrToolsetNotFound)
}

func TestWaitRunReturnsOnChangeOrTimeout(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)

	got, err := b.store.WaitRun(b.ctx, run.ID, 200*time.Millisecond, func(status string) bool { return status != StatusQueued })
	require.NoError(t, err)
	require.Equal(t, StatusQueued, got.Status, "nothing changed: returned after the wait")

	go func() {
		time.Sleep(100 * time.Millisecond)
		_, _ = b.store.CancelRun(context.Background(), run.ID)
	}()
	got, err = b.store.WaitRun(b.ctx, run.ID, 20*time.Second, func(status string) bool { return status != StatusQueued })
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, got.Status)
}

func TestQueryLookup(t *testing.T) {
	t.Parallel()
	require.NotEmpty(t, q("RunGet"))
	require.Panics(t, func() { q("NoSuchQuery") })
}

// TestRunInsertWritesRiversJob checks that the run.execute job RunInsert writes with a run is
// the row River's own insert writes for the same job (so River's producers and workers treat
// it alike, and an upgrade of River that changes its rows fails here), and that River's
// producers are notified of it on River's insert channel.
func TestRunInsertWritesRiversJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	conn, err := b.store.pool.Acquire(b.ctx)
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(b.ctx, "LISTEN "+`"public.river_insert"`)
	require.NoError(t, err)

	b.store.insertNotified.Store(0) // the first insert notifies
	run, created, err := b.store.CreateRun(b.ctx, NewRun{Code: "1"})
	require.NoError(t, err)
	require.True(t, created)
	waitCtx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	n, err := conn.Conn().WaitForNotification(waitCtx)
	require.NoError(t, err)
	require.Equal(t, "public.river_insert", n.Channel)
	require.JSONEq(t, `{"queue": "runs"}`, n.Payload)

	const columns = `args, kind, max_attempts, priority, queue, state::text, metadata, tags, attempt, errors IS NULL,
		unique_key IS NULL, unique_states IS NULL, attempted_at IS NULL, finalized_at IS NULL,
		scheduled_at <= now(), created_at <= now()`
	read := func(id int64) []any {
		rows, err := b.store.pool.Query(b.ctx, "SELECT "+columns+" FROM river_job WHERE id = $1", id)
		require.NoError(t, err)
		row, err := pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
		require.NoError(t, err)
		return row
	}
	var ours int64
	require.NoError(t, b.store.pool.QueryRow(b.ctx,
		"SELECT id FROM river_job WHERE kind = 'run.execute' AND args->>'run_id' = $1", run.ID).Scan(&ours))

	tx, err := b.store.pool.Begin(b.ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(b.ctx) }()
	res, err := b.store.river.InsertTx(b.ctx, tx, ExecuteArgs{RunID: run.ID}, nil)
	require.NoError(t, err)
	require.NoError(t, tx.Commit(b.ctx))
	require.Equal(t, read(res.Job.ID), read(ours))
}

package durable

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgcluster"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolcall"
)

// TestSuspendedRunSurvivesPostgresRestart suspends a run, stops PostgreSQL (a private cluster,
// so other tests are unaffected), starts it again with new processes' worth of pools, stores
// and workers, and finishes the run.
func TestSuspendedRunSurvivesPostgresRestart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "pgrs")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o711))
	cluster, err := pgcluster.New(pgcluster.Config{Dir: dir + "/pg", Settings: map[string]string{"fsync": "off"}})
	require.NoError(t, err)
	require.NoError(t, cluster.Init(ctx))
	require.NoError(t, cluster.Start(ctx))
	t.Cleanup(func() { _ = cluster.Stop(context.Background()) })
	dbURL, err := cluster.CreateDatabase(ctx, "codemode")
	require.NoError(t, err)

	// First life: a worker suspends the run on its durable call.
	pool, err := pgxpool.New(ctx, dbURL)
	require.NoError(t, err)
	require.NoError(t, migrate.Up(ctx, pool))
	store, err := New(pool, Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	b := &testBundle{store: store, ctx: ctx}
	w := b.startWorker(t, newScriptEngine())
	run, _, err := store.CreateRun(ctx, NewRun{Code: `{"steps":[{"tool":"t.a","args":1},{"tool":"t.wait","durable":true}]}`})
	require.NoError(t, err)
	b.waitStatus(t, run.ID, StatusSuspended)
	require.NoError(t, w.Stop(ctx))
	pool.Close()

	require.NoError(t, cluster.Stop(ctx))
	require.NoError(t, cluster.Start(ctx))

	// Second life: everything new.
	pool2, err := pgxpool.New(ctx, dbURL)
	require.NoError(t, err)
	t.Cleanup(pool2.Close)
	store2, err := New(pool2, Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store2.Close)
	b2 := &testBundle{store: store2, ctx: ctx}
	engine := newScriptEngine()
	b2.startWorker(t, engine)
	got, err := store2.GetRun(ctx, run.ID)
	require.NoError(t, err)
	require.Equal(t, StatusSuspended, got.Status)
	require.Len(t, got.Pending, 1)

	_, err = store2.RecordOutcome(ctx, run.ID, 2, toolcall.Outcome{OK: true, Value: json.RawMessage(`"done"`)})
	require.NoError(t, err)
	got = b2.waitStatus(t, run.ID, StatusSucceeded)
	require.JSONEq(t, `{"ok":true,"value":[1,"done"]}`, string(got.Result))
	require.Zero(t, engine.count(toolcall.Key(run.ID, 1)), "the settled call was not made again")
}

package durable

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
	"github.com/codemode/codemode/internal/toolcall"
)

func benchStore(b *testing.B) *Store {
	b.Helper()
	pool, _ := pgtest.NewDB(b)
	store, err := New(pool, Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(b, err)
	b.Cleanup(store.Close)
	return store
}

// BenchmarkToolCallRecording measures the durability overhead of one inline tool call: the
// call row written at start and at settle (two fenced transactions).
func BenchmarkToolCallRecording(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	run, _, err := store.CreateRun(ctx, NewRun{Code: "x"})
	require.NoError(b, err)
	lease, _, err := store.acquire(ctx, run.ID, 1, 0)
	require.NoError(b, err)
	args := json.RawMessage(`{"a":1,"b":2}`)
	b.ResetTimer()
	for i := range b.N {
		id := i + 1
		if _, err := lease.CallStarted(ctx, CallStart{CallID: id, Toolset: "t", Path: "t.add", Args: args}); err != nil {
			b.Fatal(err)
		}
		if err := lease.CallSettled(ctx, id, toolcall.Outcome{OK: true, Value: json.RawMessage(`3`)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckpoint measures storing a 10 KB snapshot.
func BenchmarkCheckpoint(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	run, _, err := store.CreateRun(ctx, NewRun{Code: "x"})
	require.NoError(b, err)
	lease, _, err := store.acquire(ctx, run.ID, 1, 0)
	require.NoError(b, err)
	snapshot := make([]byte, 10<<10)
	b.SetBytes(int64(len(snapshot)))
	b.ResetTimer()
	for range b.N {
		if err := lease.Checkpoint(ctx, Snapshot{State: snapshot}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOutcomeToFinished measures the latency from posting the outcome of a suspended
// run's durable call to the run being finished, through River and a worker.
func BenchmarkOutcomeToFinished(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	w, err := NewWorker(store, newScriptEngine(), WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(b, err)
	require.NoError(b, w.Start(ctx))
	b.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(stopCtx)
	})
	waitFor := func(id, status string) {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			run, err := store.GetRun(ctx, id)
			require.NoError(b, err)
			if run.Status == status {
				return
			}
		}
		b.Fatalf("run %s never %s", id, status)
	}
	var total time.Duration
	for range b.N {
		run, _, err := store.CreateRun(ctx, NewRun{Code: `{"steps":[{"tool":"t.wait","durable":true}]}`})
		require.NoError(b, err)
		waitFor(run.ID, StatusSuspended)
		start := time.Now()
		_, err = store.RecordOutcome(ctx, run.ID, 1, toolcall.Outcome{OK: true, Value: json.RawMessage(`1`)})
		require.NoError(b, err)
		waitFor(run.ID, StatusSucceeded)
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/outcome")
}

package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

// TestScheduleStartsOneRunPerTickAcrossProcesses: a schedule every 2 s, two server processes
// and two worker processes on one database. Every tick starts exactly one run, linked to the
// schedule and its tick, on the schedule's grid, and each run succeeds.
func TestScheduleStartsOneRunPerTickAcrossProcesses(t *testing.T) {
	t.Parallel()
	_, dbURL := pgtest.NewDB(t)
	var servers []api
	for range 2 {
		addr := freeAddr(t)
		start(t, "server", []string{"DATABASE_URL=" + dbURL, "CODEMODE_LISTEN=" + addr, "CODEMODE_API_TOKEN=", secretKeyEnv})
		a := api{t: t, base: "http://" + addr}
		waitHealthy(t, a.base)
		servers = append(servers, a)
	}
	for range 2 {
		start(t, "worker", []string{"DATABASE_URL=" + dbURL, "CODEMODE_WORKER_LISTEN=127.0.0.1:0", secretKeyEnv})
	}

	code, sched := servers[0].do("POST", "/v1/schedules", map[string]any{
		"code": "return input?.n ?? 'tick'", "every": "2s", "overlap": "allow"})
	require.Equal(t, http.StatusCreated, code, "%v", sched)
	id := sched["id"].(string)

	// Wait for at least four ticks with a run each, then pause (through the other server).
	var ticks []any
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		_, got := servers[1].do("GET", "/v1/schedules/"+id, nil)
		ticks, _ = got["ticks"].([]any)
		if len(ticks) >= 4 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	require.GreaterOrEqual(t, len(ticks), 4, "four ticks within a minute")
	code, _ = servers[1].do("POST", "/v1/schedules/"+id+"/pause", nil)
	require.Equal(t, http.StatusOK, code)
	time.Sleep(3 * time.Second) // a tick being fired while pausing lands now
	_, got := servers[0].do("GET", "/v1/schedules/"+id, nil)
	ticks = got["ticks"].([]any)

	// One run per tick: the ticks are distinct instants 2 s apart on the grid, each with its
	// own run, and the runs in the database are exactly those.
	seenTick := map[string]bool{}
	runOfTick := map[string]string{}
	var instants []time.Time
	for _, raw := range ticks {
		tk := raw.(map[string]any)
		at := tk["tick"].(string)
		require.False(t, seenTick[at], "tick %s fired twice", at)
		seenTick[at] = true
		runID, ok := tk["runId"].(string)
		require.True(t, ok, "tick %s started a run: %v", at, tk)
		runOfTick[at] = runID
		ts, err := time.Parse(time.RFC3339Nano, at)
		require.NoError(t, err)
		instants = append(instants, ts)
	}
	for i := 1; i < len(instants); i++ { // newest first
		gap := instants[i-1].Sub(instants[i])
		require.Zero(t, gap%(2*time.Second), "ticks on the 2 s grid: %v", instants)
	}

	_, list := servers[0].do("GET", "/v1/runs?limit=100", nil)
	runs := list["runs"].([]any)
	require.Len(t, runs, len(ticks), "exactly one run per tick, no more")
	for at, runID := range runOfTick {
		_, run := servers[1].do("GET", "/v1/runs/"+runID, nil)
		for end := time.Now().Add(30 * time.Second); run["status"] != "succeeded" && run["status"] != "failed" && time.Now().Before(end); {
			_, run = servers[1].do("GET", "/v1/runs/"+runID+"?wait=10", nil)
		}
		require.Equal(t, "succeeded", run["status"], "%v", run)
		lineage := run["lineage"].(map[string]any)
		require.Equal(t, id, lineage["scheduleId"], "run %s names its schedule", runID)
		want, _ := time.Parse(time.RFC3339Nano, at)
		got, err := time.Parse(time.RFC3339Nano, lineage["scheduledFor"].(string))
		require.NoError(t, err)
		require.True(t, want.Equal(got), fmt.Sprintf("run %s is for tick %s, says %s", runID, at, got))
	}
}

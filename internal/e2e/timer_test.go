package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTimerWakesARunOnWorkerProcesses: a run sleeping on tools.time.sleep, through the server
// and worker binaries as deployed, suspends and is woken at its instant.
func TestTimerWakesARunOnWorkerProcesses(t *testing.T) {
	t.Parallel()
	s := setup(t)
	start := time.Now()
	code, run := s.api.do("POST", "/v1/runs?wait=20", map[string]any{
		"code": "const t0 = Date.now(); await tools.time.sleep({ms: 800}); return Date.now() - t0 >= 800"})
	require.Equal(t, http.StatusCreated, code, "%v", run)
	id := run["id"].(string)
	for end := time.Now().Add(30 * time.Second); run["status"] != "succeeded" && run["status"] != "failed" && time.Now().Before(end); {
		_, run = s.api.do("GET", "/v1/runs/"+id+"?wait=10", nil)
	}
	require.Equal(t, "succeeded", run["status"], "%v", run)
	require.Equal(t, true, run["result"].(map[string]any)["value"])
	require.GreaterOrEqual(t, time.Since(start), 800*time.Millisecond)
}

package runengine

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

// A run's limits cannot lift or raise the worker's ceilings: zero (no limit) and values above
// a ceiling are held to it, while limits below it still apply.
func TestRunLimitsAreHeldToTheWorkersCeilings(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w, err := durable.NewWorker(b.store, newTestEngine(Config{Egress: egress.Local(), Ceilings: run.Limits{MaxMemoryBytes: 8 << 20, TimeoutMs: 1000, MaxToolCalls: 3}}),
		durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, w.Start(b.ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(ctx)
	})
	tests := []struct {
		name, code, limits, kind string
	}{
		{name: "memory limit lifted", code: "const a = []; for (let i = 0; i < 1000; i++) a.push(new Array(1e5).fill(i)); return a.length",
			limits: `{"maxMemoryBytes": 0}`, kind: "MemoryLimitExceeded"},
		{name: "memory limit above the ceiling", code: "const a = []; for (let i = 0; i < 1000; i++) a.push(new Array(1e5).fill(i)); return a.length",
			limits: `{"maxMemoryBytes": 4294967296}`, kind: "MemoryLimitExceeded"},
		{name: "time limit lifted", code: "while (true) {}", limits: `{"timeoutMs": 0}`, kind: "TimeoutExceeded"},
		{name: "time limit above the ceiling", code: "while (true) {}", limits: `{"timeoutMs": 9007199254740991}`, kind: "TimeoutExceeded"},
		{name: "tool calls above the ceiling", code: "for (let i = 0; i < 5; i++) await tools.ops.echo({i})",
			limits: `{"maxToolCalls": 1000000}`, kind: "ToolCallLimitExceeded"},
		{name: "a lower limit applies", code: "for (let i = 0; i < 5; i++) await tools.ops.echo({i})",
			limits: `{"maxToolCalls": 1}`, kind: "ToolCallLimitExceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			created, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: tt.code, Limits: json.RawMessage(tt.limits)})
			require.NoError(t, err)
			done := b.waitStatus(t, created.ID, durable.StatusFailed)
			var result struct {
				Error struct {
					Kind    string `json:"kind"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(done.Result, &result))
			require.Equal(t, tt.kind, result.Error.Kind, string(done.Result))
			if tt.name == "a lower limit applies" {
				require.Equal(t, 1, b.tools.Handler.Executions(toolcall.Key(created.ID, 1)))
				require.Zero(t, b.tools.Handler.Executions(toolcall.Key(created.ID, 2)))
			}
		})
	}
}

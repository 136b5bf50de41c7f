package api

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
)

// Limits outside 1 to the workers' ceilings are refused with 400 naming the allowed range:
// a client cannot lift a limit with 0 nor raise it past the ceiling.
func TestRunLimitsOutsideTheCeilingsAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	ceil := run.DefaultCeilings
	tests := []struct {
		name, limits, want string
	}{
		{"memory lifted", `{"maxMemoryBytes": 0}`, "maxMemoryBytes"},
		{"tool calls lifted", `{"maxToolCalls": 0}`, "maxToolCalls"},
		{"output lifted", `{"maxOutputBytes": 0}`, "maxOutputBytes"},
		{"timeout lifted", `{"timeoutMs": 0}`, "timeoutMs"},
		{"negative", `{"maxToolCalls": -1}`, "maxToolCalls"},
		{"timeout 2^53-1", `{"timeoutMs": 9007199254740991}`, fmt.Sprintf("limits.timeoutMs is 9007199254740991; allowed range is 1 to %d", ceil.TimeoutMs)},
		{"memory above", fmt.Sprintf(`{"maxMemoryBytes": %d}`, ceil.MaxMemoryBytes+1), fmt.Sprintf("allowed range is 1 to %d", ceil.MaxMemoryBytes)},
		{"tool calls above", fmt.Sprintf(`{"maxToolCalls": %d}`, ceil.MaxToolCalls+1), fmt.Sprintf("allowed range is 1 to %d", ceil.MaxToolCalls)},
		{"output above", fmt.Sprintf(`{"maxOutputBytes": %d}`, ceil.MaxOutputBytes+1), fmt.Sprintf("allowed range is 1 to %d", ceil.MaxOutputBytes)},
		{"beyond int64", `{"timeoutMs": 1e30}`, "timeoutMs"},
		{"beyond float64", `{"timeoutMs": 1e400}`, "request body field /limits/timeoutMs: the number 1e400 is out of range"},
		{"beyond float64, negative", `{"maxToolCalls": -1e999}`, "request body field /limits/maxToolCalls: the number -1e999 is out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := b.do(t, "POST", "/v1/runs", `{"code":"return 1","limits":`+tt.limits+`}`)
			require.Equal(t, http.StatusBadRequest, status, string(body))
			code, msg := errorCode(t, body)
			require.Equal(t, CodeInvalidRequest, code)
			require.Contains(t, msg, tt.want)
		})
	}
	status, body := b.do(t, "POST", "/v1/runs", fmt.Sprintf(
		`{"code":"return 1","limits":{"timeoutMs": %d, "maxToolCalls": 1, "maxOutputBytes": 100, "maxMemoryBytes": %d}}`,
		ceil.TimeoutMs, ceil.MaxMemoryBytes))
	require.Equal(t, http.StatusCreated, status, "limits at the ceilings are accepted: %s", body)
}

package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLimitsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		limits    Limits
		wantField string
	}{
		{name: "zero means no limit", limits: Limits{}},
		{name: "all positive", limits: Limits{TimeoutMs: 1, MaxToolCalls: 2, MaxOutputBytes: 3, MaxMemoryBytes: 4, MaxSnapshotBytes: 5}},
		{name: "negative timeout", limits: Limits{TimeoutMs: -1}, wantField: "timeoutMs"},
		{name: "negative tool calls", limits: Limits{MaxToolCalls: -2}, wantField: "maxToolCalls"},
		{name: "negative output", limits: Limits{MaxOutputBytes: -3}, wantField: "maxOutputBytes"},
		{name: "negative memory", limits: Limits{MaxMemoryBytes: -4}, wantField: "maxMemoryBytes"},
		{name: "negative snapshot", limits: Limits{MaxSnapshotBytes: -5}, wantField: "maxSnapshotBytes"},
		{name: "first negative named", limits: Limits{MaxToolCalls: -1, MaxSnapshotBytes: -1}, wantField: "maxToolCalls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.limits.Validate()
			if tt.wantField == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidLimit)
			var le *LimitError
			require.ErrorAs(t, err, &le)
			require.Equal(t, tt.wantField, le.Field)
			require.Contains(t, err.Error(), tt.wantField+" is -")
		})
	}
}

func TestLimitsJSON(t *testing.T) {
	t.Parallel()
	var l Limits
	require.NoError(t, json.Unmarshal([]byte(`{"timeoutMs":1000,"maxToolCalls":5,"maxOutputBytes":100,"maxMemoryBytes":1048576,"maxSnapshotBytes":2048}`), &l))
	require.Equal(t, Limits{TimeoutMs: 1000, MaxToolCalls: 5, MaxOutputBytes: 100, MaxMemoryBytes: 1048576, MaxSnapshotBytes: 2048}, l)
	b, err := json.Marshal(Limits{MaxToolCalls: 3})
	require.NoError(t, err)
	require.JSONEq(t, `{"maxToolCalls":3}`, string(b))
}

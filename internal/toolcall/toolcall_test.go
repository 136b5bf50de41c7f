package toolcall_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

func TestKey(t *testing.T) {
	require.Equal(t, "6e92dbc3-17df-4252-b559-f683a2690fbd:12", toolcall.Key("6e92dbc3-17df-4252-b559-f683a2690fbd", 12))
	require.Equal(t, "run_1:1", toolcall.Key("run_1", 1))
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		json    string
		wantErr bool
	}{
		{name: "success", json: `{"ok":true,"value":{"x":1}}`},
		{name: "success null value", json: `{"ok":true}`},
		{name: "failure", json: `{"ok":false,"error":{"message":"denied"}}`},
		{name: "failure without error", json: `{"ok":false}`, wantErr: true},
		{name: "failure with value", json: `{"ok":false,"value":1,"error":{"message":"x"}}`, wantErr: true},
		{name: "success with error", json: `{"ok":true,"error":{"message":"x"}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var o toolcall.Outcome
			require.NoError(t, json.Unmarshal([]byte(tt.json), &o))
			err := o.Validate()
			if tt.wantErr {
				require.ErrorIs(t, err, toolcall.ErrInvalidOutcome)
				return
			}
			require.NoError(t, err)
			back, err := json.Marshal(o)
			require.NoError(t, err)
			require.JSONEq(t, tt.json, string(back))
		})
	}
}

func TestToolErrorIsItsMessage(t *testing.T) {
	var err error = &toolcall.ToolError{Message: "division by zero"}
	require.EqualError(t, err, "division by zero")
}

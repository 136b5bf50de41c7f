package runtools

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

func TestSleep(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tool := Sleep(func() time.Time { return base })
	box, err := run.NewToolbox([]run.Tool{tool, Approval()}, nil)
	require.NoError(t, err)
	c := toolcall.Call{RunID: "r", CallID: 1, Key: "r:1", Path: "time.sleep"}

	tests := []struct {
		name        string
		input       string
		wantDone    string
		wantHandle  string
		wantToolErr bool
	}{
		{name: "zero is done at once", input: `{"ms":0}`, wantDone: `{"slept":0}`},
		{name: "handle holds the instant", input: `{"ms":1500}`, wantHandle: `{"until":"2026-01-02T03:04:06.5Z","output":{"slept":1500}}`},
		{name: "negative", input: `{"ms":-1}`, wantToolErr: true},
		{name: "too long", input: `{"ms":999999999999}`, wantToolErr: true},
		{name: "not an object", input: `"x"`, wantToolErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, err := tool.Durable.Start(context.Background(), json.RawMessage(tt.input), c)
			if tt.wantToolErr {
				var ie *run.InvalidInputError
				require.ErrorAs(t, err, &ie)
				return
			}
			require.NoError(t, err)
			require.NoError(t, box.ValidateInput("time.sleep", json.RawMessage(tt.input)))
			if tt.wantDone != "" {
				require.True(t, st.Done)
				require.JSONEq(t, tt.wantDone, string(st.Output))
				require.NoError(t, box.ValidateOutput("time.sleep", st.Output))
				return
			}
			require.False(t, st.Done)
			require.JSONEq(t, tt.wantHandle, string(st.Handle))
		})
	}
}

func TestSleepAttach(t *testing.T) {
	t.Parallel()
	c := toolcall.Call{RunID: "r", CallID: 1, Key: "r:1", Path: "time.sleep"}
	sleeper := Sleep(nil)
	st, err := sleeper.Durable.Start(context.Background(), json.RawMessage(`{"ms":30}`), c)
	require.NoError(t, err)

	// Attach in "another process": a fresh tool value with only the handle.
	start := time.Now()
	out, err := Sleep(nil).Durable.Attach(context.Background(), st.Handle, c)
	require.NoError(t, err)
	require.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond)
	require.Equal(t, toolcall.Outcome{OK: true, Value: json.RawMessage(`{"slept":30}`)}, out)

	// A handle whose instant has passed settles at once.
	late := Sleep(func() time.Time { return time.Now().Add(time.Hour) })
	out, err = late.Durable.Attach(context.Background(), st.Handle, c)
	require.NoError(t, err)
	require.True(t, out.OK)

	// Cancellation stops the wait.
	long, err := sleeper.Durable.Start(context.Background(), json.RawMessage(`{"ms":3600000}`), c)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = sleeper.Durable.Attach(ctx, long.Handle, c)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	_, err = sleeper.Durable.Attach(context.Background(), json.RawMessage(`{}`), c)
	require.Error(t, err)
	require.NoError(t, sleeper.Durable.Cancel(context.Background(), long.Handle, c))
}

func TestApproval(t *testing.T) {
	t.Parallel()
	tool := Approval()
	c := toolcall.Call{RunID: "r", CallID: 4, Key: "r:4", Path: "approvals.request"}
	st, err := tool.Durable.Start(context.Background(), json.RawMessage(`{"reason":"deploy"}`), c)
	require.NoError(t, err)
	require.False(t, st.Done)
	require.JSONEq(t, `{"approvalId":"r:4"}`, string(st.Handle))
	_, err = tool.Durable.Attach(context.Background(), st.Handle, c)
	require.ErrorIs(t, err, run.ErrNotAttachable)
	require.NoError(t, tool.Durable.Cancel(context.Background(), st.Handle, c))
	require.Contains(t, run.Describe(tool).Signature, "tools.approvals.request(input: {")
}

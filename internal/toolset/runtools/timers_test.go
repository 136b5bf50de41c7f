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

func TestSleepUntil(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tools, ns := Timers(TimerConfig{Now: func() time.Time { return base }, Suspend: true})
	require.Len(t, tools, 2)
	require.Equal(t, []run.Namespace{{Path: "time", Description: ns[0].Description}}, ns)
	tool := tools[1]
	require.Equal(t, SleepUntilPath, tool.Path)
	box, err := run.NewToolbox(tools, ns)
	require.NoError(t, err)
	c := toolcall.Call{RunID: "r", CallID: 1, Key: "r:1", Path: SleepUntilPath}

	tests := []struct {
		name, input, wantDone, wantHandle string
		wantInvalid                       bool
	}{
		{name: "future instant in another zone", input: `{"at":"2026-01-02T04:04:06.5+01:00"}`,
			wantHandle: `{"until":"2026-01-02T03:04:06.5Z","output":{"at":"2026-01-02T03:04:06.500Z"}}`},
		{name: "space for T", input: `{"at":"2026-01-02 03:05:00Z"}`,
			wantHandle: `{"until":"2026-01-02T03:05:00Z","output":{"at":"2026-01-02T03:05:00.000Z"}}`},
		{name: "passed instant is done at once", input: `{"at":"2020-01-01T00:00:00Z"}`, wantDone: `{"at":"2020-01-01T00:00:00.000Z"}`},
		{name: "now is done at once", input: `{"at":"2026-01-02T03:04:05Z"}`, wantDone: `{"at":"2026-01-02T03:04:05.000Z"}`},
		{name: "no time zone", input: `{"at":"2026-01-02T04:00:00"}`, wantInvalid: true},
		{name: "not a date", input: `{"at":"tomorrow"}`, wantInvalid: true},
		{name: "day out of range", input: `{"at":"2026-02-30T00:00:00Z"}`, wantInvalid: true},
		{name: "more than a year away", input: `{"at":"2027-01-03T00:00:00Z"}`, wantInvalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, box.ValidateInput(SleepUntilPath, json.RawMessage(tt.input)))
			st, err := tool.Durable.Start(context.Background(), json.RawMessage(tt.input), c)
			if tt.wantInvalid {
				var ie *run.InvalidInputError
				require.ErrorAs(t, err, &ie)
				return
			}
			require.NoError(t, err)
			if tt.wantDone != "" {
				require.True(t, st.Done)
				require.JSONEq(t, tt.wantDone, string(st.Output))
				require.NoError(t, box.ValidateOutput(SleepUntilPath, st.Output))
				return
			}
			require.JSONEq(t, tt.wantHandle, string(st.Handle))
			until, output, err := TimerWake(st.Handle)
			require.NoError(t, err)
			require.True(t, until.After(base))
			require.NoError(t, box.ValidateOutput(SleepUntilPath, output))
			// Suspending timers leave the wait to whoever fires them.
			_, err = tool.Durable.Attach(context.Background(), st.Handle, c)
			require.ErrorIs(t, err, run.ErrNotAttachable)
		})
	}
}

func TestOverridesTimers(t *testing.T) {
	t.Parallel()
	require.False(t, OverridesTimers([]run.Tool{{Path: "ops.time.sleep"}, {Path: "timer"}}))
	require.True(t, OverridesTimers([]run.Tool{{Path: "time.now"}}))
	require.True(t, IsTimer("time.sleepUntil"))
	require.False(t, IsTimer("ops.time.sleep"))
}

package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// OnLog gets each console line as written, with its level, and stops at MaxOutputBytes with one
// truncated line; a resumed run counts the lines of its earlier drives towards the cap.
func TestOnLogPassesLinesUpToTheOutputCap(t *testing.T) {
	t.Parallel()
	// Each line is 5 bytes as a JSON string ("abc"): four fit in 20 bytes.
	b, _ := setup(t, Limits{MaxOutputBytes: 20}, Hooks{})
	var got []LogLine
	onLog := func(l LogLine) { got = append(got, l) }
	e, err := b.rt.Execute(context.Background(), `
console.info("abc"); console.warn("abc"); console.log("abc")
const r = await tools.approvals.request({what: "x"})
console.error("abc"); console.log("abc"); console.log("abc")
return 1`, ExecOptions{RunID: "r1", OnLog: onLog})
	require.NoError(t, err)
	require.Equal(t, StateSuspended, e.State())
	require.Len(t, got, 3)
	require.Equal(t, []string{"info", "warn", "log"}, []string{got[0].Level, got[1].Level, got[2].Level})
	require.Equal(t, "abc", got[0].Text)
	require.False(t, got[0].At.IsZero())
	s, err := e.Suspend()
	require.NoError(t, err)

	got = nil
	e2, err := b.rt.Resume(context.Background(), s.State, []OutcomeFor{
		{Key: "r1:1", Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`true`)}},
	}, ExecOptions{OnLog: onLog})
	require.NoError(t, err)
	require.Equal(t, StateDone, e2.State())
	require.Len(t, got, 2, "the fourth line, then the marker: %v", got)
	require.Equal(t, "error", got[0].Level)
	require.True(t, got[1].Truncated)
	require.Contains(t, got[1].Text, "maxOutputBytes (20 bytes)")
}

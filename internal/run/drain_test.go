package run

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A drain stops CPU-bound code at the next instruction boundary: the execution yields, its
// state is saved, and a resume continues the loop from where it stopped.
func TestDrainInterruptsBusyLoop(t *testing.T) {
	rt, err := New(testOptions(Options{}))
	require.NoError(t, err)
	drain := make(chan struct{})
	src := `
let i = 0, phase = 0;
for (; i < 3e7; i++) { if (i === 1000) phase = 1; }
return [i, phase];
`
	timer := time.AfterFunc(100*time.Millisecond, func() { close(drain) })
	defer timer.Stop()
	start := time.Now()
	e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "busy", Drain: drain})
	require.NoError(t, err)
	took := time.Since(start)
	require.Equal(t, StateYielded, e.State(), "the loop was interrupted at a safe point")
	require.Less(t, took, 2*time.Second, "yielded soon after the drain")
	s, err := e.Suspend()
	require.NoError(t, err)

	resumed, err := rt.Resume(context.Background(), s.State, nil, ExecOptions{})
	require.NoError(t, err)
	require.Equal(t, StateDone, resumed.State())
	res, _ := resumed.Result()
	require.True(t, res.OK, "%+v", res)
	require.JSONEq(t, `[30000000, 1]`, string(res.Value))
}

// A busy loop that never ends yields as well, and keeps yielding on every resume drained.
func TestDrainInterruptsInfiniteLoop(t *testing.T) {
	rt, err := New(testOptions(Options{}))
	require.NoError(t, err)
	drain := make(chan struct{})
	close(drain)
	var state SavedState
	for i := range 3 {
		var (
			e   *Execution
			err error
		)
		start := time.Now()
		if i == 0 {
			e, err = rt.Execute(context.Background(), `while (true) {}`, ExecOptions{RunID: "forever", Drain: drain})
		} else {
			e, err = rt.Resume(context.Background(), state, nil, ExecOptions{Drain: drain})
		}
		require.NoError(t, err)
		require.Equal(t, StateYielded, e.State())
		require.Less(t, time.Since(start), time.Second)
		s, err := e.Suspend()
		require.NoError(t, err)
		state = s.State
	}
}

package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// A promise adopting another native promise subscribes to it with then; that bookkeeping
// promise is left out of the pending-promise cap, and stays left out across a snapshot. When
// it was counted (after a restore, or at all), a chain of adopting promises reached the cap
// with promises the program never made, the adoption was rejected with the cap's RangeError,
// and the chain collapsed: the restored program stopped where the saved one went on.
func TestPromiseAdoptionCountsTheSameAfterRestore(t *testing.T) {
	t.Parallel()
	const src = "globalThis.n = 0; const f = () => { globalThis.n++; return Promise.resolve().then(f) }; f(); await new Promise(() => {})"
	vm, _ := newHostVM(t, src)
	// Run until the chain holds some thousands of promises.
	for vm.exec.pendingPromises < 4000 {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 10_000})
		require.NoError(t, err)
		require.Equal(t, StatusPaused, st)
	}
	n, err := vm.Get(vm.Global(), "n")
	require.NoError(t, err)
	// One promise per step of the chain (the then's), not two: the adoption's is not counted.
	require.InDelta(t, n.NumberValue(), float64(vm.exec.pendingPromises), 5, "pending promises against steps of the chain")
	b, err := vm.Snapshot()
	require.NoError(t, err)
	restored, err := Restore(b, Config{Host: &testHost{}})
	require.NoError(t, err)
	offset := vm.exec.pendingPromises - restored.exec.pendingPromises

	// The same number of instructions, from the same state, in both: past the cap and on.
	for range 30 {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 10_000})
		require.NoError(t, err)
		st2, err := restored.Run(context.Background(), RunOptions{MaxSteps: 10_000})
		require.NoError(t, err)
		require.Equal(t, st, st2, "the restored program goes on as the saved one does")
		require.Equal(t, vm.exec.pendingPromises, restored.exec.pendingPromises+offset)
		if st != StatusPaused {
			break
		}
	}
}

package interp

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// waitingVM runs src, which must end up waiting on a host call.
func waitingVM(t *testing.T, src string) *VM {
	t.Helper()
	return waitingVMIn(t, New(Config{Host: &testHost{}}), src)
}

// waitingVMIn is waitingVM in a given fresh VM.
func waitingVMIn(t *testing.T, vm *VM, src string) *VM {
	t.Helper()
	require.NoError(t, vm.Set(vm.Global(), "later", vm.NewHostFunction("later", "later", 0)))
	p, err := Compile(src)
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	return vm
}

// TestSnapshotEncoderReuse snapshots VMs of different heaps over and over, one after another
// and at the same time: encoders (their id tables, queues and buffers) are reused across
// encodings and VMs, and no encoding may see anything of an earlier one.
func TestSnapshotEncoderReuse(t *testing.T) {
	t.Parallel()
	vms := []*VM{
		mixedHeapVM(t, 200),
		waitingVM(t, "const s = Symbol('a'), o = {[s]: 1, [Symbol.for('b')]: [s]}; Math.extra = o; await later(); o"),
		waitingVM(t, "const a = []; for (let i = 0; i < 50; i++) a.push({i, s: 'x' + i}); await later(); a"),
		mixedHeapVM(t, 3),
	}
	want := make([]string, len(vms))
	for i, vm := range vms {
		data, err := vm.Snapshot()
		require.NoError(t, err)
		want[i] = string(data)
	}
	for round := range 3 {
		for i := range vms {
			j := (i + round) % len(vms)
			data, err := vms[j].Snapshot()
			require.NoError(t, err)
			require.Equal(t, want[j], string(data), "VM %d in round %d", j, round)
		}
	}
	var wg sync.WaitGroup
	locks := make([]sync.Mutex, len(vms)) // a VM is snapshotted by one goroutine at a time
	errs := make([]error, 4*len(vms))
	got := make([][]byte, 4*len(vms))
	for k := range got {
		wg.Go(func() {
			// VMs are not safe for concurrent use; the encoders they borrow must be
			vm := vms[k%len(vms)]
			locks[k%len(vms)].Lock()
			defer locks[k%len(vms)].Unlock()
			got[k], errs[k] = vm.Snapshot()
		})
	}
	wg.Wait()
	for k := range got {
		require.NoError(t, errs[k])
		require.Equal(t, want[k%len(vms)], string(got[k]), "concurrent snapshot %d", k)
	}
}

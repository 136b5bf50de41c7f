package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnhandledRejectionsInCreationOrder: rejections nobody handled are listed in the order the
// promises were created, not the order they were rejected, and the order survives a snapshot.
func TestUnhandledRejectionsInCreationOrder(t *testing.T) {
	t.Parallel()
	src := `
let rejectFirst
const first = new Promise((_, reject) => { rejectFirst = reject })
const second = Promise.reject("second")
const handled = Promise.reject("handled"); handled.catch(() => {})
await null
rejectFirst("first")
return 1`
	for _, snapshot := range []bool{false, true} {
		vm := New(Config{})
		p, err := Compile(src)
		require.NoError(t, err)
		require.NoError(t, vm.Start(p))
		opts := RunOptions{}
		if snapshot {
			opts.MaxSteps = 5
		}
		for {
			st, err := vm.Run(context.Background(), opts)
			require.NoError(t, err)
			if st == StatusDone {
				break
			}
			data, err := vm.Snapshot()
			require.NoError(t, err)
			vm, err = Restore(data, Config{})
			require.NoError(t, err)
		}
		var got []string
		for _, v := range vm.UnhandledRejections() {
			got = append(got, vm.ToGoString(v))
		}
		require.Equal(t, []string{"first", "second"}, got, "snapshot=%v", snapshot)
	}
}

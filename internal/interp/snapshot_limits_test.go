package interp

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// runRestoredEvery runs src, saving and restoring the VM (with cfg) every `every` steps (more
// for larger states, as run's roundtrip mode does: every 16 KB of state adds `every`), and
// returns the error that ended the run (nil when it finished).
func runRestoredEvery(t *testing.T, src string, cfg Config, every int64) error {
	t.Helper()
	p, err := Compile(src)
	require.NoError(t, err)
	vm := New(cfg)
	require.NoError(t, vm.Start(p))
	steps := every
	for range 100_000 {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: steps})
		if err != nil {
			return err
		}
		if st == StatusDone {
			return nil
		}
		data, err := vm.Snapshot()
		require.NoError(t, err)
		vm, err = Restore(data, cfg)
		require.NoError(t, err)
		steps = every * (1 + int64(len(data))/(16<<10))
	}
	t.Fatal("the run did not end")
	return nil
}

// TestRestoreChargesMemory checks that a restored VM counts the heap it was restored with
// against MaxMemoryBytes: programs that hold more than the limit must end with
// MemoryLimitExceeded even when they are saved and restored every few hundred steps.
func TestRestoreChargesMemory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{name: "one long string kept", src: "const s = 'y'.repeat(1e7); for (let i = 0; i < 1e4; i++) {} s.length"},
		{name: "concatenation", src: "let s = ''; for (let i = 0; i < 1e5; i++) s += 'y'.repeat(100) + i; s.length"},
		{name: "object of strings", src: "const o = {}; for (let i = 0;; i++) o['k' + i] = 'v'.repeat(64) + i"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := runRestoredEvery(t, tt.src, Config{MaxMemoryBytes: 4 << 20}, 300)
			var d *Diagnostic
			require.True(t, errors.As(err, &d), "the run ended with %v", err)
			require.Equal(t, "MemoryLimitExceeded", d.Kind)
		})
	}
}

// TestRestoreChargesHeldStrings checks the charge a restored VM starts with: at least the
// bytes of the strings it holds, and a string referenced from several places is restored
// once, so the charge does not multiply.
func TestRestoreChargesHeldStrings(t *testing.T) {
	t.Parallel()
	vm, _ := newHostVM(t, "const s = 'z'.repeat(1e6); const a = [s, s, s, s]; await later(); a.length")
	_, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	data, err := vm.Snapshot()
	require.NoError(t, err)
	restored, err := Restore(data, Config{})
	require.NoError(t, err)
	require.GreaterOrEqual(t, restored.allocated, int64(1e6))
	require.Less(t, restored.allocated, int64(2e6))
	live := restored.liveHeapSize(restored.execRoots)
	require.Less(t, live, int64(2e6), "the four references share one restored string")
}

// TestRestoreAfterInterruptInNestedCall runs programs whose time runs out inside a call made
// from native code (a getter, a callback) while a step budget is set, saving and
// restoring at every pause as run's roundtrip mode does: every pause must give a snapshot
// that restores, and the run must end with TimeoutExceeded.
func TestRestoreAfterInterruptInNestedCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{name: "getter retrying on overflow", src: "const o = {get x() { try { return this.x } catch (e) { return this.x } }}; o.x"},
		{name: "endless callback", src: "[1].forEach(() => { for (;;) {} })"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			defer cancel()
			for {
				st, err := vm.Run(ctx, RunOptions{MaxSteps: 300})
				if err != nil {
					var d *Diagnostic
					require.True(t, errors.As(err, &d), "the run ended with %v", err)
					require.Equal(t, "TimeoutExceeded", d.Kind)
					return
				}
				require.Equal(t, StatusPaused, st)
				data, err := vm.Snapshot()
				require.NoError(t, err)
				vm, err = Restore(data, Config{})
				require.NoError(t, err)
			}
		})
	}
}

package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMathRandomSeeded checks that Math.random is a deterministic function of the seed,
// stays in [0, 1), and that its state is the Math object's slot (so snapshots carry it).
func TestMathRandomSeeded(t *testing.T) {
	t.Parallel()
	draw := func(seed uint64, n int) []float64 {
		vm := newTestVM(t)
		vm.seedMathRandom(seed)
		out := make([]float64, n)
		for i := range out {
			out[i] = mustCall(t, vm, "Math.random", undefinedValue).NumberValue()
		}
		return out
	}
	tests := []struct {
		name string
		seed uint64
	}{
		{"zero", 0},
		{"one", 1},
		{"large", 1 << 63},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, b := draw(tt.seed, 200), draw(tt.seed, 200)
			require.Equal(t, a, b)
			distinct := map[float64]bool{}
			for _, x := range a {
				require.GreaterOrEqual(t, x, 0.0)
				require.Less(t, x, 1.0)
				distinct[x] = true
			}
			require.Greater(t, len(distinct), 190)
		})
	}
	require.NotEqual(t, draw(1, 5), draw(2, 5))

	vm := newTestVM(t)
	vm.seedMathRandom(42)
	st, ok := vm.realm.Intrinsic("Math").slots.(*mathRandomState)
	require.True(t, ok)
	saved := *st
	first := mustCall(t, vm, "Math.random", undefinedValue)
	*st = saved
	require.Equal(t, first, mustCall(t, vm, "Math.random", undefinedValue))
}

// TestFormatLocaleNumber checks the en-US format of Number.prototype.toLocaleString
// against node's output.
func TestFormatLocaleNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"grouping", 1234567.891, "1,234,567.891"},
		{"small", 0.1234, "0.123"},
		{"shortest_rounding", 1.0005, "1.001"},
		{"carry", 999.9999, "1,000"},
		{"negative", -1234.5, "-1,234.5"},
		{"huge", 1e23, "100,000,000,000,000,000,000,000"},
		{"tiny", 1e-7, "0"},
		{"half", 0.0005, "0.001"},
		{"three_digits", 123.4565, "123.457"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, formatLocaleNumber(tt.in))
		})
	}
}

// TestMathRandomStateRoundTrip checks the exported state accessors and the slot codec.
func TestMathRandomStateRoundTrip(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	vm.seedMathRandom(7)
	saved := vm.mathRandomState()
	want := mustCall(t, vm, "Math.random", undefinedValue)
	require.NotEqual(t, saved, vm.mathRandomState())
	vm.setMathRandomState(saved)
	require.Equal(t, want, mustCall(t, vm, "Math.random", undefinedValue))

	st := &mathRandomState{S0: 1<<64 - 1, S1: 0xabc}
	e := &heapEncoder{vm: vm, w: &jsonWriter{}}
	st.encodeSlot(e)
	require.Equal(t, `["ffffffffffffffff","abc"]`, string(e.w.buf))
	typ, ok := lookupSlotType(st.slotTag())
	require.True(t, ok)
	got := typ.alloc()
	typ.decode(nil, &jsonReader{data: e.w.buf}, got)
	require.Equal(t, st, got)
}

// TestMathRandomConfigSeed checks that Config.RandomSeed decides Math.random's sequence.
func TestMathRandomConfigSeed(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) string {
		vm := New(Config{RandomSeed: seed})
		p, err := Compile(`[Math.random(), Math.random(), Math.random()].join()`)
		require.NoError(t, err)
		require.NoError(t, vm.Start(p))
		_, err = vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		v, thrown := vm.Result()
		require.False(t, thrown)
		return vm.ToGoString(v)
	}
	require.Equal(t, run(5), run(5))
	require.NotEqual(t, run(5), run(6))
}

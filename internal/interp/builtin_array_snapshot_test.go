package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArrayNumberMathSnapshots runs programs using Array, Number and Math with a snapshot
// and restore into a new VM every few instructions, and checks that they compute what an
// uninterrupted run computes (native state such as Math.random's survives snapshots).
func TestArrayNumberMathSnapshots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{"sort_comparator", `const a = [5, 3, 9, 1, 7, 2]; a.sort((x, y) => x - y); a.join()`},
		{"map_filter_reduce", `[1, 2, 3, 4, 5].map(x => x * x).filter(x => x % 2).reduce((s, x) => s + x, 0)`},
		{"iterators", `const it = [10, 20, 30].entries(); it.next(); const rest = [...it]; rest.join(';')`},
		{"random_sequence", `const a = []; for (let i = 0; i < 5; i++) a.push(Math.random()); a.join()`},
		{"from_async", `(await Array.fromAsync([1, Promise.resolve(2), 3], async x => x * 10)).join()`},
		{"number_format", `[(1234.5).toLocaleString(), (255).toString(16), (0.000001234).toPrecision(2)].join(' ')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := evalJS(t, tt.src)
			for _, every := range []int64{1, 7} {
				got, thrown, snaps := runWithSnapshots(t, tt.src, every)
				require.False(t, thrown, got)
				require.Greater(t, snaps, 0)
				require.Equal(t, want, got, "snapshot every %d steps", every)
			}
		})
	}
}

package interp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMergeSort checks that mergeSort orders like a reference stable sort and keeps equal
// keys in their input order, for many lengths around the insertion-sort cutoff.
func TestMergeSort(t *testing.T) {
	t.Parallel()
	type item struct{ key, pos int }
	tests := []struct {
		name string
		n    int
		keys int
	}{
		{"empty", 0, 1},
		{"one", 1, 1},
		{"short", 7, 3},
		{"cutoff", 10, 4},
		{"above_cutoff", 11, 4},
		{"many_duplicates", 500, 5},
		{"distinct", 1000, 1000000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(tt.n), 7))
			in := make([]item, tt.n)
			for i := range in {
				in[i] = item{rng.IntN(tt.keys), i}
			}
			got := slices.Clone(in)
			mergeSort(got, func(x, y item) int { return x.key - y.key })
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(x, y item) int { return x.key - y.key })
			require.Equal(t, want, got)
		})
	}
}

// TestMergeSortSortedInputIsLinear checks that sorted input costs n-1 comparisons (the
// merge of ordered halves is skipped), which keeps re-sorting sorted arrays cheap.
func TestMergeSortSortedInputIsLinear(t *testing.T) {
	t.Parallel()
	a := make([]int, 4096)
	for i := range a {
		a[i] = i
	}
	calls := 0
	mergeSort(a, func(x, y int) int { calls++; return x - y })
	require.LessOrEqual(t, calls, 2*len(a))
	require.True(t, slices.IsSorted(a))
}

// TestArraySortNative sorts through the native with the default comparator: undefined
// last, holes removed to the end, string order for numbers.
func TestArraySortNative(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	a := vm.newArray([]Value{intValue(10), undefinedValue, holeValue, intValue(9), intValue(1), asciiValue("b")})
	mustCall(t, vm, "Array.prototype.sort", objectValue(a))
	require.Equal(t, uint32(6), a.length)
	require.Equal(t, "1,10,9,b,undefined", listString(vm, vm.newArrayValue(a.elems[:5])))
	require.False(t, a.hasOwn(indexKey(5)))
}

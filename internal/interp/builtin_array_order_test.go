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

// TestSortShortArraysLikeV8 checks that sort and toSorted of arrays shorter than 64 call
// the comparator as V8 does, so that inconsistent comparators and comparators that log give
// node's results (expected values computed by node 20).
func TestSortShortArraysLikeV8(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"boolean comparator", `JSON.stringify([5, 1, 4, 2, 3].sort((a, b) => a > b))`, "[5,1,4,2,3]"},
		{"boolean comparator reversed", `JSON.stringify([3, 1, 2, 5, 4, 9, 7, 8, 6, 0].toSorted((a, b) => a < b))`, "[3,1,2,5,4,9,7,8,6,0]"},
		{"always negative", `JSON.stringify([1, 2, 3, 4, 5].sort(() => -1))`, "[5,4,3,2,1]"},
		{"always positive", `JSON.stringify([1, 2, 3, 4, 5].sort(() => 1))`, "[1,2,3,4,5]"},
		{"call order", `const log = []; [3, 1, 2].sort((x, y) => { log.push(x + '' + y); return x - y }); log.join()`, "13,21,23,21"},
		{"call order descending run", `const log = []; [5, 4, 3, 2, 1, 0, 9, 8].sort((x, y) => { log.push(x + '' + y); return x - y }); log.join()`, "45,34,23,12,01,90,93,95,83,85,89"},
		{"consistent comparator still stable", `[{k: 1, v: 'a'}, {k: 0, v: 'b'}, {k: 1, v: 'c'}, {k: 0, v: 'd'}].sort((a, b) => a.k - b.k).map(x => x.v).join('')`, "bdac"},
	})
}

// TestSortLongArraysLikeV8 checks sorts that merge runs (64 elements and more) and the
// default order's string conversions against results computed by node 20, for where node
// is not installed (TestArraySortMatchesNode compares many more cases with node itself).
func TestSortLongArraysLikeV8(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"always negative 100", `const a = Array.from({length: 100}, (_, i) => i); a.sort(() => -1); a.slice(0, 8).join() + '|' + a.slice(-8).join()`, "99,98,97,96,95,94,93,92|7,6,5,4,3,2,1,0"},
		{"boolean comparator 200", `let s = 7; const a = Array.from({length: 200}, () => (s = (s * 48271) % 2147483647) % 1000); a.sort((x, y) => x > y); a.slice(0, 10).join() + '|' + a.slice(95, 105).join()`, "897,558,614,577,405,134,186,241,190,582|520,339,186,548,561,893,254,413,689,542"},
		{"call count 300 runs", `let n = 0; const a = []; for (let r = 0; r < 10; r++) for (let i = 0; i < 30; i++) a.push(r % 2 ? 1000 - r * 30 - i : r * 30 + i); a.sort((x, y) => { n++; return x - y }); n + ':' + a.slice(0, 5).join()`, "1059:0,1,2,3,4"},
		{"toSorted counter comparator 150", `let c = 0; const a = Array.from({length: 150}, (_, i) => i); a.toSorted(() => (c++ % 3) - 1).slice(0, 12).join() + '|' + c`, "39,76,1,3,0,7,9,11,14,17,13,20|776"},
		{"default order calls toString per comparison", `const log = []; const o = n => ({toString() { log.push(n); return String(n) }}); [o(3), 5, o(1), 'x', o(2), undefined, 10].sort().map(String).join() + '|' + log.join('')`, "1,10,2,3,5,x,undefined|31113322321321123"},
		{"throwing comparator leaves the array", `const a = Array.from({length: 100}, (_, i) => (i * 37) % 100); let k = 0; try { a.sort((x, y) => { if (++k > 300) throw 0; return x - y }) } catch {} a.slice(0, 6).join()`, "0,37,74,11,48,85"},
	})
}

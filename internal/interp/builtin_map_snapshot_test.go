package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCollectionSnapshots runs Map and Set programs restoring from a snapshot after every
// few instructions: entries, tombstones and running iterators survive, and an iterator
// restored with its collection still follows deletions and compaction.
func TestCollectionSnapshots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"map entries", `const m = new Map([[1, 'a'], ['k', {x: 2}], [NaN, -0]]); m.set(m, 3); [m.size, m.get(1), m.get('k').x, Object.is(m.get(NaN), -0), m.get(m)].join()`, "4,a,2,true,3"},
		{"iterator across deletes", `const m = new Map(); for (let i = 0; i < 40; i++) m.set(i, i * 2); const it = m.entries(); it.next(); for (let i = 0; i < 35; i++) m.delete(i); m.set('x', 1); [...it].map(e => e.join(':')).join()`, "35:70,36:72,37:74,38:76,39:78,x:1"},
		{"set iteration with adds", `const s = new Set([1]); const out = []; for (const v of s) { out.push(v); if (v < 6) s.add(v + 1); if (v === 3) s.delete(1) } out.join() + '|' + s.size`, "1,2,3,4,5,6|5"},
		{"set algebra", `[...new Set([1, 2, 3]).symmetricDifference(new Set([2, 5]))].join()`, "1,3,5"},
		{"large map and set", `const m = new Map(), s = new Set(), keys = []; for (let i = 0; i < 100; i++) { const k = {i}; keys.push(k); m.set(k, 'v' + i); s.add(i % 2 ? k : 'k' + i) } m.delete(keys[3]); s.delete('k4'); [m.size, s.size, m.get(keys[99]), s.has(keys[97]), s.has('k98'), [...m.values()].slice(2, 5).join('-')].join()`, "99,99,v99,true,true,v2-v4-v5"},
		{"exhausted iterator", `const s = new Set([1]); const it = s.values(); it.next(); it.next(); s.add(2); String(it.next().done)`, "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, snaps := runWithSnapshots(t, tt.src, 7)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
			require.Positive(t, snaps)
		})
	}
}

// TestCollectionCompaction checks that deleting most entries shrinks the entry list and
// moves a running iterator to the same next entry.
func TestCollectionCompaction(t *testing.T) {
	t.Parallel()
	c := newCollection(false)
	for i := 0; i < 1000; i++ {
		c.set(nil, Number(float64(i)), undefinedValue)
	}
	it := &collIterator{data: c}
	c.register(it)
	for i := 0; i < 10; i++ {
		_, _, ok := it.step()
		require.True(t, ok)
	}
	for i := 0; i < 990; i++ {
		require.True(t, c.remove(Number(float64(i))))
	}
	require.Less(t, len(c.keys), 100)
	require.Equal(t, 10, c.live)
	k, _, ok := it.step()
	require.True(t, ok)
	require.Equal(t, 990.0, k.num)
	require.True(t, c.has(Number(999)))
	require.False(t, c.has(Number(5)))
}

// BenchmarkMapSetGet measures a program that fills a Map with 10,000 number keys, reads
// them back and deletes half.
func BenchmarkMapSetGet(b *testing.B) {
	benchJS(b, `const m = new Map(); for (let i = 0; i < 10000; i++) m.set(i, i); let s = 0; for (let i = 0; i < 10000; i++) s += m.get(i); for (let i = 0; i < 10000; i += 2) m.delete(i); s + m.size`)
}

// BenchmarkSetStrings measures de-duplicating 10,000 strings with a Set and iterating it.
func BenchmarkSetStrings(b *testing.B) {
	benchJS(b, `const s = new Set(); for (let i = 0; i < 10000; i++) s.add('k' + (i % 5000)); let n = 0; for (const v of s) n += v.length; n`)
}

// TestBuiltinCasesUnderSnapshots reruns the node-checked programs of Map, Set, WeakMap,
// WeakSet, Date, structuredClone, atob/btoa, TextEncoder/TextDecoder and URL with the VM
// snapshotted and restored into a new VM every 29 instructions, so every internal slot
// (entries, running iterators, dates, URLs, decoder state) goes through the snapshot codec.
func TestBuiltinCasesUnderSnapshots(t *testing.T) {
	t.Parallel()
	var all []jsCase
	for _, cases := range [][]jsCase{mapCases, setCases, weakCases, dateCases, cloneCases, textCases, urlCases} {
		all = append(all, cases...)
	}
	for _, tt := range all {
		if strings.Contains(tt.src, "Date.now()") || strings.Contains(tt.src, "typeof Date()") {
			continue // clock-dependent
		}
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, _ := runWithSnapshots(t, tt.src, 29)
			if thrown {
				name, _, _ := strings.Cut(got, ":")
				got = "throws " + name
			}
			require.Equal(t, tt.want, got, tt.src)
		})
	}
}

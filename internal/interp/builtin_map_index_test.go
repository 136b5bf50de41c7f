package interp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkIndex verifies the invariants of c's index: every live entry is found at its position,
// every slot refers to a live entry whose hash it holds and is reachable from its home slot
// without crossing an empty slot, the load is at most 1/2, and the capacity a power of two.
func checkIndex(t *testing.T, c *collection) {
	t.Helper()
	x := &c.index
	live := 0
	for i, k := range c.keys {
		if k.kind == kindHole {
			continue
		}
		live++
		require.Equal(t, i, c.find(k), "entry %d (%v)", i, k)
	}
	require.Equal(t, c.live, live)
	require.Equal(t, live, x.used)
	if len(x.slots) == 0 {
		require.Zero(t, live)
		return
	}
	require.Zero(t, len(x.slots)&(len(x.slots)-1), "capacity %d is not a power of two", len(x.slots))
	require.GreaterOrEqual(t, len(x.slots), collMinSlots)
	require.LessOrEqual(t, 2*x.used, len(x.slots), "load above 1/2")
	mask := len(x.slots) - 1
	used := 0
	for i, s := range x.slots {
		if s == 0 {
			continue
		}
		used++
		p := int(uint32(s)) - 1
		require.Less(t, p, len(c.keys))
		k := c.keys[p]
		require.NotEqual(t, kindHole, k.kind, "slot %d refers to a deleted entry", i)
		require.Equal(t, uint32(collHash(k)), uint32(s>>32), "slot %d holds a stale hash", i)
		for j := int(s>>32) & mask; j != i; j = (j + 1) & mask {
			require.NotZero(t, x.slots[j], "slot %d is cut off from its home by empty slot %d", i, j)
		}
	}
	require.Equal(t, x.used, used)
}

// probeStats returns the mean and the largest distance of the slots from their home slots.
func probeStats(x *collIndex) (mean float64, longest int) {
	mask := len(x.slots) - 1
	total, n := 0, 0
	for i, s := range x.slots {
		if s == 0 {
			continue
		}
		d := (i - int(s>>32)) & mask
		total += d
		n++
		longest = max(longest, d)
	}
	if n == 0 {
		return 0, 0
	}
	return float64(total) / float64(n), longest
}

// utf16Str makes a flat UTF-16 string holding units, whatever they are (the constructors
// store all-ASCII text as ASCII; this form must still behave as the equal ASCII string).
func utf16Str(units ...uint16) *jsString {
	return newFlatUTF16(units)
}

// TestCollKeySameValueZero checks that keys the same under SameValueZero hash alike and
// compare equal, whatever their representation, and that other keys differ.
func TestCollKeySameValueZero(t *testing.T) {
	t.Parallel()
	sym1, sym2 := &Symbol{}, &Symbol{}
	obj1, obj2 := &Object{}, &Object{}
	long := strings.Repeat("abcdefgh", 8)     // 64 units
	longWide := strings.Repeat("abcdéfgh", 8) // 64 units, not ASCII
	rope := concatStrings(newASCII(long[:32]), newASCII(long[32:]))
	wide := newStringFromGo(longWide).units()
	wideRope := func(at int) *jsString {
		return concatStrings(newUTF16(slices.Clone(wide[:at])), newUTF16(slices.Clone(wide[at:])))
	}
	ropeWide := wideRope(36)
	tenth := 0.1
	require.NotNil(t, rope.left, "the test needs a rope")
	require.NotNil(t, ropeWide.left, "the test needs a rope")
	tests := []struct {
		name string
		a, b Value
		same bool
	}{
		{"zero and negative zero", Number(0), Number(math.Copysign(0, -1)), true},
		{"NaN and NaN", nanValue, Number(math.NaN()), true},
		{"NaN payloads", Number(math.Float64frombits(0x7ff0000000000001)), Number(math.Float64frombits(0xfff8000000000000)), true},
		{"NaN and zero", nanValue, Number(0), false},
		{"integers", Number(42), Number(42), true},
		{"fractions", Number(tenth + 0.2), Number(0.30000000000000004), true},
		{"near numbers", Number(1), Number(math.Nextafter(1, 2)), false},
		{"infinities", Number(math.Inf(1)), Number(math.Inf(-1)), false},
		{"true", trueValue, Bool(true), true},
		{"true and false", trueValue, falseValue, false},
		{"true and one", trueValue, Number(1), false},
		{"false and zero", falseValue, Number(0), false},
		{"undefined", undefinedValue, Undefined(), true},
		{"null", nullValue, Null(), true},
		{"null and undefined", nullValue, undefinedValue, false},
		{"null and zero", nullValue, Number(0), false},
		{"string and number", asciiValue("1"), Number(1), false},
		{"ASCII copies", asciiValue("key"), stringValue(newASCII(strings.Clone("key"))), true},
		{"ASCII and ASCII held as UTF-16", asciiValue("ab"), stringValue(utf16Str('a', 'b')), true},
		{"empty and empty UTF-16", stringValue(emptyString), stringValue(utf16Str()), true},
		{"ASCII and different UTF-16", asciiValue("ab"), stringValue(utf16Str('a', 'c')), false},
		{"UTF-16 copies", asciiValue("café"), stringValue(newUTF16([]uint16{'c', 'a', 'f', 0xe9})), true},
		{"UTF-16 differing", asciiValue("café"), asciiValue("cafè"), false},
		{"ASCII and UTF-16 of the same length", asciiValue("cafe"), asciiValue("café"), false},
		{"UTF-16 bytes that read as ASCII", asciiValue("\x00A"), stringValue(utf16Str(0x4100)), false},
		{"lone surrogates", stringValue(utf16Str(0xd800)), stringValue(utf16Str(0xd800)), true},
		{"lone surrogates differing", stringValue(utf16Str(0xd800)), stringValue(utf16Str(0xdc00)), false},
		{"ASCII rope and flat", stringValue(rope), asciiValue(long), true},
		{"flat and ASCII rope", asciiValue(long), stringValue(concatStrings(newASCII(long[:10]), newASCII(long[10:]))), true},
		{"UTF-16 rope and flat", stringValue(ropeWide), asciiValue(longWide), true},
		{"ropes split differently", stringValue(wideRope(3)), stringValue(wideRope(50)), true},
		{"rope and longer flat", stringValue(concatStrings(newASCII(long[:32]), newASCII(long[32:]))), asciiValue(long + "x"), false},
		{"symbol itself", symbolValue(sym1), symbolValue(sym1), true},
		{"two symbols", symbolValue(sym1), symbolValue(sym2), false},
		{"object itself", objectValue(obj1), objectValue(obj1), true},
		{"two objects", objectValue(obj1), objectValue(obj2), false},
		{"symbol and object", symbolValue(sym1), objectValue(obj1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.same, collSameKey(tt.a, tt.b))
			require.Equal(t, tt.same, collSameKey(tt.b, tt.a))
			if tt.same {
				require.Equal(t, collHash(tt.a), collHash(tt.b))
			}
			c := newCollection(true)
			c.set(nil, tt.a, Number(1))
			c.set(nil, tt.b, Number(2))
			want := 2
			if tt.same {
				want = 1
			}
			require.Equal(t, want, c.live)
			v, ok := c.get(tt.a)
			require.True(t, ok)
			require.Equal(t, float64(3-want), v.num)
			checkIndex(t, c)
		})
	}
}

// TestCollHashDoesNotAllocate checks that hashing and finding a flat ASCII key, a number or an
// object allocates nothing (not parallel: testing.AllocsPerRun forbids it).
func TestCollHashDoesNotAllocate(t *testing.T) {
	c := newCollection(false)
	for i := range 100 {
		c.set(nil, asciiValue(fmt.Sprint("key", i)), undefinedValue)
	}
	obj := objectValue(&Object{})
	c.set(nil, obj, undefinedValue)
	c.set(nil, Number(1.5), undefinedValue)
	probe := asciiValue(strings.Clone("key42"))
	wide := asciiValue("clé")
	tests := []struct {
		name string
		key  Value
	}{
		{"ASCII", probe},
		{"UTF-16", wide},
		{"number", Number(1.5)},
		{"object", obj},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Zero(t, testing.AllocsPerRun(100, func() {
				_ = c.has(tt.key)
			}))
		})
	}
	require.True(t, c.has(probe))
	require.False(t, c.has(wide))
}

// TestCollIndexGrowth inserts keys of each kind past several doublings of the table and checks
// every key is found, deleted and found absent.
func TestCollIndexGrowth(t *testing.T) {
	t.Parallel()
	objs := make([]Object, 3000)
	tests := []struct {
		name string
		key  func(i int) Value
	}{
		{"integers", func(i int) Value { return Number(float64(i)) }},
		{"fractions", func(i int) Value { return Number(float64(i) / 7) }},
		{"ASCII strings", func(i int) Value { return asciiValue(fmt.Sprint("k", i)) }},
		{"UTF-16 strings", func(i int) Value { return asciiValue(fmt.Sprint("é", i)) }},
		{"objects", func(i int) Value { return objectValue(&objs[i]) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCollection(true)
			const n = 3000
			for i := range n {
				c.set(nil, tt.key(i), Number(float64(i)))
				if i&(i-1) == 0 { // around each doubling
					checkIndex(t, c)
				}
			}
			checkIndex(t, c)
			require.Equal(t, collSlotsFor(n), len(c.index.slots))
			for i := range n {
				v, ok := c.get(tt.key(i))
				require.True(t, ok, i)
				require.Equal(t, float64(i), v.num)
			}
			for i := 0; i < n; i += 2 {
				require.True(t, c.remove(tt.key(i)))
				require.False(t, c.remove(tt.key(i)))
			}
			checkIndex(t, c)
			for i := range n {
				require.Equal(t, i%2 == 1, c.has(tt.key(i)), i)
			}
		})
	}
}

// TestCollIndexAgainstModel applies random sets, deletes, clears and compactions to a
// collection and to a Go map, comparing the two and the index invariants as it goes.
func TestCollIndexAgainstModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		keys  int // distinct keys drawn from
		ops   int
		clear bool // sometimes clear everything
	}{
		{"few keys", 12, 4000, false},
		{"many keys", 600, 20000, false},
		{"with clears", 200, 20000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, uint64(tt.keys)))
			key := func(i int) Value {
				switch i % 4 {
				case 0:
					return Number(float64(i))
				case 1:
					return asciiValue(fmt.Sprint("s", i))
				case 2:
					return asciiValue(fmt.Sprint("ü", i))
				}
				return stringValue(concatStrings(newASCII(strings.Repeat("r", 70)), newASCII(fmt.Sprint(i))))
			}
			c := newCollection(true)
			model := map[int]int{}
			var order []int // model insertion order (deleted keys removed)
			for op := range tt.ops {
				k := rng.IntN(tt.keys)
				switch r := rng.IntN(100); {
				case r < 55:
					if _, ok := model[k]; !ok {
						order = append(order, k)
					}
					model[k] = op
					c.set(nil, key(k), Number(float64(op)))
				case r < 99 || !tt.clear:
					_, ok := model[k]
					require.Equal(t, ok, c.remove(key(k)))
					if ok {
						delete(model, k)
						for i, o := range order {
							if o == k {
								order = append(order[:i], order[i+1:]...)
								break
							}
						}
					}
				default:
					c.clear()
					clear(model)
					order = order[:0]
				}
				if op%500 == 0 {
					checkIndex(t, c)
				}
			}
			checkIndex(t, c)
			require.Equal(t, len(model), c.live)
			var got []Value
			c.each(func(k, v Value) {
				got = append(got, k)
				var want int
				for i, o := range order {
					if collSameKey(key(o), k) {
						want = model[order[i]]
					}
				}
				require.Equal(t, float64(want), v.num)
			})
			require.Len(t, got, len(order))
			for i, o := range order {
				require.True(t, collSameKey(key(o), got[i]), "entry %d", i)
			}
		})
	}
}

// TestCollIndexCompactionWithIterators checks that compaction renumbers the index and the
// running iterators together, and that clearing during iteration continues with new entries.
func TestCollIndexCompactionWithIterators(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		n       int
		skip    []int // iterator positions before the deletions
		deleted func(i int) bool
		clear   bool
		want    []int // next key of each iterator after the mutation
	}{
		{"most deleted", 300, []int{0, 100, 250}, func(i int) bool { return i < 280 }, false, []int{280, 280, 280}},
		{"every other", 300, []int{1, 151}, func(i int) bool { return i%2 == 0 || i < 200 }, false, []int{201, 201}},
		{"cleared", 100, []int{0, 99}, nil, true, []int{1000, 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCollection(false)
			for i := range tt.n {
				c.set(nil, asciiValue(fmt.Sprint(i)), undefinedValue)
			}
			var its []*collIterator
			for _, skip := range tt.skip {
				it := &collIterator{data: c}
				c.register(it)
				for range skip {
					_, _, ok := it.step()
					require.True(t, ok)
				}
				its = append(its, it)
			}
			if tt.clear {
				c.clear()
				require.Nil(t, c.index.slots)
			} else {
				for i := range tt.n {
					if tt.deleted(i) {
						require.True(t, c.remove(asciiValue(fmt.Sprint(i))))
					}
				}
				require.Less(t, len(c.keys), tt.n, "no compaction happened")
			}
			checkIndex(t, c)
			c.set(nil, asciiValue("1000"), undefinedValue)
			checkIndex(t, c)
			for i, it := range its {
				k, _, ok := it.step()
				require.True(t, ok)
				require.Equal(t, fmt.Sprint(tt.want[i]), k.str().String(), "iterator %d", i)
			}
		})
	}
}

// TestCollIndexRemoveNoCompact checks the tombstone-leaving removal of the set algebra.
func TestCollIndexRemoveNoCompact(t *testing.T) {
	t.Parallel()
	c := newCollection(false)
	for i := range 100 {
		c.set(nil, Number(float64(i)), undefinedValue)
	}
	for i := 0; i < 100; i += 3 {
		c.removeNoCompact(Number(float64(i)))
	}
	c.removeNoCompact(Number(1000))
	require.Len(t, c.keys, 100)
	checkIndex(t, c)
	c.compact()
	require.Len(t, c.keys, 66)
	checkIndex(t, c)
	cp := c.copy(nil)
	checkIndex(t, cp)
	require.True(t, cp.remove(Number(1)))
	require.True(t, c.has(Number(1)), "the copy shares the index")
}

// TestCollIndexCollidingKeys inserts keys that agree in their low bits (or share long
// prefixes) and checks the probe lengths stay short: the seeded hashes spread them.
func TestCollIndexCollidingKeys(t *testing.T) {
	t.Parallel()
	const n = 100_000
	prefix := strings.Repeat("p", 200)
	objs := make([]Object, n)
	tests := []struct {
		name string
		key  func(i int) Value
	}{
		{"multiples of 2^32", func(i int) Value { return Number(float64(i) * (1 << 32)) }},
		{"powers of two", func(i int) Value { return Number(math.Ldexp(float64(2*(i/2000)+1), i%2000-1000)) }},
		{"integers as bit patterns", func(i int) Value { return Number(math.Float64frombits(uint64(i) << 40)) }},
		{"long shared prefix", func(i int) Value { return asciiValue(prefix + fmt.Sprint(i)) }},
		{"adjacent objects", func(i int) Value { return objectValue(&objs[i]) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCollection(false)
			for i := range n {
				c.set(nil, tt.key(i), undefinedValue)
			}
			require.Equal(t, n, c.live)
			mean, longest := probeStats(&c.index)
			// linear probing at load ≤ 1/2 with a uniform hash: a mean distance about 0.5 and a
			// longest run of a few dozen slots
			require.Less(t, mean, 2.0)
			require.Less(t, longest, 200)
		})
	}
}

// TestCollectionSnapshotBytes checks that a Map and a Set with deleted entries, -0, NaN,
// strings of every form, objects and symbols survive encode → decode → encode with the same
// bytes, and that their keys are found after the restore.
func TestCollectionSnapshotBytes(t *testing.T) {
	t.Parallel()
	const src = `
const o = {name: 'o'}, sym = Symbol('s');
const rope = 'r'.repeat(40) + 'é'.repeat(40);
const m = new Map([[1, 'one'], [-0, 'zero'], [NaN, 'nan'], ['café', 'utf16'], [rope, 'rope'], [o, 'obj'], [sym, 'sym'], ['gone', 0]]);
for (let i = 0; i < 40; i++) m.set('k' + i, i);
for (let i = 0; i < 40; i += 2) m.delete('k' + i);
m.delete('gone');
const s = new Set([0, NaN, 'x', o, 'ü']);
s.delete('x');
const it = m.keys(); it.next(); it.next();
const got = await later();
const again = 'r'.repeat(40) + 'é'.repeat(40);
[got, m.size, m.get(0), m.get(-0), m.get(0 / 0), m.get('caf' + 'é'), m.get(again), m.get(o), m.get(sym), m.has('k2'), m.get('k3'), m.has('gone'),
 s.size, s.has(-0), s.has(NaN), s.has('x'), s.has(o), s.has('ü'), it.next().value, Object.is([...m.keys()][1], -0)].join()`
	// node 20: the same program with later() resolving to 'ok'
	const want = "ok,27,zero,zero,nan,utf16,rope,obj,sym,false,3,false,4,true,true,false,true,true,NaN,false"
	vm, h := newHostVM(t, src)
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	first, err := vm.Snapshot()
	require.NoError(t, err)
	restored, err := Restore(first, Config{Host: h})
	require.NoError(t, err)
	second, err := restored.Snapshot()
	require.NoError(t, err)
	require.True(t, bytes.Equal(first, second), "snapshot bytes changed by a restore")
	require.NoError(t, restored.SettleHostPromise(h.pending[0], true, asciiValue("ok")))
	st, err = restored.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := restored.Result()
	require.False(t, thrown)
	require.Equal(t, want, restored.ToGoString(v))
}

// TestCollectionSnapshotDuplicateKey checks that a snapshot whose collection holds a key twice
// (under SameValueZero) is rejected as corrupt.
func TestCollectionSnapshotDuplicateKey(t *testing.T) {
	t.Parallel()
	vm, _ := newHostVM(t, `const s = new Set(['aa', 'bb', 7]); const m = new Map([[NaN, 1], [0, 2]]); await later(); s.size + m.size`)
	_, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	data, err := vm.SnapshotFormat1() // edited as JSON text below
	require.NoError(t, err)
	tests := []struct {
		name     string
		old, new string
	}{
		{"same string", `["aa","bb",7]`, `["aa","aa",7]`},
		{"NaN twice", `[true,[{"n":"NaN"},1,0,2]]`, `[true,[{"n":"NaN"},1,{"n":"NaN"},2]]`},
		{"zero and negative zero", `[true,[{"n":"NaN"},1,0,2]]`, `[true,[0,1,{"n":"-0"},2]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, 1, bytes.Count(data, []byte(tt.old)), "snapshot layout changed: %s", data)
			bad := bytes.Replace(data, []byte(tt.old), []byte(tt.new), 1)
			_, err := Restore(bad, Config{})
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
			require.ErrorContains(t, err, "duplicate collection key")
		})
	}
	_, err = Restore(data, Config{})
	require.NoError(t, err)
}

// collHashSink keeps the benchmarked hashes alive.
var collHashSink uint64

// BenchmarkCollHash measures hashing one key of each kind.
func BenchmarkCollHash(b *testing.B) {
	keys := []struct {
		name string
		v    Value
	}{
		{"number", Number(12345.5)},
		{"object", objectValue(&Object{})},
		{"ascii8", asciiValue("key12345")},
		{"utf16_8", asciiValue("clé12345")},
	}
	for _, k := range keys {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				collHashSink += collHash(k.v)
			}
		})
	}
}

// BenchmarkCollectionRestore measures restoring a snapshot dominated by collections: a Map of
// 2,000 string keys to numbers and a Set of 2,000 numbers (about 50 KB).
func BenchmarkCollectionRestore(b *testing.B) {
	h := &testHost{}
	vm := New(Config{Host: h})
	require.NoError(b, vm.Set(vm.Global(), "later", vm.NewHostFunction("later", "later", 0)))
	p, err := Compile(`const m = new Map(), s = new Set(); for (let i = 0; i < 2000; i++) { m.set('key' + i, i); s.add(i * 1.5) } await later(); m.size + s.size`)
	require.NoError(b, err)
	require.NoError(b, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(b, err)
	require.Equal(b, StatusWaiting, st)
	data, err := vm.Snapshot()
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Restore(data, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

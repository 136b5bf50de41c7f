package interp

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestMain checks, after every test of the package has run (thousands of programs, many of
// them changing built-ins), that no realm wrote to the frozen store that realms share.
func TestMain(m *testing.M) {
	templateRealm()
	pristine, indexes := copyFrozenStore(), copySharedIndexes()
	code := m.Run()
	if err := frozenStoreEqual(pristine); err != nil {
		fmt.Fprintln(os.Stderr, "realm isolation broken:", err)
		code = 1
	}
	if err := sharedIndexesEqual(indexes); err != nil {
		fmt.Fprintln(os.Stderr, "realm isolation broken:", err)
		code = 1
	}
	os.Exit(code)
}

// The records of the frozen store and of the shared indexes are 64-bit hashes of their bits,
// one per key, per property and per index: TestMain holds them for the whole run, and the
// heap they would take as copies (some 130 KB) would make the collector run more often in
// every benchmark of the package. They hold no pointers, so the collector need not scan them.

// mixBits folds the word w into the hash h.
func mixBits(h, w uint64) uint64 {
	h ^= w
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// bitsOfKey is a hash of a property key's bits: the address and length of its name, its
// symbol's address.
func bitsOfKey(k PropertyKey) uint64 {
	h := mixBits(1, uint64(uintptr(unsafe.Pointer(unsafe.StringData(k.name)))))
	h = mixBits(h, uint64(len(k.name)))
	return mixBits(h, uint64(uintptr(unsafe.Pointer(k.sym))))
}

// bitsOfProp is a hash of a property's bits (an accessor's value refers to its pair, which
// is never changed).
func bitsOfProp(p *Property) uint64 {
	h := mixBits(2, uint64(uintptr(p.value.ref)))
	h = mixBits(h, math.Float64bits(p.value.num))
	return mixBits(h, uint64(p.value.kind)<<8|uint64(p.flags))
}

// storeBits is the hashes of the frozen store's keys and properties.
type storeBits struct {
	keys  []uint64
	props []uint64
}

// copySharedIndexes records the hash indexes that realms share, by iid: a hash of each
// index's words (which hold no pointers), 0 for none.
func copySharedIndexes() []uint64 {
	tr := templateRealm()
	out := make([]uint64, len(tr.shared))
	for i, sh := range tr.shared {
		if sh.index != nil {
			out[i] = hashIndexWords(sh.index.words())
		}
	}
	return out
}

// hashIndexWords is a hash of an index's words, never 0.
func hashIndexWords(words []uint64) uint64 {
	h := uint64(3)
	for _, w := range words {
		h = mixBits(h, w)
	}
	return h | 1
}

// sharedIndexesEqual compares the shared hash indexes with an earlier record.
func sharedIndexesEqual(want []uint64) error {
	tr := templateRealm()
	for i, sh := range tr.shared {
		if (sh.index == nil) != (want[i] == 0) || sh.index != nil && hashIndexWords(sh.index.words()) != want[i] {
			return fmt.Errorf("shared index of %s changed", tr.names.names[i])
		}
		if tr.objs.at(i) != nil && len(tr.objs.at(i).props.keys) > mapIndexThreshold && sh.index == nil {
			return fmt.Errorf("%s has no shared index", tr.names.names[i])
		}
	}
	return nil
}

// copyFrozenStore records the frozen store's contents.
func copyFrozenStore() storeBits {
	f := frozen.Load()
	out := storeBits{keys: make([]uint64, len(f.keys)), props: make([]uint64, len(f.props))}
	for i, k := range f.keys {
		out.keys[i] = bitsOfKey(k)
	}
	for i := range f.props {
		out.props[i] = bitsOfProp(&f.props[i])
	}
	return out
}

// frozenStoreEqual compares the frozen store with an earlier record.
func frozenStoreEqual(want storeBits) error {
	f := frozen.Load()
	if len(f.keys) != len(want.keys) || len(f.props) != len(want.props) {
		return fmt.Errorf("frozen store resized")
	}
	for i, k := range f.keys {
		if bitsOfKey(k) != want.keys[i] {
			return fmt.Errorf("frozen key %d changed: now %s", i, k)
		}
	}
	for i := range f.props {
		if bitsOfProp(&f.props[i]) != want.props[i] {
			return fmt.Errorf("frozen property %d changed", i)
		}
	}
	return nil
}

// firstPropDifference returns the first position where two property lists differ bit for
// bit (NaN equals NaN), or -1.
func firstPropDifference(a, b []Property) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) {
			return i
		}
		p, q := &a[i], &b[i]
		if p.flags != q.flags || p.value.kind != q.value.kind ||
			math.Float64bits(p.value.num) != math.Float64bits(q.value.num) || p.value.ref != q.value.ref {
			return i
		}
	}
	return -1
}

// sameSlice reports whether two slices share their first element.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

func TestCloneSharesFrozenStorage(t *testing.T) {
	t.Parallel()
	tr := templateRealm()
	r := newTestVM(t).realm
	r.materializeAll() // lazy_test.go checks a realm with intrinsics not created yet
	shared, copied := 0, 0
	for iid := 1; iid < tr.objs.len(); iid++ {
		src, o := tr.objs.at(iid), r.objs.at(iid)
		require.NotSame(t, src, o)
		require.Equal(t, src.props.keys, o.props.keys)
		if len(src.props.keys) > mapIndexThreshold && o != r.ArrayPrototype {
			require.NotNil(t, o.props.index)
			require.Equal(t, reflect.ValueOf(tr.shared[iid].index).UnsafePointer(), reflect.ValueOf(o.props.index).UnsafePointer(),
				"%s: the clone shares the template's index", tr.names.names[iid])
		}
		if len(o.props.keys) == 0 {
			continue
		}
		if holdsNoObject(src.props.props) {
			require.True(t, sameSlice(src.props.props, o.props.props), tr.names.names[iid])
			require.True(t, frozenProps(o.props.props))
			require.Equal(t, len(o.props.props), cap(o.props.props), "a frozen slice must not be appended to in place")
			shared++
		} else {
			require.False(t, frozenProps(o.props.props))
			copied++
		}
		if !sameSlice(src.props.keys, o.props.keys) {
			// installTestArrayIterator adds to Array.prototype in runtime-only tests
			require.Same(t, r.ArrayPrototype, o)
			continue
		}
		require.True(t, frozenKeys(o.props.keys))
		require.Equal(t, len(o.props.keys), cap(o.props.keys))
		// every object a clone's property refers to belongs to the clone
		for i := range o.props.props {
			p := &o.props.props[i]
			for _, ref := range []*Object{p.value.asObject(), p.getter(), p.setter()} {
				if ref != nil {
					require.True(t, r.isIntrinsic(ref), "%s refers to another realm", tr.names.names[iid])
				}
			}
		}
	}
	require.Greater(t, shared, 300, "native functions share their length and name")
	require.Greater(t, copied, 30)
}

// TestFrozenPropsCopyOnWrite changes built-ins whose properties are shared in every way the
// object model allows, through the internal write paths, and checks that neither the
// template nor another realm sees it.
func TestFrozenPropsCopyOnWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(o *Object, k PropertyKey)
	}{
		{"write through get", func(o *Object, k PropertyKey) { o.props.get(k).value = Number(99) }},
		{"flags through get", func(o *Object, k PropertyKey) { o.props.get(k).flags = 0 }},
		{"write through at", func(o *Object, _ PropertyKey) { o.props.at(0).value = Number(99) }},
		{"setOwnData", func(o *Object, k PropertyKey) { o.props.get(k).flags |= propWritable; o.setOwnData(k, Number(99)) }},
		{"define value", func(o *Object, k PropertyKey) {
			o.defineOwn(k, PropertyDescriptor{Value: Number(99), HasValue: true})
		}},
		{"define accessor", func(o *Object, k PropertyKey) {
			o.defineOwn(k, PropertyDescriptor{Get: undefinedValue, HasGet: true})
		}},
		{"delete", func(o *Object, k PropertyKey) { o.deleteOwn(k) }},
		{"remove", func(o *Object, k PropertyKey) { o.props.remove(k) }},
		{"add", func(o *Object, _ PropertyKey) { o.props.add(strKey("extra"), Property{value: Number(99)}) }},
		{"define new", func(o *Object, _ PropertyKey) {
			o.defineOwn(strKey("extra"), dataDescriptor(Number(99), propDefault))
		}},
		{"seal", func(o *Object, _ PropertyKey) { o.setIntegrity(false) }},
		{"freeze", func(o *Object, _ PropertyKey) { o.setIntegrity(true) }},
	}
	tr := templateRealm()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before, indexes := copyFrozenStore(), copySharedIndexes()
			a, b := newTestVM(t), newTestVM(t)
			a.realm.materializeAll()
			b.realm.materializeAll()
			changed, indexed := 0, 0
			for iid := 1; iid < tr.objs.len(); iid++ {
				src, o, other := tr.objs.at(iid), a.realm.objs.at(iid), b.realm.objs.at(iid)
				if len(src.props.keys) == 0 || !src.extensible() || o == a.realm.ArrayPrototype {
					continue
				}
				keys, props := src.props.keys, append([]Property(nil), src.props.props...)
				otherProps := append([]Property(nil), other.props.props...)
				wasFrozen := frozenProps(o.props.props)
				tt.change(o, keys[len(keys)-1])
				if wasFrozen {
					require.False(t, frozenProps(o.props.props) && frozenKeys(o.props.keys) &&
						sameSlice(o.props.props, src.props.props) && o.props.len() == len(keys), "%s: change not seen", tr.names.names[iid])
					changed++
				}
				if o.props.index != nil {
					indexed++
					for i, k := range o.props.keys {
						require.Equal(t, i, o.props.find(k), "%s: the changed object's index", tr.names.names[iid])
					}
				}
				require.Equal(t, keys, src.props.keys)
				require.Equal(t, -1, firstPropDifference(props, src.props.props), "template's %s changed", tr.names.names[iid])
				require.Equal(t, -1, firstPropDifference(otherProps, other.props.props), "other realm's %s changed", tr.names.names[iid])
				require.True(t, sameSlice(src.props.keys, other.props.keys))
				require.True(t, other.props.has(keys[len(keys)-1]))
				require.False(t, other.props.has(strKey("extra")))
			}
			require.Greater(t, changed, 300)
			require.Greater(t, indexed, 10)
			require.NoError(t, frozenStoreEqual(before))
			require.NoError(t, sharedIndexesEqual(indexes))
		})
	}
}

func TestReadingBuiltinsKeepsThemShared(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	require.Equal(t, "max,2,2,false,true,0", evalIn(t, vm, `const d = Object.getOwnPropertyDescriptor(Math.max, 'length');
[Math.max.name, Math.max.length, d.value, d.writable, Object.hasOwn(Math.max, 'name'), Object.keys(Math.max).length].join()`))
	max := vm.realm.Intrinsic("Math.max")
	require.True(t, frozenProps(max.props.props), "reads must not copy shared properties")
	require.True(t, sameSlice(templateRealm().Intrinsic("Math.max").props.props, max.props.props))
}

// TestRealmBuiltinChangesStayLocal changes shared built-ins from programs; a fresh VM (run
// after, and in parallel with, the changing one) sees them pristine. Expected values are
// node's.
func TestRealmBuiltinChangesStayLocal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, change, changed, probe, pristine string
	}{
		{"define name", `Object.defineProperty(Math.max, 'name', {value: 'hacked'}); Math.max.name`, "hacked",
			`Math.max.name`, "max"},
		{"delete length", `delete Array.prototype.map.length; Array.prototype.map.length`, "0",
			`Array.prototype.map.length`, "1"},
		{"freeze", `Object.freeze(JSON.parse); [Object.isFrozen(JSON.parse), Object.getOwnPropertyDescriptor(JSON.parse, 'name').configurable].join()`,
			"true,false", `[Object.isFrozen(JSON.parse), Object.getOwnPropertyDescriptor(JSON.parse, 'name').configurable].join()`, "false,true"},
		{"seal", `Object.seal(parseInt); Object.isSealed(parseInt)`, "true", `Object.isSealed(parseInt)`, "false"},
		{"add", `Math.abs.extra = 1; Object.getOwnPropertyNames(Math.abs).join()`, "length,name,extra",
			`Object.getOwnPropertyNames(Math.abs).join()`, "length,name"},
		{"accessor", `Object.defineProperty(String.prototype.at, 'length', {get() { return 42 }}); String.prototype.at.length`, "42",
			`String.prototype.at.length`, "1"},
		{"delete and add", `delete isNaN.name; isNaN.nom = 'x'; Object.getOwnPropertyNames(isNaN).join() + isNaN.name`, "length,nom",
			`Object.getOwnPropertyNames(isNaN).join() + isNaN.name`, "length,nameisNaN"},
		{"assign after define", `Object.defineProperty(Number.isInteger, 'length', {writable: true}); Number.isInteger.length = 7; Number.isInteger.length`,
			"7", `Number.isInteger.length`, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.changed, evalJS(t, tt.change))
			require.Equal(t, tt.pristine, evalJS(t, tt.probe))
		})
	}
}

// TestAddKeepsSharingTheIndex adds keys to a built-in that shares the template's index, up to
// and past the point where it builds its own, and removes some: every key stays findable at
// its position and the template's index is untouched.
func TestAddKeepsSharingTheIndex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		add    int
		remove []string
	}{
		{"one", 1, nil},
		{"tail", sharedIndexTail, nil},
		{"own index", sharedIndexTail + 3, nil},
		{"remove added", 3, []string{"k1"}},
		{"remove original", 3, []string{"keys"}},
		{"remove both", sharedIndexTail + 2, []string{"assign", "k0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			indexes := copySharedIndexes()
			o := New(Config{}).realm.Intrinsic("Object")
			tmpl := templateRealm().Intrinsic("Object")
			require.Equal(t, reflect.ValueOf(tmpl.props.index).UnsafePointer(), reflect.ValueOf(o.props.index).UnsafePointer())
			want := append([]PropertyKey(nil), o.props.keys...)
			for i := range tt.add {
				k := strKey(fmt.Sprintf("k%d", i))
				o.props.add(k, Property{value: intValue(i), flags: propDefault})
				want = append(want, k)
			}
			for _, name := range tt.remove {
				o.props.remove(strKey(name))
				want = slices.DeleteFunc(want, func(k PropertyKey) bool { return k.name == name })
			}
			require.Equal(t, want, o.props.keys)
			for i, k := range want {
				require.Equal(t, i, o.props.find(k), k.name)
			}
			for _, name := range tt.remove {
				require.Equal(t, -1, o.props.find(strKey(name)))
			}
			require.Equal(t, -1, o.props.find(strKey("absent")))
			require.True(t, tmpl.props.has(strKey("keys")))
			require.False(t, tmpl.props.has(strKey("k0")))
			require.NoError(t, sharedIndexesEqual(indexes))
		})
	}
}

// TestFrozenStoreCopies checks the checks TestMain runs: the store equals its copy, and a
// copy that differs in one key, one property or one index entry is reported.
func TestFrozenStoreCopies(t *testing.T) {
	t.Parallel()
	require.NoError(t, frozenStoreEqual(copyFrozenStore()))
	require.NoError(t, sharedIndexesEqual(copySharedIndexes()))

	store := copyFrozenStore()
	store.keys[3] ^= 1
	require.ErrorContains(t, frozenStoreEqual(store), "frozen key 3 changed")
	store = copyFrozenStore()
	store.props[5] ^= 1
	require.ErrorContains(t, frozenStoreEqual(store), "frozen property 5 changed")
	tr := templateRealm()
	var key PropertyKey
	for _, k := range frozen.Load().keys {
		if k.name != "" {
			key = k
			break
		}
	}
	longer := key
	longer.name = key.name + "x"
	require.NotEqual(t, bitsOfKey(key), bitsOfKey(longer), "a key's name")
	p := Property{value: intValue(1)}
	q := p
	q.flags ^= 1
	require.NotEqual(t, bitsOfProp(&p), bitsOfProp(&q), "a property's flags")
	q = p
	q.value = intValue(2)
	require.NotEqual(t, bitsOfProp(&p), bitsOfProp(&q), "a property's value")

	indexes := copySharedIndexes()
	for i, x := range indexes {
		if x != 0 {
			words := tr.shared[i].index.words()
			changed := slices.Clone(words)
			changed[len(changed)-1] ^= 1 << 40 // one bit of a slot's hash
			require.NotEqual(t, hashIndexWords(words), hashIndexWords(changed))
			indexes[i] ^= 2
			require.ErrorContains(t, sharedIndexesEqual(indexes), "shared index of "+tr.names.names[i])
			return
		}
	}
	t.Fatal("no shared index")
}

package interp

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// encodeRoots snapshots the heap reachable from roots as {"heap":...,"roots":[...]}.
func encodeRoots(t *testing.T, vm *VM, roots []Value) []byte {
	t.Helper()
	e := vm.newHeapEncoder()
	rootsW := &jsonWriter{}
	e.w = rootsW
	rootsW.beginArray()
	for _, v := range roots {
		e.value(v)
	}
	rootsW.endArray()
	heap, err := e.finish()
	require.NoError(t, err)
	out := &jsonWriter{}
	out.beginObject()
	out.key("heap")
	out.raw(heap)
	out.key("roots")
	out.raw(rootsW.buf)
	out.endObject()
	return out.buf
}

// decodeRoots restores what encodeRoots wrote into a fresh VM.
func decodeRoots(t *testing.T, data []byte) (*VM, []Value) {
	t.Helper()
	vm := newTestVM(t)
	vals, err := decodeRootsInto(vm, data)
	require.NoError(t, err)
	return vm, vals
}

func decodeRootsInto(vm *VM, data []byte) ([]Value, error) {
	d := vm.newHeapDecoder()
	r := &jsonReader{data: data}
	var vals []Value
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "heap":
			if err := d.readHeap(r); err != nil {
				return nil, err
			}
		case "roots":
			r.beginArray()
			for f := true; r.more(f); f = false {
				vals = append(vals, d.value(r))
			}
		default:
			r.skip()
		}
	}
	return vals, r.err
}

func TestSnapshotHeapRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(vm *VM) []Value
		check func(t *testing.T, vm *VM, roots []Value)
	}{
		{name: "primitives", build: func(vm *VM) []Value {
			return []Value{undefinedValue, nullValue, trueValue, Number(1.5), Number(negZero()), nanValue,
				Number(math.Inf(-1)), asciiValue("héllo 😀"), stringValue(newUTF16([]uint16{'a', 0xD800, 'b'})),
				symbolValue(symIterator)}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			require.True(t, r[0].IsUndefined())
			require.True(t, r[1].IsNull())
			require.True(t, math.Signbit(r[4].num) && r[4].num == 0)
			require.True(t, math.IsNaN(r[5].num))
			require.Equal(t, "héllo 😀", r[7].String())
			require.True(t, r[8].str().Equals(newUTF16([]uint16{'a', 0xD800, 'b'})))
			require.Same(t, symIterator, r[9].sym())
		}},
		{name: "cycle and shared", build: func(vm *VM) []Value {
			a := objectFrom(vm, "name", "a")
			b := objectFrom(vm, "a", objectValue(a))
			vm.createDataProperty(a, strKey("b"), objectValue(b))
			arr := vm.newArrayValue([]Value{objectValue(a), objectValue(a), holeValue, Number(3)})
			return []Value{objectValue(a), arr}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			a := r[0].obj()
			b := lookupDataProperty(a, strKey("b")).obj()
			require.Same(t, a, lookupDataProperty(b, strKey("a")).obj())
			arr := r[1].obj()
			require.Equal(t, uint32(4), arr.length)
			require.Same(t, a, arr.elems[0].obj())
			require.True(t, arr.elems[2].isHole())
			require.Same(t, vm.realm.ArrayPrototype, arr.proto)
		}},
		{name: "symbols", build: func(vm *VM) []Value {
			s := newSymbol(newASCII("mine"))
			reg := mustCall(t, vm, "Symbol.for", undefinedValue, asciiValue("app"))
			o := vm.newPlainObject()
			vm.createDataProperty(o, symKey(s), Number(1))
			return []Value{objectValue(o), symbolValue(s), reg}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			s := r[1].sym()
			require.Equal(t, Number(1), lookupDataProperty(r[0].obj(), symKey(s)))
			again := mustCall(t, vm, "Symbol.for", undefinedValue, asciiValue("app"))
			require.Same(t, r[2].sym(), again.sym())
		}},
		{name: "accessors flags and prototypes", build: func(vm *VM) []Value {
			proto := objectFrom(vm, "inherited", 1)
			o := vm.newObject(proto, ClassObject)
			o.defineOwn(strKey("ro"), dataDescriptor(Number(2), propEnumerable))
			getter := vm.realm.Intrinsic("Object.keys")
			o.defineOwn(strKey("acc"), PropertyDescriptor{Get: objectValue(getter), HasGet: true, HasSet: true, Configurable: true, HasConfigurable: true})
			o.preventExtensions()
			frozen := vm.newArray([]Value{Number(1)})
			frozen.setIntegrity(true)
			return []Value{objectValue(o), objectValue(frozen)}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			o := r[0].obj()
			require.False(t, o.extensible())
			p, ok := o.getOwn(strKey("ro"))
			require.True(t, ok)
			require.False(t, p.writable())
			acc, _ := o.getOwn(strKey("acc"))
			require.Same(t, vm.realm.Intrinsic("Object.keys"), acc.getter())
			require.Nil(t, acc.setter())
			require.Equal(t, Number(1), lookupDataProperty(o, strKey("inherited")))
			require.True(t, r[1].obj().testIntegrity(true))
		}},
		{name: "changed intrinsics", build: func(vm *VM) []Value {
			vm.createDataProperty(vm.realm.ArrayPrototype, strKey("last"), asciiValue("added"))
			vm.setProp(vm.realm.Intrinsic("Object"), strKey("keys"), Number(7))
			vm.realm.Intrinsic("Math.nope") // absent: no effect
			vm.deletePropertyOrThrow(vm.realm.Intrinsic("Boolean.prototype"), strKey("valueOf"))
			vm.realm.Intrinsic("Object.prototype.toString").props.get(keyName).value = asciiValue("renamed")
			return nil
		}, check: func(t *testing.T, vm *VM, r []Value) {
			require.Equal(t, "added", lookupDataProperty(vm.realm.ArrayPrototype, strKey("last")).String())
			require.Equal(t, Number(7), lookupDataProperty(vm.realm.Intrinsic("Object"), strKey("keys")))
			require.False(t, vm.realm.Intrinsic("Boolean.prototype").hasOwn(strKey("valueOf")))
			require.True(t, vm.realm.Intrinsic("Boolean.prototype").hasOwn(strKey("toString")))
			require.Equal(t, "renamed", lookupDataProperty(vm.realm.Intrinsic("Object.prototype.toString"), keyName).String())
		}},
		{name: "slots", build: func(vm *VM) []Value {
			err := vm.NewError("RangeError", "boom")
			err.obj().slots.(*errorData).line = 3
			wrapped := objectValue(vm.toObject(asciiValue("str")))
			arr := vm.newArrayValue([]Value{Number(1), Number(2)})
			it := vm.newArrayIterator(arr, iterEntries)
			mustCall(t, vm, "%ArrayIteratorPrototype%.next", it)
			return []Value{err, wrapped, it}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			require.Equal(t, 3, r[0].obj().slots.(*errorData).line)
			require.Same(t, vm.realm.Intrinsic("RangeError.prototype"), r[0].obj().proto)
			require.Equal(t, "str", r[1].obj().slots.(Value).String())
			next := mustCall(t, vm, "%ArrayIteratorPrototype%.next", r[2])
			v, _ := vm.Get(next, "value")
			require.Equal(t, "1,2", listString(vm, v))
		}},
		{name: "iterator helper mid-way", build: func(vm *VM) []Value {
			arr := vm.newArrayValue([]Value{Number(1), Number(2), Number(3), Number(4)})
			it := vm.newArrayIterator(arr, iterValues)
			h := mustCall(t, vm, "Iterator.prototype.drop", it, Number(1))
			mustCall(t, vm, "%IteratorHelperPrototype%.next", h)
			return []Value{h}
		}, check: func(t *testing.T, vm *VM, r []Value) {
			got := mustCall(t, vm, "Iterator.prototype.toArray", r[0])
			require.Equal(t, "3,4", listString(vm, got))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			roots := tt.build(vm)
			data := encodeRoots(t, vm, roots)
			vm2, got := decodeRoots(t, data)
			require.Len(t, got, len(roots))
			// a second encoding of the restored heap is byte-identical
			require.Equal(t, string(data), string(encodeRoots(t, vm2, got)))
			tt.check(t, vm2, got)
		})
	}
}

func TestSnapshotHeapUnchangedRealmIsSmall(t *testing.T) {
	t.Parallel()
	vm := &VM{}
	vm.initRuntime()
	data := encodeRoots(t, vm, []Value{vm.Global()})
	require.Less(t, len(data), 200, string(data))
	require.Contains(t, string(data), `"globalThis"`)
}

func TestSnapshotHeapUnsupportedSlot(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	o := vm.newPlainObject()
	o.slots = struct{}{}
	e := vm.newHeapEncoder()
	e.value(objectValue(o))
	_, err := e.finish()
	require.ErrorIs(t, err, ErrSnapshotUnsupported)
}

func TestSnapshotHeapCorrupt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
	}{
		{"not json", `{"heap":`},
		{"bad id", `{"heap":{"syms":[],"intr":[],"n":0,"nodes":[],"objs":[]},"roots":[{"#":3}]}`},
		{"unknown intrinsic", `{"heap":{"syms":[],"intr":[[0,"Nope"]],"n":1,"nodes":[],"objs":[0]},"roots":[]}`},
		{"unknown slot", `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"p":null,"f":1,"s":{"t":"zzz","d":1}}]},"roots":[]}`},
		{"unknown class", `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"c":"Zed","p":null,"f":1}]},"roots":[]}`},
		{"bad tag", `{"heap":{"syms":[],"intr":[],"n":0,"nodes":[],"objs":[]},"roots":[{"q":1}]}`},
		{"missing count", `{"heap":{"syms":[],"intr":[],"nodes":[],"objs":[{}]},"roots":[]}`},
		{"too many objects", `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{},{}]},"roots":[]}`},
		{"too few objects", `{"heap":{"syms":[],"intr":[],"n":2,"nodes":[],"objs":[{}]},"roots":[]}`},
		{"duplicate property", `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"pr":[["a",1],["a",2]]}]},"roots":[]}`},
		{"unterminated string", `{"heap":{"syms":[["abc`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			_, err := decodeRootsInto(vm, []byte(tt.data))
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

func FuzzSnapshotHeapDecode(f *testing.F) {
	f.Add([]byte(`{"heap":{"syms":[["s",false]],"intr":[[1,"Array.prototype"]],"n":2,"nodes":[],"objs":[{"c":"Array","p":{"#":1},"f":1,"el":[1,{"h":1},"x"],"len":3},0]},"roots":[{"#":0},{"y":0}]}`))
	f.Add([]byte(`{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"p":null,"f":1,"pr":[["a",{"#":0},7],["b",null,{"#":0},4]],"s":{"t":"error","d":[1,2]}}]},"roots":[{"#":0}]}`))
	f.Add([]byte(`{"heap":{"syms":[],"intr":[],"n":2,"nodes":[],"objs":[{"pr":[["x",{"#":1}]]},{"c":"Array","el":[{"#":0}]}]},"roots":[{"#":0}]}`))
	vm := &VM{}
	vm.initRuntime()
	f.Fuzz(func(t *testing.T, data []byte) {
		fresh := &VM{}
		fresh.initRuntime()
		vals, err := decodeRootsInto(fresh, data)
		if err != nil {
			return
		}
		// whatever decodes must encode again
		e := fresh.newHeapEncoder()
		for _, v := range vals {
			e.value(v)
		}
		if _, err := e.finish(); err != nil && !strings.Contains(err.Error(), "cannot be snapshotted") {
			t.Fatalf("re-encode: %v", err)
		}
	})
}

// testCounter is a stateful slot on a built-in object, like Math's random state.
type testCounter struct{ N int64 }

func (c *testCounter) slotTag() string { return "testCounter" }
func (c *testCounter) encodeSlot(e *heapEncoder) {
	e.w.int(c.N)
}
func (c *testCounter) walkSlot(w *heapWalker) {}

func init() {
	registerSlotType("testCounter", func() slotCodec { return &testCounter{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*testCounter).N = r.int()
	})
}

func TestSnapshotHeapStatefulIntrinsicSlot(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	// a plain-data slot on an intrinsic is copied by realm cloning and carried by snapshots
	holder := vm.realm.Intrinsic("Boolean.prototype.toString")
	saved := holder.slots
	holder.slots = &testCounter{N: 41}
	c, ok := copyPlainSlot(holder.slots)
	require.True(t, ok)
	require.NotSame(t, holder.slots, c)
	holder.slots.(*testCounter).N++
	data := encodeRoots(t, vm, nil)
	vm2 := newTestVM(t)
	_, err := decodeRootsInto(vm2, data)
	require.NoError(t, err)
	require.Equal(t, int64(42), vm2.realm.Intrinsic("Boolean.prototype.toString").slots.(*testCounter).N)
	holder.slots = saved
	_, ok = copyPlainSlot(&struct{ P *int }{})
	require.False(t, ok)
}

func TestSnapshotHeapRejectsInconsistentObjects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		obj  string
	}{
		{"string wrapper without string", `{"c":"String","p":null,"f":1,"s":{"t":"prim","d":1}}`},
		{"primitive slot on plain object", `{"p":null,"f":1,"s":{"t":"prim","d":1}}`},
		{"elements beyond length", `{"c":"Array","p":null,"f":1,"el":[1,2],"len":1}`},
		{"callable without code", `{"c":"Function","p":null,"f":3}`},
		{"iterator over number", `{"c":"Iterator","p":null,"f":1,"s":{"t":"arrayIterator","d":[5,0,0]}}`},
		{"accessor flag on a data property", `{"p":null,"f":1,"pr":[["a",1,12]]}`},
		{"accessor without the accessor flag", `{"p":null,"f":1,"pr":[["a",null,null,4]]}`},
		{"accessor with a number getter", `{"p":null,"f":1,"pr":[["a",1,null,12]]}`},
		{"object flags the interpreter keeps for itself", `{"p":null,"f":17}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			data := `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[` + tt.obj + `]},"roots":[{"#":0}]}`
			_, err := decodeRootsInto(vm, []byte(data))
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

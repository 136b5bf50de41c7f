package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func BenchmarkNewRealm(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		vm := &VM{}
		vm.initRuntime()
	}
}

func BenchmarkSnapshotHeapIdle(b *testing.B) {
	vm := &VM{}
	vm.initRuntime()
	b.ReportAllocs()
	for b.Loop() {
		e := vm.newHeapEncoder()
		e.value(vm.Global())
		if _, err := e.finish(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRealmCloneIsolation(t *testing.T) {
	t.Parallel()
	require.NotNil(t, templateRealm().clone(&VM{}), "every built-in object must be clonable (implement slotCloner)")
	a, b := newTestVM(t), newTestVM(t)
	// many-property objects get their index rebuilt per clone; edits stay local
	objCtor := a.realm.Intrinsic("Object")
	a.createDataProperty(objCtor, strKey("extra"), Number(1))
	a.deletePropertyOrThrow(objCtor, strKey("keys"))
	a.realm.ArrayPrototype.setElement(0, Number(5))
	require.True(t, b.realm.Intrinsic("Object").hasOwn(strKey("keys")))
	require.False(t, b.realm.Intrinsic("Object").hasOwn(strKey("extra")))
	require.True(t, templateRealm().Intrinsic("Object").hasOwn(strKey("keys")))
	require.Equal(t, uint32(0), b.realm.ArrayPrototype.length)
	require.False(t, a.realm.Intrinsic("Object").hasOwn(strKey("keys")))
	// references inside a clone point into the clone
	require.Same(t, a.realm.ObjectPrototype, a.realm.FunctionPrototype.proto)
	require.Same(t, a.realm.Intrinsic("Object"), lookupDataProperty(a.realm.ObjectPrototype, keyConstructor).obj())
	require.Equal(t, "Object.prototype.toString", a.realm.nameOf(a.realm.Intrinsic("Object.prototype.toString")))
	require.Empty(t, a.realm.nameOf(b.realm.Intrinsic("Object.prototype.toString")))
}

func init() {
	registerNative("test ping", func(vm *VM, c NativeCall) Value {
		if c.Arg(0).IsUndefined() {
			return asciiValue("pong")
		}
		// natives may create each other by name without initialization cycles
		return objectValue(vm.newNativeByName("test ping", "ping", 0))
	})
}

func TestNewNativeByName(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	f := vm.newNativeByName("test ping", "ping", 1)
	g := vm.Call(objectValue(f), undefinedValue, trueValue)
	require.True(t, IsCallable(g))
	require.Equal(t, "pong", vm.Call(g, undefinedValue).String())
	require.Panics(t, func() { vm.newNativeByName("no such native", "x", 0) })
}

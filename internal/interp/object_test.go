package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// newTestVM makes a VM with only the runtime (realm) initialised.
func newTestVM(t *testing.T) *VM {
	t.Helper()
	vm := &VM{}
	vm.initRuntime()
	installTestArrayIterator(vm)
	return vm
}

// Stand-ins for the Array built-ins in runtime-only tests (registered so snapshots work).
var (
	testArrayNative = registerNative("test Array", func(vm *VM, c NativeCall) Value {
		return vm.newArrayValue(nil)
	})
	testArrayValuesNative = registerNative("test Array.prototype.values", func(vm *VM, c NativeCall) Value {
		return vm.newArrayIterator(objectValue(vm.toObject(c.This)), iterValues)
	})
)

// installTestArrayIterator makes arrays iterable in runtime-only tests when the Array
// built-ins are not compiled in (they define Array.prototype[Symbol.iterator] themselves).
func installTestArrayIterator(vm *VM) {
	if !vm.realm.ArrayPrototype.hasOwn(keyConstructor) {
		ctor := vm.newNativeFunction(testArrayNative, "Array", 1)
		vm.realm.ArrayPrototype.props.add(keyConstructor, Property{value: objectValue(ctor), flags: propHidden})
	}
	key := symKey(symIterator)
	if vm.realm.ArrayPrototype.hasOwn(key) {
		return
	}
	values := vm.newNativeFunction(testArrayValuesNative, "values", 0)
	vm.realm.ArrayPrototype.props.add(key, Property{value: objectValue(values), flags: propHidden})
}

func TestOwnKeysOrder(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	o := vm.newPlainObject()
	for _, k := range []string{"b", "2", "a", "1", "10", "-1", "01"} {
		require.True(t, vm.createDataProperty(o, strKey(k), Number(1)))
	}
	s := newSymbol(newASCII("s"))
	vm.createDataProperty(o, symKey(s), Number(1))
	vm.createDataProperty(o, strKey("z"), Number(1))
	var got []string
	for _, k := range o.ownKeys() {
		got = append(got, k.String())
	}
	require.Equal(t, []string{"1", "2", "10", "b", "a", "-1", "01", "z", "Symbol(s)"}, got)
}

func TestArrayExotic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(vm *VM, a *Object)
		len  uint32
		keys []string
	}{
		{name: "push", run: func(vm *VM, a *Object) { vm.setProp(a, indexKey(3), Number(4)) }, len: 4, keys: []string{"0", "1", "2", "3", "length"}},
		{name: "hole", run: func(vm *VM, a *Object) { vm.setProp(a, indexKey(5), Number(4)) }, len: 6, keys: []string{"0", "1", "2", "5", "length"}},
		{name: "sparse", run: func(vm *VM, a *Object) { vm.setProp(a, indexKey(100000), Number(4)) }, len: 100001, keys: []string{"0", "1", "2", "100000", "length"}},
		{name: "shrink", run: func(vm *VM, a *Object) { vm.setProp(a, keyLength, Number(1)) }, len: 1, keys: []string{"0", "length"}},
		{name: "delete", run: func(vm *VM, a *Object) { vm.deletePropertyOrThrow(a, indexKey(1)) }, len: 3, keys: []string{"0", "2", "length"}},
		{name: "grow length", run: func(vm *VM, a *Object) { vm.setProp(a, keyLength, Number(7)) }, len: 7, keys: []string{"0", "1", "2", "length"}},
		{name: "frozen", run: func(vm *VM, a *Object) {
			a.setIntegrity(true)
			require.False(t, vm.setOn(a, indexKey(0), Number(9), objectValue(a)))
			require.False(t, vm.setOn(a, indexKey(3), Number(9), objectValue(a)))
			require.True(t, a.testIntegrity(true))
		}, len: 3, keys: []string{"0", "1", "2", "length"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			a := vm.newArray([]Value{Number(1), Number(2), Number(3)})
			tt.run(vm, a)
			require.Equal(t, tt.len, a.length)
			var got []string
			for _, k := range a.ownKeys() {
				got = append(got, k.String())
			}
			require.Equal(t, tt.keys, got)
		})
	}
}

func TestArrayLengthRangeError(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	a := vm.newArray(nil)
	err := func() (err error) {
		defer vm.catchException(&err)
		vm.setProp(a, keyLength, Number(-1))
		return nil
	}()
	var ex *Exception
	require.ErrorAs(t, err, &ex)
	name, _ := vm.Get(ex.Value, "name")
	require.Equal(t, "RangeError", vm.ToGoString(name))
}

func TestDefineOwnPropertyValidation(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	o := vm.newPlainObject()
	require.True(t, o.defineOwn(strKey("x"), dataDescriptor(Number(1), 0)))
	require.False(t, o.defineOwn(strKey("x"), PropertyDescriptor{Value: Number(2), HasValue: true}))
	require.True(t, o.defineOwn(strKey("x"), PropertyDescriptor{Value: Number(1), HasValue: true}))
	require.False(t, o.defineOwn(strKey("x"), PropertyDescriptor{Enumerable: true, HasEnumerable: true}))
	require.False(t, o.deleteOwn(strKey("x")))
	nan := Number(math.NaN())
	require.True(t, o.defineOwn(strKey("n"), dataDescriptor(nan, 0)))
	require.True(t, o.defineOwn(strKey("n"), PropertyDescriptor{Value: Number(math.NaN()), HasValue: true}))
	o.preventExtensions()
	require.False(t, o.defineOwn(strKey("y"), dataDescriptor(Number(1), propDefault)))
}

func TestBooleanBuiltin(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	ctor, err := vm.Get(vm.Global(), "Boolean")
	require.NoError(t, err)
	require.True(t, IsConstructor(ctor))
	require.Equal(t, trueValue, vm.Call(ctor, undefinedValue, asciiValue("x")))
	w := vm.construct(ctor, nil, Number(0))
	require.Equal(t, ClassBoolean, w.obj().class)
	require.Equal(t, "false", vm.ToGoString(w))
	toString := vm.realm.Intrinsic("Boolean.prototype.toString")
	require.NotNil(t, toString)
	require.Equal(t, "true", vm.ToGoString(vm.Call(objectValue(toString), trueValue)))
	name, _ := vm.Get(objectValue(toString), "name")
	require.Equal(t, "toString", vm.ToGoString(name))
	err = func() (err error) {
		defer vm.catchException(&err)
		vm.Call(objectValue(toString), Number(1))
		return nil
	}()
	require.Error(t, err)
}

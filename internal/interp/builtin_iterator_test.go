package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// arrayIter makes an iterator over numbers (an Array Iterator).
func arrayIter(vm *VM, ns ...float64) Value {
	return vm.newArrayIterator(numbers(vm, ns...), iterValues)
}

// fnValue wraps a Go function as a callable (registered natives keep snapshots possible).
func fnValue(vm *VM, fn NativeFunc) Value {
	return objectValue(vm.newNativeFunction(&nativeFunction{name: "test fn", fn: fn}, "fn", 1))
}

func TestIteratorHelpers(t *testing.T) {
	t.Parallel()
	double := func(vm *VM, c NativeCall) Value { return Number(c.Arg(0).num * 2) }
	odd := func(vm *VM, c NativeCall) Value { return Bool(int(c.Arg(0).num)%2 == 1) }
	tests := []struct {
		name string
		run  func(vm *VM) (Value, error)
		want string
		err  string
	}{
		{"map", func(vm *VM) (Value, error) {
			h := mustCall(t, vm, "Iterator.prototype.map", arrayIter(vm, 1, 2, 3), fnValue(vm, double))
			return callIntrinsic(vm, "Iterator.prototype.toArray", h)
		}, "2,4,6", ""},
		{"filter take drop", func(vm *VM) (Value, error) {
			h := mustCall(t, vm, "Iterator.prototype.filter", arrayIter(vm, 1, 2, 3, 4, 5, 6, 7), fnValue(vm, odd))
			h = mustCall(t, vm, "Iterator.prototype.drop", h, Number(1))
			h = mustCall(t, vm, "Iterator.prototype.take", h, Number(2))
			return callIntrinsic(vm, "Iterator.prototype.toArray", h)
		}, "3,5", ""},
		{"flatMap", func(vm *VM) (Value, error) {
			pair := func(vm *VM, c NativeCall) Value {
				return vm.newArrayIterator(numbers(vm, c.Arg(0).num, -c.Arg(0).num), iterValues)
			}
			h := mustCall(t, vm, "Iterator.prototype.flatMap", arrayIter(vm, 1, 2), fnValue(vm, pair))
			return callIntrinsic(vm, "Iterator.prototype.toArray", h)
		}, "1,-1,2,-2", ""},
		{"reduce", func(vm *VM) (Value, error) {
			sum := func(vm *VM, c NativeCall) Value { return Number(c.Arg(0).num + c.Arg(1).num) }
			return callIntrinsic(vm, "Iterator.prototype.reduce", arrayIter(vm, 1, 2, 3), fnValue(vm, sum))
		}, "6", ""},
		{"reduce empty", func(vm *VM) (Value, error) {
			sum := func(vm *VM, c NativeCall) Value { return Number(c.Arg(0).num + c.Arg(1).num) }
			return callIntrinsic(vm, "Iterator.prototype.reduce", arrayIter(vm), fnValue(vm, sum))
		}, "", "TypeError"},
		{"some every find", func(vm *VM) (Value, error) {
			a := mustCall(t, vm, "Iterator.prototype.some", arrayIter(vm, 2, 4, 5), fnValue(vm, odd))
			b := mustCall(t, vm, "Iterator.prototype.every", arrayIter(vm, 1, 3, 4), fnValue(vm, odd))
			c := mustCall(t, vm, "Iterator.prototype.find", arrayIter(vm, 2, 7, 9), fnValue(vm, odd))
			return vm.newArrayValue([]Value{a, b, c}), nil
		}, "true,false,7", ""},
		{"take negative", func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Iterator.prototype.take", arrayIter(vm, 1), Number(-1))
		}, "", "RangeError"},
		{"map non-callable", func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Iterator.prototype.map", arrayIter(vm, 1), Number(1))
		}, "", "TypeError"},
		{"concat", func(vm *VM) (Value, error) {
			h := mustCall(t, vm, "Iterator.concat", undefinedValue, numbers(vm, 1, 2), numbers(vm), numbers(vm, 3))
			return callIntrinsic(vm, "Iterator.prototype.toArray", h)
		}, "1,2,3", ""},
		{"concat non-iterable", func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Iterator.concat", undefinedValue, vm.NewObject())
		}, "", "TypeError"},
		{"from wraps plain iterators", func(vm *VM) (Value, error) {
			n := 0
			next := fnValue(vm, func(vm *VM, c NativeCall) Value {
				n++
				return vm.createIterResultObject(Number(float64(n)), n > 2)
			})
			plain := objectFrom(vm, "next", next)
			w := mustCall(t, vm, "Iterator.from", undefinedValue, objectValue(plain))
			return callIntrinsic(vm, "Iterator.prototype.toArray", w)
		}, "1,2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			got, err := tt.run(vm)
			if tt.err != "" {
				require.Equal(t, tt.err, thrownName(vm, err))
				return
			}
			require.NoError(t, err)
			if IsArray(got) {
				require.Equal(t, tt.want, listString(vm, got))
				return
			}
			require.Equal(t, tt.want, got.String())
		})
	}
}

func TestIteratorPrototypeAccessors(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	ip := vm.realm.iteratorPrototype()
	tag := vm.getProp(ip, symKey(symToStringTag))
	require.Equal(t, "Iterator", tag.String())
	require.Same(t, vm.realm.Intrinsic("Iterator"), vm.getProp(ip, keyConstructor).obj())
	// assigning on the prototype itself throws; on an inheriting object it defines an own property
	_, err := callIntrinsic(vm, "set Iterator.prototype[Symbol.toStringTag]", objectValue(ip), asciiValue("x"))
	require.Equal(t, "TypeError", thrownName(vm, err))
	child := vm.newObject(ip, ClassObject)
	vm.setProp(child, symKey(symToStringTag), asciiValue("Mine"))
	require.Equal(t, "Mine", lookupDataProperty(child, symKey(symToStringTag)).String())
	require.Equal(t, "Iterator", vm.getProp(ip, symKey(symToStringTag)).String())
}

func TestErrorIsError(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	require.Equal(t, trueValue, mustCall(t, vm, "Error.isError", undefinedValue, vm.NewError("TypeError", "x")))
	require.Equal(t, falseValue, mustCall(t, vm, "Error.isError", undefinedValue, objectValue(objectFrom(vm, "name", "Error"))))
	require.Equal(t, falseValue, mustCall(t, vm, "Error.isError", undefinedValue, Number(1)))
}

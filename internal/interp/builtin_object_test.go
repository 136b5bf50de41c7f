package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// callIntrinsic calls the built-in function with the given stable name, turning a JavaScript
// exception into an error.
func callIntrinsic(vm *VM, name string, this Value, args ...Value) (v Value, err error) {
	defer vm.catchException(&err)
	f := vm.realm.Intrinsic(name)
	if f == nil {
		panic("no intrinsic " + name)
	}
	return vm.Call(objectValue(f), this, args...), nil
}

// mustCall is callIntrinsic that fails the test on an exception.
func mustCall(t *testing.T, vm *VM, name string, this Value, args ...Value) Value {
	t.Helper()
	v, err := callIntrinsic(vm, name, this, args...)
	require.NoError(t, err)
	return v
}

// thrownName returns the name property of the error thrown in err ("" when none).
func thrownName(vm *VM, err error) string {
	ex, ok := err.(*Exception)
	if !ok {
		return ""
	}
	n, _ := vm.Get(ex.Value, "name")
	return vm.ToGoString(n)
}

// listString joins the elements of an array with commas, for assertions.
func listString(vm *VM, v Value) string {
	var parts []string
	for _, e := range vm.createListFromArrayLike(v) {
		if e.IsObject() && IsArray(e) {
			parts = append(parts, "["+listString(vm, e)+"]")
			continue
		}
		parts = append(parts, e.String())
	}
	return strings.Join(parts, ",")
}

// objectFrom builds a plain object from alternating keys and values.
func objectFrom(vm *VM, kv ...any) *Object {
	o := vm.newPlainObject()
	for i := 0; i < len(kv); i += 2 {
		var v Value
		switch x := kv[i+1].(type) {
		case int:
			v = intValue(x)
		case string:
			v = asciiValue(x)
		case Value:
			v = x
		}
		vm.createDataProperty(o, strKey(kv[i].(string)), v)
	}
	return o
}

func TestObjectStatics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(vm *VM) (Value, error)
		want string
		err  string
	}{
		{name: "keys order", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.keys", undefinedValue, objectValue(objectFrom(vm, "b", 1, "1", 2, "a", 3)))
		}, want: "1,b,a"},
		{name: "values", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.values", undefinedValue, objectValue(objectFrom(vm, "b", 1, "a", "x")))
		}, want: "1,x"},
		{name: "entries", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.entries", undefinedValue, objectValue(objectFrom(vm, "b", 1)))
		}, want: "[b,1]"},
		{name: "keys of string", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.keys", undefinedValue, asciiValue("ab"))
		}, want: "0,1"},
		{name: "keys of null", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.keys", undefinedValue, nullValue)
		}, err: "TypeError"},
		{name: "assign", run: func(vm *VM) (Value, error) {
			target := objectFrom(vm, "a", 1)
			_, err := callIntrinsic(vm, "Object.assign", undefinedValue, objectValue(target), nullValue, objectValue(objectFrom(vm, "b", 2, "a", 3)))
			if err != nil {
				return undefinedValue, err
			}
			return callIntrinsic(vm, "Object.values", undefinedValue, objectValue(target))
		}, want: "3,2"},
		{name: "freeze then assign throws", run: func(vm *VM) (Value, error) {
			target := objectFrom(vm, "a", 1)
			mustFreeze, _ := callIntrinsic(vm, "Object.freeze", undefinedValue, objectValue(target))
			_ = mustFreeze
			return callIntrinsic(vm, "Object.assign", undefinedValue, objectValue(target), objectValue(objectFrom(vm, "a", 2)))
		}, err: "TypeError"},
		{name: "fromEntries", run: func(vm *VM) (Value, error) {
			pairs := vm.newArrayValue([]Value{vm.newArrayValue([]Value{asciiValue("x"), intValue(1)}), vm.newArrayValue([]Value{asciiValue("y"), intValue(2)})})
			o, err := callIntrinsic(vm, "Object.fromEntries", undefinedValue, pairs)
			if err != nil {
				return o, err
			}
			return callIntrinsic(vm, "Object.keys", undefinedValue, o)
		}, want: "x,y"},
		{name: "getOwnPropertyNames of array", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.getOwnPropertyNames", undefinedValue, vm.newArrayValue([]Value{intValue(5)}))
		}, want: "0,length"},
		{name: "is", run: func(vm *VM) (Value, error) {
			a, _ := callIntrinsic(vm, "Object.is", undefinedValue, nanValue, nanValue)
			b, _ := callIntrinsic(vm, "Object.is", undefinedValue, Number(0), Number(negZero()))
			return vm.newArrayValue([]Value{a, b}), nil
		}, want: "true,false"},
		{name: "create with null proto", run: func(vm *VM) (Value, error) {
			o, err := callIntrinsic(vm, "Object.create", undefinedValue, nullValue)
			if err != nil {
				return o, err
			}
			p, _ := callIntrinsic(vm, "Object.getPrototypeOf", undefinedValue, o)
			return vm.newArrayValue([]Value{p}), nil
		}, want: "null"},
		{name: "create bad proto", run: func(vm *VM) (Value, error) {
			return callIntrinsic(vm, "Object.create", undefinedValue, intValue(1))
		}, err: "TypeError"},
		{name: "setPrototypeOf cycle", run: func(vm *VM) (Value, error) {
			a := vm.NewObject()
			b := objectValue(vm.newObject(a.obj(), ClassObject))
			return callIntrinsic(vm, "Object.setPrototypeOf", undefinedValue, a, b)
		}, err: "TypeError"},
		{name: "groupBy", run: func(vm *VM) (Value, error) {
			even := vm.newNativeFunction(&nativeFunction{name: "test even", fn: func(vm *VM, c NativeCall) Value {
				if int(c.Arg(0).num)%2 == 0 {
					return asciiValue("even")
				}
				return asciiValue("odd")
			}}, "even", 1)
			g, err := callIntrinsic(vm, "Object.groupBy", undefinedValue, vm.newArrayValue([]Value{intValue(1), intValue(2), intValue(3)}), objectValue(even))
			if err != nil {
				return g, err
			}
			odd, _ := vm.Get(g, "odd")
			return odd, nil
		}, want: "1,3"},
		{name: "defineProperty getter and value", run: func(vm *VM) (Value, error) {
			d := objectFrom(vm, "value", 1, "get", vm.realm.Intrinsic("Object.keys"))
			return callIntrinsic(vm, "Object.defineProperty", undefinedValue, vm.NewObject(), asciiValue("x"), objectValue(d))
		}, err: "TypeError"},
		{name: "defineProperty array length", run: func(vm *VM) (Value, error) {
			a := vm.newArrayValue([]Value{intValue(1), intValue(2), intValue(3)})
			_, err := callIntrinsic(vm, "Object.defineProperty", undefinedValue, a, asciiValue("length"), objectValue(objectFrom(vm, "value", 1)))
			return a, err
		}, want: "1"},
		{name: "getOwnPropertyDescriptor", run: func(vm *VM) (Value, error) {
			d, err := callIntrinsic(vm, "Object.getOwnPropertyDescriptor", undefinedValue, objectValue(vm.realm.Intrinsic("Object")), asciiValue("prototype"))
			if err != nil {
				return d, err
			}
			return callIntrinsic(vm, "Object.values", undefinedValue, d)
		}, want: "[object Object],false,false,false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			got, err := tt.run(vm)
			if tt.err != "" {
				require.Error(t, err)
				require.Equal(t, tt.err, thrownName(vm, err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, listString(vm, got))
		})
	}
}

func TestObjectPrototypeToString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		this func(vm *VM) Value
		want string
	}{
		{"undefined", func(*VM) Value { return undefinedValue }, "[object Undefined]"},
		{"null", func(*VM) Value { return nullValue }, "[object Null]"},
		{"array", func(vm *VM) Value { return vm.newArrayValue(nil) }, "[object Array]"},
		{"function", func(vm *VM) Value { return objectValue(vm.realm.Intrinsic("Object.keys")) }, "[object Function]"},
		{"error", func(vm *VM) Value { return vm.NewError("TypeError", "x") }, "[object Error]"},
		{"boolean", func(*VM) Value { return trueValue }, "[object Boolean]"},
		{"symbol tag", func(vm *VM) Value { return objectValue(vm.realm.Intrinsic("Symbol.prototype")) }, "[object Symbol]"},
		{"iterator tag", func(vm *VM) Value { return objectValue(vm.realm.iteratorPrototype()) }, "[object Iterator]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			got := mustCall(t, vm, "Object.prototype.toString", tt.this(vm))
			require.Equal(t, tt.want, got.String())
		})
	}
}

func TestEveryBuiltinObjectIsNamed(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	r := vm.realm
	r.materializeAll() // the walk reads the global object's bindings directly
	seen := map[*Object]bool{}
	var walk func(o *Object, path string)
	walk = func(o *Object, path string) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		require.NotEmpty(t, r.nameOf(o), "unnamed built-in object at %s", path)
		walk(o.proto, path+".[[Prototype]]")
		for i, k := range o.props.keys {
			p := o.props.props[i]
			walk(p.getter(), "get "+path+"."+k.String())
			walk(p.setter(), "set "+path+"."+k.String())
			walk(p.value.asObject(), path+"."+k.String())
		}
	}
	walk(r.Global, "globalThis")
	require.Equal(t, r.Intrinsic("Array.prototype"), r.ArrayPrototype)
	require.Equal(t, "Object.prototype.hasOwnProperty", r.nameOf(r.Intrinsic("Object.prototype.hasOwnProperty")))
	require.Equal(t, "Symbol.prototype[Symbol.toPrimitive]", r.nameOf(lookupDataProperty(r.Intrinsic("Symbol.prototype"), symKey(symToPrimitive)).obj()))
	// two realms name the same objects the same way (deterministic setup)
	other := newTestVM(t).realm
	built := buildRealm(&VM{})
	require.Equal(t, r.objs.len(), built.objs.len())
	for _, name := range r.names.sorted {
		require.NotNil(t, other.Intrinsic(name), name)
		require.Equal(t, r.Intrinsic(name).iid, built.Intrinsic(name).iid, name)
	}
	// a cloned realm shares nothing mutable with the template
	require.NotSame(t, templateRealm().ObjectPrototype, r.ObjectPrototype)
	require.NotSame(t, other.ObjectPrototype, r.ObjectPrototype)
}

func negZero() float64 {
	z := 0.0
	return -z
}

package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// numbers makes an array of the given numbers.
func numbers(vm *VM, ns ...float64) Value {
	vals := make([]Value, len(ns))
	for i, n := range ns {
		vals[i] = Number(n)
	}
	return vm.newArrayValue(vals)
}

func TestConsoleFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args func(vm *VM) []Value
		want string // from node 20
	}{
		{"seven numbers grouped", func(vm *VM) []Value { return []Value{numbers(vm, 1, 2, 3, 4, 5, 6, 7)} }, "[\n  1, 2, 3, 4,\n  5, 6, 7\n]"},
		{"nested object", func(vm *VM) []Value {
			g := objectFrom(vm, "g", 1)
			f := objectFrom(vm, "f", objectValue(g))
			e := objectFrom(vm, "e", objectValue(f))
			d := objectFrom(vm, "d", objectValue(e))
			o := objectFrom(vm, "a", 1, "b", numbers(vm, 1, 2), "c", "x", "d", objectValue(d))
			// d: { e: { f: { g: 1 } } } — rebuild to match node's {a,b,c,d:{e:{f:{g:1}}}}
			o = objectFrom(vm, "a", 1, "b", numbers(vm, 1, 2), "c", "x", "d", objectValue(e))
			return []Value{objectValue(o)}
		}, "{ a: 1, b: [ 1, 2 ], c: 'x', d: { e: { f: [Object] } } }"},
		{"strings and zeros", func(vm *VM) []Value {
			return []Value{asciiValue("top"), asciiValue("str"), Number(1), Number(negZero()), numbers(vm, negZero()),
				vm.newArrayValue([]Value{asciiValue("it's")}), vm.newArrayValue([]Value{asciiValue("a\"b'c")})}
		}, "top str 1 -0 [ -0 ] [ \"it's\" ] [ `a\"b'c` ]"},
		{"null prototype", func(vm *VM) []Value { return []Value{objectValue(vm.newObject(nil, ClassObject))} }, "[Object: null prototype] {}"},
		{"holes", func(vm *VM) []Value {
			return []Value{vm.newArrayValue([]Value{undefinedValue, nullValue, holeValue, Number(3)})}
		}, "[ undefined, null, <1 empty item>, 3 ]"},
		{"keys", func(vm *VM) []Value {
			o := objectFrom(vm, "a-b", 1)
			o.props.add(strKey("g"), accessorProperty(vm.realm.Intrinsic("Object.keys"), nil, propEnumerable|propConfigurable))
			o.props.add(strKey("s"), accessorProperty(nil, vm.realm.Intrinsic("Object.keys"), propEnumerable|propConfigurable))
			vm.createDataProperty(o, symKey(newSymbol(newASCII("s"))), Number(2))
			return []Value{objectValue(o)}
		}, "{ 'a-b': 1, g: [Getter], s: [Setter], [Symbol(s)]: 2 }"},
		{"circular", func(vm *VM) []Value {
			o := objectFrom(vm, "name", "o")
			vm.createDataProperty(o, strKey("self"), objectValue(o))
			return []Value{objectValue(o)}
		}, "<ref *1> { name: 'o', self: [Circular *1] }"},
		{"deep arrays and escapes", func(vm *VM) []Value {
			inner := vm.newArrayValue([]Value{Number(3), numbers(vm, 4)})
			mid := vm.newArrayValue([]Value{Number(2), inner})
			outer := vm.newArrayValue([]Value{vm.newArrayValue([]Value{Number(1), mid})})
			return []Value{outer, objectValue(objectFrom(vm, "x", "a\nb"))}
		}, "[ [ 1, [ 2, [Array] ] ] ] { x: 'a\\nb' }"},
		{"format verbs", func(vm *VM) []Value {
			return []Value{asciiValue("%s is %d years, %i%% %o"), asciiValue("Bob"), Number(42.5), Number(7.9), numbers(vm, 1)}
		}, "Bob is 42.5 years, 7% [ 1, [length]: 1 ]"},
		{"verbs not first", func(vm *VM) []Value {
			return []Value{Number(1), asciiValue("%s"), asciiValue("x")}
		}, "1 %s x"},
		{"thirty numbers", func(vm *VM) []Value {
			ns := make([]float64, 30)
			for i := range ns {
				ns[i] = float64(i * 100)
			}
			return []Value{numbers(vm, ns...)}
		}, "[\n     0,  100,  200,  300,  400,  500,\n   600,  700,  800,  900, 1000, 1100,\n  1200, 1300, 1400, 1500, 1600, 1700,\n  1800, 1900, 2000, 2100, 2200, 2300,\n  2400, 2500, 2600, 2700, 2800, 2900\n]"},
		{"long object breaks", func(vm *VM) []Value {
			return []Value{objectValue(objectFrom(vm, "longkeyname1", "some long value here", "longkeyname2", "some long value here", "k3", "more"))}
		}, "{\n  longkeyname1: 'some long value here',\n  longkeyname2: 'some long value here',\n  k3: 'more'\n}"},
		{"functions", func(vm *VM) []Value {
			return []Value{vm.newArrayValue([]Value{objectValue(vm.realm.Intrinsic("Object.keys"))}), objectValue(vm.realm.Intrinsic("Boolean"))}
		}, "[ [Function: keys] ] [Function: Boolean]"},
		{"error", func(vm *VM) []Value {
			return []Value{vm.NewError("TypeError", "bad")}
		}, "[TypeError: bad]"},
		{"error with position, props and cause", func(vm *VM) []Value {
			vm.positionHook = func() (int, int) { return 3, 7 }
			e := vm.makeError(NativeCall{Callee: vm.realm.Intrinsic("Error")}, asciiValue("m"), objectValue(objectFrom(vm, "cause", 1)))
			vm.createDataProperty(e, strKey("code"), asciiValue("X"))
			return []Value{objectValue(e)}
		}, "Error: m\n    at <anonymous>:3:7 {\n  code: 'X',\n  [cause]: 1\n}"},
		{"subclassed error", func(vm *VM) []Value {
			proto := vm.newObject(vm.realm.errorPrototype(), ClassObject)
			ctor := vm.newNativeFunction(testArrayNative, "MyErr", 0)
			vm.createDataProperty(proto, keyConstructor, objectValue(ctor))
			e := vm.newObject(proto, ClassError)
			e.slots = &errorData{}
			vm.createDataProperty(e, keyMessage, asciiValue("x"))
			vm.recordErrorPosition(e)
			return []Value{objectValue(e), vm.newArrayValue([]Value{vm.NewError("RangeError", "r")})}
		}, "[MyErr [Error]: x] [ [RangeError: r] ]"},
		{"boxed", func(vm *VM) []Value {
			return []Value{objectValue(vm.toObject(trueValue)), vm.newArrayValue([]Value{symbolValue(newSymbol(nil))})}
		}, "[Boolean: true] [ Symbol() ]"},
		{"hundred and one", func(vm *VM) []Value {
			ns := make([]float64, 101)
			return []Value{objectValue(objectFrom(vm, "n", numbers(vm, ns...)))}
		}, "{\n  n: [\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,\n    0, 0, 0, 0,\n    ... 1 more item\n  ]\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			var lines []string
			vm.logf = func(level, text string) { lines = append(lines, level+"|"+text) }
			mustCall(t, vm, "console.log", undefinedValue, tt.args(vm)...)
			require.Equal(t, []string{"log|" + tt.want}, lines)
		})
	}
}

func TestConsoleMethods(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	var lines []string
	vm.logf = func(level, text string) { lines = append(lines, level+"|"+text) }
	call := func(name string, args ...Value) { mustCall(t, vm, "console."+name, undefinedValue, args...) }
	call("assert", falseValue, asciiValue("x %d"), Number(5))
	call("assert", falseValue)
	call("assert", trueValue, asciiValue("no"))
	call("count")
	call("count", asciiValue("a"))
	call("count")
	call("countReset")
	call("count")
	call("group", asciiValue("G"))
	call("log", asciiValue("in\nner"))
	call("group")
	call("info", objectValue(objectFrom(vm, "a", 1)))
	// the console state survives a snapshot
	data := encodeRoots(t, vm, nil)
	vm2 := newTestVM(t)
	_, err := decodeRootsInto(vm2, data)
	require.NoError(t, err)
	vm2.logf = vm.logf
	mustCall(t, vm2, "console.log", undefinedValue, asciiValue("restored"))
	mustCall(t, vm2, "console.count", undefinedValue)
	call("groupEnd")
	call("groupEnd")
	call("log", asciiValue("out"))
	call("dir", asciiValue("s"))
	require.Equal(t, []string{
		"warn|Assertion failed: x 5", "warn|Assertion failed",
		"log|default: 1", "log|a: 1", "log|default: 2", "log|default: 1",
		"log|G", "log|  in\n  ner", "info|    { a: 1 }",
		"log|    restored", "log|    default: 2",
		"log|out", "log|'s'",
	}, lines)
}

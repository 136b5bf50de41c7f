package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCallAllocations counts the allocations of calls that the VM makes without any of its
// own: a native called with arguments reads them on the stack, an object literal is one
// allocation for the object with its keys and properties, and a closure is one for the
// function object with its slots and properties and its prototype object, an arguments
// object one with room for its properties, a Date one with its time value. Each count is
// taken against a function returning a number, so that only the difference is measured (not
// parallel: testing.AllocsPerRun forbids it).
func TestCallAllocations(t *testing.T) {
	vm := New(Config{})
	require.Equal(t, "ok", evalIn(t, vm, `
		globalThis.base = function () { return 0 }
		globalThis.native = function () { return Math.abs(-1) + Math.pow(2, 3) }
		globalThis.literal = function () { return { a: 1, b: 2, c: 3 } }
		globalThis.grown = function () { const o = { a: 1 }; o.b = 2; o.c = 3; o.d = 4; o.e = 5; return o }
		globalThis.literal6 = function () { return { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } }
		function Point(x, y) { this.x = x; this.y = y }
		globalThis.instance = function () { return new Point(1, 2) }
		globalThis.closure = function () { return function named() {} }
		globalThis.arrow = function () { return () => 1 }
		globalThis.args = function () { return arguments }
		globalThis.date = function () { return new Date(0) }
		function inner() { return new RangeError("x") }
		function middle() { return inner() }
		globalThis.error = function () { return middle() }
		"ok"`))
	count := func(name string) float64 {
		fn := vm.getProp(vm.realm.Global, strKey(name))
		vm.Call(fn, undefinedValue) // warm up: any lazy state is created now
		return testing.AllocsPerRun(200, func() { vm.Call(fn, undefinedValue) })
	}
	base := count("base")
	require.Equal(t, 0.0, count("native")-base, "a native's arguments are not copied")
	require.Equal(t, 1.0, count("literal")-base, "object with its keys and properties")
	require.Equal(t, 2.0, count("grown")-base, "object with storage for 4, storage for 8")
	require.Equal(t, 1.0, count("literal6")-base, "object with storage for its 6 properties")
	require.Equal(t, 1.0, count("instance")-base, "instance with storage for the constructor's 2 properties")
	require.Equal(t, 1.0, count("closure")-base, "function with its slots and properties, prototype with its property")
	require.Equal(t, 1.0, count("arrow")-base, "arrow function with its slots and properties")
	require.Equal(t, 1.0, count("args")-base, "arguments object with room for its properties")
	require.Equal(t, 1.0, count("date")-base, "date with its time value")
	// The error with its error data, its own properties' storage, its stack's callers in one
	// slice of their final size.
	require.Equal(t, 3.0, count("error")-base, "an error three frames deep")
}

// TestPropertyAssignmentPaths covers the paths of property reads, assignments and literal
// definitions that skip a second lookup of the key: setters and read-only properties on the
// prototype, objects that cannot take a new property, accessors replaced in a literal,
// objects past the size of an indexed map. Results are node's.
func TestPropertyAssignmentPaths(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"inherited setter", `const p = { set x(v) { this._x = v * 2 } }; const o = Object.create(p); o.x = 2; o._x + ',' + Object.keys(o)`, "4,_x"},
		{"inherited read-only", `const p = Object.defineProperty({}, 'x', { value: 1 }); const o = Object.create(p); let r; try { o.x = 2; r = 'no' } catch (e) { r = e.constructor.name + ',' + Object.hasOwn(o, 'x') } r`, "TypeError,false"},
		{"not extensible", `const o = Object.preventExtensions({ a: 1 }); let r; try { o.y = 1; r = 'no' } catch (e) { r = e.constructor.name } o.a = 3; r + ',' + o.a`, "TypeError,3"},
		{"literal redefines", `const o = { get a() { return 1 }, a: 3 }; const d = Object.getOwnPropertyDescriptor(o, 'a'); d.value + ',' + d.writable + ',' + ({ a: 1, a: 2 }).a`, "3,true,2"},
		{"indexed", `const o = {}; for (let i = 0; i < 20; i++) o['k' + i] = i; let s = 0; for (let i = 0; i < 20; i++) s += o['k' + i]; o.k20 = 20; s + ',' + o.k19 + ',' + o.k20 + ',' + ('k3' in o) + ',' + o.toString()`, "190,19,20,true,[object Object]"},
		{"inherited getter", `const o = Object.create({ get g() { return this.v } }); o.v = 5; o.g + ',' + o.missing`, "5,undefined"},
		{"constructor", `function F() { this.a = 1; this.b = 2 } F.prototype.m = function () { return this.a + this.b }; F.x = 7; new F().m() + ',' + F.x + ',' + F.prototype.constructor.name`, "3,7,F"},
		{"shadowing", `const p = {}; const o = Object.create(p); p.x = 1; o.x = 2; p.x + ',' + o.x + ',' + Object.keys(o)`, "1,2,x"},
		{"frozen", `const o = Object.freeze({ a: 1 }); let r; try { o.a = 2; r = 'no' } catch (e) { r = e.constructor.name } r + ',' + o.a`, "TypeError,1"},
	})
}

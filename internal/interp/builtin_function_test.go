package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFunctionRestrictedProperties(t *testing.T) {
	t.Parallel()
	runProgramCases(t, []jsCase{
		{name: "reading caller of a class throws", src: "class B {}; let r = 'none'; try { B.caller } catch (e) { r = e.constructor.name }; r", want: "TypeError"},
		{name: "writing arguments of a function throws", src: "function f() {}; let r = 'none'; try { f.arguments = 1 } catch (e) { r = e.constructor.name }; r", want: "TypeError"},
		{name: "no own caller or arguments", src: "function f() {}; [f.hasOwnProperty('caller'), f.hasOwnProperty('arguments'), (() => 1).hasOwnProperty('caller')].join()", want: "false,false,false"},
		{name: "one thrower for both accessors", src: "const c = Object.getOwnPropertyDescriptor(Function.prototype, 'caller'), a = Object.getOwnPropertyDescriptor(Function.prototype, 'arguments'); [c.get === c.set, c.get === a.get, a.set === c.set, c.configurable, c.enumerable].join()", want: "true,true,true,true,false"},
		{name: "arguments objects of many and no arguments", src: "function f() { return arguments } const a = f(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), b = f(); [a.length, a[11], a[12], Object.keys(a).length, [...a].pop(), b.length, [...b].length, Object.getOwnPropertyNames(b).join()].join()", want: "12,12,,12,12,0,0,length,callee"},
		{name: "arguments objects are distinct and writable", src: "function f() { arguments[0] = 9; arguments.length = 5; return arguments } const a = f(1), b = f(2); [a[0], a.length, b[0], a !== b, Object.getOwnPropertyDescriptor(a, 'callee').get === Object.getOwnPropertyDescriptor(b, 'callee').get].join()", want: "9,5,9,true,true"},
		{name: "arguments.callee throws", src: "function f() { try { arguments.callee; return 'none' } catch (e) { return e.constructor.name } } f()", want: "TypeError"},
		{name: "arguments.callee is a non-configurable accessor", src: "const d = (function () { return Object.getOwnPropertyDescriptor(arguments, 'callee') })(); const g = Object.getOwnPropertyDescriptor(Function.prototype, 'caller').get; [d.get === g, d.set === g, d.configurable, d.enumerable, Object.keys((function () { return arguments })(1, 2)).join('')].join()", want: "true,true,false,false,01"},
		{name: "the thrower is frozen and anonymous", src: "const g = Object.getOwnPropertyDescriptor(Function.prototype, 'caller').get; [Object.isFrozen(g), g.name === '', g.length].join()", want: "true,true,0"},
	})
}

func TestFunctionConstructorAndEvalThrowEvalErrorWhenCalled(t *testing.T) {
	t.Parallel()
	runProgramCases(t, []jsCase{
		{name: "a call throws a catchable EvalError", src: "let r; try { Function('return 1')() } catch (e) { r = [e.name, e instanceof EvalError].join() } r", want: "EvalError,true"},
		{name: "return this finds the global object", src: "[Function('return this')() === globalThis, new Function('', ' return this; ')() === globalThis, Function('return this').name].join()", want: "true,true,anonymous"},
		{name: "return this called on a value", src: "const f = Function('return this'); [typeof f.call(5), f.call(5) instanceof Number, f.call(undefined) === globalThis].join()", want: "object,true,true"},
		{name: "return this with a parameter still throws", src: "let r; try { Function('a', 'return this') } catch (e) { r = e.name } r", want: "EvalError"},
		{name: "return this with more code still throws", src: "let r; try { Function('return this; 1') } catch (e) { r = e.name } r", want: "EvalError"},
		{name: "new throws it too", src: "let r; try { new Function('a', 'return a') } catch (e) { r = e.name } r", want: "EvalError"},
		{name: "an unreachable fallback runs nothing", src: "const g = typeof globalThis == 'object' ? globalThis : Function('return this')(); typeof g", want: "object"},
		{name: "a parameter named Function is an ordinary binding", src: "function g(Function) { return (() => Function(1))() } g(x => x + 1)", want: "2"},
		{name: "an indirect eval throws a catchable EvalError", src: "let r; try { (0, eval)('1') } catch (e) { r = [e.name, e instanceof EvalError].join() } r", want: "EvalError,true"},
		{name: "eval reached as a value throws it too", src: "const e = globalThis.eval; let r; try { e('1') } catch (x) { r = x.name } [typeof eval, eval.name, eval.length, r].join()", want: "function,eval,1,EvalError"},
		{name: "code that only names eval runs", src: "const ev = typeof eval === 'function' ? 'named' : 'absent'; ev", want: "named"},
		{name: "the global is still the constructor of functions", src: "[(function () {}) instanceof Function, typeof Function].join()", want: "true,function"},
		{name: "generator and async functions have their own constructors", src: "const k = f => f.constructor.name; [k(function* () {}), k(async () => {}), k(async function* () {}), k(function () {})].join()", want: "GeneratorFunction,AsyncFunction,AsyncGeneratorFunction,Function"},
		{name: "the kind constructors as in node", src: "const G = Object.getPrototypeOf(function* () {}).constructor; [G.length, Object.getPrototypeOf(G) === Function, G.prototype === Object.getPrototypeOf(function* () {}), Object.getOwnPropertyNames(G.prototype).join('/'), (async () => {}) instanceof Object.getPrototypeOf(async () => {}).constructor].join()", want: "1,true,true,prototype/constructor,true"},
		{name: "the kind constructors throw EvalError", src: "const AF = Object.getPrototypeOf(async () => {}).constructor; let r; try { new AF('return this') } catch (e) { r = e.name } r", want: "EvalError"},
	})
}

// Function.prototype.toString returns the source text of functions, methods, arrow functions
// and classes exactly as written (as node does), and V8's native-code form for built-ins and
// bound functions. Expected values come from node 20.
func TestFunctionToStringIsTheSourceText(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"declaration", `function foo(a){return a+1}; String(foo)`, "function foo(a){return a+1}"},
		{"spacing and comments", "String(function*  gen ( /* c */ ) {yield 1})", "function*  gen ( /* c */ ) {yield 1}"},
		{"class", `class A { static m(a){ return a } get x(){return 1} }; String(A)`, "class A { static m(a){ return a } get x(){return 1} }"},
		{"derived class", `class A {}; String(class B extends A { constructor(){ super() } })`, "class B extends A { constructor(){ super() } }"},
		{"anonymous class", `String(class {})`, "class {}"},
		{"static method", `class A { static m(a){ return a } }; String(A.m)`, "m(a){ return a }"},
		{"getter", `class A { get x(){return 1} }; String(Object.getOwnPropertyDescriptor(A.prototype, "x").get)`, "get x(){return 1}"},
		{"async generator method", `class A { async *g(){} }; String(A.prototype.g)`, "async *g(){}"},
		{"computed method", `class A { ["c"+1](){} }; String(A.prototype.c1)`, `["c"+1](){}`},
		{"object methods", `const o = { f(){}, async g(){}, get h(){return 1}, k: function(){ } }; [o.f, o.g, Object.getOwnPropertyDescriptor(o, "h").get, o.k].map(String).join("|")`, "f(){}|async g(){}|get h(){return 1}|function(){ }"},
		{"arrows", `[() => 1, x=>x, async (a, b) => { await a }, (a) => (a), async x => x].map(String).join("|")`, "() => 1|x=>x|async (a, b) => { await a }|(a) => (a)|async x => x"},
		{"non-ASCII", `String(function é(){ return "ü😀" })`, `function é(){ return "ü😀" }`},
		{"native", `String(Math.max)`, "function max() { [native code] }"},
		{"bound", `String(function f(){}.bind(null))`, "function () { [native code] }"},
		{"isNative check", `const reNative = /\{\s*\[native code\]\s*\}/; [reNative.test(String(Math.max)), reNative.test(String(function(){}))].join()`, "true,false"},
	})
}

func TestFunctionCallApplyInPlace(t *testing.T) {
	t.Parallel()
	runProgramCases(t, []jsCase{
		{name: "call without arguments", src: "function f() { 'use strict'; return [this, arguments.length].join() } f.call()", want: ",0"},
		{name: "call passes this and arguments", src: "function f(a, b) { return this.x + a + b } f.call({x: 1}, 2, 3)", want: "6"},
		{name: "call of a native", src: "Array.prototype.join.call([1, 2], '-')", want: "1-2"},
		{name: "call of a bound function", src: "function f(a, b) { return this.x + a + b } f.bind({x: 1}, 2).call({x: 10}, 3)", want: "6"},
		{name: "call of call", src: "function f(a) { return this.x + a } f.call.call(f, {x: 1}, 2)", want: "3"},
		{name: "call on a non-callable throws", src: "let r; try { Function.prototype.call.call({}) } catch (e) { r = e.constructor.name } r", want: "TypeError"},
		{name: "call of a class constructor throws", src: "class C {} let r; try { C.call({}) } catch (e) { r = e.constructor.name } r", want: "TypeError"},
		{name: "apply with arguments object", src: "function g(a, b, c) { return a + b + c } function f() { return g.apply(null, arguments) } f(1, 2, 3)", want: "6"},
		{name: "apply with null list", src: "function f() { return arguments.length } f.apply(null, null)", want: "0"},
		{name: "apply with an array-like", src: "function f(a, b) { return a + b } f.apply(null, {length: 2, 0: 'x', 1: 'y'})", want: "xy"},
		{name: "apply with a non-object list throws", src: "function f() {} let r; try { f.apply(null, 1) } catch (e) { r = e.constructor.name } r", want: "TypeError"},
		{name: "apply of a long list", src: "Math.max.apply(null, Array.from({length: 5000}, (_, i) => i))", want: "4999"},
		{name: "call of a generator function", src: "function* g(a) { yield this.x + a } g.call({x: 1}, 2).next().value", want: "3"},
		{name: "apply inside a loop keeps the stack", src: "function f(a, b) { return a * b } let s = 0; for (let i = 0; i < 100; i++) s += f.apply(null, [i, 2]) + f.call(null, i, 1); s", want: "14850"},
	})
}

func TestFunctionApplyArrayLists(t *testing.T) {
	t.Parallel()
	runProgramCases(t, []jsCase{
		{name: "a holey array reads the prototype", src: "Array.prototype[1] = 'p'; function f(a, b, c) { return [a, b, c].join() } const r = f.apply(null, [1, , 3]); delete Array.prototype[1]; r", want: "1,p,3"},
		{name: "an array with a longer length", src: "function f() { return arguments.length } const a = [1]; a.length = 3; f.apply(null, a)", want: "3"},
		{name: "an empty array", src: "function f() { return arguments.length } f.apply(null, [])", want: "0"},
		{name: "the callee cannot change the list", src: "const a = [1, 2]; function f(x, y) { a[0] = 9; return x + y } f.apply(null, a) + ',' + a[0]", want: "3,9"},
	})
}

// TestCodeGenerationErrorPositions checks where an uncaught EvalError of eval or the Function
// constructor is located, against node run with --disallow-code-generation-from-strings (the
// V8 policy these errors stand for): the call's arguments for eval, new for Function.
func TestCodeGenerationErrorPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src    string
		line, column int
	}{
		{name: "indirect eval", src: "const a = 1;\n  (0, eval)(\"1\")\n", line: 2, column: 12},
		{name: "new Function", src: "const a = 1;\n  new Function(\"a\", \"return a\")\n", line: 2, column: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := CompileScript(tt.src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			_, err = vm.Run(t.Context(), RunOptions{})
			require.NoError(t, err)
			v, thrown := vm.Result()
			require.True(t, thrown)
			name, _, line, column := vm.DescribeError(v)
			require.Equal(t, "EvalError", name)
			require.Equal(t, []int{tt.line, tt.column}, []int{line, column})
		})
	}
}

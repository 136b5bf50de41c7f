package interp

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// runProgramCases runs each case with runProgram as a parallel subtest: the program must end
// without an exception, with the wanted completion value.
func runProgramCases(t *testing.T, cases []jsCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tt.src)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
		})
	}
}

// runProgram compiles and runs src, returning the completion as a string and whether it threw.
//
// With CODEMODE_ROUNDTRIP=1 the run is snapshotted and restored into a new VM
// every 200 steps.
func runProgram(t *testing.T, src string) (string, bool) {
	t.Helper()
	if os.Getenv("CODEMODE_ROUNDTRIP") == "1" {
		got, thrown, _ := runWithSnapshots(t, src, 200)
		return got, thrown
	}
	p, err := Compile(src)
	require.NoError(t, err)
	vm := New(Config{})
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err, p.Disassemble())
	require.Equal(t, StatusDone, st)
	v, thrown := vm.Result()
	if thrown {
		name, msg, _, _ := vm.DescribeError(v)
		return name + ": " + msg, true
	}
	return vm.ToGoString(v), false
}

func TestRunPrograms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		want   string
		thrown bool
	}{
		{name: "arith", src: "1 + 2 * 3", want: "7"},
		// Compared with node: an optional-chain delete of an element is true, without evaluating
		// the key, when the chain short-circuits.
		{name: "optional delete of an element", src: `const k = "a"; let n = 0; const o = {a: 1, b: {a: 2}}; JSON.stringify([delete null?.[k], delete undefined?.[n++], n, delete o?.[k], "a" in o, delete o?.b[k], o.b, delete o.x?.[k]])`,
			want: `[true,true,0,true,false,true,{},true]`},
		{name: "completion", src: "const a = 2\n a * 21", want: "42"},
		{name: "strings", src: "'a' + 1 + 'b'", want: "a1b"},
		{name: "closure", src: "function mk() { let n = 0; return () => ++n } const f = mk(); f(); f(); f()", want: "3"},
		{name: "recursion", src: "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } fib(20)", want: "6765"},
		{name: "loop", src: "let s = 0; for (let i = 0; i < 10; i++) s += i; s", want: "45"},
		{name: "per-iteration let", src: "const fs = {}; for (let i = 0; i < 3; i++) fs[i] = () => i; `${fs[0]()}${fs[1]()}${fs[2]()}`", want: "012"},
		{name: "while break continue", src: "let i = 0, s = 0; while (true) { i++; if (i % 2) continue; if (i > 8) break; s += i } s", want: "20"},
		{name: "labels", src: "let n = 0; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j == 1) continue outer; n++ } } n", want: "3"},
		{name: "try catch", src: "let r; try { null.x } catch (e) { r = e instanceof TypeError } r", want: "true"},
		{name: "finally override", src: "function f() { try { return 1 } finally { return 2 } } f()", want: "2"},
		{name: "finally runs on break", src: "let log = ''; for (;;) { try { break } finally { log += 'f' } } log", want: "f"},
		{name: "throw uncaught", src: "throw new RangeError('bad')", want: "RangeError: bad", thrown: true},
		{name: "objects", src: "const o = {a: 1, b: {c: [1, 2, 3]}}; o.b.c[1] + o.a", want: "3"},
		{name: "logical assignment to private names", src: "class C { #x = 0; #y = 1; get #z() { return 5 } m() { this.#x ||= 7; this.#y &&= 0; this.#x ??= 9; let r = []; try { this.#z ||= 1; r.push('sc'); this.#z &&= 1 } catch (e) { r.push(e.constructor.name) } return [this.#x, this.#y, ...r].join() } } new C().m()", want: "7,0,sc,TypeError"},
		{name: "for-of and for-in heads see their let names in the dead zone", src: "const r = []; try { let x = 1; for (let x of [x]) {} r.push('no') } catch (e) { r.push(e.constructor.name) } try { let x = 1; for (const x in {x}) {} r.push('no') } catch (e) { r.push(e.constructor.name) } let y = 'o', probe; for (let y of (probe = () => typeof y, [])); try { probe(); r.push('no') } catch (e) { r.push(e.constructor.name) } for (const z of [1, 2]) r.push(z); r.join()", want: "ReferenceError,ReferenceError,ReferenceError,1,2"},
		{name: "typeof of a parenthesised unresolvable name", src: "[typeof (nope), typeof ((nope)), typeof (Math)].join()", want: "undefined,undefined,object"},
		{name: "compound, update, logical assignment and delete of super properties", src: "const r = []; class A { get g() { return this._g ?? 10 } set g(v) { this._g = v } } A.prototype.x = 1; A.prototype.k = 5; class B extends A {   m() {     super.x += 2; r.push(this.x, A.prototype.x, Object.hasOwn(this, 'x'));     super['k']++; r.push(this.k);     const old = super.k++; r.push(old, this.k);     super.g ||= 99; r.push(this.g);     super.g &&= 7; r.push(this.g);     super.nope ??= 'n'; r.push(this.nope);     try { delete super.x } catch (e) { r.push(e.constructor.name) }     let ev = 0; try { delete super[ev++] } catch (e) { r.push(e.constructor.name, ev) }     return r;   } } class D extends A { constructor() { let k = 0; try { super[k++] = 1 } catch (e) { r.push(e.constructor.name, k) } super(); } } new B().m(); new D(); r.join()", want: "3,1,true,6,5,6,10,7,n,ReferenceError,ReferenceError,1,ReferenceError,0"},
		{name: "accessors with computed keys are named from the key", src: "const s1 = Symbol('t'), s2 = Symbol(); const o = { get [s1]() {}, set [s1](v) {}, get [s2]() {}, get ['x']() {} }; class C { static set [s1](v) {} } const g = (o, k) => Object.getOwnPropertyDescriptor(o, k); [g(o, s1).get.name, g(o, s1).set.name, g(o, s2).get.name, g(o, 'x').get.name, g(C, s1).set.name].join('|')", want: "get [t]|set [t]|get |get x|set [t]"},
		{name: "__proto__ shorthand is an own property", src: "const __proto__ = 2; const o = { __proto__, __proto__ }; const p = { __proto__: null }; [o.hasOwnProperty('__proto__'), o.__proto__, Object.getPrototypeOf(p), Object.hasOwn(p, '__proto__')].join()", want: "true,2,,false"},
		{name: "a parenthesised target does not name a function", src: "let f, g; (f) = function () {}; g = function () {}; [f.name === '', g.name].join()", want: "true,g"},
		{name: "the class name is in its dead zone in the heritage", src: "const r = []; try { var x = (class x extends x {}); r.push('no') } catch (e) { r.push(e.constructor.name) } let probe; class B {} class C extends (probe = () => C, B) {} r.push(probe() === C); class D extends class { m() { return 'base' } } { n() { return super.m() + '!' } } r.push(new D().n()); const E = class Named extends B { who() { return Named.name } }; r.push(new E().who()); r.join()", want: "ReferenceError,true,base!,Named"},
		{name: "a rest target reference is evaluated before the rest is collected", src: "const log = []; let nextCount = 0, returnCount = 0; const iterable = { [Symbol.iterator]() { return { next() { nextCount++; return { done: nextCount > 3, value: nextCount } }, return() { returnCount++; return {} } } } }; const thrower = () => { throw new Error('t') }; try { [...{}[thrower()]] = iterable } catch (e) { log.push(e.message) } log.push(nextCount, returnCount); const o = {}; [o.a, ...o['r' + 'est']] = [1, 2, 3]; log.push(o.a, JSON.stringify(o.rest)); let x, y; [x, ...[y]] = [7, 8, 9]; log.push(x, y); log.join()", want: "t,0,1,1,[2,3],7,8"},
		{name: "a nullish base throws before its object key is converted", src: "const r = []; const key = { toString() { r.push('key'); return 'k' } }; const rhs = () => { r.push('rhs'); return 1 }; for (const f of [   () => { let b = null; b[key] ^= rhs() },   () => { let b = null; b[key] },   () => { let b; b[key] = rhs() },   () => { let b = null; b[key] ??= rhs() },   () => { let b = null; b[key]++ },   () => { let b = null; b.x },   () => { let b = null; b['x'] = 1 }, ]) { try { f(); r.push('none') } catch (e) { r.push(e.constructor.name + ': ' + e.message) } } r.join('|')", want: "TypeError: Cannot read properties of null|TypeError: Cannot read properties of null|rhs|TypeError: Cannot set properties of undefined|TypeError: Cannot read properties of null|TypeError: Cannot read properties of null|TypeError: Cannot read properties of null (reading 'x')|TypeError: Cannot set properties of null (setting 'x')"},
		{name: "errors the runtime throws carry their stack like constructed ones", src: "let r; try { null.y } catch (err) { r = [Object.getOwnPropertyNames(err).join(), Object.getOwnPropertyNames(new TypeError('x')).join(), err.stack.split('\\n')[0]] } r.join('|')", want: "message|message|TypeError: Cannot read properties of null (reading 'y')"},
		{name: "private methods brand an object once; non-extensible objects take no private elements", src: "const r = []; class Base { constructor(o) { return o } } class C extends Base { #m() {} get #a() { return 1 } set #a(v) {} static has(o) { return #m in o } } const obj = {}; new C(obj); r.push(C.has(obj)); try { new C(obj); r.push('none') } catch (e) { r.push(e.constructor.name) } class S { static get #x() { return 1 } static set #x(v) {} static get() { return S.#x } } r.push(S.get()); class NB { constructor(seal) { if (seal) Object.preventExtensions(this) } } class F extends NB { #v; constructor(seal) { super(seal); this.#v = 42 } v() { return this.#v } } r.push(new F(false).v()); try { new F(true); r.push('none') } catch (e) { r.push(e.constructor.name) } class G { #f = 1; constructor() { } } r.push(new G() instanceof G); r.join()", want: "true,TypeError,1,42,TypeError,true"},
		{name: "class field keys computed from yield", src: "function* g() {   let C = class { [yield 9] = 9; static [yield 9] = 9; };   let c = new C();   return [c[yield 9], C[yield 9]]; } const it = g(); let r; while (!(r = it.next()).done); r.value.join()", want: "9,9"},
		{name: "yield* over a sync iterable in an async generator awaits each value", src: "const error = new Error('boom'); const iterable = [Promise.reject(error), 'unreachable']; async function* gen() { yield* iterable; } const iter = gen(); const r = []; try { await iter.next(); r.push('resolved') } catch (e) { r.push(e === error) } r.push(JSON.stringify(await iter.next())); r.join('|')", want: "true|{\"done\":true}"},
		{name: "yield* in async generators over sync and async iterables", src: "async function* g() { const r = yield* [1, Promise.resolve(2), 3]; return r } const out = []; for await (const v of g()) out.push(v); async function* inner() { yield 'a'; yield Promise.resolve('b') } async function* h() { yield* inner() } for await (const v of h()) out.push(typeof v === 'string' ? v : 'promise'); out.join()", want: "1,2,3,a,b"},
		{name: "trailing elisions step the iterator", src: "let n = 0; function* g() { for (;;) { n++; yield n } } const [,] = g(); const [a,,] = g(); const [b,] = g(); function f([,,]) {} f(g()); `${n}${a}${b}`", want: "624"},
		{name: "leading and trailing elisions", src: "const [, x, ,] = [1, 2, 3, 4]; let n = 0; const it = { [Symbol.iterator]() { return { next() { n++; return { done: n > 9, value: n } } } } }; const [, y, , ] = it; `${x}${y}${n}`", want: "223"},
		{name: "destructuring", src: "const {a, b: {x, y = 5}, ...r} = {a: 1, b: {x: 2}, c: 4, d: 5}; `${a}${x}${y}${Object.keys(r)}`", want: "125c,d"},
		{name: "spread", src: "const f = (...a) => a.length; f(...[1, 2], 3)", want: "3"},
		{name: "template", src: "const n = 3; `n=${n}!`", want: "n=3!"},
		{name: "optional chain", src: "const o = null; const p = {a: {b: 2}}; `${o?.a.b}` + (o ?? 'd') + p?.a.b + p.x?.y", want: "undefinedd2undefined"},
		{name: "class basic", src: "class A { constructor(x) { this.x = x } get double() { return this.x * 2 } static make() { return new A(4) } } A.make().double", want: "8"},
		{name: "generator", src: "function* g() { const x = yield 1; yield x * 2; return 7 } const it = g(); let s = ''; s += it.next().value; s += it.next(5).value; const r = it.next(); s += `${r.value}${r.done}`; s += it.next().done; s", want: "1107truetrue"},
		{name: "generator for-of", src: "function* g(n) { for (let i = 0; i < n; i++) yield i } let s = 0; for (const v of g(5)) s += v; s", want: "10"},
		{name: "generator return finally", src: "let log = ''; function* g() { try { yield 1; yield 2 } finally { log += 'F' } } for (const v of g()) { log += v; break } log", want: "1F"},
		{name: "generator throw", src: "function* g() { try { yield 1 } catch (e) { yield 'caught ' + e } } const it = g(); it.next(); it.throw('x').value", want: "caught x"},
		{name: "yield delegate", src: "function* a() { yield 1; yield 2; return 3 } function* b() { const r = yield* a(); yield r } let s = ''; for (const v of b()) s += v; s", want: "123"},
		{name: "spread generator", src: "function* g() { yield 1; yield 2 } const f = (...a) => a.length; f(...g())", want: "2"},
		{name: "async generator", src: "async function* g() { yield 1; await null; yield 2 } let s = 0; for await (const v of g()) s += v; s", want: "3"},
		{name: "for await sync", src: "let s = ''; for await (const v of [Promise.resolve('a'), 'b']) s += v; s", want: "ab"},
		{name: "class full", src: "class A { #x = 1; static k = 2; get x() { return this.#x } inc() { this.#x++; return this } } class B extends A { constructor() { super(); this.y = 10 } sum() { return this.x + this.y + super.inc().x } } new B().sum() + A.k", want: "15"},
		{name: "typeof", src: "typeof undeclared + typeof 1 + typeof (() => 1)", want: "undefinednumberfunction"},
		{name: "loose equality", src: "`${1 == '1'},${null == undefined},${0 == ''},${NaN == NaN},${({valueOf() { return 2 }}) == 2}`", want: "true,true,true,false,true"},
		{name: "await", src: "const v = await Promise.resolve(41); v + 1", want: "42"},
		{name: "async order", src: "let log = ''; async function f() { log += 1; await null; log += 3 } f(); log += 2; await null; await null; log", want: "123"},
		{name: "then chain", src: "await new Promise(r => r(1)).then(x => x + 1).then(x => x * 10)", want: "20"},
		{name: "rejection", src: "let m; try { await Promise.reject(new Error('no')) } catch (e) { m = e.message } m", want: "no"},
		{name: "tdz", src: "let r; try { x; let x = 1 } catch (e) { r = e.name } r", want: "ReferenceError"},
		{name: "const assign", src: "const c = 1; let r; try { c = 2 } catch (e) { r = e.name } r", want: "TypeError"},
		{name: "switch", src: "function f(x) { switch (x) { case 1: return 'one'; case 2: case 3: return 'few'; default: return 'many' } } `${f(1)},${f(3)},${f(9)}`", want: "one,few,many"},
		{name: "for in", src: "const o = {a: 1, b: 2}; let k = ''; for (const p in o) k += p; k", want: "ab"},
		{name: "arguments", src: "function f() { return arguments.length } f(1, 2, 3)", want: "3"},
		{name: "getter setter", src: "const o = { v: 1, get d() { return this.v * 2 }, set d(x) { this.v = x } }; o.d = 5; o.d", want: "10"},
		{name: "logical assign", src: "let a = null; a ??= 3; let b = 1; b &&= 7; `${a},${b}`", want: "3,7"},
		{name: "exp", src: "2 ** 10", want: "1024"},
		{name: "compound member", src: "const o = {n: 1}; o.n += 4; o['n'] *= 2; o.n++; o.n", want: "11"},
		// Compared with node: a getter's deep recursion grows (moves) the operand stack while
		// the caller's operands wait on it.
		{name: "operands survive a getter that grows the stack", src: "function deep(n) { return n == 0 ? 0 : 1 + deep(n - 1) } const o = { get x() { return deep(3000) } }; function add(a, b) { return a + b } const s = add(o.x, 1); const t = [o.x, o.x, deep(5000)]; s + ':' + t.join()", want: "3001:3000,3000,5000"},
		{name: "operands survive a valueOf that grows the stack", src: "function deep(n) { return n == 0 ? 0 : 1 + deep(n - 1) } const v = { valueOf() { return deep(4000) } }; function pair(a, b) { return a + '/' + b } pair('k', v + 1) + '|' + pair(v * 1, -v)", want: "k/4001|4000/-4000"},
		{name: "operands survive a private getter that grows the stack", src: "function deep(n) { return n == 0 ? 0 : 1 + deep(n - 1) } function pair(a, b) { return a + '/' + b } class C { get #g() { return deep(3000) } m() { return pair(this.#g, [this.#g].length) } } new C().m()", want: "3000/1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tt.src)
			require.Equal(t, tt.thrown, thrown, got)
			require.Equal(t, tt.want, got)
		})
	}
}

package interp

import "testing"

// TestV8MessageForms checks error messages that programs and their authors read against the
// text V8 (node 20) gives for the same program.
func TestV8MessageForms(t *testing.T) {
	t.Parallel()
	const msg = "; return 'no error' } catch (e) { return e.constructor.name + ': ' + e.message } })()"
	c := func(src string) string { return "(() => { try { " + src + msg }
	runJSCases(t, []jsCase{
		// new names the constructor as written
		{"new Math.abs", c(`new Math.abs()`), "TypeError: Math.abs is not a constructor"},
		{"new member", c(`const o = {f: 1}; new o.f()`), "TypeError: o.f is not a constructor"},
		{"new variable", c(`const f = Math.abs; new f(1)`), "TypeError: f is not a constructor"},
		{"new JSON.parse", c(`new JSON.parse("1")`), "TypeError: JSON.parse is not a constructor"},
		// a callback that is not a function is named by its value
		{"map of a number", c(`[1].map(42)`), "TypeError: 42 is not a function"},
		// built-ins given a value that is not iterable name its type
		{"Set of a boolean", c(`new Set(true)`), "TypeError: boolean true is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"Map of an object", c(`new Map({})`), "TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"WeakSet of a number", c(`new WeakSet(1)`), "TypeError: number 1 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		// super.x = v refused by the receiver
		{"super set on an own getter", c(`const o = { m() { super.x = 2 } }; Object.defineProperty(o, "x", {get() {}, configurable: true}); o.m()`), "TypeError: Cannot redefine property: x"},
		{"super set on an own read-only", c(`const o = { m() { super.x = 2 } }; Object.defineProperty(o, "x", {value: 1}); o.m()`), "TypeError: Cannot assign to read only property 'x' of object '#<Object>'"},
		{"super set on a frozen receiver", c(`class A {}; class B extends A { m() { super.y = 3 } }; Object.freeze(new B()).m()`), "TypeError: Cannot add property y, object is not extensible"},
		{"super set on an inherited getter", c(`const o = { __proto__: { get x() { return 1 } }, m() { super.x = 2 } }; o.m()`), "TypeError: Cannot set property x of #<Object> which has only a getter"},
		// an array length that cannot shrink past an element that cannot be deleted
		{"length past a non-configurable element", c(`const a = [1, 2, 3]; Object.defineProperty(a, 1, {configurable: false}); a.length = 0`), "TypeError: Cannot delete property '1' of [object Array]"},
		// private names are printed once with their #
		{"private field twice", c(`class A { constructor(o) { return o } }; class B extends A { #x = 1 }; const o = {}; new B(o); new B(o)`), "TypeError: Cannot initialize #x twice on the same object"},
		// an iterator closed by break whose return() gives no object
		{"return() of a primitive", c(`const it = {[Symbol.iterator]() { return {next() { return {value: 1, done: false} }, return() { return 5 }} }}; for (const x of it) break`), "TypeError: Iterator result 5 is not an object"},
		{"return() of null in destructuring", c(`const it = {[Symbol.iterator]() { return {next() { return {value: 1, done: false} }, return() { return null }} }}; const [a] = it`), "TypeError: Iterator result null is not an object"},
		// Date methods other than the getters name themselves and the receiver
		{"Date getter on an object", c(`Date.prototype.getTime.call({})`), "TypeError: this is not a Date object."},
		{"Date toISOString on an object", c(`Date.prototype.toISOString.call({})`), "TypeError: Method Date.prototype.toISOString called on incompatible receiver #<Object>"},
		{"Date setDate on an array", c(`Date.prototype.setDate.call([], 1)`), "TypeError: Method Date.prototype.setDate called on incompatible receiver [object Array]"},
		{"Date toGMTString", c(`Date.prototype.toGMTString.call(Object.create(null))`), "TypeError: Method Date.prototype.toUTCString called on incompatible receiver [object Object]"},
		{"Date getYear", c(`Date.prototype.getYear.call(1)`), "TypeError: Method Date.prototype.getYear called on incompatible receiver 1"},
		{"Date toPrimitive on a primitive", c(`Date.prototype[Symbol.toPrimitive].call("s", "number")`), "TypeError: Method Date.prototype [ @@toPrimitive ] called on incompatible receiver s"},
		// incompatible receivers are printed as Object::NoSideEffectsToString prints them
		{"Map get on an array", c(`Map.prototype.get.call([1], 1)`), "TypeError: Method Map.prototype.get called on incompatible receiver [object Array]"},
		{"Map get on a function", c(`Map.prototype.get.call(function f() {}, 1)`), "TypeError: Method Map.prototype.get called on incompatible receiver function f() {}"},
		{"Map get on an error", c(`Map.prototype.get.call(new RangeError("r"), 1)`), "TypeError: Method Map.prototype.get called on incompatible receiver RangeError: r"},
		{"Map get on a symbol", c(`Map.prototype.get.call(Symbol("q"), 1)`), "TypeError: Method Map.prototype.get called on incompatible receiver Symbol(q)"},
		{"DataView on a regexp", c(`DataView.prototype.getInt8.call(/a/, 0)`), "TypeError: Method DataView.prototype.getInt8 called on incompatible receiver undefined"},
		{"DataView byteLength on an object", c(`Object.getOwnPropertyDescriptor(DataView.prototype, "byteLength").get.call({})`), "TypeError: Method get DataView.prototype.byte_length called on incompatible receiver undefined"},
		// assignments refused by frozen, sealed and non-extensible objects
		{"add to frozen", c(`const o = Object.freeze({}); o.x = 1`), "TypeError: Cannot add property x, object is not extensible"},
		{"add to sealed", c(`const o = Object.seal({a: 1}); o.b = 1`), "TypeError: Cannot add property b, object is not extensible"},
		{"add to non-extensible", c(`const o = Object.preventExtensions({}); o["y"] = 2`), "TypeError: Cannot add property y, object is not extensible"},
		{"push on frozen array", c(`Object.freeze([1]).push(2)`), "TypeError: Cannot add property 1, object is not extensible"},
		{"change frozen", c(`const o = Object.freeze({x: 1}); o.x = 2`), "TypeError: Cannot assign to read only property 'x' of object '#<Object>'"},
		{"change frozen array", c(`const a = Object.freeze([1]); a[0] = 2`), "TypeError: Cannot assign to read only property '0' of object '[object Array]'"},
		{"change frozen instance", c(`class Foo { x = 1 }; const f = Object.freeze(new Foo()); f.x = 2`), "TypeError: Cannot assign to read only property 'x' of object '#<Foo>'"},
		{"getter only", c(`const o = {get x() { return 1 }}; o.x = 2`), "TypeError: Cannot set property x of #<Object> which has only a getter"},
		// the receiver is printed as Object::NoSideEffectsToString prints it, with its typeof
		{"read-only lastIndex of a regexp", c(`const r = /b/g; Object.defineProperty(r, "lastIndex", {writable: false}); r.exec("abc")`), "TypeError: Cannot assign to read only property 'lastIndex' of object '[object RegExp]'"},
		{"read-only of a function", c(`function f() {}; Object.defineProperty(f, "r", {value: 1}); f.r = 2`), "TypeError: Cannot assign to read only property 'r' of function 'function f() {}'"},
		{"read-only of an error", c(`const e = new Error("x"); Object.freeze(e); e.message = "y"`), "TypeError: Cannot assign to read only property 'message' of object 'Error: x'"},
		{"read-only of a date", c(`const d = new Date(0); Object.defineProperty(d, "r", {value: 1}); d.r = 2`), "TypeError: Cannot assign to read only property 'r' of object '[object Date]'"},
		{"read-only of a null-prototype object", c(`const o = Object.freeze(Object.assign(Object.create(null), {x: 1})); o.x = 2`), "TypeError: Cannot assign to read only property 'x' of object '[object Object]'"},
		{"read-only of a Map", c(`const m = new Map(); Object.defineProperty(m, "r", {value: 1}); m.r = 2`), "TypeError: Cannot assign to read only property 'r' of object '#<Map>'"},
		{"getter only of a class", c(`class K { static get g() { return 1 } }; K.g = 2`), "TypeError: Cannot set property g of class K { static get g() { return 1 } } which has only a getter"},
		{"define on frozen", c(`Object.defineProperty(Object.freeze({}), "x", {value: 1})`), "TypeError: Cannot define property x, object is not extensible"},
		// delete refused: the object is printed as V8's NoSideEffectsToString prints it
		{"delete frozen", c(`const o = Object.freeze({a: 1}); delete o.a`), "TypeError: Cannot delete property 'a' of #<Object>"},
		{"delete frozen instance", c(`class K { constructor() { this.x = 1 } }; delete Object.freeze(new K()).x`), "TypeError: Cannot delete property 'x' of #<K>"},
		{"delete frozen array", c(`delete Object.freeze([1, 2])[0]`), "TypeError: Cannot delete property '0' of [object Array]"},
		{"pop sealed array", c(`Object.seal([1, 2, 3]).pop()`), "TypeError: Cannot delete property '2' of [object Array]"},
		{"delete null proto", c(`delete Object.freeze(Object.create(null, {x: {value: 1}})).x`), "TypeError: Cannot delete property 'x' of [object Object]"},
		{"delete function name", c(`delete Object.freeze(function foo() {}).name`), "TypeError: Cannot delete property 'name' of function foo() {}"},
		{"delete Math.PI", c(`delete Math.PI`), "TypeError: Cannot delete property 'PI' of #<Object>"},
		{"delete string index", c(`const s = "abc"; delete s[0]`), "TypeError: Cannot delete property '0' of [object String]"},
		{"delete string length", c(`delete "abc".length`), "TypeError: Cannot delete property 'length' of [object String]"},
		{"delete string other key", c(`const s = "abc"; if (!(delete s[5] && delete s.foo)) throw 1`), "no error"},
		{"accessor and value", c(`Object.defineProperty({}, "x", {value: 1, get() {}})`), "TypeError: Invalid property descriptor. Cannot both specify accessors and a value or writable attribute, #<Object>"},
		{"push past read-only length", c(`const a = [1]; Object.defineProperty(a, "length", {writable: false}); a.push(2)`), "TypeError: Cannot assign to read only property 'length' of object '[object Array]'"},
		{"index past read-only length", c(`const a = [1]; Object.defineProperty(a, "length", {writable: false}); a[5] = 2`), "TypeError: Cannot assign to read only property 'length' of object '[object Array]'"},
		{"push on frozen array is not extensible", c(`Object.freeze([1, 2, 3]).push(4)`), "TypeError: Cannot add property 3, object is not extensible"},
		{"extends null", c(`class C extends null {}; new C()`), "TypeError: Super constructor null of C is not a constructor"},
		{"extends null anonymous", c(`new (class extends null {})()`), "TypeError: Super constructor null of anonymous class is not a constructor"},
		{"super of an arrow", c(`class A {}; class B extends A { constructor() { super() } }; Object.setPrototypeOf(B, () => 1); new B()`), "TypeError: Super constructor null of B is not a constructor"},
		{"private method assigned", c(`class C { #p() {} static w(o) { o.#p = 1 } }; C.w(new C())`), "TypeError: Private method '#p' is not writable"},
		{"setPrototypeOf not extensible", c(`class K {}; Object.setPrototypeOf(Object.preventExtensions(new K()), {})`), "TypeError: #<K> is not extensible"},
		{"generator next on an object", c(`function* g() {}; g().next.call({})`), "TypeError: Method [Generator].prototype.next called on incompatible receiver #<Object>"},
		{"generator throw on an array", c(`function* g() {}; g().throw.call([])`), "TypeError: Method [Generator].prototype.throw called on incompatible receiver [object Array]"},
		// for-of and spread of a value that is not iterable name it as written
		{"for-of of an object", c(`const data = {items: {}}; for (const x of data.items) {}`), "TypeError: data.items is not iterable"},
		{"for-of of a string key", c(`const o = {a: {}}; for (const x of o["a"]) {}`), "TypeError: o.a is not iterable"},
		{"for-of of a computed key", c(`const o = {a: null}, k = "a"; for (const x of o[k]) {}`), "TypeError: o[k] is not iterable"},
		{"for-of of null", c(`const r = {rows: null}; for (const x of r.rows) {}`), "TypeError: r.rows is not iterable"},
		{"for-of of a call", c(`function getItems() { return {items: []} }; for (const x of getItems()) {}`), "TypeError: getItems is not a function or its return value is not iterable"},
		{"for-of of a bad iterator method", c(`const it = {[Symbol.iterator]: 5}; for (const x of it) {}`), "TypeError: it is not iterable"},
		{"spread of an object", c(`const o = {}; [...o]`), "TypeError: o is not iterable"},
		{"for-await of an object", `(async () => { try { const o = {a: {}}; for await (const x of o.a) {} } catch (e) { return e.message } })()`, "o.a is not async iterable"},
		{"for-of of an iterable getter", c(`const g = {get [Symbol.iterator]() { return function* () { yield 1 } }}; for (const x of g) {}`), "no error"},
		// destructuring null or undefined names the first key and the value's source
		{"destructure a path", c(`const o = {n: null}; const {a} = o.n`), "TypeError: Cannot destructure property 'a' of 'o.n' as it is null."},
		{"destructure a call", c(`function g() {}; const {items, total} = g()`), "TypeError: Cannot destructure property 'items' of 'g(...)' as it is undefined."},
		{"destructure an await", `(async () => { try { const {a} = await null } catch (e) { return e.message } })()`, "Cannot destructure property 'a' of '(intermediate value)' as it is null."},
		{"destructure null", c(`const {'a-b': x} = null`), "TypeError: Cannot destructure property 'a-b' of 'null' as it is null."},
		{"destructure assignment", c(`let a; ({a} = undefined)`), "TypeError: Cannot destructure property 'a' of 'undefined' as it is undefined."},
		{"destructure a parameter", c(`function f({a, b}) {}; f(null)`), "TypeError: Cannot destructure property 'a' of 'object null' as it is null."},
		{"destructure a missing argument", c(`const f = ({a}) => a; f()`), "TypeError: Cannot destructure property 'a' of 'undefined' as it is undefined."},
		{"destructure nested", c(`const {x: {y}} = {x: null}`), "TypeError: Cannot read properties of null (reading 'y')"},
		{"destructure with a default", c(`const {a = 1} = undefined`), "TypeError: Cannot read properties of undefined (reading 'a')"},
		{"destructure computed key", c(`const {[1 + 1]: x} = null`), "TypeError: Cannot destructure 'null' as it is null."},
		{"destructure rest only", c(`const {...r} = null`), "TypeError: Cannot destructure 'null' as it is null."},
		{"call of a string key path", c(`const o = {"a-b": {}}; o["a-b"].f()`), "TypeError: o.a-b.f is not a function"},
		{"new of a string key path", c(`const o = {a: {}}; new o['a'].C()`), "TypeError: o.a.C is not a constructor"},
		{"call of a computed key path", c(`const res = {data: {items: {}}}, k = "items"; res.data[k].map(x => x)`), "TypeError: res.data[k].map is not a function"},
		{"call of an index path", c(`const o = {a: [{}]}, i = 0; o.a[i].f()`), "TypeError: o.a[i].f is not a function"},
		{"clone arrow", `(() => { try { structuredClone(() => 1) } catch (e) { return e.name + ": " + e.message } })()`, "DataCloneError: () => 1 could not be cloned."},
		{"clone method", `(() => { try { structuredClone({f() {}}) } catch (e) { return e.name + ": " + e.message } })()`, "DataCloneError: f() {} could not be cloned."},
	})
}

// TestPromiseCombinatorNotIterable checks that Promise.all and its siblings reject, rather
// than throw, for a value that is not iterable, with V8's message naming the value's type.
func TestPromiseCombinatorNotIterable(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"all", `await Promise.all(5).catch(e => e.constructor.name + ': ' + e.message)`, "TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"race", `await Promise.race(5).catch(e => e.message)`, "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"allSettled", `await Promise.allSettled({}).catch(e => e.message)`, "object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"any", `await Promise.any(undefined).catch(e => e.message)`, "undefined is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"null", `await Promise.all(null).catch(e => e.message)`, "object null is not iterable (cannot read property Symbol(Symbol.iterator))"},
	})
}

// TestThrownNonErrorDescribed checks that an uncaught object that is not an error is
// described as node prints it, not by its (absent) name and message.
func TestThrownNonErrorDescribed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ src, want string }{
		{`throw {code: 7}`, "{ code: 7 }"},
		{`throw [1, "a"]`, "[ 1, 'a' ]"},
		{`throw {message: "kept"}`, "kept"},
		{`throw "plain"`, "plain"},
	} {
		p, err := Compile(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		vm := New(Config{})
		if err := vm.Start(p); err != nil {
			t.Fatal(err)
		}
		if _, err := vm.Run(t.Context(), RunOptions{}); err != nil {
			t.Fatal(err)
		}
		v, thrown := vm.Result()
		if !thrown {
			t.Fatalf("%s: did not throw", tt.src)
		}
		if _, msg, _, _ := vm.DescribeError(v); msg != tt.want {
			t.Errorf("%s: message %q, want %q", tt.src, msg, tt.want)
		}
	}
}

// TestErrorInBuiltinLocatedAtCall checks that an error a built-in raises while it runs (here
// Array.from calling an iterator's next that is no function) is located at the call the
// program wrote, where node's stack locates it: a method call at the method's name, a
// constructor call at "new".
func TestErrorInBuiltinLocatedAtCall(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src       string
		line, col int
	}{
		{"return Array.from({ [Symbol.iterator]: () => ({ next: 1 }) })", 1, 14},
		{"const x = 1\nconst r = [1].map(42, {a: [1, 2]})", 2, 15},
		{"const m = new Map([[1, 2]])\nconst s = new Set(m.get(1))", 2, 11},
	} {
		p, err := Compile(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		vm := New(Config{})
		if err := vm.Start(p); err != nil {
			t.Fatal(err)
		}
		if _, err := vm.Run(t.Context(), RunOptions{}); err != nil {
			t.Fatal(err)
		}
		v, thrown := vm.Result()
		if !thrown {
			t.Fatalf("%s: did not throw", tt.src)
		}
		if _, msg, line, col := vm.DescribeError(v); line != tt.line || col != tt.col {
			t.Errorf("%s: %s at %d:%d, want %d:%d", tt.src, msg, line, col, tt.line, tt.col)
		}
	}
}

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
		// assignments refused by frozen, sealed and non-extensible objects
		{"add to frozen", c(`const o = Object.freeze({}); o.x = 1`), "TypeError: Cannot add property x, object is not extensible"},
		{"add to sealed", c(`const o = Object.seal({a: 1}); o.b = 1`), "TypeError: Cannot add property b, object is not extensible"},
		{"add to non-extensible", c(`const o = Object.preventExtensions({}); o["y"] = 2`), "TypeError: Cannot add property y, object is not extensible"},
		{"push on frozen array", c(`Object.freeze([1]).push(2)`), "TypeError: Cannot add property 1, object is not extensible"},
		{"change frozen", c(`const o = Object.freeze({x: 1}); o.x = 2`), "TypeError: Cannot assign to read only property 'x' of object '#<Object>'"},
		{"change frozen array", c(`const a = Object.freeze([1]); a[0] = 2`), "TypeError: Cannot assign to read only property '0' of object '[object Array]'"},
		{"change frozen instance", c(`class Foo { x = 1 }; const f = Object.freeze(new Foo()); f.x = 2`), "TypeError: Cannot assign to read only property 'x' of object '#<Foo>'"},
		{"getter only", c(`const o = {get x() { return 1 }}; o.x = 2`), "TypeError: Cannot set property x of #<Object> which has only a getter"},
		{"define on frozen", c(`Object.defineProperty(Object.freeze({}), "x", {value: 1})`), "TypeError: Cannot define property x, object is not extensible"},
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

package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/compiler"
)

// TestCallMessages checks the TypeErrors of calling what is not a function, constructing what
// is not a constructor and iterating what is not iterable against the text node 20 gives for
// the same programs: the callee or iterable is named as V8 prints it (optional chains with
// their ?., literals as their values, anything else as (intermediate value)).
func TestCallMessages(t *testing.T) {
	t.Parallel()
	runJSCases(t, callMessageCases())
}

// callMessageCases are TestCallMessages' programs, each catching its error and returning its
// class and message, with node's result.
func callMessageCases() []jsCase {
	const values = "const o = {a: {b: {}}, n: null, s: 'str', f() { return 1 }, g() { return () => 2 }}; " +
		"const k = 'zz'; function X() {} function fn() { return 5 } let x; "
	const tail = "; return 'no error' } catch (e) { return e.constructor.name + ': ' + e.message } })()"
	c := func(src string) string { return "(() => { " + values + "try { " + src + tail }
	ca := func(src string) string { return "await (async () => { " + values + "try { " + src + tail }
	return []jsCase{
		// optional chains are named with their ?.
		{"o?.b()", c(`const o = {}; return o?.b()`), "TypeError: o?.b is not a function"},
		{"o.a?.b()", c(`const o = {a: {}}; return o.a?.b()`), "TypeError: o.a?.b is not a function"},
		{"o?.a.b()", c(`o?.a.b()`), "TypeError: o?.a.b is not a function"},
		{"o.a?.b.c()", c(`o.a?.b.c()`), "TypeError: o.a?.b.c is not a function"},
		{"o?.a?.b?.c()", c(`o?.a?.b?.c()`), "TypeError: o?.a?.b?.c is not a function"},
		{"o?.['x']()", c(`o?.['x']()`), "TypeError: o?.x is not a function"},
		{"o.a?.['x']()", c(`o.a?.['x']()`), "TypeError: o.a?.x is not a function"},
		{"o?.[k]()", c(`o?.[k]()`), "TypeError: o?.[k] is not a function"},
		{"o.a?.[0]()", c(`o.a?.[0]()`), "TypeError: o.a?.[0] is not a function"},
		{"o?.[1+1]()", c(`o?.[1+1]()`), "TypeError: o?.[2] is not a function"},
		{"o.a?.()", c(`o.a?.()`), "TypeError: o.a is not a function"},
		{"o.f?.()()", c(`o.f?.()()`), "TypeError: o.f(...) is not a function"},
		{"fn?.().x()", c(`fn?.().x()`), "TypeError: fn(...).x is not a function"},
		{"o?.f().x()", c(`o?.f().x()`), "TypeError: o?.f(...).x is not a function"},
		// an optional chain inside the callee is one value
		{"(o?.b)()", c(`(o?.b)()`), "TypeError: (intermediate value) is not a function"},
		{"(o?.a).b()", c(`(o?.a).b()`), "TypeError: (intermediate value).b is not a function"},
		{"(o?.f)()()", c(`(o?.f)()()`), "TypeError: (intermediate value)(...) is not a function"},
		{"o[o?.a]()", c(`o[o?.a]()`), "TypeError: o[(intermediate value)] is not a function"},
		{"(0, o?.a)()", c(`(0, o?.a)()`), "TypeError: (0 , (intermediate value)) is not a function"},

		// calls on literals name the literal
		{"string", c(`return "abc".foo()`), `TypeError: "abc".foo is not a function`},
		{"single-quoted string", c(`'abc'.foo()`), `TypeError: "abc".foo is not a function`},
		{"string with escapes", c(`'a\x41"'.foo()`), `TypeError: "aA"".foo is not a function`},
		{"string property", c(`'abc'.length()`), `TypeError: "abc".length is not a function`},
		{"string index", c(`'abc'[0]()`), `TypeError: "abc"[0] is not a function`},
		{"string optional", c(`'abc'?.foo()`), `TypeError: "abc"?.foo is not a function`},
		{"number", c(`return (5).foo()`), "TypeError: 5.foo is not a function"},
		{"number with two dots", c(`5..foo()`), "TypeError: 5.foo is not a function"},
		{"hex number", c(`0x10.foo()`), "TypeError: 16.foo is not a function"},
		{"negated number", c(`(-5).foo()`), "TypeError: -5.foo is not a function"},
		{"bigint", c(`(1n).foo()`), "TypeError: (intermediate value).foo is not a function"},
		{"negated bigint", c(`(-5n).foo()`), "TypeError: (-(intermediate value)).foo is not a function"},
		{"true", c(`true.foo()`), "TypeError: true.foo is not a function"},
		{"template", c("`abc`.foo()"), `TypeError: "abc".foo is not a function`},
		{"template with substitutions", c("`a${k}b${o}c`.foo()"), "TypeError: ko.foo is not a function"},
		{"array", c(`[1,2].foo()`), "TypeError: [1,2].foo is not a function"},
		{"array index", c(`[1][0]()`), "TypeError: [1][0] is not a function"},
		{"array with a hole and a spread", c(`[,...k].foo()`), "TypeError: [(intermediate value),(...k)].foo is not a function"},
		{"empty object", c(`({}).foo()`), "TypeError: {}.foo is not a function"},
		{"object", c(`({a: 1, b() {}}).foo()`), "TypeError: {(intermediate value)(intermediate value)}.foo is not a function"},
		{"regexp", c(`/re/yg.foo()`), "TypeError: /re/gy.foo is not a function"},
		{"string called", c(`'s'()`), `TypeError: "s" is not a function`},
		{"folded key", c(`o[2**3 | 1]()`), "TypeError: o[9] is not a function"},
		{"folded not", c(`o[!'a']()`), "TypeError: o[false] is not a function"},

		// values the printer does not render
		{"new X()()", c(`function X(){} return new X()()`), "TypeError: (intermediate value) is not a function"},
		{"(new X)()", c(`(new X)()`), "TypeError: (intermediate value) is not a function"},
		{"new X().foo()", c(`new X().foo()`), "TypeError: (intermediate value).foo is not a function"},
		{"arrow called twice", c(`(() => 1)()()`), "TypeError: (intermediate value)(...) is not a function"},
		{"f()()", c(`fn()()`), "TypeError: fn(...) is not a function"},
		{"comma", c(`(0, o.s)()`), "TypeError: (0 , o.s) is not a function"},
		{"computed key", c(`o.a[k]()`), "TypeError: o.a[k] is not a function"},

		// tagged templates are calls of their tag
		{"tag", c("o.s`x`"), "TypeError: o.s is not a function"},
		{"missing tag", c("o.q`x`"), "TypeError: o.q is not a function"},
		{"tag result called", c("fn`x`()"), "TypeError: fn(...) is not a function"},

		// super and private names
		{"super.x()", c(`class B {} class C extends B { m() { return super.x() } } new C().m()`), "TypeError: (intermediate value).x is not a function"},
		{"super[k]()", c(`class C { m() { return super[k]() } } new C().m()`), "TypeError: (intermediate value)[k] is not a function"},
		{"super.m()()", c(`class B { m() { return 1 } } class C extends B { m() { return super.m()() } } new C().m()`), "TypeError: (intermediate value).m(...) is not a function"},
		{"new super.m()", c(`class B { m() {} } class C extends B { m() { return new super.m() } } new C().m()`), "TypeError: (intermediate value).m is not a constructor"},
		{"this.#p()", c(`class C { #p = 5; m() { return this.#p() } } new C().m()`), "TypeError: this[#p] is not a function"},
		{"this?.#p()", c(`class C { #p = 5; m() { return this?.#p() } } new C().m()`), "TypeError: this?.[#p] is not a function"},
		{"anonymous class called", c(`(class {})()`), "TypeError: Class constructors cannot be invoked without 'new'"},
		{"named class called", c(`class A {} A()`), "TypeError: Class constructor A cannot be invoked without 'new'"},

		// new
		{"new (o.s)()", c(`new (o.s)()`), "TypeError: o.s is not a constructor"},
		{"new o.s", c(`new o.s`), "TypeError: o.s is not a constructor"},
		{"new o.f()", c(`new o.f()`), "TypeError: o.f is not a constructor"},
		{"new (fn())()", c(`new (fn())()`), "TypeError: fn(...) is not a constructor"},
		{"new 5", c(`new 5`), "TypeError: 5 is not a constructor"},
		{"new 'abc'.x", c(`new 'abc'.x`), `TypeError: "abc".x is not a constructor`},
		{"new [1].x()", c(`new [1].x()`), "TypeError: [1].x is not a constructor"},
		{"new /x/", c(`new /x/`), "TypeError: /x/ is not a constructor"},
		{"new (o?.a)", c(`new (o?.a)`), "TypeError: (intermediate value) is not a constructor"},
		{"new (o.a?.b)()", c(`new (o.a?.b)()`), "TypeError: (intermediate value) is not a constructor"},
		{"new (() => 1)", c(`new (() => 1)`), "TypeError: (intermediate value) is not a constructor"},

		// for-of, spreads and array patterns
		{"for of 5", c(`for (x of 5);`), "TypeError: 5 is not iterable"},
		{"for of o.a", c(`for (x of o.a);`), "TypeError: o.a is not iterable"},
		{"for of o.f()", c(`for (x of o.f());`), "TypeError: o.f is not a function or its return value is not iterable"},
		{"for of new X()", c(`for (x of new X());`), "TypeError: X is not a function or its return value is not iterable"},
		{"for of /x/g", c(`for (x of /x/g);`), "TypeError: /x/g is not iterable"},
		{"for of {a: 1}", c(`for (x of {a: 1});`), "TypeError: {(intermediate value)} is not iterable"},
		{"for of o?.a", c(`for (x of o?.a);`), "TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"for of o?.n", c(`for (x of o?.n);`), "TypeError: object null is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"for of o?.f()", c(`for (x of o?.f());`), "TypeError: o?.f is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"for of fn?.()", c(`for (x of fn?.());`), "TypeError: fn is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"[...5]", c(`[...5]`), "TypeError: 5 is not iterable"},
		{"[...fn()]", c(`[...fn()]`), "TypeError: fn is not a function or its return value is not iterable"},
		{"[...new X()]", c(`[...new X()]`), "TypeError: X is not a function or its return value is not iterable"},
		{"[.../x/]", c(`[.../x/]`), "TypeError: /x/ is not iterable"},
		{"[...o?.a]", c(`[...o?.a]`), "TypeError: (intermediate value) is not iterable"},
		{"[...o?.f()]", c(`[...o?.f()]`), "TypeError: (intermediate value) is not iterable"},
		{"fn(...5)", c(`fn(...5)`), "TypeError: Spread syntax requires ...iterable[Symbol.iterator] to be a function"},
		{"fn(.../x/)", c(`fn(.../x/)`), "TypeError: Spread syntax requires ...iterable[Symbol.iterator] to be a function"},
		{"fn(...o?.q)", c(`fn(...o?.q)`), "TypeError: (intermediate value) is not iterable (cannot read property undefined)"},
		{"const [z] = new X()", c(`const [z] = new X()`), "TypeError: X is not a function or its return value is not iterable"},
		{"const [z] = fn?.()", c(`const [z] = fn?.()`), "TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"for await of fn()", ca(`for await (x of fn());`), "TypeError: fn(...) is not a function or its return value is not async iterable"},
		{"for await of new X()", ca(`for await (x of new X());`), "TypeError: (intermediate value) is not a function or its return value is not async iterable"},
		{"for await of /x/", ca(`for await (x of /x/);`), "TypeError: /x/ is not async iterable"},
		{"for await of o?.a", ca(`for await (x of o?.a);`), "TypeError: undefined is not a function"},
		{"for await of o?.g()", ca(`for await (x of o?.g());`), "TypeError: o?.g is not a function"},

		// Date.prototype's methods are in V8's order
		{"Date.prototype", `Object.getOwnPropertyNames(Date.prototype).join()`,
			"constructor,toString,toDateString,toTimeString,toISOString,toUTCString,toGMTString,getDate,setDate,getDay," +
				"getFullYear,setFullYear,getHours,setHours,getMilliseconds,setMilliseconds,getMinutes,setMinutes,getMonth," +
				"setMonth,getSeconds,setSeconds,getTime,setTime,getTimezoneOffset,getUTCDate,setUTCDate,getUTCDay," +
				"getUTCFullYear,setUTCFullYear,getUTCHours,setUTCHours,getUTCMilliseconds,setUTCMilliseconds,getUTCMinutes," +
				"setUTCMinutes,getUTCMonth,setUTCMonth,getUTCSeconds,setUTCSeconds,valueOf,getYear,setYear,toJSON," +
				"toLocaleString,toLocaleDateString,toLocaleTimeString"},
	}
}

// notCallableHost is a host whose NotCallable hook names the callee it was given.
type notCallableHost struct{ idHost }

func (notCallableHost) NotCallable(vm *VM, callee string) (Value, bool) {
	return vm.NewError("Error", "host: "+callee), true
}

// TestCallMessagesHostPath checks that the host's NotCallable hook is given a callee path
// without its optional links, whether the call or a read on the way fails, while the
// TypeError without a hook names the path with them.
func TestCallMessagesHostPath(t *testing.T) {
	t.Parallel()
	const tools = "const tools = {math: {}}; "
	const tail = "; return 'no error' } catch (e) { return e.message } })()"
	for _, tt := range []struct{ src, hook, plain string }{
		{"tools.math?.ad()", "host: tools.math.ad", "tools.math?.ad is not a function"},
		{"tools?.math.ad()", "host: tools.math.ad", "tools?.math.ad is not a function"},
		{`tools?.["math"]?.['ad']()`, `host: tools["math"]['ad']`, "tools?.math?.ad is not a function"},
		{`tools.math["a?.b"]()`, `host: tools.math["a?.b"]`, "tools.math.a?.b is not a function"},
		{"tools?.nope.ad()", "host: tools.nope.ad", "Cannot read properties of undefined (reading 'ad')"},
		{"tools.math.ad`x`", "host: tools.math.ad", "tools.math.ad is not a function"},
	} {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			src := "(() => { " + tools + "try { " + tt.src + tail
			require.Equal(t, tt.hook, evalIn(t, New(Config{Host: notCallableHost{}}), src))
			require.Equal(t, tt.plain, evalJS(t, src))
		})
	}
}

// TestHostCalleePath checks the callee paths the host's NotCallable hook is given.
func TestHostCalleePath(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"tools.math.add":             "tools.math.add",
		"tools?.math?.add":           "tools.math.add",
		`tools?.["a?.b"]?.['c']`:     `tools["a?.b"]['c']`,
		`tools["a\"?.b"]?.c`:         `tools["a\"?.b"].c`,
		`tools["unterminated?.`:      `tools["unterminated?.`,
		"tools.x?.[\"y\"].z":         `tools.x["y"].z`,
		"o?.a?.b?.c?.d":              "o.a.b.c.d",
		"tools?.[\"\"]":              `tools[""]`,
		"?.":                         ".",
		"tools.math?.add?.[\"sub\"]": `tools.math.add["sub"]`,
	} {
		require.Equal(t, want, hostCalleePath(text), text)
	}
}

// TestBuiltinMethodsListed checks that the methods the compiler counts on the built-in
// prototypes having (compiler.BuiltinMethods) are methods of the pristine prototypes, and
// that a call of one on a literal still throws a TypeError once the program replaced it.
func TestBuiltinMethodsListed(t *testing.T) {
	t.Parallel()
	for proto, names := range compiler.BuiltinMethods {
		t.Run(proto, func(t *testing.T) {
			t.Parallel()
			list := "['" + strings.Join(strings.Fields(names), "', '") + "']"
			src := list + ".filter(n => !Object.hasOwn(" + proto + ", n) || typeof " + proto + "[n] !== 'function').join()"
			require.Equal(t, "", evalJS(t, src))
		})
	}
	const tail = "; return 'no error' } catch (e) { return e.constructor.name + ': ' + e.message } })()"
	runJSCases(t, []jsCase{
		{"replaced", "(() => { String.prototype.repeat = 5; try { '.'.repeat(2)" + tail, "TypeError: 5 is not a function"},
		{"deleted", "(() => { delete Array.prototype.join; try { [1, 2].join()" + tail, "TypeError: undefined is not a function"},
	})
}

package syntax

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEarlyErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		mode Mode
		line int // expected line of the error (0: not checked)
		col  int
	}{
		{name: "top-level continue", src: "continue", line: 1, col: 1},
		{name: "break outside loop", src: "if (x) {\n  break\n}", line: 2, col: 3},
		{name: "continue in switch only", src: "switch (x) { case 1: continue }"},
		{name: "undefined break label", src: "while (x) { break nope }"},
		{name: "continue to non-loop label", src: "l: { while (x) { continue l } }"},
		{name: "break across function boundary", src: "l: while (x) { (function () { break l })() }"},
		{name: "duplicate label", src: "a: a: while (x) {}"},
		{name: "labelled function in strict code", src: "l: function f() {}"},
		{name: "labelled class", src: "l: class C {}", mode: ModeScript},
		{name: "labelled let declaration body of if", src: "if (x) l: function f() {}", mode: ModeScript},
		{name: "return at script top level", src: "return 1", mode: ModeScript},
		{name: "await at script top level", src: "await x", mode: ModeScript},
		{name: "for await at script top level", src: "for await (const x of y) {}", mode: ModeScript},
		{name: "await in non-async function", src: "function f() { await x }"},
		{name: "await in async parameters", src: "async function f(a = await 1) {}"},
		{name: "yield in generator parameters", src: "function* g(a = yield) {}"},
		{name: "new.target outside functions", src: "new.target"},
		{name: "new.target in top-level arrow", src: "(() => new.target)()"},
		{name: "super property outside methods", src: "function f() { return super.x }"},
		{name: "super call outside derived constructor", src: "class A { constructor() { super() } }"},
		{name: "super call in method", src: "class A extends B { m() { super() } }"},
		{name: "super private access", src: "class A extends B { #x; m() { super.#x } }"},
		{name: "assignment to call", src: "f() = 1"},
		{name: "assignment to literal", src: "1 = 2"},
		{name: "compound assignment to pattern", src: "[a] += 1"},
		{name: "logical assignment to call", src: "f() &&= 1"},
		{name: "increment of call", src: "f()++"},
		{name: "prefix decrement of literal", src: "--1"},
		{name: "assignment to optional chain", src: "a?.b = 1"},
		{name: "assignment to parenthesized pattern", src: "({a}) = 1"},
		{name: "assignment to eval", src: "eval = 1"},
		{name: "increment of arguments", src: "arguments++"},
		{name: "destructuring to eval", src: "[eval] = []"},
		{name: "rest with initializer", src: "[...a = 1] = []"},
		{name: "rest not last in object pattern", src: "({...a, b} = {})"},
		{name: "method in assignment pattern", src: "({m() {}} = {})"},
		{name: "for-of head not assignable", src: "for (f() of []) {}"},
		{name: "for-of async head", src: "for (async of []) {}"},
		{name: "let redeclared", src: "let a; let a"},
		{name: "let conflicts with var", src: "var a; let a"},
		{name: "var conflicts with outer let in block", src: "let a; { var a }"},
		{name: "const conflicts with function", src: "function f() {} const f = 1"},
		{name: "class redeclared", src: "class A {} class A {}"},
		{name: "let conflicts with parameter", src: "function f(a) { let a }"},
		{name: "let conflicts with catch parameter", src: "try {} catch (e) { let e }"},
		{name: "var conflicts with catch pattern", src: "try {} catch ([e]) { var e }"},
		{name: "for-of let conflicts with var in body", src: "for (let x of y) { var x }"},
		{name: "switch cases share a scope", src: "switch (x) { case 1: let a; break; case 2: let a }"},
		{name: "duplicate functions in a strict block", src: "{ function f() {} function f() {} }"},
		{name: "let as lexical name", src: "let let = 1", mode: ModeScript},
		{name: "duplicate parameters in strict code", src: "function f(a, a) {}"},
		{name: "duplicate parameters in arrow", src: "x = (a, a) => 1", mode: ModeScript},
		{name: "duplicate parameters with defaults", src: "function f(a, a = 1) {}", mode: ModeScript},
		{name: "use strict with non-simple parameters", src: "function f(a = 1) { 'use strict' }", mode: ModeScript},
		{name: "use strict makes function name strict", src: "function eval() { 'use strict' }", mode: ModeScript},
		{name: "delete identifier", src: "delete x"},
		{name: "delete parenthesized identifier", src: "delete ((x))"},
		{name: "delete private field", src: "class A { #x; m() { delete this.#x } }", mode: ModeScript},
		{name: "octal escape in strict string", src: "'\\01'"},
		{name: "eight escape in strict string", src: "'\\8'"},
		{name: "leading zero decimal", src: "x = 08"},
		{name: "octal escape in template", src: "`\\01`", mode: ModeScript},
		{name: "bad hex escape in template", src: "`\\xg`", mode: ModeScript},
		{name: "duplicate regexp flag", src: "/a/gg"},
		{name: "unknown regexp flag", src: "/a/x"},
		{name: "u and v flags together", src: "/a/uv"},
		{name: "invalid regexp body", src: "/a**/"},
		{name: "undeclared private name", src: "class A { m() { return this.#x } }", mode: ModeScript},
		{name: "private name outside class", src: "this.#x"},
		{name: "private in outside class", src: "#x in o"},
		{name: "duplicate private names", src: "class A { #x; #x }"},
		{name: "private getter twice", src: "class A { get #x() {} get #x() {} }"},
		{name: "private constructor name", src: "class A { #constructor() {} }"},
		{name: "duplicate constructors", src: "class A { constructor() {} constructor() {} }"},
		{name: "generator constructor", src: "class A { *constructor() {} }"},
		{name: "async constructor", src: "class A { async constructor() {} }"},
		{name: "getter constructor", src: "class A { get constructor() {} }"},
		{name: "field named constructor", src: "class A { constructor = 1 }"},
		{name: "static prototype method", src: "class A { static prototype() {} }"},
		{name: "getter with parameter", src: "x = { get a(b) {} }"},
		{name: "setter without parameter", src: "class A { set a() {} }"},
		{name: "setter with rest parameter", src: "x = { set a(...b) {} }"},
		{name: "arguments in field initializer", src: "class A { x = arguments }"},
		{name: "arguments in arrow in field initializer", src: "class A { x = () => arguments }"},
		{name: "await in static block", src: "class A { static { await } }", mode: ModeScript},
		{name: "strict reserved word as binding", src: "var implements = 1"},
		{name: "strict reserved word as reference", src: "x = package"},
		{name: "yield as identifier in strict code", src: "var yield = 1"},
		{name: "eval as binding", src: "let eval = 1"},
		{name: "arguments as parameter", src: "function f(arguments) {}"},
		{name: "class name is strict", src: "class implements {}", mode: ModeScript},
		{name: "escaped keyword as identifier", src: "var v\\u0061r = 1", mode: ModeScript},
		{name: "escaped await in async body", src: "var \\u0061wait = 1"},
		{name: "shorthand initializer in object literal", src: "x = {a = 1}"},
		{name: "duplicate __proto__", src: "x = {__proto__: 1, '__proto__': 2}"},
		{name: "duplicate __proto__ with comments", src: "x = {__proto__ /* a */ : 1, __proto__: 2}"},
		{name: "nullish mixed with or", src: "a ?? b || c"},
		{name: "tagged template on optional chain", src: "a?.b`x`"},
		{name: "new on optional chain", src: "new a?.b()"},
		{name: "let declaration as if body", src: "if (x) let y = 1"},
		{name: "semicolon between if block and else", src: "if (x) {}; else {}", line: 1, col: 12},
		{name: "semicolon between do block and while", src: "do {}; while (x)"},
		{name: "class fields on one line", src: "class A { a b }"},
		{name: "escaped async is a field name", src: "class A { \\u0061sync m() {} }"},
		{name: "trailing comma after array rest in pattern", src: "let x; [...x,] = []"},
		{name: "trailing comma after object rest in pattern", src: "let x; ({...x,} = {})"},
		{name: "trailing comma after arrow rest parameter", src: "f = (...a,) => a"},
		{name: "short unicode escape in string", src: "'\\u1'"},
		{name: "separator in braced unicode escape", src: "'\\u{1F_639}'"},
		{name: "bad hex escape in string", src: "'\\x4'", mode: ModeScript},
		{name: "escaped zero-width joiner starting identifier", src: "var \\u200D = 1"},
		{name: "escaped pattern syntax character in identifier", src: "var a\\u2E2F = 1"},
		{name: "escaped line feed in identifier", src: "var\\u000Ax = 1"},
		{name: "escaped hash as private name", src: "class C { m() { this.\\u0023f } }"},
		{name: "escaped hash as class element", src: "class C { \\u0023m() {} }"},
		{name: "invalid escaped field name", src: "class C { \\u0000; }"},
		{name: "async prefix on shorthand property", src: "x = {async async}"},
		{name: "star prefix on shorthand property", src: "x = {* foo}"},
		{name: "empty Script property value", src: "/\\p{Script=}/u"},
		{name: "unknown Script property value", src: "/\\p{Script=FooBarBazInvalid}/u"},
		{name: "identity escape with u flag", src: "/\\M/u"},
		{name: "lone brace with u flag", src: "/{/u"},
		{name: "lone bracket with u flag", src: "/]/u"},
		{name: "identity escape in group with u flag", src: "/(?<a>\\a)/u"},
		{name: "class escape dash outside class with u flag", src: "/\\-/u"},
		{name: "two default clauses", src: "switch (x) { default: break; default: break }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, tt.mode)
			require.Error(t, err)
			var e *Error
			require.True(t, errors.As(err, &e), "error %v is not *Error", err)
			require.Equal(t, KindParseError, e.Kind, e.Error())
			if tt.line != 0 {
				require.Equal(t, tt.line, e.Line, e.Error())
				require.Equal(t, tt.col, e.Column, e.Error())
			}
		})
	}
}

func TestValidPrograms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		mode Mode
	}{
		{name: "labelled continue", src: "outer: for (const a of xs) { for (const b of ys) { if (b) continue outer; break outer } }"},
		{name: "break in switch", src: "switch (x) { case 1: break; default: break }"},
		{name: "var redeclared", src: "var a; var a; { var a }"},
		{name: "var and function", src: "var f; function f() {}"},
		{name: "block shadowing", src: "let a; { let a; { const a = 1 } }"},
		{name: "for let with block body let", src: "for (let x = 0; x < 1; x++) { let x = 2 }"},
		{name: "catch var of same name", src: "try {} catch (e) { var e }"},
		{name: "sloppy duplicate block functions", src: "{ function f() {} function f() {} }", mode: ModeScript},
		{name: "sloppy delete identifier", src: "delete x", mode: ModeScript},
		{name: "sloppy labelled function", src: "l: function f() {}", mode: ModeScript},
		{name: "sloppy yield identifier", src: "var yield = 1", mode: ModeScript},
		{name: "await identifier in script", src: "function f() { var await; }", mode: ModeScript},
		{name: "top-level await in async body", src: "const r = await f(); for await (const x of g()) {}"},
		{name: "top-level return in async body", src: "if (a) return 1; return 2"},
		{name: "derived constructor super", src: "class A extends B { constructor() { super(); (() => super.m())() } }"},
		{name: "super in object method", src: "x = { m() { return super.m() } }"},
		{name: "new.target in function and arrow", src: "function F() { return () => new.target }"},
		{name: "private names used before declaration", src: "class A { m() { return this.#x + A.#s } #x = 1; static #s = 2 }"},
		{name: "private getter and setter pair", src: "class A { get #x() { return 1 } set #x(v) {} static m(o) { return #x in o } }"},
		{name: "nested class sees outer private", src: "class A { #x; m() { return class { f(o) { return o.#x } } } }"},
		{name: "destructuring assignment", src: "let a, b, o = {}; [a, ...b] = [1]; ({a, b: o.c, ...o.d} = {}); [a = 1, [b] = []] = []"},
		{name: "for-of destructuring head", src: "let k, v; for ([k, v] of Object.entries({})) {} for ({a: k} of []) {}"},
		{name: "parenthesized simple targets", src: "let a, o = {}; (a) = 1; (o.x) = 2; (o['y']) += 3"},
		{name: "shorthand initializer in pattern", src: "let a; ({a = 1} = {})"},
		{name: "object with __proto__ once and shorthand", src: "let __proto__ = 1; x = {__proto__: null, __proto__, ['__proto__']: 2}"},
		{name: "nullish with parentheses", src: "x = (a ?? b) || c"},
		{name: "valid template escapes", src: "x = `\\x41\\u0041\\u{1F600}\\0`"},
		{name: "tagged template with invalid escape", src: "x = tag`\\unicode`"},
		{name: "regexp with flags", src: "x = /a(?<n>b)\\k<n>/dgimsuy"},
		{name: "getter and setter arity", src: "x = { get a() { return 1 }, set a(v) {} }"},
		{name: "static block with var", src: "class A { static { var x = 1; this.y = x } }"},
		{name: "await as identifier in arrow in static block", src: "class C { static { (() => { var await; }) } }", mode: ModeScript},
		{name: "escaped private name", src: "class A { #\\u{6F} = 1; m() { return this.#o } }"},
		{name: "debugger statement", src: "debugger; 1"},
		{name: "use strict directive after another", src: "'a'; 'use strict'; x = 1", mode: ModeScript},
		{name: "for await async head", src: "for await (async of []) {}"},
		{name: "user function named Function", src: "function Function2() {} Function2()"},
		{name: "eval as property", src: "o.eval(1); o.Function(2)"},
		{name: "escaped identifiers", src: "var \\u0061b\\u{63} = 1; x = abc + o.\\u0062; l\\u00e9t = 2; var _\\u200C\\u30FB = 3"},
		{name: "non-ASCII identifiers", src: "var café = 1, π = 2, ℘ = 3; class A { #é = 1 }"},
		{name: "unicode mode regexps", src: "x = [/\\//u, /[\\-\\b]/u, /\\u{1F600}/u, /a{2,3}b{2,}c{1}/u, /\\cA\\0/u, /[]/u, /[^]/u, /(a)\\1/u, /\\p{L}/u]"},
		{name: "Script property escapes", src: "x = [/\\p{Script=Greek}/u, /\\p{sc=Latn}/u, /\\p{Script_Extensions=Garay}/u]"},
		{name: "annex B regexps without u flag", src: "x = [/\\M/, /{/, /]/, /a{/]"},
		{name: "hashbang line", src: "#!/usr/bin/env node\nx = 1"},
		{name: "array literal with comma after spread", src: "x = [...a, ]; y = {...b, }"},
		{name: "class fields on separate lines", src: "class A { a\n b = 1\n static c }"},
		{name: "octal escapes in sloppy strings", src: "x = '\\01\\8'", mode: ModeScript},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, tt.mode)
			require.NoError(t, err)
		})
	}
}

func TestUnsupportedSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		line    int
		col     int
		message string
	}{
		{name: "with", src: "x;\n  with (o) {}", line: 2, col: 3, message: "with is not supported"},
		{name: "nested import declaration", src: "{\n  import a from 'b'\n}", line: 2, col: 3, message: "import declarations are only supported at the top level of a program"},
		{name: "import declaration in a function", src: "function f() { import a from 'b' }", line: 1, col: 16, message: "import declarations are only supported at the top level of a program"},
		{name: "export after an import", src: "import a from 'b'\nexport { a }", line: 2, col: 1, message: "export declarations are not supported"},
		{name: "export declaration", src: "let a = 1;\nexport { a }", line: 2, col: 1, message: "export declarations are not supported"},
		{name: "import.meta", src: "x = import.meta.url", line: 1, col: 5, message: "import.meta is not supported"},
		{name: "eval call", src: "let r = eval('1')", line: 1, col: 9, message: "eval is not supported: programs cannot evaluate code at run time"},
		{name: "RegExp v flag", src: "x = /[\\p{L}--\\p{Lu}]/v", line: 1, col: 5, message: "the RegExp v flag is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, ModeAsyncBody)
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindUnsupportedSyntax, e.Kind, e.Error())
			require.Contains(t, e.Message, tt.message)
			require.Equal(t, tt.line, e.Line, e.Error())
			require.Equal(t, tt.col, e.Column, e.Error())
		})
	}
}

// The Function constructor is named in real libraries as a last-resort global lookup that
// never runs; calling it throws EvalError at run time, so naming it compiles.
func TestFunctionConstructorCompiles(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"f = Function('return 1')",
		"f = new Function('return 1')",
		"const g = typeof globalThis == 'object' ? globalThis : Function('return this')()",
		"function g(Function) { return (() => Function(1))() }",
	} {
		_, err := Parse(src, ModeAsyncBody)
		require.NoError(t, err, src)
	}
}

// TestEarlyErrorPositions checks that errors about a name point at the name,
// as V8 reports them.
func TestEarlyErrorPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		line int
		col  int
	}{
		{name: "redeclared let", src: "let a;\nlet a = 2", line: 2, col: 5},
		{name: "duplicate parameter", src: "function f(a, a) {}", line: 1, col: 15},
		{name: "strict reserved word reference", src: "x = 1 + package", line: 1, col: 9},
		{name: "duplicate catch pattern name", src: "try {} catch ([e, e]) {}", line: 1, col: 19},
		{name: "assignment to eval", src: "x;  eval = 1", line: 1, col: 5},
		{name: "arguments in field initializer", src: "class A { x = arguments }", line: 1, col: 15},
		{name: "duplicate name in one pattern", src: "const {a, b: [a]} = o", line: 1, col: 15},
		{name: "let after var", src: "function f() { var x = 1; let x }", line: 1, col: 31},
		{name: "class redeclares function", src: "function C() {}\n  class C {}", line: 2, col: 9},
		{name: "eval as arrow parameter", src: "f = eval => 1", line: 1, col: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, ModeAsyncBody)
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindParseError, e.Kind)
			require.Equal(t, tt.line, e.Line, e.Error())
			require.Equal(t, tt.col, e.Column, e.Error())
		})
	}
}

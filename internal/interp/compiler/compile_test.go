package compiler

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/syntax"
)

func TestCompileAcceptsLanguage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{name: "arith", src: "1 + 2 * 3"},
		{name: "closure", src: "function f(a) { return () => a + this } f(1)"},
		{name: "loops", src: "let s = 0; for (let i = 0; i < 3; i++) { s += i; setTimeout?.(() => i) } s"},
		{name: "forof", src: "for (const [a, b = 2] of [[1]]) { if (a) break; } "},
		{name: "labels", src: "outer: for (const x of [1]) { for (;;) { continue outer } }"},
		{name: "try", src: "function f() { try { return 1 } catch { } finally { return 2 } } f()"},
		{name: "class", src: "class A { #x = 1; static y = 2; get x() { return this.#x } static { this.z = 3 } } class B extends A { constructor() { super(); } m() { return super.x } } new B().m()"},
		{name: "destructure", src: "const {a, b: [c, ...d], ...rest} = {a: 1, b: [2, 3]}; [a, c] = [c, a]"},
		{name: "generators", src: "function* g() { const x = yield 1; yield* [x] } async function* h() { for await (const v of g()) yield v }"},
		{name: "templates", src: "const t = (s, ...v) => s.raw; t`a${1}b`; `x${2}y`"},
		{name: "optional", src: "const o = null; o?.a.b; o?.[1]; o?.f(); delete o?.x; a ??= 1"},
		{name: "switch", src: "switch (1) { case 1: let x = 1; break; default: x }"},
		{name: "object", src: "({a: 1, get b() { return 2 }, [`c`]: 3, ...{d: 4}, m() { return super.toString() }})"},
		{name: "arguments", src: "function f() { return arguments.length } f(1, 2)"},
		{name: "await", src: "const v = await Promise.resolve(1); v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src, false)
			require.NoError(t, err)
			require.NotEmpty(t, p.Disassemble())
			p2, err := Compile(tt.src, false)
			require.NoError(t, err)
			require.Equal(t, p.Disassemble(), p2.Disassemble(), "compilation is deterministic")
		})
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		kind string
	}{
		{name: "with", src: "with (a) {}", kind: "UnsupportedSyntax"},
		{name: "bad label", src: "for (;;) { break nope }", kind: "ParseError"},
		{name: "syntax", src: "1 +", kind: "ParseError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(tt.src, false)
			var d *syntax.Error
			require.ErrorAs(t, err, &d)
			require.Equal(t, tt.kind, d.Kind)
		})
	}
}

package tsstrip

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStrip: each TypeScript text and the JavaScript text it is blanked to,
// byte for byte (same length, same line breaks).
func TestStrip(t *testing.T) {
	t.Parallel()
	for _, tc := range stripCases {
		out, _, err := Strip([]byte(tc.ts))
		require.NoError(t, err, tc.ts)
		require.Equal(t, tc.js, string(out), tc.ts)
		require.Len(t, out, len(tc.ts))
	}
}

var stripCases = []struct{ ts, js string }{
	{"let x: number = 1",
		"let x         = 1"},
	{"let y!: string",
		"let y         "},
	{"function f(this: Window, a?: number, ...rest: string[]): void {}",
		"function f(              a         , ...rest          )       {}"},
	{"const g = async <T,>(x: T): Promise<T> => x",
		"const g = async     (x   )             => x"},
	{"const h = (a: number) => (b: number): number => a + b",
		"const h = (a        ) => (b        )         => a + b"},
	{"foo<string>(1)",
		"foo        (1)"},
	{"new Map<string, Array<number>>()",
		"new Map                       ()"},
	{"const v = x as const",
		"const v = x         "},
	{"const w = x!\n(y)",
		"const w = x;\n(y)"},
	{"const z = x satisfies Y\n[1].map(f)",
		"const z = x ;          \n[1].map(f)"},
	{"type A<T> = T extends string ? 'a' : { b: T }[]",
		";                                              "},
	{"interface I extends J<K> { m(): void }\nfoo()",
		";                                     \nfoo()"},
	{"declare function d(a: number): string;\nd(1)",
		";                                     \nd(1)"},
	{"declare global { interface Window { x: 1 } }",
		";                                           "},
	{"import type { A } from './a'\nimport { type B, type C } from './b'",
		";                           \n;                                   "},
	{"import { type B, c } from './b'",
		"import {         c } from './b'"},
	{"export type { A }\nexport interface I {}\nexport declare const k: number",
		";                \n;                    \n;                             "},
	{"class C<T> extends D<T> implements E, F<T> {\n  declare x: number\n  abstract y: string\n  [k: string]: unknown\n  protected z?: T = undefined\n  m?(): void\n  override n<U>(u: U): U { return u }\n}",
		"class C    extends D                       {\n  ;                \n  ;                 \n  ;                   \n            z     = undefined\n  ;         \n           n   (u   )    { return u }\n}"},
	{"namespace Types { export type A = 1; export interface B {} }",
		";                                                           "},
	{"function isS(x: unknown): x is string { return typeof x === 'string' }",
		"function isS(x         )              { return typeof x === 'string' }"},
	{"function as(x: unknown): asserts x {}",
		"function as(x         )            {}"},
	{"let t: [a: string, b?: number] = ['a']",
		"let t                          = ['a']"},
	{"let fn: (a: number) => void = () => {}",
		"let fn                      = () => {}"},
	{"let ctor: new () => Foo",
		"let ctor               "},
	{"const o = { a: 1, m<T>(x: T): T { return x }, get g(): number { return 1 } }",
		"const o = { a: 1, m   (x   )    { return x }, get g()         { return 1 } }"},
	{"let k: keyof typeof obj = 'a'",
		"let k                   = 'a'"},
	{"let u: | 'a' | 'b' = 'a'",
		"let u              = 'a'"},
	{"const r = a < b ? c : d",
		"const r = a < b ? c : d"},
	{"for (const x of xs as number[]) {}",
		"for (const x of xs            ) {}"},
	{"const p = <T>y",
		"const p =    y"},
	{"let q: import('./m').T<string>",
		"let q                         "},
	{"let m: { [K in keyof T]?: T[K] } = {}",
		"let m                            = {}"},
	{"let tl: `pre${string}` = `pre${x}`",
		"let tl                 = `pre${x}`"},
	{"x = y as any / 2",
		"x = y        / 2"},
	{"label: for (const a of b as c[]) { break label }",
		"label: for (const a of b       ) { break label }"},
	{"const p = JSON.parse<unknown>;\nconst q = f<T>\nfoo()\nconst r = f<T>\n+1",
		"const p = JSON.parse         ;\nconst q = f   \nfoo()\nconst r = f<T>\n+1"},
	{"x = a < b > c", "x = a < b > c"},
	{"const r = f<T>\n(x)\nconst g = <T,>\n(x: T) => x",
		"const r = f   \n(x)\nconst g =     \n(x   ) => x"},
	{"const a = b!\n[1].map(f)\nlet c: T\n(d)",
		"const a = b;\n[1].map(f)\nlet c   \n(d)"},
	{"x = a < b > +c", "x = a < b > +c"},
}

// FuzzStrip: whatever the input, Strip does not panic, refuses only with an
// *Error inside the text, keeps the length and every line terminator, and
// returns the input itself when it blanks nothing.
func FuzzStrip(f *testing.F) {
	for _, tc := range stripCases {
		f.Add(tc.ts)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, changed, err := Strip([]byte(src))
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.True(t, e.Offset >= 0 && e.Offset <= len(src))
			return
		}
		require.Len(t, out, len(src))
		if !changed {
			require.Equal(t, src, string(out))
		}
		for i := range len(src) {
			if c := src[i]; c == '\n' || c == '\r' {
				require.Equal(t, c, out[i], "line terminator at %d", i)
			}
			if out[i] != src[i] {
				require.Contains(t, " ;", string(out[i]), "byte %d", i)
			}
		}
	})
}

package syntax

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzSeeds are programs that exercise every part of the front end.
var fuzzSeeds = []string{
	"const x = await tools.a.b({q: 1});\nx.items.map(i => i.id)",
	"f = ({ w: [x] = [4] }) => x; ({ x, } = {x: 23}) => x",
	"class A extends B { #p = 1; static { this.q = 2 } constructor() { super() } get v() { return this.#p } static m(o) { return #p in o } }",
	"outer: for (const [k, v] of Object.entries(o)) { for (;;) { if (v) continue outer; break } }",
	"switch (x) { case 1: let a = `t${x}u${ {a: 1}.a }`; break; default: throw new Error('e') }",
	"try { a?.b?.[c]?.(d) } catch ({ message }) { x = /re[/]g/gi.test(message) / 2 } finally { y ??= 3 }",
	"async function* g(a = 1, ...r) { yield* r; for await (const x of g()) {} }",
	"x = { __proto__: null, get a() { return 1 }, set a(v) {}, [k]: 2, ...s, m() { return super.m() } }",
	"let a, b; [a, ...b] = [1]; ({a, b: {c = 1} = {}} = {}); a **= 2; a ||= b && c",
	"#!/usr/bin/env node\nreturn '😀'.length",
	"with (o) {}", "if (x) import a from 'b'", "eval('1')", "x = import.meta.url", "x = 01n",
	"if (x) {}; else {}", "class A { a b }", "f() = 1", "continue", "'\\01'",
	// found by FuzzParse: the lexer read past the end after an error at "#"
	"A0000000000000000000#",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, script bool) {
		mode := ModeAsyncBody
		if script {
			mode = ModeScript
		}
		p, err := Parse(src, mode)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not *Error", err, err)
			}
			return
		}
		if p.AST == nil || p.Source != src {
			t.Fatalf("program without AST or with altered source")
		}
	})
}

func TestFuzzSeedsParse(t *testing.T) {
	t.Parallel()
	const valid = 10 // the first seeds are valid programs; the rest must fail
	for i, src := range fuzzSeeds {
		t.Run(fmt.Sprintf("seed %d", i), func(t *testing.T) {
			t.Parallel()
			_, err := Parse(src, ModeAsyncBody)
			if i < valid {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
			}
		})
	}
}

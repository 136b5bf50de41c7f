package interp

import "testing"

// BenchmarkCallApplyForIn measures 200,000 calls through Function.prototype.call and
// apply, and for-in over 20,000 objects with three own keys and a class prototype.
func BenchmarkCallApplyForIn(b *testing.B) {
	for _, bb := range []struct{ name, src string }{
		{"call", `function f(a, b) { return this.x + a + b } const o = {x: 1}; let s = 0; for (let i = 0; i < 200000; i++) s += f.call(o, i, 2); s`},
		{"apply", `function f(a, b) { return this.x + a + b } const o = {x: 1}; let s = 0; for (let i = 0; i < 200000; i++) s += f.apply(o, [i, 2]); s`},
		{"forin", `class P { m() {} } let n = 0; for (let i = 0; i < 20000; i++) { const o = new P(); o.a = i; o.b = 2; o.c = 3; for (const k in o) n += k.length } n`},
	} {
		b.Run(bb.name, func(b *testing.B) { benchmarkJS(b, bb.src) })
	}
}

package interp

import "testing"

// BenchmarkJoin measures Array.prototype.join of 20,000 short strings (ASCII and not) and
// of 20,000 numbers.
func BenchmarkJoin(b *testing.B) {
	for _, bb := range []struct{ name, src string }{
		{"strings", `const p = []; for (let i = 0; i < 20000; i++) p.push("item" + i); let n = 0; for (let r = 0; r < 10; r++) n += p.join(",").length; n`},
		{"wide_strings", `const p = []; for (let i = 0; i < 20000; i++) p.push("é" + i); let n = 0; for (let r = 0; r < 10; r++) n += p.join(",").length; n`},
		{"numbers", `const p = []; for (let i = 0; i < 20000; i++) p.push(i * 1.5); let n = 0; for (let r = 0; r < 10; r++) n += p.join(",").length; n`},
	} {
		b.Run(bb.name, func(b *testing.B) { benchmarkJS(b, bb.src) })
	}
}

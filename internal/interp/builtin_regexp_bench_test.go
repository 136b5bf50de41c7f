package interp

import "testing"

// regexpBenchText declares s: 2,000 address-like words (about 50,000 code units), as in the
// regex_exec script of the bench module.
const regexpBenchText = `const words = [];
for (let i = 0; i < 2000; i++) words.push("user" + i + "@host" + (i % 13) + ".example");
const s = words.join(" ");
`

// BenchmarkRegExpHotPaths measures the RegExp entry points a program calls in a loop: exec
// with captures and named groups, test, match, replace with a template, a literal string or
// a function, and split, each over the same 50,000-unit string.
func BenchmarkRegExpHotPaths(b *testing.B) {
	for _, bb := range []struct{ name, src string }{
		{"exec_captures", regexpBenchText + `const re = /([a-z]+)(\d+)@host(\d+)\.example/g;
let n = 0, m; while ((m = re.exec(s)) !== null) n += m[3].length; n`},
		{"exec_named", regexpBenchText + `const re = /(?<user>[a-z]+\d+)@(?<host>\w+)/g;
let n = 0, m; while ((m = re.exec(s)) !== null) n += m.groups.host.length; n`},
		{"exec_new_literal", regexpBenchText + `let n = 0; for (const w of words) { const m = /@host(\d+)/.exec(w); n += m[1].length; } n`},
		{"test", regexpBenchText + `let n = 0; for (const w of words) if (/host1\d/.test(w)) n++; n`},
		{"test_global", regexpBenchText + `const re = /@host\d+/g; let n = 0; while (re.test(s)) n++; n`},
		{"match_global", regexpBenchText + `s.match(/\d+/g).length`},
		{"replace_template", regexpBenchText + `s.replace(/host(\d+)/g, "h$1").length`},
		{"replace_literal", regexpBenchText + `s.replace(/example/g, "ex").length`},
		{"replace_fn", regexpBenchText + `s.replace(/host(\d+)/g, (m, d) => d).length`},
		{"split", regexpBenchText + `s.split(/\s+/).length`},
		{"replace_per_word", regexpBenchText + `let n = 0; for (const w of words) n += w.replace(/host/g, 'h').length; n`},
	} {
		b.Run(bb.name, func(b *testing.B) { benchmarkJS(b, bb.src) })
	}
}

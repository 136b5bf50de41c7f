package interp

import "testing"

// TestJoinStrings checks Array.prototype.join on arrays of strings, where the result is
// sized before it is written, and on the arrays that take the general path, against results
// computed by node.
func TestJoinStrings(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"ascii", `["a", "b", "c"].join()`, "a,b,c"},
		{"nullish", `["a", null, undefined, "d"].join("-")`, "a---d"},
		{"single", `["x"].join()`, "x"},
		{"empty", `[].join() + "|"`, "|"},
		{"wide_element", `["é", "a"].join("ü")`, "éüa"},
		{"wide_separator", `["a", "b"].join("é")`, "aéb"},
		{"astral", `JSON.stringify(["a", "😀"].join(""))`, `"a😀"`},
		{"ropes", `const l = "y".repeat(70); [l + "z", "q" + l].join("|").length`, "143"},
		{"length_beyond_elements", `const a = ["a", "b"]; a.length = 4; a.join("+")`, "a+b++"},
		{"hole_reads_prototype", `const h = ["a", , "c"]; Array.prototype[1] = "P"; const r = h.join(); delete Array.prototype[1]; r + h.join()`, "a,P,ca,,c"},
		{"mixed", `[1, "a", 2.5, {toString() { return "T"; }}].join(";")`, "1;a;2.5;T"},
		{"cycle", `const c = ["a"]; c.push(c); c.join("-")`, "a-"},
		{"too_long", `["a".repeat(1 << 23), "b".repeat(1 << 23)].join("x")`, "throws RangeError"},
		{"at_cap", `const b = "a".repeat(1 << 23); [b, b].join("").length`, "16777216"},
	})
}

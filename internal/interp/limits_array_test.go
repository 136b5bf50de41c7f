package interp

import "testing"

// TestArrayLengthCap checks the array length cap at its boundary: an array may reach
// maxArrayLength elements, and every way of growing one past it (the constructor, assigning
// length, defining length, push, unshift, splice, concat, spread) throws a catchable
// RangeError with V8's message for an invalid length.
func TestArrayLengthCap(t *testing.T) {
	t.Parallel()
	const caught = "; return 'no error' } catch (e) { return e.name + ': ' + e.message }"
	runJSCases(t, []jsCase{
		{"constructor at cap", `Array(10000000).length`, "10000000"},
		{"constructor past cap", `(() => { try { Array(10000001)` + caught + "})()", "RangeError: Invalid array length"},
		{"new past cap", `(() => { try { new Array(10000001)` + caught + "})()", "RangeError: Invalid array length"},
		{"length at cap", `const a = []; a.length = 10000000; a.length`, "10000000"},
		{"length past cap", `const a = []; (() => { try { a.length = 10000001` + caught + "})()", "RangeError: Invalid array length"},
		{"length past cap keeps length", `const a = [1, 2]; try { a.length = 10000001 } catch (e) {} a.length`, "2"},
		{"defineProperty length past cap", `(() => { try { Object.defineProperty([], 'length', {value: 10000001})` + caught + "})()", "RangeError: Invalid array length"},
		{"push to cap", `const a = Array(9999999).fill(0); a.push(1); a.length`, "10000000"},
		{"push past cap", `const a = Array(10000000).fill(0); (() => { try { a.push(1)` + caught + "})()", "RangeError: Invalid array length"},
		{"push on sparse at cap", `const a = []; a.length = 10000000; (() => { try { a.push(1)` + caught + "})()", "RangeError: Invalid array length"},
		{"unshift past cap", `const a = []; a.length = 10000000; (() => { try { a.unshift(1)` + caught + "})()", "RangeError: Invalid array length"},
		{"splice past cap", `const a = []; a.length = 10000000; (() => { try { a.splice(0, 0, 1)` + caught + "})()", "RangeError: Invalid array length"},
		{"from length past cap", `(() => { try { Array.from({length: 10000001})` + caught + "})()", "RangeError: Invalid array length"},
		{"shrinking a long sparse array", `const a = []; a[20000000] = 1; a.length = 3; a.length`, "3"},
	})
}

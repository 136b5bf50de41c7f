package interp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestJSONBuiltins checks JSON.parse and JSON.stringify against results computed by node.
func TestJSONBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		// JSON.stringify's text is a string under the 2^24 cap, as in V8 ("Invalid string length").
		{"stringify_at_the_string_cap", `JSON.stringify("x".repeat(16777214)).length`, "16777216"},
		{"stringify_past_the_string_cap", `let r; try { JSON.stringify("x".repeat(16777215)) } catch (e) { r = e.name + ": " + e.message } r`, "RangeError: Invalid string length"},
		{"stringify_of_many_values_past_the_cap", `let r; try { JSON.stringify(Array(3000000).fill("abcdefgh")) } catch (e) { r = e.name + ": " + e.message } r`, "RangeError: Invalid string length"},
		{"parse_object", `const o = JSON.parse('{"a": [1, 2.5, -3e2, true, null], "b": {"c": "d"}}'); [o.a.join(), o.b.c, typeof o.a[4]].join('|')`, "1,2.5,-300,true,|d|object"},
		{"parse_string_escapes", `JSON.parse('"\\u0041\\n\\t\\\\\\"\\/"').split('').map(c => c.charCodeAt(0)).join()`, "65,10,9,92,34,47"},
		{"parse_lone_surrogate", `JSON.parse('"\\ud800"').charCodeAt(0)`, "55296"},
		{"parse_whitespace", `JSON.parse(' \t\n\r[ 1 ,2 ] ').length`, "2"},
		{"parse_number_forms", `[JSON.parse('-0'), 1 / JSON.parse('-0'), JSON.parse('1E3'), JSON.parse('0.5e-1')].join()`, "0,-Infinity,1000,0.05"},
		{"parse_bad_trailing_comma", `JSON.parse('[1,]')`, "throws SyntaxError"},
		{"parse_bad_leading_zero", `JSON.parse('01')`, "throws SyntaxError"},
		{"parse_bad_single_quote", `JSON.parse("'a'")`, "throws SyntaxError"},
		{"parse_bad_empty", `JSON.parse('')`, "throws SyntaxError"},
		{"parse_bad_control", `JSON.parse('"a\nb"')`, "throws SyntaxError"},
		{"parse_bad_hex", `JSON.parse('0x10')`, "throws SyntaxError"},
		{"parse_undefined", `JSON.parse(undefined)`, "throws SyntaxError"},
		{"parse_coerces", `JSON.parse(123) + JSON.parse(true) + JSON.parse(null)`, "124"},
		{"parse_duplicate_keys", `JSON.parse('{"a": 1, "a": 2}').a`, "2"},
		{"parse_proto_key", `const o = JSON.parse('{"__proto__": 5}'); [Object.keys(o).join(), Object.getPrototypeOf(o) === Object.prototype].join()`, "__proto__,true"},
		{"parse_reviver", `JSON.stringify(JSON.parse('{"a": 1, "b": [2, 3]}', (k, v) => typeof v === 'number' ? v * 10 : v))`, "{\"a\":10,\"b\":[20,30]}"},
		{"parse_reviver_delete", `JSON.stringify(JSON.parse('{"a": 1, "b": 2}', (k, v) => k === 'a' ? undefined : v))`, "{\"b\":2}"},
		{"parse_reviver_order", `const seen = []; JSON.parse('{"a": {"b": 1}, "c": [2]}', function (k, v) { seen.push(k); return v }); seen.join('|')`, "b|a|0|c|"},
		{"parse_reviver_this", `JSON.parse('{"x": 1}', function (k, v) { return k === 'x' ? typeof this : v }).x`, "object"},
		{"stringify_basic", `JSON.stringify({a: 1, b: 'x', c: [true, null, undefined, () => 1], d: undefined, e: NaN, f: -0, g: Infinity})`, "{\"a\":1,\"b\":\"x\",\"c\":[true,null,null,null],\"e\":null,\"f\":0,\"g\":null}"},
		{"stringify_escapes", `JSON.stringify('"\\\b\f\n\r\t\u0001\u001f\u2028')`, "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f \""},
		{"stringify_lone_surrogate", `JSON.stringify('\uD800x\uDC00')`, "\"\\ud800x\\udc00\""},
		{"stringify_pair", `JSON.stringify('\uD83D\uDE00').length`, "4"},
		{"stringify_indent_number", `JSON.stringify({a: [1, {b: 2}], c: {}}, null, 2)`, "{\n  \"a\": [\n    1,\n    {\n      \"b\": 2\n    }\n  ],\n  \"c\": {}\n}"},
		{"stringify_indent_string", `JSON.stringify([1, [2]], null, '--')`, "[\n--1,\n--[\n----2\n--]\n]"},
		{"stringify_indent_clamp", `JSON.stringify([1], null, 20).split('\n')[1].length + ',' + JSON.stringify([1], null, 'abcdefghijklmn').split('\n')[1]`, "11,abcdefghij1"},
		{"stringify_replacer_fn", `JSON.stringify({a: 1, b: 'x', c: {d: 2}}, (k, v) => typeof v === 'number' ? v + 1 : v)`, "{\"a\":2,\"b\":\"x\",\"c\":{\"d\":3}}"},
		{"stringify_replacer_array", `JSON.stringify({a: 1, b: 2, c: {a: 3, d: 4}, 1: 5}, ['a', 'c', 1])`, "{\"a\":1,\"c\":{\"a\":3},\"1\":5}"},
		{"stringify_toJSON", `JSON.stringify({x: {toJSON(k) { return 'key:' + k }}, d: new Date(0)})`, "{\"x\":\"key:x\",\"d\":\"1970-01-01T00:00:00.000Z\"}"},
		{"stringify_wrappers", `JSON.stringify([new Number(3), new String('s'), new Boolean(false), Object(Symbol())])`, "[3,\"s\",false,{}]"},
		{"stringify_symbol_keys", `JSON.stringify({[Symbol('s')]: 1, a: Symbol('v')})`, "{}"},
		{"stringify_top_level", `[JSON.stringify(undefined), JSON.stringify(() => 1), JSON.stringify(Symbol()), JSON.stringify(null), JSON.stringify('s')].join('|')`, "|||null|\"s\""},
		{"stringify_cycle", `const o = {}; o.self = o; JSON.stringify(o)`, "throws TypeError"},
		{"stringify_cycle_message", `const o = {}; o.self = o; let m; try { JSON.stringify(o) } catch (e) { m = e.constructor.name } m`, "TypeError"},
		{"stringify_numbers", `JSON.stringify([0.1, 1e21, 1e-7, -1.5, 123456789012345680000])`, "[0.1,1e+21,1e-7,-1.5,123456789012345680000]"},
		{"stringify_sparse", `JSON.stringify([1, , 3])`, "[1,null,3]"},
		{"stringify_nested_empty", `JSON.stringify({a: [], b: {}}, null, 1)`, "{\n \"a\": [],\n \"b\": {}\n}"},
		{"stringify_key_order", `JSON.stringify({b: 1, 2: 2, a: 3, 1: 4})`, "{\"1\":4,\"2\":2,\"b\":1,\"a\":3}"},
		{"stringify_getter", `JSON.stringify({get x() { return 7 }})`, "{\"x\":7}"},
		{"stringify_nonenumerable", `const o = {a: 1}; Object.defineProperty(o, 'h', {value: 2}); JSON.stringify(o)`, "{\"a\":1}"},
		{"json_tag", `Object.prototype.toString.call(JSON) + JSON.parse.length + JSON.stringify.length`, "[object JSON]23"},
		{"roundtrip", `const t = '{"a":[1,"two",{"three":3.5}],"b":null,"c":false}'; JSON.stringify(JSON.parse(t)) === t`, "true"},
	})
}

// TestJSONErrorMessages checks the messages of JSON.parse's SyntaxErrors and of
// JSON.stringify's cycle TypeError against node 20's: programs catch and report them.
func TestJSONErrorMessages(t *testing.T) {
	t.Parallel()
	p := func(text string) string {
		return "(() => { try { JSON.parse(" + strconv.Quote(text) + "); return 'no error' } catch (e) { return e.name + ': ' + e.message } })()"
	}
	s := func(src string) string {
		return "(() => { try { " + src + "; return 'no error' } catch (e) { return e.name + ': ' + e.message } })()"
	}
	runJSCases(t, []jsCase{
		{"parse_eos", p(`[1,`), "SyntaxError: Unexpected end of JSON input"},
		{"parse_open_brace", p(`{`), "SyntaxError: Expected property name or '}' in JSON at position 1"},
		{"parse_single_quotes", p(`{'a':1}`), "SyntaxError: Expected property name or '}' in JSON at position 1"},
		{"parse_trailing_comma_object", p(`{"a":1,}`), "SyntaxError: Expected double-quoted property name in JSON at position 7"},
		{"parse_missing_colon", p(`{"a" 1}`), "SyntaxError: Expected ':' after property name in JSON at position 5"},
		{"parse_missing_comma_object", p(`{"a":1 "b":2}`), "SyntaxError: Expected ',' or '}' after property value in JSON at position 7"},
		{"parse_unclosed_object", p(`{"a":1`), "SyntaxError: Expected ',' or '}' after property value in JSON at position 6"},
		{"parse_missing_comma_array", p(`[1 2]`), "SyntaxError: Expected ',' or ']' after array element in JSON at position 3"},
		{"parse_unclosed_array", p(`[1`), "SyntaxError: Expected ',' or ']' after array element in JSON at position 2"},
		{"parse_trailing_comma_array", p(`[1,]`), "SyntaxError: Unexpected token ']', \"[1,]\" is not valid JSON"},
		{"parse_leading_zero", p(`01`), "SyntaxError: Unexpected number in JSON at position 1"},
		{"parse_minus", p(`-`), "SyntaxError: No number after minus sign in JSON at position 1"},
		{"parse_fraction", p(`1.`), "SyntaxError: Unterminated fractional number in JSON at position 2"},
		{"parse_unterminated_string", p(`"abc`), "SyntaxError: Unterminated string in JSON at position 4"},
		{"parse_bad_unicode_escape", p(`"\u12"`), "SyntaxError: Bad Unicode escape in JSON at position 5"},
		{"parse_undefined", s(`JSON.parse(undefined)`), "SyntaxError: \"undefined\" is not valid JSON"},
		{"parse_object", s(`JSON.parse({})`), "SyntaxError: \"[object Object]\" is not valid JSON"},
		{"parse_quotes_unescaped", p(`{"abc":x}`), "SyntaxError: Unexpected token 'x', \"{\"abc\":x}\" is not valid JSON"},
		{"parse_context_start", p(strings.Repeat("a", 40)), "SyntaxError: Unexpected token 'a', \"aaaaaaaaaa\"... is not valid JSON"},
		{"parse_context_middle", p(`{"key": "value", "other": undefined, "more": 1234567890}`), "SyntaxError: Unexpected token 'u', ...\" \"other\": undefined,\"... is not valid JSON"},
		{"parse_position_utf16", p(`["é😀" x]`), "SyntaxError: Expected ',' or ']' after array element in JSON at position 7"},
		{"cycle_self", s(`const o = {}; o.self = o; JSON.stringify(o)`), "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'self' closes the circle"},
		{"cycle_path", s(`class A {}; const x = new A(); x.list = [1, x]; JSON.stringify([x])`), "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'A'\n    |     property 'list' -> object with constructor 'Array'\n    --- index 1 closes the circle"},
		{"cycle_long", s(`const a = {b: {c: {d: {e: {}}}}}; a.b.c.d.e.f = a; JSON.stringify(a)`), "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    |     property 'b' -> object with constructor 'Object'\n    |     property 'c' -> object with constructor 'Object'\n    |     ...\n    |     property 'e' -> object with constructor 'Object'\n    --- property 'f' closes the circle"},
		{"cycle_empty_key_null_proto", s(`const a = Object.create(null); a[''] = a; JSON.stringify(a)`), "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- <anonymous> closes the circle"},
	})
}

// jsonRoundTripSrc parses the global input, stringifies the value, and checks that parsing
// and stringifying that text again gives the same text.
const jsonRoundTripSrc = `let out
try {
  const a = JSON.stringify(JSON.parse(input))
  out = a === JSON.stringify(JSON.parse(a)) ? 'ok:' + a : 'mismatch:' + a
} catch (e) {
  out = 'err:' + e.name
}
out`

// FuzzJSONParse checks that JSON.parse never panics, accepts exactly the texts that are JSON
// (as encoding/json decides), and that valid JSON round-trips through JSON.stringify to text
// that denotes the same value and is stable under another round trip.
func FuzzJSONParse(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2,{"b":null}],"c":"\u00e9\ud800"}`, `[]`, `-0.5e-3`, `"\\"`,
		`{"__proto__":1,"a":1,"a":2}`, `[1,]`, `01`, `{"a" 1}`, "\"\t\"", `1e400`, `[[[[[[[[[[]]]]]]]]]]`,
		`{"1":1,"b":2,"0":3}`, `"\u2028\u0000"`, ` true `, `nul`} {
		f.Add(seed)
	}
	prog, err := Compile(jsonRoundTripSrc)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, input string) {
		if len(input) > 1<<12 {
			return
		}
		vm := New(Config{})
		require.NoError(t, vm.Set(vm.Global(), "input", vm.String(input)))
		require.NoError(t, vm.Start(prog))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown)
		out := vm.ToGoString(v)
		valid := utf8.ValidString(input) && json.Valid([]byte(input))
		if !valid {
			if utf8.ValidString(input) {
				require.Equal(t, "err:SyntaxError", out, "input %q", input)
			}
			return
		}
		require.True(t, strings.HasPrefix(out, "ok:"), "input %q gave %q", input, out)
		var want, got any
		if json.Unmarshal([]byte(input), &want) != nil {
			return // numbers out of float64 range: JSON.parse gives Infinity, encoding/json refuses
		}
		require.NoError(t, json.Unmarshal([]byte(out[3:]), &got), "stringify output %q", out[3:])
		require.Equal(t, want, got, "input %q", input)
	})
}

package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegExpFastPaths checks test, exec, [Symbol.match] and [Symbol.replace] where they
// match without building result arrays, and where they must not (a subclass exec, an own
// exec, an exec getter, a flags property that disagrees), against results computed by node.
func TestRegExpFastPaths(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"replace_template", "JSON.stringify('u1@host1.ex u22@host2.ex'.replace(/host(\\d+)/g, \"[$&|$`|$'|$$|$1|$2|$10]\"))", "\"u1@[host1|u1@|.ex u22@host2.ex|$|1|$2|10].ex u22@[host2|u1@host1.ex u22@|.ex|$|2|$2|20].ex\""},
		{"replace_literal", `JSON.stringify('a-b-c'.replace(/-/g, '+'))`, "\"a+b+c\""},
		{"replace_named", `JSON.stringify('a1b22'.replace(/(?<n>\d+)/g, '<$<n>|$<zz>>') + 'x1é'.replace(/(?<n>\d)|(?<m>é)/g, '<$<n>,$<m>>'))`, "\"a<1|>b<22|>x<1,><,é>\""},
		{"replace_empty_matches", `JSON.stringify(['ab😀'.replace(/x*/g, '-'), 'ab😀'.replace(/(?:)/gu, '.'), ''.replace(/(?:)/g, '.')])`, "[\"-a-b-\\ud83d-\\ude00-\",\".a.b.😀.\",\".\"]"},
		{"replace_fn_args", `JSON.stringify('u1 v'.replace(/(\w)(\d)?/g, (...a) => JSON.stringify(a)))`, "\"[\\\"u1\\\",\\\"u\\\",\\\"1\\\",0,\\\"u1 v\\\"] [\\\"v\\\",\\\"v\\\",null,3,\\\"u1 v\\\"]\""},
		{"replace_fn_groups", `JSON.stringify('ab1'.replace(/(?<w>[a-z])(?<d>\d)?/g, (...a) => JSON.stringify(a[a.length - 1])))`, "\"{\\\"w\\\":\\\"a\\\"}{\\\"w\\\":\\\"b\\\",\\\"d\\\":\\\"1\\\"}\""},
		{"replace_fn_sees_lastIndex_zero", `const r = /a/g; const seen = []; JSON.stringify(['aXa'.replace(r, () => { seen.push(r.lastIndex); return 'b'; }), seen])`, "[\"bXb\",[0,0]]"},
		{"replace_global_resets_lastIndex", `const r = /o/g; r.lastIndex = 3; JSON.stringify(['foo'.replace(r, '0'), r.lastIndex])`, "[\"f00\",0]"},
		{"replace_sticky_global", `const r = /o/gy; JSON.stringify(['oox o'.replace(r, '0'), r.lastIndex])`, "[\"00x o\",0]"},
		{"replace_readonly_lastIndex", `const r = /a/g; Object.defineProperty(r, 'lastIndex', {writable: false}); 'a'.replace(r, 'b')`, "throws TypeError"},
		{"replace_subclass_exec", `const log = []; class R extends RegExp { exec(s) { log.push(this.lastIndex); return super.exec(s); } } JSON.stringify(['abab'.replace(new R('b', 'g'), 'c'), log])`, "[\"acac\",[0,2,4]]"},
		{"replace_own_flags", `const r = /b/g; Object.defineProperty(r, 'flags', {value: 'gu'}); 'abc😀b'.replace(r, '$&$&')`, "abbc😀bb"},
		{"replace_flag_getter_replaced", `let n = 0; Object.defineProperty(RegExp.prototype, 'global', {get() { n++; return false }}); JSON.stringify(['aXa'.replace(/a/g, 'b'), n])`, `["bXa",1]`},
		{"own_flag_property", `const r = /a/g; Object.defineProperty(r, 'global', {value: false}); JSON.stringify(['aXa'.replace(r, 'b'), 'aXa'.match(/a/gi), 'a,b'.split(/,/y)])`, `["bXa",["a","a"],["a","b"]]`},
		{"literal_ignores_global_binding", `const R = RegExp; globalThis.RegExp = undefined; JSON.stringify([/a/.test("a"), Object.getPrototypeOf(/a/g) === R.prototype, /a/g.lastIndex, /x/gi.flags])`, `[true,true,0,"gi"]`},
		{"literal_without_global", `delete globalThis.RegExp; /b/.source`, "b"},
		{"replace_fn_throws", `let msg; try { 'aa'.replace(/a/g, () => { throw new Error('x'); }) } catch (e) { msg = e.message } msg`, "x"},
		{"replace_wide", `JSON.stringify('été'.replace(/t/g, 'è') + 'xé'.replace(/(x)/g, '$1$1'))`, "\"éèéxxé\""},
		{"match_global", `JSON.stringify(['a1b22c333'.match(/\d+/g), 'abc'.match(/z/g), 'a😀'.match(/(?:)/gu), 'a😀'.match(/(?:)/g).length])`, "[[\"1\",\"22\",\"333\"],null,[\"\",\"\",\"\"],4]"},
		{"match_global_lastIndex", `const r = /a/g; r.lastIndex = 2; JSON.stringify(['aa'.match(r), r.lastIndex])`, "[[\"a\",\"a\"],0]"},
		{"match_subclass_exec", `const log = []; class R extends RegExp { exec(s) { log.push(this.lastIndex); return super.exec(s); } } JSON.stringify(['abab'.match(new R('a', 'g')), log])`, "[[\"a\",\"a\"],[0,1,3]]"},
		{"test_global", `const r = /a/g; JSON.stringify([r.test('aa'), r.lastIndex, r.test('aa'), r.lastIndex, r.test('aa'), r.lastIndex])`, "[true,1,true,2,false,0]"},
		{"test_sticky", `const r = /a/y; r.lastIndex = 1; JSON.stringify([r.test('ba'), r.lastIndex, r.test('ba'), r.lastIndex])`, "[true,2,false,0]"},
		{"test_lastIndex_valueOf", `const log = []; const r = /a/g; r.lastIndex = {valueOf() { log.push('v'); return 1; }}; JSON.stringify([r.test('aa'), r.lastIndex, log])`, "[true,2,[\"v\"]]"},
		{"test_own_exec", `const r = /x/; r.exec = () => ({}); r.test('y')`, "true"},
		{"test_exec_getter", `let n = 0; class R extends RegExp { get exec() { n++; return RegExp.prototype.exec; } } const r = new R('a'); JSON.stringify([r.test('a'), n])`, "[true,1]"},
		{"exec_result_shape", `const m = /(?<a>x)(y)?/d.exec('zx'); JSON.stringify([Object.getOwnPropertyNames(m), m.index, m.input, m.groups, m.indices, Object.getPrototypeOf(m.groups)])`, "[[\"0\",\"1\",\"2\",\"length\",\"index\",\"input\",\"groups\",\"indices\"],1,\"zx\",{\"a\":\"x\"},[[1,2],[1,2],null],null]"},
		{"exec_result_writable", `const m = /x/.exec('x'); m.index = 9; delete m.input; m.push('y'); JSON.stringify([m, m.index, 'input' in m, m.length])`, "[[\"x\",\"y\"],9,false,2]"},
		// Duplicate named groups (ES2025; V8 12.5+, so not node 20): the participating group.
		{"exec_duplicate_names", `const m = /(?<a>x)|(?<a>y)/d.exec("y"); JSON.stringify([m.groups, Object.keys(m.groups), m.indices.groups])`, `[{"a":"y"},["a"],{"a":[0,1]}]`},
		{"exec_duplicate_names_first", `JSON.stringify(/(?<a>x)|(?<a>y)/.exec("x").groups)`, `{"a":"x"}`},
		{"replace_duplicate_names", `["xy".replace(/(?<a>x)|(?<a>y)/g, "[$<a>]"), "xy".replace(/(?<a>x)|(?<a>y)/g, (...a) => a.at(-1).a)].join()`, "[x][y],xy"},
		{"exec_lastIndex_recompiles", `const r = /a/g; r.lastIndex = {valueOf() { r.compile("(b)", "g"); return 0; }}; const m = r.exec("ab"); JSON.stringify([m, r.lastIndex])`, `[["b","b"],2]`},
		{"test_lastIndex_recompiles", `const r = /a/g; r.lastIndex = {valueOf() { r.compile("b"); return 0; }}; JSON.stringify([r.test("ab"), r.lastIndex])`, "[true,0]"},
		{"exec_readonly_lastIndex", `const r = /a/g; Object.defineProperty(r, 'lastIndex', {value: 0, writable: false}); r.exec('a')`, "throws TypeError"},
		{"exec_unicode_lastIndex", `const r = /./gu; r.lastIndex = 1; JSON.stringify([r.exec('😀x')[0], r.lastIndex])`, "[\"😀\",2]"},
	})
}

// TestRegExpDirectPaths checks the paths that skip generic steps no program can observe: a
// String.prototype method calling a RegExp's built-in symbol method directly, replace
// without the g flag matching once without a result array, and patterns matched without the
// engine; and that they are not taken where a program could tell (own or replaced symbol
// methods, subclasses). Expected results are node's.
func TestRegExpDirectPaths(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"once_fn_reenters", "const r = /(a)(b)?/; JSON.stringify('xaby'.replace(r, (m, a, b, i, s) => { const inner = 'ab'.replace(r, '[$1]'); return m + a + b + i + s + inner; }))", "\"xabab1xaby[a]y\""},
		{"once_sticky", "const r = /a/y; r.lastIndex = 1; const x = 'bab'.replace(r, 'X'); const li = r.lastIndex; const y = 'bab'.replace(r, 'Y'); JSON.stringify([x, li, y, r.lastIndex])", "[\"bXb\",2,\"bab\",0]"},
		{"once_lastIndex_valueOf", "const log = []; const r = /o/; r.lastIndex = {valueOf() { log.push('v'); return 5; }}; JSON.stringify(['foo'.replace(r, '0'), log, typeof r.lastIndex])", "[\"f0o\",[\"v\"],\"object\"]"},
		{"once_recompiled_by_lastIndex", "const r = /a/; r.lastIndex = {valueOf() { r.compile('(b)'); return 0; }}; JSON.stringify('ab'.replace(r, '<$1>'))", "\"a<b>\""},
		{"once_named_template", "JSON.stringify(['2020-01'.replace(/(?<y>\\d+)-(?<m>\\d+)/, '$<m>/$<y>$<z>'), 'x'.replace(/(?<y>q)?x/, '[$<y>]')])", "[\"01/2020\",\"[]\"]"},
		{"once_no_match", "JSON.stringify(['abc'.replace(/z/, 'y'), ''.replace(/z/, 'y'), ''.replace(/(?:)/, 'y')])", "[\"abc\",\"\",\"y\"]"},
		{"once_dollar", "JSON.stringify('abc'.replace(/b/, \"[$`|$&|$'|$$|$1]\"))", "\"a[a|b|c|$|$1]c\""},
		{"once_unicode", "JSON.stringify(['😀x'.replace(/x/u, 'y'), 'a😀'.replace(/./u, '-'), '😀'.replace(/(?:)/u, '-')])", "[\"😀y\",\"-😀\",\"-😀\"]"},
		{"once_fn_args_named", "JSON.stringify('a1'.replace(/(?<l>[a-z])(\\d)/, (...a) => JSON.stringify(a)))", "\"[\\\"a1\\\",\\\"a\\\",\\\"1\\\",0,\\\"a1\\\",{\\\"l\\\":\\\"a\\\"}]\""},
		{"delegate_own_symbol", "const r = /a/; r[Symbol.replace] = () => 'own'; JSON.stringify('a'.replace(r, 'b'))", "\"own\""},
		{"delegate_proto_changed", "const old = RegExp.prototype[Symbol.split]; RegExp.prototype[Symbol.split] = function (s) { return ['patched', s]; }; const out = 'a,b'.split(/,/); RegExp.prototype[Symbol.split] = old; JSON.stringify([out, 'a,b'.split(/,/)])", "[[\"patched\",\"a,b\"],[\"a\",\"b\"]]"},
		{"delegate_subclass", "class R extends RegExp { [Symbol.search](s) { return 42; } } JSON.stringify(['abc'.search(new R('c')), 'abc'.search(/c/)])", "[42,2]"},
		{"delegate_non_regexp_with_symbol", "const o = { [Symbol.match](s) { return 'm:' + s; } }; JSON.stringify('q'.match(o))", "\"m:q\""},
		{"delegate_match_all", "JSON.stringify([...'a1b2'.matchAll(/\\d/g)].map(m => m[0] + m.index))", "[\"11\",\"23\"]"},
		{"simple_patterns", "JSON.stringify(['days'.replace(/s$/, ''), 'a\"b\"'.replace(/\"/g, '&quot;'), /\\s/.test('ab c'), 'Z'.match(/z$/i), 'a%20b'.split(/%..|./), 'x\\ny'.replace(/^y/m, 'Y'), 'a.b-c'.split(/[.\\-]/), 'ſ'.replace(/s/i, 'S'), 'K\\u212a'.replace(/k/gi, '_'), '\\u00e9t\\u00e9'.replace(/\\w+/g, '[$&]'), 'aaa'.replace(/a*?/g, '-'), 'abc'.replace(/\\b/g, '|'), 'a😀b'.replace(/[^a]/gu, '.'), 'a😀b'.replace(/[^a]/g, '.')])", "[\"day\",\"a&quot;b&quot;\",true,[\"Z\"],[\"\",\"\",\"\",\"\"],\"x\\nY\",[\"a\",\"b\",\"c\"],\"ſ\",\"_K\",\"é[t]é\",\"-a-a-a-\",\"|abc|\",\"a..\",\"a...\"]"},
		{"short_inputs_shared", "const a = /b/, c = /d/, out = []; const s1 = 'ab' + 'c', s2 = 'xd' + 'y'; for (const s of [s1, s2, s1, s2, 'q']) out.push(a.test(s), c.test(s), s.replace(a, '_'), s.search(c)); JSON.stringify(out)", "[true,false,\"a_c\",-1,false,true,\"xdy\",1,true,false,\"a_c\",-1,false,true,\"xdy\",1,false,false,\"q\",-1]"},
		{"short_input_reused_between_calls", "const r = /a(.)/g, s1 = 'xa1a2'; const m1 = r.exec(s1); /zz/.test('qqzzq'); const m2 = r.exec(s1); JSON.stringify([m1[1], m2[1], r.lastIndex])", "[\"1\",\"2\",5]"},
		{"literal_objects_share_nothing_visible", "const f = () => /(a)(\\d)?/g; const r1 = f(), r2 = f(), out = []; out.push(r1.exec('a1 a2')[2], r2.exec('xa3')[2], r1.exec('a1 a2')[2], r1.lastIndex, r2.lastIndex); out.push('a1a2'.replace(f(), (m, a, d) => d + f().exec('a9')[2] + 'a7'.replace(f(), '$2'))); out.push(JSON.stringify('a5'.split(f()))); JSON.stringify(out)", "[\"1\",\"3\",\"2\",5,3,\"197297\",\"[\\\"\\\",\\\"a\\\",\\\"5\\\",\\\"\\\"]\"]"},
		{"split_plain", "JSON.stringify(['a,b,,c'.split(/,/), 'a1b22c'.split(/(\\d)+/), 'ab'.split(/(?:)/), 'a😀b'.split(/(?:)/u), 'a😀b'.split(/(?:)/), 'a,b,c'.split(/,/, 2), ''.split(/,/), ''.split(/(?:)/), 'x'.split(/x/)])", "[[\"a\",\"b\",\"\",\"c\"],[\"a\",\"1\",\"b\",\"2\",\"c\"],[\"a\",\"b\"],[\"a\",\"😀\",\"b\"],[\"a\",\"\\ud83d\",\"\\ude00\",\"b\"],[\"a\",\"b\"],[\"\"],[],[\"\",\"\"]]"},
		{"split_sticky_rx", "const r = /,/y; r.lastIndex = 2; JSON.stringify(['a,b,c'.split(r), r.lastIndex])", "[[\"a\",\"b\",\"c\"],2]"},
		{"split_limit_valueOf", "const log = []; JSON.stringify(['a,b,c'.split(/,/, {valueOf() { log.push('lim'); return 2; }}), log])", "[[\"a\",\"b\"],[\"lim\"]]"},
		{"split_species", "let n = 0; class R extends RegExp { static get [Symbol.species]() { n++; return RegExp; } } JSON.stringify(['a,b'.split(new R(',')), n])", "[[\"a\",\"b\"],1]"},
		{"split_constructor_prop", "const r = /,/; let n = 0; r.constructor = function (p, f) { n++; return new RegExp(p, f); }; JSON.stringify(['a,b'.split(r), n])", "[[\"a\",\"b\"],0]"},
		{"split_proto_exec", "const old = RegExp.prototype.exec; let n = 0; RegExp.prototype.exec = function (s) { n++; return old.call(this, s); }; const out = 'a,b'.split(/,/); RegExp.prototype.exec = old; JSON.stringify([out, n])", "[[\"a\",\"b\"],3]"},
		{"split_flags_getter", "const d = Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags'); let n = 0; Object.defineProperty(RegExp.prototype, 'flags', {get() { n++; return d.get.call(this); }, configurable: true}); const out = 'a,b'.split(/,/); Object.defineProperty(RegExp.prototype, 'flags', d); JSON.stringify([out, n])", "[[\"a\",\"b\"],1]"},
		{"split_species_getter_replaced", "const d = Object.getOwnPropertyDescriptor(RegExp, Symbol.species); let n = 0; Object.defineProperty(RegExp, Symbol.species, {get() { n++; return RegExp; }, configurable: true}); const out = 'a,b'.split(/,/); Object.defineProperty(RegExp, Symbol.species, d); JSON.stringify([out, n])", "[[\"a\",\"b\"],1]"},
		{"split_lastIndex_untouched", "const r = /,/g; r.lastIndex = 7; JSON.stringify(['a,b'.split(r), r.lastIndex])", "[[\"a\",\"b\"],7]"},
	})
}

// TestBuiltinFlagsGetters checks when regexpFlagsOf may skip the flags accessors: for a
// RegExp whose prototype holds the built-in getters, and not once a program changed one of
// them or gave the RegExp an own property.
func TestBuiltinFlagsGetters(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{`/a/gi`, true},
		{`new RegExp('a', 'yg')`, true},
		{`const r = /a/g; r.x = 1; r`, false},
		{`Object.defineProperty(RegExp.prototype, 'sticky', {get() { return true }}); /a/`, false},
		{`Object.defineProperty(RegExp.prototype, 'flags', {get() { return '' }}); /a/`, false},
		{`class R extends RegExp {} new R('a')`, false},
	} {
		vm := New(Config{})
		p, err := Compile(tt.src)
		require.NoError(t, err)
		require.NoError(t, vm.Start(p))
		_, err = vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		v, thrown := vm.Result()
		require.False(t, thrown)
		rx := v.asObject()
		require.NotNil(t, regexpOf(rx), tt.src)
		require.Equal(t, tt.want, builtinFlagsGetters(rx), tt.src)
		if tt.want {
			require.Equal(t, vm.toString(vm.getProp(rx, keyFlags)).String(), vm.regexpFlagsOf(rx), tt.src)
		}
	}
}

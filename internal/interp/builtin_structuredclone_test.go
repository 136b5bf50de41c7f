package interp

import "testing"

// TestBase64AndStructuredClone checks atob, btoa and structuredClone against results
// computed by node 20.
func TestBase64AndStructuredClone(t *testing.T) {
	t.Parallel()
	runJSCases(t, cloneCases)
}

// cloneCases are the node-checked programs of this file (also run under snapshots).
var cloneCases = []jsCase{
	{"buffers_shared_in_clone", `const b = new ArrayBuffer(8); const u = new Uint8Array(b); u[0] = 1; const c = structuredClone({u, d: new DataView(b, 2), i: new Int16Array(b, 4, 2), b}); c.u[4] = 9; [c.u.buffer === c.d.buffer, c.i.buffer === c.b, c.u.buffer !== b, c.i[0], u[4], c.d.byteOffset, c.i.length, Object.prototype.toString.call(c.i)].join()`, "true,true,true,9,0,2,2,[object Int16Array]"},
	{"resizable_buffer", `const b = new ArrayBuffer(2, {maxByteLength: 4}); const c = structuredClone(b); [c.resizable, c.maxByteLength, c.byteLength].join()`, "true,4,2"},
	{"subarray", `const s = new Uint8Array(4).subarray(1, 3); s[0] = 5; const c = structuredClone(s); [c.length, c.byteOffset, c.buffer.byteLength, c[0]].join()`, "2,1,4,5"},
	{"detached_buffer", `const b = new ArrayBuffer(2); const u = new Uint8Array(b); b.transfer(); let n; try { structuredClone(u) } catch (e) { n = e.name } n`, "DataCloneError"},
	{"transfer_moves_buffers", `const b = new ArrayBuffer(4); const u = new Uint8Array(b); u[0] = 7; const c = structuredClone({u, b}, {transfer: [b]}); [b.byteLength, b.detached, u.length, c.b.byteLength, c.u[0], c.u.buffer === c.b].join()`, "0,true,0,4,7,true"},
	{"transfer_without_the_buffer_in_value", `const b = new ArrayBuffer(4); [structuredClone(5, {transfer: new Set([b])}), b.byteLength].join()`, "5,0"},
	{"transfer_kept_when_clone_fails", `const b = new ArrayBuffer(4); let n; try { structuredClone({b, f() {}}, {transfer: [b]}) } catch (e) { n = e.name } [n, b.byteLength].join()`, "DataCloneError,4"},
	{"transfer_resizable", `const b = new ArrayBuffer(4, {maxByteLength: 8}); const c = structuredClone(b, {transfer: [b]}); [c.resizable, c.maxByteLength, b.detached].join()`, "true,8,true"},
	{"transfer_errors", `const b = new ArrayBuffer(1); const e = f => { try { f(); return 'ok' } catch (x) { return x.name + ': ' + x.message } }; [e(() => structuredClone(1, {transfer: [b, b]})), e(() => structuredClone(1, {transfer: [new Uint8Array(1)]})), e(() => structuredClone(1, {transfer: 'ab'})), e(() => structuredClone(1, 5)), e(() => structuredClone(1, {transfer: {}})), e(() => structuredClone(1, null)), e(() => structuredClone())].join('|')`, "DataCloneError: Transfer list contains duplicate ArrayBuffer|TypeError: Found invalid object in transferList|TypeError: Optional transferList argument must be an iterable|TypeError: The options argument must be either an object or undefined|ok|ok|TypeError: The value argument must be specified"},
	{"error_keys", `[Reflect.ownKeys(structuredClone(new Error('m', {cause: 1}))), Reflect.ownKeys(structuredClone(new RangeError()))].join('|')`, "stack,message,cause|stack"},
	{"atob", `atob('aGVsbG8gd29ybGQ=')`, "hello world"},
	{"atob_no_padding", `atob('aGk')`, "hi"},
	{"atob_whitespace", `atob(' aG\nVs bG8= ')`, "hello"},
	{"atob_binary", `[...atob('/wCA')].map(c => c.charCodeAt(0)).join()`, "255,0,128"},
	{"atob_bad_char", `atob('*')`, "throws InvalidCharacterError"},
	{"atob_bad_length", `atob('abcde')`, "throws InvalidCharacterError"},
	{"atob_bad_name", `let n; try { atob('!') } catch (e) { n = e.name + ':' + e.code + ':' + e.message + ':' + (e instanceof Error) } n`, "InvalidCharacterError:5:Invalid character:true"},
	{"atob_trailing_bits", `atob('YR')`, "a"},
	{"atob_empty", `atob('').length`, "0"},
	{"atob_number", `atob(1234).length`, "3"},
	{"atob_no_args", `atob()`, "throws TypeError"},
	{"btoa", `btoa('hello world')`, "aGVsbG8gd29ybGQ="},
	{"btoa_binary", `btoa(String.fromCharCode(255, 0, 128))`, "/wCA"},
	{"btoa_unicode", `btoa('€')`, "throws InvalidCharacterError"},
	{"btoa_unicode_name", `let n; try { btoa('€') } catch (e) { n = e.name + ':' + e.message } n`, "InvalidCharacterError:Invalid character"},
	{"btoa_roundtrip", `atob(btoa('\x00\x01abc\xff'))  === '\x00\x01abc\xff'`, "true"},
	{"btoa_undefined", `btoa(undefined)`, "dW5kZWZpbmVk"},
	{"lengths", `[atob.length, btoa.length, structuredClone.length, atob.name].join()`, "1,1,0,atob"},
	{"clone_primitives", `[structuredClone(1), structuredClone('s'), structuredClone(null), structuredClone(undefined), structuredClone(true), Object.is(structuredClone(-0), -0)].join()`, "1,s,,,true,true"},
	{"clone_deep", `const o = {a: [1, {b: 2}], c: 'x'}; const c = structuredClone(o); c.a[1].b = 9; JSON.stringify([o, c])`, "[{\"a\":[1,{\"b\":2}],\"c\":\"x\"},{\"a\":[1,{\"b\":9}],\"c\":\"x\"}]"},
	{"clone_cycle", `const o = {n: 1}; o.self = o; o.list = [o]; const c = structuredClone(o); [c.self === c, c.list[0] === c, c !== o].join()`, "true,true,true"},
	{"clone_shared", `const s = {}; const c = structuredClone({a: s, b: s}); c.a === c.b`, "true"},
	{"clone_date", `const d = new Date(5); const c = structuredClone(d); [c instanceof Date, c.getTime(), c !== d].join()`, "true,5,true"},
	{"clone_map", `const k = {id: 1}; const m = new Map([[k, {v: 2}], ['s', k]]); const c = structuredClone(m); const [ck] = c.keys(); [c instanceof Map, c.size, ck !== k, ck.id, c.get(ck).v, c.get('s') === ck].join()`, "true,2,true,1,2,true"},
	{"clone_set", `const c = structuredClone(new Set([1, 'a', {x: 1}])); [c instanceof Set, c.size, [...c][2].x].join()`, "true,3,1"},
	{"clone_regexp", `const r = /a+b/gi; r.lastIndex = 3; const c = structuredClone(r); [c.source, c.flags, c.lastIndex, c !== r, c.test('AAB')].join()`, "a+b,gi,0,true,true"},
	{"clone_error", `const e = new TypeError('bad', {cause: {x: 1}}); const c = structuredClone(e); [c instanceof TypeError, c.name, c.message, c.cause.x, c !== e].join()`, "true,TypeError,bad,1,true"},
	{"clone_error_custom_name", `class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr' } } const c = structuredClone(new MyErr('m')); [c.name, c instanceof Error, c.message].join()`, "Error,true,m"},
	{"clone_class_instance", `class P { constructor() { this.x = 1 } get y() { return 2 } } const c = structuredClone(new P()); [Object.getPrototypeOf(c) === Object.prototype, c.x, c.y].join()`, "true,1,"},
	{"clone_getters_run", `let n = 0; const c = structuredClone({get g() { n++; return 5 }}); [n, c.g, Object.getOwnPropertyDescriptor(c, 'g').value].join()`, "1,5,5"},
	{"clone_non_enumerable_dropped", `const o = {}; Object.defineProperty(o, 'h', {value: 1}); 'h' in structuredClone(o)`, "false"},
	{"clone_symbol_keys_dropped", `Object.getOwnPropertySymbols(structuredClone({[Symbol('s')]: 1})).length`, "0"},
	{"clone_holes", `const c = structuredClone([1, , 3]); [c.length, 1 in c].join()`, "3,false"},
	{"clone_array_extra_props", `const a = [1]; a.extra = 'e'; structuredClone(a).extra`, "e"},
	{"clone_wrappers", `const c = structuredClone(new Number(3)); [typeof c, c + 1].join()`, "object,4"},
	{"clone_function", `structuredClone(() => 1)`, "throws DataCloneError"},
	{"clone_function_nested", `let n; try { structuredClone({f() {}}) } catch (e) { n = e.name + ':' + e.code } n`, "DataCloneError:25"},
	{"clone_symbol", `structuredClone(Symbol('x'))`, "throws DataCloneError"},
	{"clone_promise", `structuredClone(Promise.resolve())`, "throws DataCloneError"},
	{"clone_weakmap", `structuredClone(new WeakMap())`, "throws DataCloneError"},
	{"clone_no_args", `structuredClone()`, "throws TypeError"},
	{"clone_frozen_not_kept", `Object.isFrozen(structuredClone(Object.freeze({a: 1})))`, "false"},
}

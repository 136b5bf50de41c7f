package interp

import "testing"

// TestTypedArrayBuiltins checks ArrayBuffer, the typed arrays and DataView against results
// computed by node 20 (transfer and the base64 methods, which node 20 lacks, against the
// specification).
func TestTypedArrayBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, typedArrayCases)
}

// typedArrayCases are the node-checked programs of this file (also run under snapshots).
var typedArrayCases = []jsCase{
	{"basic_rw", `const a = new Int16Array(4); a[0] = 70000; a[1] = -1.9; a[2] = '12'; a[5] = 9; [a.join(), a.length, a[5], 5 in a, Object.keys(a).join()].join('|')`, "4464,-1,12,0|4||false|0,1,2,3"},
	{"uint8_wrap", `const a = new Uint8Array([256, 257, -1, 3.7, NaN]); a.join()`, "0,1,255,3,0"},
	{"clamped", `new Uint8ClampedArray([1.5, 2.5, 3.5, 300, -5, NaN, 254.5]).join()`, "2,2,4,255,0,0,254"},
	{"float32", `const f = new Float32Array([1.1, 16777217, -0]); [f[0], f[1], Object.is(f[2], -0)].join()`, "1.100000023841858,16777216,true"},
	{"numeric_keys", `const a = new Uint8Array(2); a['-0'] = 5; a['1.5'] = 5; a.foo = 1; [a['-0'], a['1.5'], '-0' in a, a.foo, Object.keys(a).join(), JSON.stringify(Object.getOwnPropertyDescriptor(a, 0))].join('|')`, "||false|1|0,1,foo|{\"value\":0,\"writable\":true,\"enumerable\":true,\"configurable\":true}"},
	{"proto_not_walked", `Object.prototype[3] = 'x'; const a = new Uint8Array(2); const r = [a[3], 3 in a].join(); delete Object.prototype[3]; r`, ",false"},
	{"define_property", `const a = new Uint8Array(2); Object.defineProperty(a, 0, {value: 7}); let e; try { Object.defineProperty(a, 1, {value: 1, enumerable: false}) } catch (x) { e = x.constructor.name } [a[0], e, Reflect.defineProperty(a, 5, {value: 1})].join()`, "7,TypeError,false"},
	{"delete_elem", `const a = new Uint8Array(2); let e; try { delete a[0] } catch (x) { e = x.constructor.name } [e, delete a[5]].join()`, "TypeError,true"},
	{"freeze", `let e; try { Object.freeze(new Uint8Array(1)) } catch (x) { e = x.constructor.name } [e, Object.isFrozen(Object.freeze(new Uint8Array(0)))].join()`, "TypeError,true"},
	{"from_iterable", `Int32Array.from(new Set([3, 1, 2]), x => x * 10).join()`, "30,10,20"},
	{"of", `Float64Array.of(1, 2.5, '3').join()`, "1,2.5,3"},
	{"from_typed", `const a = new Float64Array([1.5, -2.5, 300]); [new Int8Array(a).join(), new Uint8Array(a).join()].join('|')`, "1,-2,44|1,254,44"},
	{"buffer_views", `const b = new ArrayBuffer(8); const u8 = new Uint8Array(b); const u32 = new Uint32Array(b, 4, 1); u32[0] = 0x01020304; u8.join()`, "0,0,0,0,4,3,2,1"},
	{"offset_errors", `const b = new ArrayBuffer(8); const out = []; for (const f of [() => new Int32Array(b, 3), () => new Int32Array(b, 4, 2), () => new Int32Array(new ArrayBuffer(7)), () => new Uint8Array(-1)]) { try { f(); out.push('ok') } catch (e) { out.push(e.constructor.name + ':' + e.message) } } out.join('|')`, "RangeError:start offset of Int32Array should be a multiple of 4|RangeError:Invalid typed array length: 2|RangeError:byte length of Int32Array should be a multiple of 4|RangeError:Invalid typed array length: -1"},
	{"methods_1", `const a = new Int8Array([5, 1, 4, 2, 3]); [a.at(-1), a.indexOf(4), a.lastIndexOf(9), a.includes(2), a.find(x => x > 3), a.findIndex(x => x > 3), a.findLast(x => x > 3), a.findLastIndex(x => x > 3), a.every(x => x > 0), a.some(x => x > 4)].join()`, "3,2,-1,true,5,0,4,2,true,true"},
	{"methods_2", `const a = new Int8Array([5, 1, 4, 2, 3]); [a.slice(1, 3).join(' '), a.subarray(2).join(' '), a.map(x => x * 2).join(' '), a.filter(x => x & 1).join(' '), a.reduce((s, x) => s + x), a.reduceRight((s, x) => s + '' + x, '')].join('|')`, "1 4|4 2 3|10 2 8 4 6|5 1 3|15|32415"},
	{"methods_3", `const a = new Float64Array([3, NaN, -0, 0, -1, 10]); [a.toSorted().join(' '), Object.is(a.toSorted()[1], -0), a.toReversed().join(' '), a.with(0, 7).join(' '), a.sort().join(' ')].join('|')`, "-1 0 0 3 10 NaN|true|10 -1 0 0 NaN 3|7 NaN 0 0 -1 10|-1 0 0 3 10 NaN"},
	{"fill_copy", `const a = new Uint8Array(6); a.fill(7, 1, 3); const b = Uint8Array.of(1, 2, 3, 4, 5); b.copyWithin(0, 3); [a.join(), b.join(), b.reverse().join()].join('|')`, "0,7,7,0,0,0|4,5,3,4,5|5,4,3,5,4"},
	{"set_method", `const a = new Uint8Array(6); a.set([1, 2], 1); a.set(new Float32Array([9.5, 300]), 4); let e; try { a.set([1, 2], 5) } catch (x) { e = x.constructor.name } [a.join(), e].join('|')`, "0,1,2,0,9,44|RangeError"},
	{"set_same_buffer", `const a = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8); const b = new Uint16Array(a.buffer, 0, 2); a.set(b, 2); a.join()`, "1,2,1,3,5,6,7,8"},
	{"iterators", `const a = Uint8Array.of(7, 8); [[...a.keys()].join(), [...a.values()].join(), [...a.entries()].join(';'), [...a].join()].join('|')`, "0,1|7,8|0,7;1,8|7,8"},
	{"getters", `const b = new ArrayBuffer(16); const a = new Int16Array(b, 2, 3); [a.length, a.byteLength, a.byteOffset, a.buffer === b, a[Symbol.toStringTag], Int16Array.BYTES_PER_ELEMENT, a.BYTES_PER_ELEMENT].join()`, "3,6,2,true,Int16Array,2,2"},
	{"tostring", `const a = Uint8Array.of(1, 2); [String(a), a.toLocaleString(), Object.prototype.toString.call(a), a.toString === Array.prototype.toString].join('|')`, "1,2|1,2|[object Uint8Array]|true"},
	{"ctor_props", `[Int8Array.length, Int8Array.name, Object.getPrototypeOf(Int8Array).name, Object.getPrototypeOf(Int8Array.prototype) === Object.getPrototypeOf(Uint8Array.prototype), typeof Object.getPrototypeOf(Int8Array).from].join()`, "3,Int8Array,TypedArray,true,function"},
	{"abstract", `new (Object.getPrototypeOf(Int8Array))()`, "throws TypeError"},
	{"no_new", `Uint8Array(2)`, "throws TypeError"},
	{"species_map", `class M extends Uint8Array {} const m = new M(3).map(x => 1); [m instanceof M, m.join()].join()`, "true,1,1,1"},
	{"subclass", `class V extends Float32Array { sum() { return this.reduce((a, b) => a + b, 0) } } new V([1, 2, 3]).sum()`, "6"},
	{"ab_basic", `const b = new ArrayBuffer(4); new Uint8Array(b).set([1, 2, 3, 4]); const s = b.slice(1, -1); [b.byteLength, s.byteLength, new Uint8Array(s).join(), ArrayBuffer.isView(new DataView(b)), ArrayBuffer.isView(b), b.resizable, b.maxByteLength].join()`, "4,2,2,3,true,false,false,4"},
	{"ab_resizable", `const b = new ArrayBuffer(2, {maxByteLength: 8}); const t = new Uint8Array(b); const f = new Uint8Array(b, 0, 2); t[1] = 5; b.resize(6); const l1 = [t.length, f.length].join(); b.resize(1); [l1, t.length, f.length, f.byteLength, f[0], t[0], b.resizable, b.maxByteLength].join()`, "6,2,1,0,0,,0,true,8"},
	{"ab_resize_errors", `const b = new ArrayBuffer(2, {maxByteLength: 4}); const out = []; for (const f of [() => b.resize(5), () => new ArrayBuffer(2).resize(1), () => new ArrayBuffer(5, {maxByteLength: 4})]) { try { f(); out.push('ok') } catch (e) { out.push(e.constructor.name) } } out.join()`, "RangeError,TypeError,RangeError"},
	{"ab_transfer", `const b = new ArrayBuffer(4); const u = new Uint8Array(b); u[0] = 9; const c = b.transfer(8); let e; try { u.fill(1) } catch (x) { e = x.constructor.name } [b.detached, b.byteLength, u.length, u[0], c.byteLength, new Uint8Array(c)[0], e].join()`, "true,0,0,,8,9,TypeError"},
	{"ab_transfer_fixed", `const b = new ArrayBuffer(2, {maxByteLength: 8}); const c = b.transfer(); const d = c.transferToFixedLength(); [c.resizable, c.maxByteLength, d.resizable, c.detached].join()`, "true,0,false,true"},
	{"ab_detached_slice", `const b = new ArrayBuffer(4); b.transfer(); b.slice()`, "throws TypeError"},
	{"dataview", `const dv = new DataView(new ArrayBuffer(16), 2); dv.setInt16(0, -300); dv.setUint32(2, 0xdeadbeef, true); dv.setFloat32(10, 1.5, true); [dv.getInt16(0), dv.getUint8(0), dv.getUint32(2, true).toString(16), dv.getUint32(2).toString(16), dv.getInt8(2), dv.getFloat32(10, true), dv.byteLength, dv.byteOffset].join()`, "-300,254,deadbeef,efbeadde,-17,1.5,14,2"},
	{"dataview_bounds", `const dv = new DataView(new ArrayBuffer(4)); const out = []; for (const f of [() => dv.getInt32(1), () => dv.getInt8(-1), () => new DataView(new ArrayBuffer(4), 5), () => new DataView({}), () => DataView.prototype.getInt8.call({}, 0)]) { try { f(); out.push('ok') } catch (e) { out.push(e.constructor.name) } } out.join()`, "RangeError,RangeError,RangeError,TypeError,TypeError"},
	{"dataview_tracking", `const b = new ArrayBuffer(4, {maxByteLength: 8}); const dv = new DataView(b); const fixed = new DataView(b, 0, 4); b.resize(8); const l = dv.byteLength; b.resize(2); let e; try { fixed.byteLength } catch (x) { e = x.constructor.name } [l, dv.byteLength, e].join()`, "8,2,TypeError"},
	{"json", `JSON.stringify({a: Uint8Array.of(1, 2), b: new ArrayBuffer(2), c: new DataView(new ArrayBuffer(1))})`, "{\"a\":{\"0\":1,\"1\":2},\"b\":{},\"c\":{}}"},
	{"iter_detached", `const b = new ArrayBuffer(2); const it = new Uint8Array(b).values(); it.next(); b.transfer(); it.next()`, "throws TypeError"},
	{"negative_zero_index", `const a = new Uint8Array(2); a[-0] = 5; const k = -0; [a[0], a[k], a[-1], a[1.5]].join()`, "5,5,,"},
	{"base64", `const u = Uint8Array.fromBase64('aGk/+w=='); [u.join(), u.toBase64(), u.toBase64({alphabet: 'base64url', omitPadding: true}), u.toHex(), Uint8Array.fromHex('00ff').join()].join('|')`, "104,105,63,251|aGk/+w==|aGk_-w|68693ffb|0,255"},
	{"setFromBase64", `const u = new Uint8Array(4); const r = u.setFromBase64('aGVsbG8='); [r.read, r.written, u.join()].join('|')`, "4|3|104,101,108,0"},
	{"base64_errors", `const out = []; for (const f of [() => Uint8Array.fromBase64('a'), () => Uint8Array.fromBase64(1), () => Uint8Array.fromHex('abc'), () => Uint8Array.fromBase64('aGk=', {lastChunkHandling: 'strict', alphabet: 'x'}), () => Uint8Array.prototype.toHex.call(new Int8Array(1))]) { try { f(); out.push('ok') } catch (e) { out.push(e.constructor.name) } } out.join()`, "SyntaxError,TypeError,SyntaxError,TypeError,TypeError"},
	{"sort_default", `Uint32Array.of(10, 9, 1e9, 2).sort().join()`, "2,9,10,1000000000"},
}

// BigInt64Array, BigUint64Array and DataView's BigInt methods, with values and messages node
// 20 gives for the same programs.
func TestBigIntTypedArrays(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"wrap to 64 bits", `String(new BigInt64Array([1n, -2n, 2n ** 63n]))`, "1,-2,-9223372036854775808"},
		{"unsigned", `const u = new BigUint64Array(2); u[0] = -1n; u[1] = 5n; String(u)`, "18446744073709551615,5"},
		{"DataView", `const dv = new DataView(new ArrayBuffer(16)); dv.setBigInt64(0, -5n); dv.setBigUint64(8, 2n ** 64n - 1n, true); [dv.getBigInt64(0), dv.getBigUint64(8, true), dv.getInt32(0)].join()`, "-5,18446744073709551615,-1"},
		{"a number is refused", `let r; try { new BigInt64Array(1)[0] = 1 } catch (e) { r = e.name + ": " + e.message } r`, "TypeError: Cannot convert 1 to a BigInt"},
		{"strings and booleans convert", `String(new BigInt64Array(["12", true]))`, "12,1"},
		{"content types do not mix", `let r; try { new Int8Array(new BigInt64Array(1)) } catch (e) { r = e.message } r`, "Cannot mix BigInt and other types, use explicit conversions"},
		{"sort", `String(new BigInt64Array([3n, -1n, 2n]).sort())`, "-1,2,3"},
		{"search and map", `const a = new BigInt64Array([1n, -2n]); [a.includes(-2n), a.indexOf(1n), String(a.map(x => x * 2n))].join()`, "true,0,2,-4"},
		{"tag and size", `[Object.prototype.toString.call(new BigUint64Array(1)), BigInt64Array.BYTES_PER_ELEMENT].join()`, "[object BigUint64Array],8"},
		{"defineProperty", `const a = new BigInt64Array(1); Object.defineProperty(a, "0", {value: 9n}); String(a[0])`, "9"},
	})
}

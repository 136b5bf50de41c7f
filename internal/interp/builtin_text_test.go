package interp

import "testing"

// TestTextEncoding checks TextEncoder and TextDecoder against node 20, with byte arrays in
// place of Uint8Array (node's results computed on Uint8Array copies of the same bytes);
// only UTF-8 is supported, so other labels are a RangeError.
func TestTextEncoding(t *testing.T) {
	t.Parallel()
	runJSCases(t, textCases)
}

// textCases are the node-checked programs of this file (also run under snapshots).
var textCases = []jsCase{
	{"encode_ascii", `Array.from(new TextEncoder().encode('hi')).join()`, "104,105"},
	{"encode_multibyte", `Array.from(new TextEncoder().encode('é€😀')).join()`, "195,169,226,130,172,240,159,152,128"},
	{"encode_lone_surrogate", `Array.from(new TextEncoder().encode('a\ud800b')).join()`, "97,239,191,189,98"},
	{"encode_empty", `new TextEncoder().encode().length + ':' + new TextEncoder().encode(undefined).length`, "0:0"},
	{"encode_number", `Array.from(new TextEncoder().encode(12)).join()`, "49,50"},
	{"encoding", `new TextEncoder().encoding`, "utf-8"},
	{"encodeInto", `const d = new Uint8Array(5); const r = new TextEncoder().encodeInto('aé€', d); [r.read, r.written, d.join()].join('|')`, "2|3|97,195,169,0,0"},
	{"encodeInto_surrogate_pair", `const d = new Uint8Array(6); const r = new TextEncoder().encodeInto('😀x', d); [r.read, r.written].join()`, "3,5"},
	{"encode_is_uint8array", `const e = new TextEncoder().encode('hé'); [Object.prototype.toString.call(e), e.length, e.buffer.byteLength].join()`, "[object Uint8Array],3,3"},
	{"encodeInto_array_refused", `let m; try { new TextEncoder().encodeInto('a', [0]) } catch (e) { m = e.message } m`, "The \"dest\" argument must be an instance of Uint8Array. Received an instance of Array"},
	{"encodeInto_subarray", `const b = new Uint8Array(6); const r = new TextEncoder().encodeInto('héllo', b.subarray(2, 5)); [r.read, r.written, b.join()].join('|')`, "2|3|0,0,104,195,169,0"},
	{"decode_views", `const b = new TextEncoder().encode('xhéy').buffer; const d = new TextDecoder(); [d.decode(b), d.decode(new Uint8Array(b, 1, 3)), d.decode(new DataView(b, 1, 1)), d.decode(new Uint16Array(b, 0, 2))].join('|')`, "xhéy|hé|h|xhé"},
	{"decode_array_refused", `let m; try { new TextDecoder().decode([65]) } catch (e) { m = e.message } m`, "The \"list\" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView."},
	{"decode_basic", `new TextDecoder().decode(new Uint8Array([104, 105, 32, 226, 130, 172]))`, "hi €"},
	{"decode_roundtrip", `const s = 'héllo 😀 wörld'; new TextDecoder().decode(new TextEncoder().encode(s)) === s`, "true"},
	{"decode_invalid_replaced", `new TextDecoder().decode(new Uint8Array([0xff, 0x41, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98])).split('').map(c => c.charCodeAt(0).toString(16)).join()`, "fffd,41,fffd,41,fffd"},
	{"decode_overlong", `new TextDecoder().decode(new Uint8Array([0xc0, 0x80, 0xe0, 0x80, 0x80])).length`, "5"},
	{"decode_surrogate_encoded", `new TextDecoder().decode(new Uint8Array([0xed, 0xa0, 0x80])).length`, "3"},
	{"decode_bom_stripped", `new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length`, "1"},
	{"decode_bom_kept", `new TextDecoder('utf-8', {ignoreBOM: true}).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length`, "2"},
	{"decode_fatal", `new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0xff]))`, "throws TypeError"},
	{"decode_fatal_ok", `new TextDecoder('utf8', {fatal: true}).decode(new Uint8Array([0x41]))`, "A"},
	{"decode_stream", `const d = new TextDecoder(); d.decode(new Uint8Array([0xe2, 0x82]), {stream: true}) + '|' + d.decode(new Uint8Array([0xac]))`, "|€"},
	{"decode_stream_end_incomplete", `const d = new TextDecoder(); d.decode(new Uint8Array([0xe2]), {stream: true}); d.decode().charCodeAt(0).toString(16)`, "fffd"},
	{"decode_undefined", `new TextDecoder().decode().length`, "0"},
	{"decoder_props", `const d = new TextDecoder('UTF-8', {fatal: 1}); [d.encoding, d.fatal, d.ignoreBOM].join()`, "utf-8,true,false"},
	{"decoder_bad_label", `new TextDecoder('latin1')`, "throws RangeError"},
	{"decoder_bad_label2", `new TextDecoder('bogus')`, "throws RangeError"},
	{"encoder_without_new", `TextEncoder()`, "throws TypeError"},
	{"decoder_without_new", `TextDecoder()`, "throws TypeError"},
	{"tags", `String(new TextEncoder()) + String(new TextDecoder())`, "[object TextEncoder][object TextDecoder]"},
	{"encode_incompatible", `TextEncoder.prototype.encode.call({}, 'x')`, "throws TypeError"},
	{"decode_incompatible", `TextDecoder.prototype.decode.call({}, [])`, "throws TypeError"},
	{"decode_non_object", `new TextDecoder().decode(5)`, "throws TypeError"},
}

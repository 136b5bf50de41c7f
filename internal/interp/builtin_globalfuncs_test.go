package interp

import "testing"

// TestGlobalFuncsBuiltins checks the global functions (parseInt, parseFloat, isNaN,
// isFinite and the URI functions) and value properties against results computed by node.
func TestGlobalFuncsBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"parseInt", `[parseInt('42'), parseInt('  -17abc'), parseInt('0x1A'), parseInt('0x1A', 16), parseInt('0x1A', 10), parseInt('1010', 2), parseInt('zz', 36), parseInt('12', 1), parseInt(''), parseInt('\u00a0 7'), parseInt(0.0000005), parseInt('9007199254740993'), parseInt(null, 36)].join()`, "42,-17,26,26,0,10,1295,NaN,NaN,7,5,9007199254740992,1112745"},
		{"parseFloat", `[parseFloat('3.5e2x'), parseFloat('  -.25'), parseFloat('Infinityx'), parseFloat('1e1000'), parseFloat('0x10'), parseFloat(''), parseFloat('-0') === 0, 1 / parseFloat('-0')].join()`, "350,-0.25,Infinity,Infinity,0,NaN,true,-Infinity"},
		{"isNaN", `[isNaN('abc'), isNaN('12'), isNaN(undefined), isNaN(null), isNaN({}), isNaN([])].join()`, "true,false,true,false,true,false"},
		{"isFinite", `[isFinite('12'), isFinite(Infinity), isFinite(null), isFinite('x')].join()`, "true,false,true,false"},
		{"escape", `JSON.stringify([escape("a b+c/d@e*f_g-h.i"), escape("é€😀\u0000%"), escape(""), escape(123), escape.length, Object.getOwnPropertyDescriptor(globalThis, "escape").enumerable])`, `["a%20b+c/d@e*f_g-h.i","%E9%u20AC%uD83D%uDE00%00%25","","123",1,false]`},
		{"unescape", `JSON.stringify([unescape("%41%u20AC%zz%u12%4"), unescape(escape("mixé€😀 ~!")), unescape("%"), unescape("%u00411"), unescape.length])`, `["A€%zz%u12%4","mixé€😀 ~!","%","A1",1]`},
		{"encodeURIComponent", `encodeURIComponent("a b&c=d/é😀?#-_.!~*'()")`, "a%20b%26c%3Dd%2F%C3%A9%F0%9F%98%80%3F%23-_.!~*'()"},
		{"encodeURI", `encodeURI("http://x.y/a b?q=é&r=1#h[]")`, "http://x.y/a%20b?q=%C3%A9&r=1#h%5B%5D"},
		{"decodeURIComponent", `decodeURIComponent('a%20b%26%C3%A9%F0%9F%98%80%2f')`, "a b&é😀/"},
		{"decodeURI", `decodeURI('a%20b%26%23%2F%C3%A9')`, "a b%26%23%2Fé"},
		{"encode_lone_surrogate", `encodeURIComponent('\ud800')`, "throws URIError"},
		{"decode_malformed", `decodeURIComponent('%E0%A4%A')`, "throws URIError"},
		{"decode_overlong", `decodeURIComponent('%C0%80')`, "throws URIError"},
		{"decode_bad_hex", `decodeURI('%zz')`, "throws URIError"},
		{"decode_surrogate_utf8", `decodeURIComponent('%ED%A0%80')`, "throws URIError"},
		{"globals_readonly", `[typeof NaN, Infinity, typeof undefined, Object.getOwnPropertyDescriptor(globalThis, 'NaN').writable, Object.getOwnPropertyDescriptor(globalThis, 'parseInt').enumerable].join()`, "number,Infinity,undefined,false,false"},
		{"lengths", `[parseInt.length, parseFloat.length, encodeURI.length, decodeURIComponent.length, isNaN.name].join()`, "2,1,1,1,isNaN"},
	})
}

package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConsoleBuiltinObjects checks console output of objects with internal state against
// node 20's output for the same statements.
func TestConsoleBuiltinObjects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"map", `console.log(new Map([['a', 1], [{k: 1}, [2]]]))`, "Map(2) { 'a' => 1, { k: 1 } => [ 2 ] }"},
		{"set and weak", `console.log(new Set([1, 'x']), new WeakMap(), new WeakSet())`, "Set(2) { 1, 'x' } WeakMap { <items unknown> } WeakSet { <items unknown> }"},
		{"empty nested", `console.log([new Map()], {s: new Set()})`, "[ Map(0) {} ] { s: Set(0) {} }"},
		{"date and regexp", `console.log(new Date(0), /ab+c/gi, new Date(NaN))`, "1970-01-01T00:00:00.000Z /ab+c/gi Invalid Date"},
		{"promises", `const r = Promise.reject(3); r.catch(() => {}); console.log(Promise.resolve(4), new Promise(() => {}), r)`, "Promise { 4 } Promise { <pending> } Promise { <rejected> 3 }"},
		{"search params", `console.log(new URLSearchParams('a=1&b=2'), new URLSearchParams(''))`, "URLSearchParams { 'a' => '1', 'b' => '2' } URLSearchParams {}"},
		{"url", `console.log(new URL('https://x.y/p?q=1'))`, "URL {\n  href: 'https://x.y/p?q=1',\n  origin: 'https://x.y',\n  protocol: 'https:',\n  username: '',\n  password: '',\n  host: 'x.y',\n  hostname: 'x.y',\n  port: '',\n  pathname: '/p',\n  search: '?q=1',\n  searchParams: URLSearchParams { 'q' => '1' },\n  hash: ''\n}"},
		{"deep map", `console.log({a: {b: {c: new Map([[1, 2]])}}})`, "{ a: { b: { c: [Map] } } }"},
		{"typed arrays", `console.log(new Uint8Array([1, 2, 3]), new Float64Array(0), [new Int8Array(1)])`, "Uint8Array(3) [ 1, 2, 3 ] Float64Array(0) [] [ Int8Array(1) [ 0 ] ]"},
		{"array buffer", `console.log(new ArrayBuffer(2), new ArrayBuffer(2, {maxByteLength: 4}))`, "ArrayBuffer { [Uint8Contents]: <00 00>, byteLength: 2 } ArrayBuffer { [Uint8Contents]: <00 00>, byteLength: 2 }"},
		{"data view", `console.log(new DataView(new ArrayBuffer(2), 1))`, "DataView {\n  byteLength: 1,\n  byteOffset: 1,\n  buffer: ArrayBuffer { [Uint8Contents]: <00 00>, byteLength: 2 }\n}"},
		{"grouped numbers", `console.log({a: new Int16Array(10).fill(7)})`, "{\n  a: Int16Array(10) [\n    7, 7, 7, 7, 7,\n    7, 7, 7, 7, 7\n  ]\n}"},
		{"subclass and extra key", `class V extends Uint8Array {} const u = new Uint8Array(2); u.x = 1; console.log(new V(2), u)`, "V(2) [Uint8Array] [ 0, 0 ] Uint8Array(2) [ 0, 0, x: 1 ]"},
		{"circular map", `const m = new Map(); m.set('self', m); console.log(m)`, "<ref *1> Map(1) { 'self' => [Circular *1] }"},
		{"function kind prototypes", `console.log(Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {}).prototype)`, "Function [GeneratorFunction] {} Function [AsyncFunction] {} Object [Generator] {}"},
		{"inherited tags", `class D {}; Object.defineProperty(D.prototype, Symbol.toStringTag, {value: 'DD'}); class A { static [Symbol.toStringTag] = 'S' }; console.log(new D(), Object.create(null, {[Symbol.toStringTag]: {value: 'N'}}), {[Symbol.toStringTag]: 'T', a: 1}, new A())`, "D [DD] {} [Object: null prototype] [N] {} { a: 1, [Symbol(Symbol.toStringTag)]: 'T' } A {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			var lines []string
			vm := New(Config{Log: func(level, text string) { lines = append(lines, text) }})
			require.NoError(t, vm.Start(p))
			st, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			require.Equal(t, []string{tt.want}, lines)
		})
	}
}

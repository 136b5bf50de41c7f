package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestToDataPlainDataContract: values leaving a program are plain data; what JSON.stringify
// would silently drop or empty fails with its path, errors become {name, message}.
func TestToDataPlainDataContract(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string // JSON, when the copy succeeds
		fail string // part of the message, when it fails
	}{
		{name: "plain values", src: `({a: [1, "x", null, true], b: {c: -0}})`, want: `{"a":[1,"x",null,true],"b":{"c":0}}`},
		{name: "JSON semantics kept", src: `({n: NaN, i: Infinity, u: undefined, l: [undefined], d: new Date(0), t: {toJSON() { return 't' }}})`,
			want: `{"n":null,"i":null,"l":[null],"d":"1970-01-01T00:00:00.000Z","t":"t"}`},
		{name: "forgotten await", src: `({sum: Promise.resolve(3)})`, fail: "a Promise at result.sum is not data (did you forget await?)"},
		{name: "a function in an array", src: `({items: [1, () => 2]})`, fail: "a function at result.items[1] is not data"},
		{name: "a method", src: `({o: {f() {}}})`, fail: "a function at result.o.f is not data"},
		{name: "a symbol", src: `[Symbol.iterator]`, fail: "a symbol at result[0] is not data"},
		{name: "a Map", src: `({"odd key": new Map()})`, fail: `a Map at result["odd key"] is not data`},
		{name: "a WeakSet", src: `({w: new WeakSet()})`, fail: "a Set at result.w is not data"},
		{name: "the value itself", src: `new Set([1])`, fail: "a Set at result is not data"},
		{name: "an error", src: `(() => { const e = new TypeError('bad', {cause: 1}); e.code = 7; return {e} })()`,
			want: `{"e":{"name":"TypeError","message":"bad","code":7}}`},
		{name: "a cycle", src: `(() => { const o = {}; o.o = o; return o })()`, fail: "circular"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			_, err = vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			v, thrown := vm.Result()
			require.False(t, thrown)
			out, err := vm.ToData(v, 32, "result")
			if tt.fail != "" {
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.fail)
				return
			}
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(out))
		})
	}
}

// Inside the language JSON.stringify stays JSON.stringify: the contract is the boundary's.
func TestJSONStringifyInsideProgramsIsUnchanged(t *testing.T) {
	t.Parallel()
	got, thrown := runProgram(t, `JSON.stringify({p: Promise.resolve(1), f() {}, m: new Map([[1, 2]]), e: new Error('x')})`)
	require.False(t, thrown, got)
	require.Equal(t, `{"p":{},"m":{},"e":{}}`, got)
}

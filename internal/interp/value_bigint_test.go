package interp

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBigIntSemantics checks BigInt against results computed by node.
func TestBigIntSemantics(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"typeof", `typeof 1n + typeof Object(1n) + typeof BigInt`, "bigintobjectfunction"},
		{"literals", `[0x1fn, 0o7n, 0b1_0n, 1_000n, 0n].join()`, "31,7,2,1000,0"},
		{"arithmetic", `[5n + 2n, 5n - 7n, 6n * -7n, 7n / 2n, -7n / 2n, -7n % 2n, 2n ** 64n].join()`, "7,-2,-42,3,-3,-1,18446744073709551616"},
		{"bitwise", `[5n & -3n, 5n | 2n, 5n ^ 1n, ~5n, 1n << 65n, -7n >> 1n, 8n >> -2n, -1n >> 100n].join()`, "5,7,4,-6,36893488147419103232,-4,32,-1"},
		{"update", `let x = 5n; x++; ++x; x--; x += 10n; const y = x++; [x, y, -x].join()`, "17,16,-17"},
		{"mix", `1n + 1`, "throws TypeError"},
		{"mix undefined", `1n * undefined`, "throws TypeError"},
		{"unary plus", `+1n`, "throws TypeError"},
		{"unsigned shift", `1n >>> 0n`, "throws TypeError"},
		{"division by zero", `1n / 0n`, "throws RangeError"},
		{"modulo by zero", `1n % 0n`, "throws RangeError"},
		{"negative exponent", `2n ** -1n`, "throws RangeError"},
		{"too big", `2n ** (2n ** 40n)`, "throws RangeError"},
		{"too big shift", `1n << (1n << 40n)`, "throws RangeError"},
		{"comparisons", `[1n < 2, 2n > 1.5, 1n <= 1, "10" > 9n, 1n < "x", 2n == 2, 2n == "2", 2n === 2, 2n == 2.5, 9007199254740993n > 2 ** 53, 1n < NaN].join()`,
			"true,true,true,true,false,true,true,false,false,true,false"},
		{"equality", `[0n === -0n, Object.is(0n, -0n), 10n ** 30n === 10n ** 30n, [1n].includes(1n), [2n].indexOf(2n), new Set([1n, 1n, BigInt(1)]).size].join()`,
			"true,true,true,true,0,1"},
		{"map keys", `const m = new Map([[10n ** 20n, 'a']]); m.get(100000000000000000000n) + m.has(1n) + m.get(1)`, "afalseundefined"},
		{"truthiness", `[!!0n, !!1n, 0n || 'z', -1n && 'w'].join()`, "false,true,z,w"},
		{"strings", "[String(-5n), `${2n ** 70n}`, 'x' + 1n, [1n, 2n].join('-'), (255n).toString(16), (-255n).toString(2), (2n ** 100n).toString(36)].join()",
			"-5,1180591620717411303424,x1,1-2,ff,-11111111,3ewfdnca0n6ld1ggvfgg"},
		{"property key", `const o = {1n: 'a'}; o[2n] = 'b'; Object.keys(o).join() + [7, 8, 9][1n]`, "1,28"},
		{"BigInt()", `[BigInt(1e21), BigInt(-0), BigInt(true), BigInt('  -12  '), BigInt(''), BigInt('0b101'), BigInt(' 0x1f '), BigInt(Object(3n))].join()`,
			"1000000000000000000000,0,1,-12,0,5,31,3"},
		{"long decimal text", `BigInt('9'.repeat(100000)) + 1n === 10n ** 100000n && BigInt('-' + '1'.repeat(9999)) === -(10n ** 9999n - 1n) / 9n`, "true"},
		{"BigInt(1.5)", `BigInt(1.5)`, "throws RangeError"},
		{"BigInt(NaN)", `BigInt(NaN)`, "throws RangeError"},
		{"BigInt('1.5')", `BigInt('1.5')`, "throws SyntaxError"},
		{"BigInt('-0x1')", `BigInt('-0x1')`, "throws SyntaxError"},
		{"BigInt(undefined)", `BigInt(undefined)`, "throws TypeError"},
		{"BigInt(symbol)", `BigInt(Symbol())`, "throws TypeError"},
		{"new BigInt", `new BigInt(1)`, "throws TypeError"},
		{"asIntN", `[BigInt.asIntN(8, 255n), BigInt.asIntN(64, 2n ** 63n), BigInt.asIntN(3, 25n), BigInt.asIntN(0, 5n), BigInt.asIntN(8, -129n)].join()`,
			"-1,-9223372036854775808,1,0,127"},
		{"asUintN", `[BigInt.asUintN(8, -1n), BigInt.asUintN(64, -1n), BigInt.asUintN(2, 7n), BigInt.asUintN(0, 7n)].join()`, "255,18446744073709551615,3,0"},
		{"asIntN bits", `BigInt.asIntN(-1, 1n)`, "throws RangeError"},
		{"toLocaleString", `[123456789n.toLocaleString(), (-1234n).toLocaleString(), 12n.toLocaleString()].join(' ')`, "123,456,789 -1,234 12"},
		{"radix", `(1n).toString(37)`, "throws RangeError"},
		{"this", `BigInt.prototype.valueOf.call(1)`, "throws TypeError"},
		{"wrapper", `const w = Object(5n); [typeof w, w + 1n, w.valueOf() === 5n, w instanceof BigInt, Object.prototype.toString.call(1n)].join()`,
			"object,6,true,true,[object BigInt]"},
		{"Number()", `[Number(12345678901234567890n), Number(-(2n ** 1100n)), Number(2n ** 53n + 1n)].join()`, "12345678901234567000,-Infinity,9007199254740992"},
		{"Number.isInteger", `Number.isInteger(1n) + ':' + parseInt('12n')`, "false:12"},
		{"Math", `Math.abs(1n)`, "throws TypeError"},
		{"isNaN", `isNaN(1n)`, "throws TypeError"},
		{"JSON", `JSON.stringify({a: 1n})`, "throws TypeError"},
		{"JSON toJSON", `BigInt.prototype.toJSON = function () { return this.toString() }; JSON.stringify({a: 1n, b: [Object(2n)]})`, `{"a":"1","b":["2"]}`},
		{"structuredClone", `const c = structuredClone({a: 1n, w: Object(2n)}); [c.a, typeof c.w, c.w.valueOf()].join()`, "1,object,2"},
	})
}

// TestBigIntThrown checks that a thrown BigInt is described as node prints it.
func TestBigIntThrown(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	require.Equal(t, "throws ", evalIn(t, vm, "throw 5n"))
	v, thrown := vm.Result()
	require.True(t, thrown)
	_, msg, _, _ := vm.DescribeError(v)
	require.Equal(t, "5n", msg)
}

// TestBigIntConsole checks console output of BigInts against node's.
func TestBigIntConsole(t *testing.T) {
	t.Parallel()
	var lines []string
	vm := New(Config{Log: func(_, text string) { lines = append(lines, text) }})
	evalIn(t, vm, `console.log(1n, [1n, -2n], {a: 1n}, new Map([[1n, 2n]]), Object(1n), [Object(-3n)]); console.log("%d %i %s", 5n, 6n, 7n)`)
	require.Equal(t, []string{"1n [ 1n, -2n ] { a: 1n } Map(1) { 1n => 2n } [BigInt: 1n] [ [BigInt: -3n] ]", "5n 6n 7n"}, lines)
}

// TestBigIntSnapshots checks that BigInts held in a variable, an object property, a Map key,
// a closure and a wrapper survive a snapshot in both formats, and that the program's constants
// survive the program's own serialization.
func TestBigIntSnapshots(t *testing.T) {
	t.Parallel()
	const src = `const big = 2n ** 200n + 1n
const o = {p: -(3n ** 50n), w: Object(7n)}
const m = new Map([[big, 'found'], [0n, 'zero']])
const f = (() => { const c = 12345678901234567890n; return () => c * 2n })()
await null
;[big % 1000n, o.p, o.w + 1n, m.get(2n ** 200n + 1n), m.get(0n), f(), typeof o.w].join()`
	want, thrown := runProgram(t, src)
	require.False(t, thrown, want)
	require.Equal(t, "377,-717897987691852588770249,8,found,zero,24691357802469135780,object", want)
	got, thrown, snaps := runWithSnapshots(t, src, 1)
	require.False(t, thrown, got)
	require.Equal(t, want, got)
	require.Greater(t, snaps, 10)

	// format 1 at the await
	p, err := Compile(src)
	require.NoError(t, err)
	vm := New(Config{})
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 60})
	require.NoError(t, err)
	require.Equal(t, StatusPaused, st)
	data, err := vm.SnapshotFormat1()
	require.NoError(t, err)
	require.True(t, strings.Contains(string(data), `{"bigint":`), "the program's constants")
	require.True(t, strings.Contains(string(data), `{"bi":"-`), "a negative BigInt in the heap")
	_, err = Restore([]byte(strings.Replace(string(data), `{"bi":"-`, `{"bi":"-zz`, 1)), Config{})
	require.ErrorIs(t, err, ErrSnapshotCorrupt, "a BigInt that is no hexadecimal text")
	vm, err = Restore(data, Config{})
	require.NoError(t, err)
	st, err = vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, _ := vm.Result()
	require.Equal(t, want, vm.ToGoString(v))
}

// TestBigIntFingerprint checks that BigInt constants are part of the code fingerprint.
func TestBigIntFingerprint(t *testing.T) {
	t.Parallel()
	a, err := Compile("return 1n")
	require.NoError(t, err)
	b, err := Compile("return 2n")
	require.NoError(t, err)
	require.NotEqual(t, a.CodeFingerprint(), b.CodeFingerprint())
}

// TestBigIntCost checks that operations on large BigInts count steps for their work, and
// that sizes beyond the cap are a RangeError.
func TestBigIntCost(t *testing.T) {
	t.Parallel()
	steps := func(src string) int64 {
		vm := New(Config{})
		evalIn(t, vm, src)
		return vm.exec.steps
	}
	small := steps("let x = 3n; for (let i = 0; i < 10; i++) x * x")
	large := steps("let x = 3n ** 1000000n; for (let i = 0; i < 10; i++) x * x")
	require.Greater(t, large, 100*small, "small %d, large %d", small, large)
	require.Equal(t, "throws RangeError", evalJS(t, "let x = 3n; for (;;) x *= x"))
}

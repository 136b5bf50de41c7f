package run

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BigInts leave a program only through JSON: a tool's input or the result holding one is
// JSON.stringify's TypeError where the value leaves, unless BigInt.prototype.toJSON says
// how to write it. Limits bound huge values by memory and by time.
func TestBigIntAtTheBoundary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		limits Limits
		value  string // JSON of the value when ok
		kind   Kind   // diagnostic kind when failed
		msg    string // substring of the diagnostic message
	}{
		{name: "tool input throws at the call site",
			src:   "try { tools.math.add({a: 1n, b: 2}) } catch (e) { return [e.name, e.message, e instanceof TypeError] }",
			value: `["TypeError", "Do not know how to serialize a BigInt", true]`},
		{name: "no call is made", src: "try { await tools.math.add({a: [1n], b: 2}) } catch (e) {}\nreturn (await tools.math.add({a: 1, b: 2})).sum",
			value: "3"},
		{name: "tool input with toJSON", src: "BigInt.prototype.toJSON = function () { return Number(this) }\nreturn (await tools.math.add({a: 40n, b: 2n})).sum",
			value: "42"},
		{name: "uncaught tool input", src: "await tools.math.add({a: 1n, b: 2})", kind: KindExecutionFailure,
			msg: "TypeError: Do not know how to serialize a BigInt"},
		{name: "result", src: "return [1n]", kind: KindExecutionFailure, msg: "TypeError: Do not know how to serialize a BigInt"},
		{name: "result as text", src: "return String(2n ** 70n)", value: `"1180591620717411303424"`},
		{name: "log", src: "console.log(1n, [2n], {a: -3n}); return 1", value: "1"},
		{name: "huge power hits the memory limit", src: "return String(2n ** 10000000n).length",
			limits: Limits{MaxMemoryBytes: 1 << 20}, kind: KindMemoryLimitExceeded},
		{name: "repeated squaring ends", src: "let x = 3n; for (;;) x *= x",
			limits: Limits{MaxMemoryBytes: 64 << 20}, kind: KindExecutionFailure, msg: "RangeError: Maximum BigInt size exceeded"},
		{name: "huge multiplications hit the time limit",
			src:    "const x = 3n ** 3000000n; let y = 0n; for (;;) y = x * x",
			limits: Limits{TimeoutMs: 300}, kind: KindTimeoutExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, tt.limits, Hooks{})
			res := resultOf(t, execute(t, b, tt.src))
			if tt.kind == "" {
				require.True(t, res.OK, "error: %+v", res.Error)
				require.JSONEq(t, tt.value, string(res.Value))
				return
			}
			require.False(t, res.OK, "value: %s", res.Value)
			require.Equal(t, tt.kind, res.Error.Kind, res.Error.Message)
			require.Contains(t, res.Error.Message, tt.msg)
		})
	}
}

package interp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestHostilePrograms checks that hostile programs end within their limits with the right error.
func TestHostilePrograms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		maxMemory int64
		timeout   time.Duration
		kind      string // diagnostic kind returned by Run, or "" when the program ends normally
		result    string // completion (thrown errors as "Name: message")
	}{
		{name: "infinite loop", src: "for (;;) {}", timeout: 50 * time.Millisecond, kind: "TimeoutExceeded"},
		{name: "infinite recursion is a RangeError", src: "function f() { return f() + 1 } f()", result: "RangeError: Maximum call stack size exceeded"},
		{name: "recursion is catchable", src: "function f() { return f() } let m; try { f() } catch (e) { m = e.name } m", result: "RangeError"},
		{name: "string doubling", src: "let s = 'x'; for (;;) s += s", result: "RangeError: Invalid string length"},
		{name: "object growth", src: "const a = []; for (;;) a.push({x: [1, 2, 3], y: 'abc'})", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "closure chain", src: "let f = () => 0; for (;;) { const g = f; f = () => g() }", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "native re-entry recursion", src: "const o = { toString() { return `${o}` + 'x' } }; let m; try { `${o}` } catch (e) { m = e.name } m", result: "RangeError"},
		{name: "getter recursion", src: "const o = { get x() { return this.x } }; let m; try { o.x } catch (e) { m = e.message } m", result: "Maximum call stack size exceeded"},
		{name: "garbage is not counted", src: "let n = 0; for (let i = 0; i < 50000; i++) { const o = {a: [i, i]}; n += o.a.length } n", maxMemory: 1 << 20, result: "100000"},
		{name: "garbage strings of 1 MB", src: "const k = 'x'.repeat(1024); let n = 0; for (let i = 0; i < 1000; i++) { const s = k.repeat(1024) + i; n += s.length } n",
			maxMemory: 64 << 20, result: "1048578890"},
		{name: "garbage arrays grown by push", src: "let n = 0; for (let i = 0; i < 300; i++) { const a = []; for (let j = 0; j < 1e4; j++) a.push(j); n += a.length } n",
			maxMemory: 8 << 20, result: "3000000"},
		{name: "array grown by index", src: "const a = []; for (let i = 0;; i++) a[i] = i", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "closures in a loop", src: "const fs = []; for (let i = 0;; i++) fs.push(() => i)", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "huge array buffer", src: "new ArrayBuffer(2 ** 40)", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "huge typed array", src: "new Float64Array(2 ** 37)", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
		{name: "kept buffers", src: "const keep = []; for (;;) keep.push(new Uint8Array(1 << 20))", maxMemory: 64 << 20, kind: "MemoryLimitExceeded"},
		{name: "growing resizable buffer", src: "const b = new ArrayBuffer(0, {maxByteLength: 2 ** 32}); for (let n = 1;; n *= 2) b.resize(n)", maxMemory: 64 << 20, kind: "MemoryLimitExceeded"},
		{name: "garbage buffers are not counted", src: "let n = 0; for (let i = 0; i < 200; i++) n += new Uint8Array(1 << 20).length; n", maxMemory: 16 << 20, result: "209715200"},
		{name: "impossible buffer is a RangeError", src: "let m; try { new ArrayBuffer(2 ** 52) } catch (e) { m = e.name + ': ' + e.message } m", maxMemory: 8 << 20, result: "RangeError: Array buffer allocation failed"},
		{name: "non-ASCII substrings", src: "const t = 'é'.repeat(1e5); const a = []; for (let i = 0;; i++) a.push(t.slice(i % 7))", maxMemory: 8 << 20, kind: "MemoryLimitExceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			vm := New(Config{MaxMemoryBytes: tt.maxMemory})
			require.NoError(t, vm.Start(p))
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 20 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			st, err := vm.Run(ctx, RunOptions{})
			if tt.kind != "" {
				var d *Diagnostic
				require.ErrorAs(t, err, &d)
				require.Equal(t, tt.kind, d.Kind)
				return
			}
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, thrown := vm.Result()
			got := vm.ToGoString(v)
			if thrown {
				name, msg, _, _ := vm.DescribeError(v)
				got = name + ": " + msg
			}
			require.Equal(t, tt.result, got)
		})
	}
}

// TestChargesCoverRopesOfNumbers checks that what a program is charged as it allocates is at
// least the live data it builds, for ropes of repeated strings and numbers: the first look at
// the live heap comes when the charges reach the limit, so live data charged short would let
// the process hold more than the limit before any look (and the Go heap twice that).
func TestChargesCoverRopesOfNumbers(t *testing.T) {
	t.Parallel()
	p, err := Compile("const a = []; globalThis.keep = a; let s = ''; for (let i = 100; i < 20000; i++) { s += 'y'.repeat(100) + i; if (s.length > 1e5) { a.push(s); s = '' } }")
	require.NoError(t, err)
	vm := New(Config{MaxMemoryBytes: 1 << 40})
	base := vm.liveHeapSize(nil)
	charged := vm.allocated
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	live := vm.liveHeapSize(nil) - base
	require.Greater(t, live, int64(2e6))
	require.GreaterOrEqual(t, vm.allocated-charged, live)
}

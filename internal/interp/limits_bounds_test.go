package interp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// boundsRun runs src under a memory limit and a time limit and returns the diagnostic kind
// Run ended with ("" when it ended normally) and the completion as a string.
func boundsRun(t *testing.T, src string, maxMemory int64, timeout time.Duration) (kind, result string) {
	t.Helper()
	p, err := Compile(src)
	require.NoError(t, err)
	vm := New(Config{MaxMemoryBytes: maxMemory})
	require.NoError(t, vm.Start(p))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err = vm.Run(ctx, RunOptions{})
	if err != nil {
		var d *Diagnostic
		require.ErrorAs(t, err, &d, "Run failed without a diagnostic: %v", err)
		return d.Kind, ""
	}
	v, thrown := vm.Result()
	if thrown {
		name, msg, _, _ := vm.DescribeError(v)
		return "", name + ": " + msg
	}
	return "", vm.ToGoString(v)
}

// TestTimeLimitInNestedLoops checks that a time limit reached in a dispatch loop entered from
// Go (a setter, getter, callback, or a generator driven by a native) ends the run as
// TimeoutExceeded, rather than passing for the completion of the function it runs.
func TestTimeLimitInNestedLoops(t *testing.T) {
	t.Parallel()
	gen := "function* g() { let i = 0; for (;;) yield i++ }\n"
	tests := []struct {
		name      string
		src       string
		maxMemory int64
	}{
		{name: "setter retrying on overflow", src: "const o = {set x(v) { try { this.x = v } catch (e) { this.x = v } }}; o.x = 1"},
		{name: "getter retrying on overflow", src: "const o = {get x() { try { return this.x } catch (e) { return this.x } }}; o.x"},
		{name: "map callback retrying on overflow", src: "[1].map(function f() { try { [1].map(f) } catch (e) { [1].map(f) } })"},
		{name: "endless loop in a setter", src: "const o = {set x(v) { for (;;) {} }}; o.x = 1; 'finished'"},
		{name: "endless loop in a sort comparator", src: "[2, 1].sort(() => { for (;;) {} }); 'finished'"},
		{name: "generator spread", src: gen + "[...g()].length"},
		{name: "generator for-of", src: gen + "for (const x of g()) {}"},
		{name: "generator Array.from", src: gen + "Array.from(g()).length"},
		{name: "generator destructuring", src: gen + "const [...a] = g(); a.length"},
		{name: "generator Promise.all", src: gen + "await Promise.all(g())"},
		{name: "generator Set", src: gen + "new Set(g()).size"},
		{name: "async generator for-await", src: "async function* g() { let i = 0; for (;;) yield i++ }\nfor await (const x of g()) {}"},
		{name: "generator caught", src: gen + "try { [...g()] } catch (e) { 'caught ' + e }"},
		// dropped pending promises are garbage the heap measure does not see, but they count
		// toward the cap of pending promises: an endless loop catching the cap's RangeError is
		// bounded by time, as any endless loop
		{name: "dropped pending promises", src: "for (;;) { try { new Promise(() => {}) } catch (e) {} }", maxMemory: 4 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kind, result := boundsRun(t, tt.src, tt.maxMemory, 200*time.Millisecond)
			require.Equal(t, "TimeoutExceeded", kind, "completion: %s", result)
		})
	}
}

// TestMemoryLimitInNatives checks that natives growing arrays or building strings charge
// what they make to the memory limit and end the run promptly, and that the same natives
// within the limit still work.
func TestMemoryLimitInNatives(t *testing.T) {
	t.Parallel()
	const limit = 4 << 20
	spin := "; for (let i = 0; i < 1e4; i++) {} "
	tests := []struct {
		name   string
		src    string
		kind   string
		result string
	}{
		{name: "a 1e9 array is past the length cap", src: "new Array(1e9).fill(0).length", result: "RangeError: Invalid array length"},
		{name: "fill of a dense 1e7 array kept", src: "const a = new Array(1e7).fill(0)" + spin + "a.length", kind: "MemoryLimitExceeded"},
		{name: "Array.from length", src: "Array.from({length: 1e7}).length", kind: "MemoryLimitExceeded"},
		{name: "Array.from length mapped", src: "Array.from({length: 1e7}, (_, i) => i).length", kind: "MemoryLimitExceeded"},
		{name: "Array.from endless generator", src: "function* g() { for (;;) yield 1 }\nArray.from(g()).length", kind: "MemoryLimitExceeded"},
		{name: "map of a big array", src: "const a = new Array(1e6).fill(0); a.map(x => x).length", kind: "MemoryLimitExceeded"},
		{name: "filter building up", src: "Array.from({length: 2e5}, (_, i) => i).filter(x => true).length", kind: "MemoryLimitExceeded"},
		{name: "concat of big arrays", src: "const a = new Array(1e5).fill(1); let b = []; for (;;) b = b.concat(a)", kind: "MemoryLimitExceeded"},
		{name: "splice growth", src: "const a = [1]; for (;;) a.splice(0, 0, ...new Array(1000).fill(1))", kind: "MemoryLimitExceeded"},
		{name: "length then writes", src: "const a = []; a.length = 1e7; for (let i = 0;; i++) a[i] = i", kind: "MemoryLimitExceeded"},
		{name: "join", src: "const s = new Array(1e5).fill('y'.repeat(100)).join(',')" + spin + "s.length", kind: "MemoryLimitExceeded"},
		{name: "array toString", src: "const s = String(new Array(1e5).fill('y'.repeat(100)))" + spin + "s.length", kind: "MemoryLimitExceeded"},
		{name: "JSON.stringify", src: "const s = JSON.stringify(new Array(1e5).fill('y'.repeat(100)))" + spin + "s.length", kind: "MemoryLimitExceeded"},
		{name: "padStart", src: "const s = 'y'.padStart(1e7)" + spin + "s.length", kind: "MemoryLimitExceeded"},
		{name: "JSON.parse of many small arrays", src: "const s = '[' + '[],'.repeat(1e6) + '[]]'; JSON.parse(s).length", kind: "MemoryLimitExceeded"},
		{name: "JSON.parse of many objects", src: "const s = '[' + '{\"a\":1},'.repeat(4e5) + '{}]'; JSON.parse(s).length", kind: "MemoryLimitExceeded"},
		{name: "JSON.parse garbage is not kept", src: "let n = 0; const s = '[' + '{\"a\":1},'.repeat(1e3) + '{}]'; for (let i = 0; i < 300; i++) n += JSON.parse(s).length; n", result: "300300"},
		{name: "Object.keys of a big array", src: "const a = new Array(2e5).fill(0); Object.keys(a).length", kind: "MemoryLimitExceeded"},
		{name: "repeat, even dropped at once", src: "'y'.repeat(1e7).length", kind: "MemoryLimitExceeded"},
		{name: "repeat within the limit", src: "let n = 0; for (let i = 0; i < 100; i++) n += 'y'.repeat(1e5).length; n", result: "10000000"},
		{name: "pending promises kept", src: "const ps = []; for (;;) ps.push(new Promise(() => {}))", result: "RangeError: too many pending promises: more than 10000 unsettled at once (tool calls included)"},
		{name: "reactions on a pending promise", src: "const p = new Promise(() => {}); for (;;) p.then(() => {})", kind: "MemoryLimitExceeded"},
		{name: "chain of settled thens kept", src: "const ps = []; let p = Promise.resolve(); for (;;) ps.push(p = p.then(() => {}))", kind: "MemoryLimitExceeded"},
		{name: "join garbage is not kept", src: "let n = 0; for (let i = 0; i < 200; i++) n += new Array(1e4).fill('yy').join(',').length; n", result: "5999800"},
		{name: "map garbage is not kept", src: "const a = new Array(5e4).fill(0); let r = 0; for (let i = 0; i < 20; i++) r += a.map(x => x + 1).length; r", result: "1000000"},
		{name: "Array.from garbage is not kept", src: "let r = 0; for (let i = 0; i < 20; i++) r += Array.from({length: 5e4}, (_, i) => i).length; r", result: "1000000"},
		{name: "fill of a dense 1e7 array, even dropped", src: "new Array(1e7).fill(0).length", kind: "MemoryLimitExceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kind, result := boundsRun(t, tt.src, limit, 60*time.Second)
			require.Equal(t, tt.kind, kind, "completion: %s", result)
			if tt.kind == "" {
				require.Equal(t, tt.result, result)
			}
		})
	}
}

package run

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// hostileCase is one hostile program: the limits it runs under, how it must end, and a loose
// bound on its wall time (the machine is shared, so bounds are at least 10x the time limit).
type hostileCase struct {
	name   string
	src    string
	limits Limits
	kind   Kind   // diagnostic kind; empty when the run must succeed
	msg    string // substring of the diagnostic message
	value  string // JSON of the value when the run succeeds
	noHost bool   // no host call may be made, not even one refused by a hook
	// check, when set, looks further at the result and the runtime's counters.
	check func(t *testing.T, res *Result, h *hostileRuntime)
	// bug names a known interpreter bug: the run must still end within its bound and leave the
	// runtime serving, but its outcome is not yet the right one (so it is logged, not checked).
	bug string
	// roundtripBug is like bug, for a known interpreter bug seen only under
	// CODEMODE_ROUNDTRIP=1 (state saved and restored every few hundred steps).
	roundtripBug string
	wall         time.Duration
}

// hostileRuntime is a runtime with one counting tool and a hook that counts every host call
// that reaches the before-hook.
type hostileRuntime struct {
	rt     *Runtime
	hits   atomic.Int64 // calls that reached the tool
	before atomic.Int64 // calls that reached the before-hook
}

func newHostileRuntime(t *testing.T) *hostileRuntime {
	t.Helper()
	h := &hostileRuntime{}
	rt, err := New(testOptions(Options{
		Tools: []Tool{{Path: "host.hit", Description: "Count a call.",
			Input: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
			Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`{"n":` + jsonInt(h.hits.Add(1)) + `}`), nil
			}}},
		Hooks: Hooks{BeforeCall: func(context.Context, toolcall.Call, json.RawMessage) error {
			h.before.Add(1)
			return nil
		}},
	}))
	require.NoError(t, err)
	h.rt = rt
	return h
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// run executes src under limits and returns its Result and wall time.
func (h *hostileRuntime) run(t *testing.T, src string, limits Limits) (*Result, time.Duration) {
	t.Helper()
	start := time.Now()
	e, err := h.rt.Execute(context.Background(), src, ExecOptions{Limits: &limits})
	require.NoError(t, err)
	res, ok := e.Result()
	require.True(t, ok, "run is %s, not done", e.State())
	return res, time.Since(start)
}

// requireServing shows the runtime still runs programs (and tools) after a hostile one, with
// clean built-in prototypes.
func (h *hostileRuntime) requireServing(t *testing.T) {
	t.Helper()
	res, _ := h.run(t, `const r = await tools.host.hit({n: 1})
const a = []; a.push(1, 2)
return [typeof r.n, a.length, ({}).x === undefined, [].constructor === Array, 'ab'.repeat(2)]`,
		Limits{TimeoutMs: 60_000})
	require.True(t, res.OK, "the runtime stopped serving: %+v", res.Error)
	require.JSONEq(t, `["number", 2, true, true, "abab"]`, string(res.Value))
}

func runHostile(t *testing.T, cases []hostileCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHostileRuntime(t)
			bug := tt.bug
			if bug == "" && envRoundTrip {
				bug = tt.roundtripBug
			}
			start := time.Now()
			e, err := h.rt.Execute(context.Background(), tt.src, ExecOptions{Limits: &tt.limits})
			took := time.Since(start)
			require.Less(t, took, tt.wall, "the run outlived its loose bound")
			if err != nil && bug != "" {
				t.Logf("known interpreter bug (%s): Execute failed: %v", bug, err)
				h.requireServing(t)
				return
			}
			require.NoError(t, err)
			res, ok := e.Result()
			require.True(t, ok, "run is %s, not done", e.State())
			switch {
			case bug != "":
				t.Logf("known interpreter bug (%s): ended ok=%v value=%.60s error=%+v", bug, res.OK, res.Value, res.Error)
			case tt.kind == "":
				require.True(t, res.OK, "error: %+v", res.Error)
				if tt.check == nil || tt.value != "" {
					require.JSONEq(t, tt.value, string(res.Value))
				}
			default:
				require.False(t, res.OK, "value: %s", res.Value)
				require.Equal(t, tt.kind, res.Error.Kind, res.Error.Message)
				require.Contains(t, res.Error.Message, tt.msg)
			}
			if tt.check != nil && bug == "" {
				tt.check(t, res, h)
			}
			if tt.noHost {
				require.Zero(t, h.before.Load(), "a host call was attempted")
				require.Zero(t, h.hits.Load(), "a tool was reached")
				require.Empty(t, res.ToolCalls)
			}
			h.requireServing(t)
		})
	}
}

// Bounds: a time-limited case gets a loose wall bound, far above its limit.
const (
	loopLimitMs = 200
	loopWall    = 30 * time.Second
	memLimit    = 4 << 20
	safetyMs    = 60_000 // a time limit that only guards against hangs
	safetyWall  = 90 * time.Second
	stackOver   = "RangeError: Maximum call stack size exceeded"
	badLength   = "RangeError: Invalid string length"
)

func TestHostileInfiniteLoops(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: loopLimitMs}
	runHostile(t, []hostileCase{
		{name: "while true", src: "while (true) {}", limits: lim, kind: KindTimeoutExceeded, msg: "time limit", wall: loopWall},
		{name: "for ever", src: "let i = 0; for (;;) { i++ }", limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "loop catching its own errors", src: "for (;;) { try { null.x } catch (e) {} }", limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "recursion via setter", src: "const o = {set x(v) { this.x = v }}; o.x = 1",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: loopWall},
		{name: "recursion via getter retrying on overflow",
			src:    "const o = {get x() { try { return this.x } catch (e) { return this.x } }}; o.x",
			limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "recursion retrying on overflow", src: "function f() { try { f() } catch (e) { f() } } f()",
			limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "recursion via setter retrying on overflow",
			src:    "const o = {set x(v) { try { this.x = v } catch (e) { this.x = v } }}; o.x = 1",
			limits: lim, kind: KindTimeoutExceeded, msg: "time limit", wall: loopWall},
		{name: "endless generator consumed by spread",
			src:    "function* g() { let i = 0; for (;;) yield i++ }; [...g()].length",
			limits: lim, kind: KindTimeoutExceeded, msg: "time limit", wall: loopWall},
		{name: "endless generator consumed by a loop",
			src:    "function* g() { let i = 0; for (;;) yield i++ }; for (const x of g()) {}",
			limits: lim, kind: KindTimeoutExceeded, msg: "time limit", wall: loopWall},
		{name: "async loop awaiting null", src: "while (true) await null", limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		// f returns nothing, so no chain of pending promises builds up: an endless microtask
		// loop, ended by the time limit.
		{name: "microtask ping-pong", src: "const f = () => { Promise.resolve().then(f) }; f(); await new Promise(() => {})",
			limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
	})
}

func TestHostileMemoryBombs(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxMemoryBytes: memLimit, TimeoutMs: safetyMs}
	runHostile(t, []hostileCase{
		{name: "repeat 2**28", src: "'x'.repeat(2 ** 28).length", limits: lim, kind: KindExecutionFailure, msg: badLength, wall: safetyWall},
		{name: "repeat 2**28 caught", src: "try { 'x'.repeat(2 ** 28) } catch (e) { return String(e) }",
			limits: lim, value: `"` + badLength + `"`, wall: safetyWall},
		{name: "array of 1e9 is past the length cap", src: "new Array(1e9).fill(0).length", limits: Limits{MaxMemoryBytes: memLimit, TimeoutMs: 2000},
			kind: KindExecutionFailure, msg: "RangeError: Invalid array length", wall: safetyWall},
		{name: "array of 1e7 filled", src: "new Array(1e7).fill(0).length", limits: Limits{MaxMemoryBytes: memLimit, TimeoutMs: 2000},
			kind: KindMemoryLimitExceeded, msg: "memory limit", wall: safetyWall},
		{name: "sparse write far out is cheap", src: "const a = []; a[5e8] = 1; a.length", limits: lim, value: "500000001", wall: safetyWall},
		{name: "doubling nested arrays", src: "let a = [[]]; for (;;) a = [a, a]", limits: lim, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "map of arrays", src: "const m = new Map(); for (let i = 0;; i++) m.set(i, [i, i, i, i])", limits: lim, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "object of strings", src: "const o = {}; for (let i = 0;; i++) o['k' + i] = 'v'.repeat(64) + i", limits: lim, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "string doubling", src: "let s = 'x'; for (;;) s += s", limits: lim, kind: KindExecutionFailure, msg: badLength, wall: safetyWall},
		{name: "string doubling caught then kept", src: "let s = 'x'; try { for (;;) s += s } catch (e) { return [e.name, s.length] }",
			limits: Limits{MaxMemoryBytes: 256 << 20, TimeoutMs: safetyMs}, value: `["RangeError", 16777216]`, wall: safetyWall},
		{name: "huge join", src: "new Array(1e7).join('x'.repeat(100)).length", limits: lim, kind: KindExecutionFailure, msg: badLength, wall: safetyWall},
		{name: "repeat past the memory limit", src: "const s = 'y'.repeat(1e7); for (let i = 0; i < 1e4; i++) {} s.length", limits: lim, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "concatenation past the memory limit", src: "let s = ''; for (let i = 0; i < 1e5; i++) s += 'y'.repeat(100) + i; s.length", limits: lim, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "join of many strings", src: "const s = new Array(1e5).fill('y'.repeat(100)).join(','); for (let i = 0; i < 1e4; i++) {} s.length", limits: lim,
			kind: KindMemoryLimitExceeded, msg: "memory limit", wall: safetyWall},
	})
}

func TestHostileDeepRecursion(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: safetyMs, MaxMemoryBytes: 256 << 20}
	runHostile(t, []hostileCase{
		{name: "plain recursion uncaught", src: "function f() { f() } f()", limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "plain recursion caught", src: "function f() { f() } try { f() } catch (e) { return [e instanceof RangeError, e.message] }",
			limits: lim, value: `[true, "Maximum call stack size exceeded"]`, wall: safetyWall},
		{name: "getter", src: "const o = {get x() { return this.x }}; o.x", limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "getter caught", src: "const o = {get x() { return this.x }}; try { o.x } catch (e) { return e.name }", limits: lim, value: `"RangeError"`, wall: safetyWall},
		{name: "toString", src: "const o = {toString() { return '' + this }}; '' + o", limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "valueOf", src: "const o = {valueOf() { return +this }}; +o", limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "map callback", src: "function f() { return [1].map(f) } f()", limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "map callback caught", src: "function f() { return [1].map(f) } try { f() } catch (e) { return e.name }", limits: lim, value: `"RangeError"`, wall: safetyWall},
		{name: "JSON.stringify of a deep object", src: "const o = JSON.parse('{\"o\":'.repeat(1e5) + '1' + '}'.repeat(1e5)); JSON.stringify(o).length",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "toJSON calling stringify", src: "const o = {toJSON() { return JSON.stringify(this) }}; JSON.stringify(o)",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "sort comparator", src: "function f() { return [2, 1].sort((a, b) => { f(); return a - b }) } f()",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "deep async recursion", src: "async function f(n) { return n === 0 ? 0 : 1 + await f(n - 1) } await f(1e6)",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
	})
}

func TestHostileRegexBacktracking(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: 500}
	bomb := "/^(a+)+$/.test('a'.repeat(30) + '!')"
	runHostile(t, []hostileCase{
		{name: "backtracking bomb", src: bomb, limits: lim, kind: KindTimeoutExceeded, msg: "time limit", wall: loopWall},
		{name: "backtracking bomb inside try", src: "try { " + bomb + " } catch (e) { return 'caught' }", limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "backtracking bomb through replace", src: "'a'.repeat(30).concat('!').replace(/^(a+)+$/, 'x')", limits: lim, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "same regex on a matching input is fast", src: "/^(a+)+$/.test('a'.repeat(30))", limits: lim, value: "true", wall: loopWall},
	})
}

func TestHostileOutputs(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxOutputBytes: 1000, TimeoutMs: safetyMs}
	truncated := func(t *testing.T, res *Result, _ *hostileRuntime) {
		require.True(t, res.Truncated)
		size := len(res.Value)
		for _, l := range res.Logs {
			size += len(l)
		}
		require.LessOrEqual(t, size, 2000, "output far above maxOutputBytes")
	}
	runHostile(t, []hostileCase{
		{name: "huge string value", src: "'x'.repeat(1e6)", limits: lim, check: func(t *testing.T, res *Result, h *hostileRuntime) {
			require.True(t, res.OK, "%+v", res.Error)
			truncated(t, res, h)
			require.Contains(t, string(res.Value), "truncated")
		}, wall: safetyWall},
		{name: "huge array value", src: "Array.from({length: 1e5}, (_, i) => ({i, s: 'abc'}))", limits: lim, check: func(t *testing.T, res *Result, h *hostileRuntime) {
			require.True(t, res.OK, "%+v", res.Error)
			truncated(t, res, h)
		}, wall: safetyWall},
		{name: "log flood", src: "for (let i = 0; i < 1e4; i++) console.log('x'.repeat(100)); 1", limits: lim, check: func(t *testing.T, res *Result, h *hostileRuntime) {
			require.True(t, res.OK, "%+v", res.Error)
			truncated(t, res, h)
		}, wall: safetyWall},
		{name: "huge error message", src: "throw new Error('e'.repeat(1e6))", limits: lim, kind: KindExecutionFailure, msg: "truncated",
			check: func(t *testing.T, res *Result, _ *hostileRuntime) {
				require.LessOrEqual(t, len(res.Error.Message), 1000, "error message above maxOutputBytes")
			}, wall: safetyWall},
		{name: "huge unhandled rejection warning", src: "Promise.reject(new Error('w'.repeat(1e6))); 1", limits: lim, value: "1",
			check: func(t *testing.T, res *Result, _ *hostileRuntime) {
				require.NotEmpty(t, res.Warnings)
				for _, w := range res.Warnings {
					require.LessOrEqual(t, len(w.Message), 1000, "warning above maxOutputBytes")
				}
			}, wall: safetyWall},
	})
}

func TestCutMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, msg string
		max       int64
		want      string
	}{
		{name: "fits", msg: "short", max: 100, want: "short"},
		{name: "ascii cut", msg: "abcdefghijklmnopqrstuvwxyz", max: 20, want: "abcdef" + truncationMarker},
		{name: "no rune split", msg: "ééééééééééé", max: 17, want: "é" + truncationMarker},
		{name: "limit below the marker", msg: "abcdefghijklmnopqrstuvwxyz", max: 3, want: truncationMarker},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, cutMessage(tt.msg, tt.max))
		})
	}
}

func TestHostileToolCalls(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxToolCalls: 5, TimeoutMs: safetyMs}
	atMost5 := func(t *testing.T, _ *Result, h *hostileRuntime) {
		require.LessOrEqual(t, h.hits.Load(), int64(5))
	}
	runHostile(t, []hostileCase{
		{name: "thousand calls in Promise.all", src: "await Promise.all(Array.from({length: 1000}, (_, i) => tools.host.hit({n: i})))",
			limits: lim, kind: KindToolCallLimitExceeded, check: atMost5, wall: safetyWall},
		{name: "calls in an endless loop", src: "for (;;) await tools.host.hit({n: 1})", limits: lim, kind: KindToolCallLimitExceeded,
			check: func(t *testing.T, _ *Result, h *hostileRuntime) { require.EqualValues(t, 5, h.hits.Load()) }, wall: safetyWall},
		{name: "limit caught and ignored", src: "for (;;) { try { await tools.host.hit({n: 1}) } catch (e) {} }", limits: lim,
			kind: KindToolCallLimitExceeded, check: atMost5, wall: safetyWall},
		{name: "unawaited calls in a loop", src: "for (let i = 0; i < 1e4; i++) tools.host.hit({n: i}); 1", limits: lim,
			kind: KindToolCallLimitExceeded, check: atMost5, wall: safetyWall},
		{name: "search in a loop", src: "for (;;) await search({query: 'hit'})", limits: lim, kind: KindToolCallLimitExceeded,
			check: func(t *testing.T, _ *Result, h *hostileRuntime) { require.Zero(t, h.hits.Load()) }, wall: safetyWall},
	})
}

func TestHostilePendingPromises(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: safetyMs, MaxMemoryBytes: 256 << 20}
	dropped := hostileCase{name: "1e5 unresolved promises dropped", src: "for (let i = 0; i < 1e5; i++) new Promise(() => {}); 1", limits: lim,
		kind: KindExecutionFailure, msg: "RangeError: too many pending promises", wall: safetyWall}
	if envRoundTrip {
		// a save forgets the promises nobody can reach, so they stop counting (docs/language.md)
		dropped.kind, dropped.msg, dropped.value = "", "", "1"
	}
	runHostile(t, []hostileCase{
		// past 10,000 pending promises the program gets the cap's RangeError, not a wait
		dropped,
		{name: "1e5 unresolved promises awaited", src: "const ps = []; for (let i = 0; i < 1e5; i++) ps.push(new Promise(() => {})); await Promise.all(ps)",
			limits: lim, kind: KindExecutionFailure, msg: "RangeError: too many pending promises", wall: safetyWall},
		{name: "1e5 chained thens on one pending promise", src: "const p = new Promise(() => {}); for (let i = 0; i < 1e5; i++) p.then(() => {}); await p",
			limits: lim, kind: KindExecutionFailure, msg: "RangeError: too many pending promises", wall: safetyWall},
		{name: "9,000 unresolved promises awaited", src: "const ps = []; for (let i = 0; i < 9000; i++) ps.push(new Promise(() => {})); await Promise.all(ps)",
			limits: lim, kind: KindExecutionFailure, msg: "never settle", wall: safetyWall},
	})
}

func TestHostilePrototypePollution(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: safetyMs}
	hits := func(n int64) func(t *testing.T, _ *Result, h *hostileRuntime) {
		return func(t *testing.T, _ *Result, h *hostileRuntime) { require.Equal(t, n, h.hits.Load()) }
	}
	// requireServing, run after each case in the same runtime, checks that
	// ({}).x is undefined, [].push works and [].constructor is Array again.
	runHostile(t, []hostileCase{
		{name: "Object.prototype.x", src: "Object.prototype.x = 1; ({}).x", limits: lim, value: "1", wall: safetyWall},
		{name: "__proto__ assignment", src: "const b = {}; b.__proto__.x = 1; [].__proto__.push = null; ({}).x", limits: lim, value: "1", wall: safetyWall},
		{name: "__proto__ key in JSON.parse", src: `const o = JSON.parse('{"__proto__": {"x": 1}}'); [({}).x === undefined, o.x === undefined, Object.keys(o)]`,
			limits: lim, value: `[true, true, ["__proto__"]]`, wall: safetyWall},
		{name: "__proto__ through Object.assign", src: `const a = Object.assign({}, JSON.parse('{"__proto__": {"y": 1}}')); [a.y, ({}).y === undefined]`,
			limits: lim, value: `[1, true]`, wall: safetyWall},
		{name: "Array.prototype.push replaced, then tools", src: "Array.prototype.push = function () { throw new Error('hijacked') }\n" +
			"const r = await Promise.all([tools.host.hit({n: 1}), tools.host.hit({n: 2})]); r.length",
			limits: lim, value: "2", check: hits(2), wall: safetyWall},
		{name: "Array.prototype iterator replaced, then tools", src: "Array.prototype[Symbol.iterator] = function* () { yield 7 }\n" +
			"await Promise.all([tools.host.hit({n: 1})])", limits: lim, value: "[7]", wall: safetyWall},
		{name: "Function.prototype.call and apply replaced, then tools", src: "Function.prototype.call = Function.prototype.apply = () => { throw 1 }\n" +
			"typeof (await tools.host.hit({n: 1})).n", limits: lim, value: `"number"`, check: hits(1), wall: safetyWall},
		{name: "Object.prototype.then hijacks awaited tool results", src: "Object.prototype.then = function (r) { r(666) }\nawait tools.host.hit({n: 1})",
			limits: lim, value: "666", check: hits(1), wall: safetyWall},
		{name: "Object.prototype.toJSON rewrites tool input", src: "Object.prototype.toJSON = function () { return 'pwned' }\nawait tools.host.hit({n: 1})",
			limits: lim, kind: KindInvalidToolInput, check: hits(0), wall: safetyWall},
		{name: "JSON.stringify replaced, then tools", src: "JSON.stringify = () => 'pwned'; JSON.parse = () => 'pwned'\ntypeof (await tools.host.hit({n: 1})).n",
			limits: lim, value: `"number"`, check: hits(1), wall: safetyWall},
		{name: "tools object overwritten", src: "tools.host.hit = () => 'fake'; tools.host = {}; globalThis.tools = null; 1",
			limits: lim, kind: "", value: "1", wall: safetyWall},
	})
}

func TestHostileSandboxEscape(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: safetyMs}
	noFunction := "EvalError: the Function constructor is not supported"
	runHostile(t, []hostileCase{
		{name: "this.constructor.constructor", src: "this.constructor.constructor('return process')()", limits: lim,
			kind: KindExecutionFailure, msg: "TypeError", noHost: true, wall: safetyWall},
		{name: "Function", src: "Function('return tools.host.hit({})')()", limits: lim, kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "new Function", src: "new Function('x', 'return x')(1)", limits: lim, kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "eval", src: "eval('tools.host.hit({})')", limits: lim, kind: KindUnsupportedSyntax, msg: "eval", noHost: true, wall: safetyWall},
		{name: "indirect eval", src: "(0, eval)('1')", limits: lim, kind: KindExecutionFailure, msg: "EvalError", noHost: true, wall: safetyWall},
		{name: "eval via globalThis", src: "globalThis['ev' + 'al']('1')", limits: lim, kind: KindExecutionFailure, msg: "EvalError", noHost: true, wall: safetyWall},
		// A module is only ever one of the runtime's globals (extensions, url, util).
		{name: "dynamic import", src: "await import('fs')", limits: lim, kind: KindExecutionFailure, msg: "Cannot find module 'fs'", noHost: true, wall: safetyWall},
		{name: "import declaration", src: "import fs from 'fs'", limits: lim, kind: KindExecutionFailure, msg: "Cannot find module 'fs'", noHost: true, wall: safetyWall},
		{name: "require", src: "require('child_process').execSync('id')", limits: lim, kind: KindExecutionFailure, msg: "Error: Cannot find module 'child_process'", noHost: true, wall: safetyWall},
		{name: "require a global that is no module", src: "require('globalThis')", limits: lim, kind: KindExecutionFailure, msg: "Error: Cannot find module 'globalThis'", noHost: true, wall: safetyWall},
		{name: "process", src: "process.exit(1)", limits: lim, kind: KindExecutionFailure, msg: "ReferenceError: process is not defined", noHost: true, wall: safetyWall},
		{name: "globalThis.process", src: "typeof globalThis.process + typeof globalThis.module + typeof globalThis.Deno", limits: lim,
			value: `"undefinedundefinedundefined"`, noHost: true, wall: safetyWall},
		{name: "globalThis.constructor.constructor", src: "globalThis.constructor.constructor('return process')()", limits: lim,
			kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "async function constructor", src: "(async () => {}).constructor('return tools.host.hit({})')()", limits: lim,
			kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "generator function constructor", src: "(function* () {}).constructor('yield 1')().next()", limits: lim,
			kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "array constructor constructor", src: "[].constructor.constructor('return tools.host.hit({})')()", limits: lim,
			kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "tool function constructor", src: "tools.host.hit.constructor('return 1')()", limits: lim,
			kind: KindExecutionFailure, msg: noFunction, noHost: true, wall: safetyWall},
		{name: "constructor caught then used", src: "let F; try { F = [].constructor.constructor('return 1') } catch (e) { return e.name }", limits: lim,
			value: `"EvalError"`, noHost: true, wall: safetyWall},
		// The one body the Function constructor accepts gives the global object, which the
		// program has anyway; nothing is compiled.
		{name: "Function('return this')", src: "const g = Function('return this')(); return [g === globalThis, Function(' return this; ').call(null) === globalThis]", limits: lim,
			value: `[true,true]`, noHost: true, wall: safetyWall},
		{name: "return this with more code", src: "try { Function('return this; tools.host.hit({})')() } catch (e) { return e.name }", limits: lim,
			value: `"EvalError"`, noHost: true, wall: safetyWall},
		{name: "with statement", src: "with (globalThis) { process }", limits: lim, kind: KindUnsupportedSyntax, noHost: true, wall: safetyWall},
		{name: "timers", src: "setTimeout(() => {}, 0)", limits: lim, kind: KindExecutionFailure, msg: "ReferenceError", noHost: true, wall: safetyWall},
		{name: "Proxy and Reflect", src: "typeof Proxy + typeof Reflect + typeof SharedArrayBuffer + typeof WeakRef", limits: lim,
			value: `"functionobjectundefinedundefined"`, noHost: true, wall: safetyWall},
		// A proxy's traps are program functions: a proxy reaches no more than the program could.
		{name: "Proxy to the Function constructor", src: "try { new Proxy(() => 1, {}).constructor('return tools')() } catch (e) { return e.name }", limits: lim,
			value: `"EvalError"`, noHost: true, wall: safetyWall},
		// Reflect is the ordinary object operations: it reaches no more than the program could.
		{name: "Reflect to the Function constructor", src: "try { Reflect.construct(Reflect.getPrototypeOf(() => 1).constructor, ['return tools'])() } catch (e) { return e.name }", limits: lim,
			value: `"EvalError"`, noHost: true, wall: safetyWall},
	})
}

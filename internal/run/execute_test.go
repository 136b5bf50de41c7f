package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// testBundle is a runtime with a fixed set of in-process tools and a log of what they saw.
type testBundle struct {
	rt    *Runtime
	mu    sync.Mutex
	order []string // tool calls in the order they started ("path:key")
	calls atomic.Int64
}

func (b *testBundle) saw(path string, c toolcall.Call) {
	b.mu.Lock()
	b.order = append(b.order, path+":"+c.Key)
	b.mu.Unlock()
	b.calls.Add(1)
}

// approvals is a durable tool whose outcomes must arrive from outside.
type approvals struct {
	mu        sync.Mutex
	cancelled []string
}

func (a *approvals) Start(_ context.Context, input json.RawMessage, call toolcall.Call) (Started, error) {
	return Started{Handle: json.RawMessage(fmt.Sprintf(`{"ticket":%q}`, call.Key))}, nil
}
func (a *approvals) Attach(context.Context, json.RawMessage, toolcall.Call) (toolcall.Outcome, error) {
	return toolcall.Outcome{}, ErrNotAttachable
}
func (a *approvals) Cancel(_ context.Context, _ json.RawMessage, call toolcall.Call) error {
	a.mu.Lock()
	a.cancelled = append(a.cancelled, call.Key)
	a.mu.Unlock()
	return nil
}

// timer is a durable tool that can be awaited in process.
type timer struct{}

func (timer) Start(_ context.Context, input json.RawMessage, _ toolcall.Call) (Started, error) {
	return Started{Handle: input}, nil
}
func (timer) Attach(ctx context.Context, handle json.RawMessage, _ toolcall.Call) (toolcall.Outcome, error) {
	var in struct{ Ms int }
	_ = json.Unmarshal(handle, &in)
	select {
	case <-time.After(time.Duration(in.Ms) * time.Millisecond):
		return toolcall.Outcome{OK: true, Value: json.RawMessage(`"rang"`)}, nil
	case <-ctx.Done():
		return toolcall.Outcome{}, ctx.Err()
	}
}
func (timer) Cancel(context.Context, json.RawMessage, toolcall.Call) error { return nil }

func setup(t *testing.T, limits Limits, hooks Hooks) (*testBundle, *approvals) {
	t.Helper()
	b := &testBundle{}
	appr := &approvals{}
	tools := []Tool{
		{Path: "math.add", Description: "Add two numbers.",
			Input:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
			Output: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}}}`),
			Execute: func(_ context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
				b.saw("math.add", c)
				var in struct{ A, B float64 }
				if err := json.Unmarshal(input, &in); err != nil {
					return nil, err
				}
				return json.Marshal(map[string]float64{"sum": in.A + in.B})
			}},
		{Path: "util.sleep", Description: "Answer after ms milliseconds.",
			Execute: func(ctx context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
				b.saw("util.sleep", c)
				var in struct {
					Ms    int
					Value json.RawMessage
				}
				_ = json.Unmarshal(input, &in)
				select {
				case <-time.After(time.Duration(in.Ms) * time.Millisecond):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if in.Value == nil {
					in.Value = json.RawMessage("null")
				}
				return in.Value, nil
			}},
		{Path: "util.fail", Description: "Always fails.",
			Execute: func(_ context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
				b.saw("util.fail", c)
				return nil, &toolcall.ToolError{Message: "it broke"}
			}},
		{Path: "util.badOutput", Description: "Answers against its output schema.",
			Output: json.RawMessage(`{"type":"string"}`),
			Execute: func(_ context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`42`), nil
			}},
		{Path: "context7.resolve-library-id", Description: "Find a library id by name.",
			Execute: func(_ context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`"/lib/id"`), nil
			}},
		{Path: "approvals.request", Description: "Ask a human to approve.", Durable: appr},
		{Path: "util.timer", Description: "A timer awaited in process.", Durable: timer{}},
	}
	rt, err := New(testOptions(Options{Tools: tools, Namespaces: []Namespace{{Path: "math", Description: "Arithmetic."}}, Limits: limits, Hooks: hooks}))
	require.NoError(t, err)
	b.rt = rt
	return b, appr
}

func execute(t *testing.T, b *testBundle, src string) *Execution {
	t.Helper()
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1"})
	require.NoError(t, err)
	return e
}

func resultOf(t *testing.T, e *Execution) *Result {
	t.Helper()
	res, ok := e.Result()
	require.True(t, ok, "run is %s, not done", e.State())
	return res
}

func TestExecuteResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		value string // JSON of the value when ok
		kind  Kind   // diagnostic kind when failed
		msg   string // substring of the diagnostic message
		logs  []string
	}{
		{name: "completion value", src: "const a = 2\na * 21", value: "42"},
		{name: "explicit return", src: "return {x: [1, 'a', null]}", value: `{"x":[1,"a",null]}`},
		{name: "undefined is null", src: "let x = 1", value: "null"},
		{name: "tool call", src: "const r = await tools.math.add({a: 1, b: 2}); r.sum", value: "3"},
		{name: "bracket name", src: `await tools.context7["resolve-library-id"]({name: "react"})`, value: `"/lib/id"`},
		{name: "console logs", src: "console.log('hi', 1); console.error({a: 1}); 5", value: "5", logs: []string{"hi 1", "{ a: 1 }"}},
		{name: "tool failure caught", src: "try { await tools.util.fail({}) } catch (e) { return e.message + '/' + e.kind }", value: `"it broke/ToolFailure"`},
		{name: "tool failure uncaught", src: "await tools.util.fail({})", kind: KindToolFailure, msg: "it broke"},
		{name: "invalid input", src: "await tools.math.add({a: 'x'})", kind: KindInvalidToolInput, msg: "input"},
		{name: "invalid output", src: "await tools.util.badOutput({})", kind: KindInvalidToolOutput},
		{name: "invalid input caught", src: "try { await tools.math.add({a:1}) } catch (e) { return e.kind }", value: `"InvalidToolInput"`},
		{name: "unknown tool", src: "await tools.math.ad({a: 1, b: 2})", kind: KindUnknownTool, msg: "did you mean tools.math.add?"},
		{name: "unknown tool caught", src: "try { tools.math.ad({}) } catch (e) { return [e.kind, e.message] }",
			value: `["UnknownTool", "tools.math.ad is not a tool; did you mean tools.math.add?"]`},
		{name: "namespace called", src: "tools.math({})", kind: KindUnknownTool, msg: "namespace"},
		{name: "unknown namespace", src: "await tools.mat.add({a: 1, b: 2})", kind: KindUnknownTool, msg: "tools.mat.add is not a tool; did you mean tools.math.add?"},
		{name: "unknown namespace caught", src: "try { await tools.nope.deeper.f({}) } catch (e) { return e.kind }", value: `"UnknownTool"`},
		{name: "read through undefined keeps TypeError", src: "const o = {}; o.x.f()", kind: KindExecutionFailure, msg: "TypeError: Cannot read properties of undefined (reading 'f')"},
		{name: "other callee keeps TypeError", src: "const o = {}; o.f()", kind: KindExecutionFailure, msg: "TypeError: o.f is not a function"},
		{name: "thrown error", src: "throw new TypeError('nope')", kind: KindExecutionFailure, msg: "TypeError: nope"},
		{name: "parse error", src: "let = = 1", kind: KindParseError},
		{name: "unsupported syntax", src: "with (a) {}", kind: KindUnsupportedSyntax},
		{name: "data value too deep", src: "let o = {}; for (let i = 0; i < 40; i++) o = {o}; await tools.math.add(o)", kind: KindInvalidDataValue},
		{name: "result cycle", src: "const o = {}; o.o = o; o", kind: KindInvalidDataValue},
		{name: "never settles", src: "await new Promise(() => {})", kind: KindExecutionFailure, msg: "never settle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, Limits{}, Hooks{})
			res := resultOf(t, execute(t, b, tt.src))
			if tt.kind == "" {
				require.True(t, res.OK, "error: %+v", res.Error)
				require.JSONEq(t, tt.value, string(res.Value))
			} else {
				require.False(t, res.OK, "value: %s", res.Value)
				require.Equal(t, tt.kind, res.Error.Kind, res.Error.Message)
				require.Contains(t, res.Error.Message, tt.msg)
			}
			if tt.logs != nil {
				require.Equal(t, tt.logs, res.Logs)
			}
		})
	}
}

func TestCallsStartEagerlyInCallOrder(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	src := `
const slow = tools.util.sleep({ms: 60, value: "slow"})
const fast = tools.util.sleep({ms: 1, value: "fast"})
const order = []
await Promise.all([slow.then(v => order.push(v)), fast.then(v => order.push(v))])
order`
	start := time.Now()
	res := resultOf(t, execute(t, b, src))
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `["fast","slow"]`, string(res.Value))
	require.Less(t, time.Since(start), 2*time.Second)
	require.Len(t, res.ToolCalls, 2)
	require.Equal(t, "r1:1", res.ToolCalls[0].Key)
	require.Equal(t, "r1:2", res.ToolCalls[1].Key)
	require.Equal(t, CallSucceeded, res.ToolCalls[0].Status)
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, `
tools.util.fail({})
Promise.reject(new Error("second"))
tools.util.sleep({ms: 2000})
return 1`))
	require.True(t, res.OK, "%+v", res.Error)
	var kinds []Kind
	for _, w := range res.Warnings {
		kinds = append(kinds, w.Kind)
	}
	require.Len(t, res.ToolCalls, 2)
	// the failing call may or may not have answered before the program returned: when it had,
	// it is reported as the rejection it was; when not, it was interrupted like the sleep
	want := []Kind{KindExecutionFailure}
	if res.ToolCalls[0].Status == CallFailed {
		want = []Kind{KindToolFailure, KindExecutionFailure}
	} else {
		require.Equal(t, CallCancelled, res.ToolCalls[0].Status)
	}
	require.Equal(t, want, kinds, "%+v", res.Warnings)
	require.Equal(t, CallCancelled, res.ToolCalls[1].Status)
}

func TestUnhandledRejectionsInCreationOrder(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, `
const a = tools.util.fail({})
const b = Promise.reject(new RangeError("mine"))
await tools.util.sleep({ms: 500}) // time for the failing call to settle, even on a loaded machine
return 1`))
	require.True(t, res.OK, "%+v", res.Error)
	require.Len(t, res.Warnings, 2)
	require.Equal(t, KindToolFailure, res.Warnings[0].Kind)
	require.Contains(t, res.Warnings[1].Message, "mine")
}

func TestLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limits Limits
		src    string
		kind   Kind
	}{
		{name: "busy loop times out", limits: Limits{TimeoutMs: 100}, src: "while (true) {}", kind: KindTimeoutExceeded},
		{name: "slow tool times out", limits: Limits{TimeoutMs: 100}, src: "await tools.util.sleep({ms: 5000})", kind: KindTimeoutExceeded},
		{name: "tool calls inside Promise.all", limits: Limits{MaxToolCalls: 3},
			src: "await Promise.all([1,2,3,4,5].map(i => tools.math.add({a: i, b: i})))", kind: KindToolCallLimitExceeded},
		{name: "memory", limits: Limits{MaxMemoryBytes: 8 << 20}, src: "const a = []; while (true) a.push({x: a.length, s: 'y'.repeat(100)})", kind: KindMemoryLimitExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, tt.limits, Hooks{})
			res := resultOf(t, execute(t, b, tt.src))
			require.False(t, res.OK)
			require.Equal(t, tt.kind, res.Error.Kind, res.Error.Message)
		})
	}
}

func TestToolCallLimitCountsCalls(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{MaxToolCalls: 3}, Hooks{})
	res := resultOf(t, execute(t, b, "for (let i = 0; i < 3; i++) await tools.math.add({a: i, b: 1}); 'ok'"))
	require.True(t, res.OK, "%+v", res.Error)
	require.EqualValues(t, 3, b.calls.Load())
}

func TestOutputTruncation(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{MaxOutputBytes: 50}, Hooks{})
	res := resultOf(t, execute(t, b, "'x'.repeat(500)"))
	require.True(t, res.OK)
	require.True(t, res.Truncated)
	require.LessOrEqual(t, len(res.Value), 50)
	require.Contains(t, string(res.Value), "truncated")
}

func TestInvalidLimits(t *testing.T) {
	t.Parallel()
	_, err := New(Options{Limits: Limits{TimeoutMs: -1}})
	require.ErrorIs(t, err, ErrInvalidLimit)
}

func TestHooks(t *testing.T) {
	t.Parallel()
	var after []string
	var mu sync.Mutex
	hooks := Hooks{
		BeforeCall: func(_ context.Context, c toolcall.Call, input json.RawMessage) error {
			if strings.Contains(string(input), "13") {
				return errors.New("unlucky")
			}
			return nil
		},
		AfterCall: func(_ context.Context, c toolcall.Call, r ToolCallRecord) {
			mu.Lock()
			after = append(after, fmt.Sprintf("%s:%s", c.Key, r.Status))
			mu.Unlock()
		},
	}
	b, _ := setup(t, Limits{}, hooks)
	res := resultOf(t, execute(t, b, `
const ok = await tools.math.add({a: 1, b: 1})
let denied
try { await tools.math.add({a: 13, b: 1}) } catch (e) { denied = e.message }
return [ok.sum, denied]`))
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `[2, "call denied: unlucky"]`, string(res.Value))
	require.EqualValues(t, 1, b.calls.Load(), "the denied call must not reach the tool")
	require.Equal(t, []string{"r1:1:succeeded", "r1:2:failed"}, after)
}

func TestSearchIsAToolCall(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, `
const page = await search({query: "add numbers", limit: 1})
return [page.items[0].path, page.items.length, page.remaining >= 0]`))
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `["tools.math.add", 1, true]`, string(res.Value))
	require.Len(t, res.ToolCalls, 1)
	require.Equal(t, "search", res.ToolCalls[0].Path)
}

func TestDurableAttachedInProcess(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, "await tools.util.timer({ms: 5})"))
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `"rang"`, string(res.Value))
}

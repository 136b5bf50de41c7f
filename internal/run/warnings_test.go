package run

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// TestWarningsAtReturn checks what a successful run reports about work it left behind: work
// still running is interrupted without a warning (its call says cancelled), while a call that
// had already failed is the unhandled rejection it was, unless the program attached a handler.
func TestWarningsAtReturn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		src      string
		value    string
		warnings []Kind
		statuses []CallStatus
	}{
		{name: "race loser", src: `const slow = tools.util.sleep({ms: 5000}); return await Promise.race([1, slow])`,
			value: `1`, statuses: []CallStatus{CallCancelled}},
		{name: "race loser after a tool won", src: `return await Promise.race([tools.util.sleep({ms: 1, value: "fast"}), tools.util.sleep({ms: 5000})])`,
			value: `"fast"`, statuses: []CallStatus{CallSucceeded, CallCancelled}},
		{name: "left running", src: `tools.util.sleep({ms: 5000}); return 1`,
			value: `1`, statuses: []CallStatus{CallCancelled}},
		{name: "failed before the return", src: `tools.math.add({a: "x"}); return 1`,
			value: `1`, warnings: []Kind{KindInvalidToolInput}, statuses: []CallStatus{CallFailed}},
		{name: "failed before the return, handler attached", src: `tools.math.add({a: "x"}).catch(() => 0); return 1`,
			value: `1`, statuses: []CallStatus{CallFailed}},
		{name: "tool failure while awaiting another call", src: `tools.util.fail({}); await tools.util.sleep({ms: 300}); return 1`,
			value: `1`, warnings: []Kind{KindToolFailure}, statuses: []CallStatus{CallFailed, CallSucceeded}},
		{name: "rejected race loser is handled", src: `return await Promise.race(["winner", tools.util.fail({})])`,
			value: `"winner"`},
		{name: "allSettled handles its rejections", src: `const s = await Promise.allSettled([tools.util.fail({}), tools.util.fail({})]); return s.filter(x => x.status === "rejected").length`,
			value: `2`, statuses: []CallStatus{CallFailed, CallFailed}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, _ := setup(t, Limits{}, Hooks{})
			res := resultOf(t, execute(t, b, tt.src))
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, tt.value, string(res.Value))
			var kinds []Kind
			for _, w := range res.Warnings {
				kinds = append(kinds, w.Kind)
				require.Contains(t, w.Message, "unhandled rejection from an un-awaited promise: ")
			}
			require.Equal(t, tt.warnings, kinds, "%+v", res.Warnings)
			if tt.statuses != nil {
				var got []CallStatus
				for _, c := range res.ToolCalls {
					got = append(got, c.Status)
				}
				require.Equal(t, tt.statuses, got)
			}
		})
	}
}

// slowStart is a durable tool whose Start takes ms milliseconds: work that cannot be stopped at
// once when the program returns.
type slowStart struct {
	ms        int
	mu        sync.Mutex
	cancelled int
}

func (s *slowStart) Start(context.Context, json.RawMessage, toolcall.Call) (Started, error) {
	time.Sleep(time.Duration(s.ms) * time.Millisecond)
	return Started{Handle: json.RawMessage(`{}`)}, nil
}
func (s *slowStart) Attach(context.Context, json.RawMessage, toolcall.Call) (toolcall.Outcome, error) {
	return toolcall.Outcome{}, ErrNotAttachable
}
func (s *slowStart) Cancel(context.Context, json.RawMessage, toolcall.Call) error {
	s.mu.Lock()
	s.cancelled++
	s.mu.Unlock()
	return nil
}

// TestTimeoutWhileStoppingLeftovers checks the one TimeoutExceeded warning: the program
// returned in time, but stopping the work it left behind ran past the time limit. The value is
// kept, the warning comes first (before the rejections), and the work is still cancelled.
func TestTimeoutWhileStoppingLeftovers(t *testing.T) {
	t.Parallel()
	slow := &slowStart{ms: 400}
	rt, err := New(testOptions(Options{Limits: Limits{TimeoutMs: 150}, Tools: []Tool{
		{Path: "jobs.start", Description: "Start a job.", Durable: slow},
		{Path: "jobs.fail", Description: "Fails.", Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
			return nil, &toolcall.ToolError{Message: "Lookup refused"}
		}},
		{Path: "jobs.get", Description: "Get a job.", Input: json.RawMessage(`{"type":"object","properties":{"id":{"type":"number"}},"required":["id"]}`),
			Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`{}`), nil
			}},
	}}))
	require.NoError(t, err)
	e, err := rt.Execute(context.Background(), `
tools.jobs.get({id: "x"}) // fails at once, and is not handled
tools.jobs.start({})
return "done"`, ExecOptions{})
	require.NoError(t, err)
	res := resultOf(t, e)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `"done"`, string(res.Value))
	require.NotEmpty(t, res.Warnings)
	require.Equal(t, KindTimeoutExceeded, res.Warnings[0].Kind)
	require.Contains(t, res.Warnings[0].Message, "background work was still running at the time limit of 150 ms")
	var kinds []Kind
	for _, w := range res.Warnings[1:] {
		kinds = append(kinds, w.Kind)
	}
	require.Equal(t, []Kind{KindInvalidToolInput}, kinds)
	slow.mu.Lock()
	require.Equal(t, 1, slow.cancelled, "the started work is cancelled at its tool")
	slow.mu.Unlock()

	// without leftover work, a run that ends in time has no such warning
	e, err = rt.Execute(context.Background(), `await tools.jobs.fail({}).catch(() => 0); "done"`, ExecOptions{})
	require.NoError(t, err)
	res = resultOf(t, e)
	require.True(t, res.OK, "%+v", res.Error)
	require.Empty(t, res.Warnings)
}

// TestWarningsTruncatedAsOne checks that under maxOutputBytes the warnings are kept in order
// while they fit and the rest are replaced by a single Truncated warning that counts them.
func TestWarningsTruncatedAsOne(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{MaxOutputBytes: 600}, Hooks{})
	res := resultOf(t, execute(t, b, `for (let i = 0; i < 50; i++) Promise.reject(new Error("lost " + i)); 1`))
	require.True(t, res.OK, "%+v", res.Error)
	require.True(t, res.Truncated)
	n := len(res.Warnings)
	require.Greater(t, n, 2)
	require.Less(t, n, 50)
	for i, w := range res.Warnings[:n-1] {
		require.Equal(t, KindExecutionFailure, w.Kind)
		require.Contains(t, w.Message, "lost "+itoa(i)+" ")
	}
	last := res.Warnings[n-1]
	require.Equal(t, KindTruncated, last.Kind)
	require.Contains(t, last.Message, itoa(50-(n-1))+" more warnings left out")
	kept, _ := json.Marshal(res.Warnings[:n-1])
	require.LessOrEqual(t, len(kept), 600+len(res.Warnings))
	require.Equal(t, 1, strings.Count(string(mustJSON(t, res.Warnings)), `"Truncated"`))
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

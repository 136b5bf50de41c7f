package run

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// capRuntime is a runtime with one tool, util.sleep, that never runs in roundtrip mode: saving
// a state holding 10,000 pending calls every few thousand instructions would take minutes, and
// saving pending calls is covered by the roundtrip runs of the other tests.
func capRuntime(t *testing.T) *Runtime {
	t.Helper()
	rt, err := New(Options{Tools: []Tool{{Path: "util.sleep", Description: "Answer after ms milliseconds.",
		Execute: func(ctx context.Context, input json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
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
		}}}})
	require.NoError(t, err)
	return rt
}

func runCap(t *testing.T, src string) *Result {
	t.Helper()
	e, err := capRuntime(t).Execute(context.Background(), src, ExecOptions{RunID: "r1"})
	require.NoError(t, err)
	return resultOf(t, e)
}

// TestPendingPromiseCap checks the cap of 10,000 promises unsettled at once, tool calls
// included, at its boundary: 10,000 calls in flight together work; the 10,001st throws a
// RangeError that names the cap, which the program can catch and then go on with the calls it
// made. Pending promises of the program's own count the same.
func TestPendingPromiseCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, value string
	}{
		{name: "at the cap", value: `10000`, src: `
const ps = []
for (let i = 0; i < 10000; i++) ps.push(tools.util.sleep({ms: 20, value: 1}))
let n = 0
for (const p of ps) n += await p
return n`},
		{name: "past the cap, caught", value: `["RangeError", true, 10000, 10000]`, src: `
const ps = []
let err
try {
  for (let i = 0; i < 10001; i++) ps.push(tools.util.sleep({ms: 20, value: 1}))
} catch (e) { err = e }
let n = 0
for (const p of ps) n += await p
return [err.name, err.message.includes("10000"), ps.length, n]`},
		{name: "room again once settled", value: `20000`, src: `
let n = 0
for (let round = 0; round < 2; round++) {
  const ps = []
  for (let i = 0; i < 10000; i++) ps.push(tools.util.sleep({ms: 1, value: 1}))
  for (const p of ps) n += await p
}
return n`},
		{name: "Promise.all of 9999 calls", value: `9999`, src: `
const ps = []
for (let i = 0; i < 9999; i++) ps.push(tools.util.sleep({ms: 1, value: 1}))
return (await Promise.all(ps)).length`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := runCap(t, tt.src)
			require.True(t, res.OK, "error: %+v", res.Error)
			require.JSONEq(t, tt.value, string(res.Value))
		})
	}
	t.Run("program promises count", func(t *testing.T) {
		t.Parallel()
		res := runCap(t, `
let caught
try { for (let i = 0; i <= 10000; i++) new Promise(() => {}) } catch (e) { caught = e.message }
const settled = []
for (let i = 0; i < 20000; i++) settled.push(Promise.resolve(i)) // settled ones do not count
return [caught, settled.length]`)
		require.True(t, res.OK, "error: %+v", res.Error)
		require.JSONEq(t, `["too many pending promises: more than 10000 unsettled at once (tool calls included)", 20000]`, string(res.Value))
	})
	t.Run("never settling, past the cap", func(t *testing.T) {
		t.Parallel()
		res := runCap(t, `await Promise.all(Array(10001).fill(0).map(() => new Promise(() => {})))`)
		require.False(t, res.OK)
		require.Equal(t, KindExecutionFailure, res.Error.Kind)
		require.Contains(t, res.Error.Message, "RangeError: too many pending promises")
	})
	t.Run("past the cap, uncaught", func(t *testing.T) {
		t.Parallel()
		res := runCap(t, `for (let i = 0; i < 10001; i++) tools.util.sleep({ms: 20})`)
		require.False(t, res.OK)
		require.Equal(t, KindExecutionFailure, res.Error.Kind)
		require.Contains(t, res.Error.Message, "RangeError: too many pending promises: more than 10000 unsettled at once")
		require.Len(t, res.ToolCalls, 10000, "the refused call gets no call id")
	})
}

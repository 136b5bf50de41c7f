package run

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// gauge is a tool that holds each call until released and records how many calls execute at
// once and in which order they started.
type gauge struct {
	mu      sync.Mutex
	now     int
	peak    int
	order   []int64
	hold    time.Duration
	release chan struct{} // when non-nil, calls wait for it instead of hold
	made    atomic.Int64
}

func (g *gauge) tool() Tool {
	return Tool{Path: "work.step", Description: "One step of work.",
		Execute: func(ctx context.Context, input json.RawMessage, c toolcall.Call) (json.RawMessage, error) {
			g.made.Add(1)
			g.mu.Lock()
			g.now++
			g.peak = max(g.peak, g.now)
			g.order = append(g.order, c.CallID)
			g.mu.Unlock()
			defer func() { g.mu.Lock(); g.now--; g.mu.Unlock() }()
			if g.release != nil {
				select {
				case <-g.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			} else {
				time.Sleep(g.hold)
			}
			return input, nil
		}}
}

const twentyCalls = `const ids = Array.from({length: 20}, (_, i) => i);
const out = await Promise.all(ids.map(i => tools.work.step({i})));
return out.map(o => o.i).join(",")`

func TestAtMostEightCallsExecuteAtOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		max  int
		want int
	}{
		{name: "default", max: 0, want: DefaultMaxConcurrentCalls},
		{name: "configured", max: 3, want: 3},
		{name: "no cap", max: -1, want: 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := &gauge{hold: 20 * time.Millisecond}
			rt, err := New(testOptions(Options{Tools: []Tool{g.tool()}, MaxConcurrentCalls: tt.max}))
			require.NoError(t, err)
			j := newRecorder()
			e, err := rt.Execute(context.Background(), twentyCalls, ExecOptions{RunID: "r1", Journal: j})
			require.NoError(t, err)
			res := resultOf(t, e)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, `"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19"`, string(res.Value))
			require.Equal(t, tt.want, g.peak)
			require.EqualValues(t, 20, g.made.Load(), "every call is made once")
			if tt.max >= 0 {
				// Queued calls start in call order: call k starts only once k-want calls have
				// finished, so at least that many started before it.
				for pos, id := range g.order {
					require.LessOrEqual(t, int(id), pos+tt.want, "call %d started at position %d", id, pos)
				}
			}
			// Every call was journaled when the program made it, with its own id and key.
			started := 0
			for _, ev := range j.events {
				if len(ev) > 7 && ev[:7] == "started" {
					started++
				}
			}
			require.Equal(t, 20, started)
			for i, c := range res.ToolCalls {
				require.EqualValues(t, i+1, c.CallID)
				require.Equal(t, toolcall.Key("r1", int64(i+1)), c.Key)
				require.Equal(t, CallSucceeded, c.Status)
			}
		})
	}
}

// Queued calls are made calls: they count against maxToolCalls when the program makes them.
func TestQueuedCallsCountAgainstMaxToolCalls(t *testing.T) {
	t.Parallel()
	g := &gauge{release: make(chan struct{})}
	rt, err := New(testOptions(Options{Tools: []Tool{g.tool()}, MaxConcurrentCalls: 2}))
	require.NoError(t, err)
	src := `const ps = []; let refused = "";
for (let i = 0; i < 6; i++) { try { ps.push(tools.work.step({i})) } catch (e) { refused = e.message } }
ps.forEach(p => p.catch(() => {}));
return refused`
	close(g.release)
	e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Limits: &Limits{MaxToolCalls: 4}})
	require.NoError(t, err)
	res := resultOf(t, e)
	require.False(t, res.OK)
	require.Equal(t, KindToolCallLimitExceeded, res.Error.Kind)
	require.Contains(t, res.Error.Message, "more than 4 tool calls")
}

// A drain holds queued calls back: the run yields with them in its state, the state saves
// (queued calls do not block a suspend), and the resumed run starts them, each once.
func TestDrainSavesQueuedCallsAndResumeStartsThem(t *testing.T) {
	t.Parallel()
	g := &gauge{release: make(chan struct{})}
	rt, err := New(testOptions(Options{Tools: []Tool{g.tool()}, MaxConcurrentCalls: 2}))
	require.NoError(t, err)
	drain := make(chan struct{})
	j := newRecorder()
	done := make(chan struct{})
	var e *Execution
	go func() {
		defer close(done)
		e, err = rt.Execute(context.Background(), twentyCalls, ExecOptions{RunID: "r1", Journal: j, Drain: drain})
	}()
	require.Eventually(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.now == 2 }, 5*time.Second, time.Millisecond)
	close(drain)
	close(g.release)
	<-done
	require.NoError(t, err)
	require.Equal(t, StateYielded, e.State())
	require.EqualValues(t, 2, g.made.Load(), "a draining run starts no queued call")
	s, err := e.Suspend()
	require.NoError(t, err, "queued calls do not block a suspend")

	e2, err := rt.Resume(context.Background(), s.State, nil, ExecOptions{Journal: j})
	require.NoError(t, err)
	res := resultOf(t, e2)
	require.True(t, res.OK, "%+v", res.Error)
	require.JSONEq(t, `"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19"`, string(res.Value))
	require.EqualValues(t, 20, g.made.Load(), "each call is made once")
	require.Equal(t, 2, g.peak)
}

// A checkpoint taken while other calls are still executing, then a crash: the re-driven run
// makes those calls again under the same keys (their outcomes were never recorded) instead of
// waiting forever on promises nobody settles; calls whose outcome was recorded are not made
// again.
func TestRedriveMakesAgainTheCallsInFlightAtTheCheckpoint(t *testing.T) {
	t.Parallel()
	b, _ := setup(t, Limits{}, Hooks{})
	j := newRecorder()
	src := `const [a, s] = await Promise.all([tools.math.add({a: 1, b: 2}), tools.util.sleep({ms: 100, value: 7})]); return [a.sum, s]`
	e, err := b.rt.Execute(context.Background(), src, ExecOptions{RunID: "r1", Journal: j})
	require.NoError(t, err)
	require.JSONEq(t, "[3,7]", string(resultOf(t, e).Value))
	require.Equal(t, []string{"started r1:1 durable=false", "started r1:2 durable=false", "settled r1:1 ok=true", "checkpoint",
		"settled r1:2 ok=true", "checkpoint"}, j.events)
	require.Len(t, b.order, 2)

	for _, recorded := range []bool{false, true} {
		t.Run(fmt.Sprintf("sleep recorded %v", recorded), func(t *testing.T) {
			jj := newRecorder()
			jj.outcomes["r1:1"] = j.outcomes["r1:1"]
			if recorded {
				jj.outcomes["r1:2"] = j.outcomes["r1:2"]
			}
			b.mu.Lock()
			before := len(b.order)
			b.mu.Unlock()
			e2, err := b.rt.Resume(context.Background(), j.checkpoints[0], nil, ExecOptions{Journal: jj})
			require.NoError(t, err)
			res := resultOf(t, e2)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, "[3,7]", string(res.Value))
			b.mu.Lock()
			made := append([]string(nil), b.order[before:]...)
			b.mu.Unlock()
			if recorded {
				require.Empty(t, made)
			} else {
				require.Equal(t, []string{"util.sleep:r1:2"}, made, "only the call in flight is made again, under its key")
				require.Contains(t, jj.events, "started r1:2 durable=false")
			}
		})
	}
}

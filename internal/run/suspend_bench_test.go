package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/codemode/codemode/internal/benchcpu"
	"github.com/codemode/codemode/internal/toolcall"
)

// benchHeapProgram builds n units of mixed live data (records, arrays of numbers and strings,
// nested arrays, a Map, closures), then awaits a durable tool and reports a sum over it all.
const benchHeapProgram = `
const n = %d;
const recs = [], nums = [], strs = [], nested = [], fns = [];
const m = new Map();
for (let i = 0; i < n; i++) {
  recs.push({id: i, name: 'record number ' + i, active: i %% 2 === 0, score: i * 1.25, tags: ['alpha', 'beta']});
  nums.push(i * 0.5, i, -i / 3);
  strs.push('s' + i, 'a longer string value for record ' + i + '.'.repeat(i %% 40), 'é' + i);
  nested.push([[i, i + 1], ['x', [i, null]]]);
  m.set('k' + i, {v: i, w: 'w' + i});
  const c = i;
  fns.push(() => c + n);
}
const got = await tools.approvals.request({what: 'go'});
return recs.length + nums.length + strs.length + nested.length + m.size + fns[n - 1]() + got.length`

// liveJSONBytes runs benchHeapProgram's builder with units and returns the length of the JSON
// text of the live data it makes (closures aside): the yardstick of the state's size.
func liveJSONBytes(b *testing.B, rt *Runtime, units int) int {
	b.Helper()
	src := strings.Replace(fmt.Sprintf(benchHeapProgram, units), "const got = await tools.approvals.request({what: 'go'});",
		"return JSON.stringify([recs, nums, strs, nested, [...m]]).length;", 1)
	e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "size"})
	if err != nil {
		b.Fatal(err)
	}
	res, ok := e.Result()
	if !ok || !res.OK {
		b.Fatalf("size run ended %v %+v", ok, res)
	}
	var n int
	if err := json.Unmarshal(res.Value, &n); err != nil {
		b.Fatal(err)
	}
	return n
}

// benchHeapSizes gives the units that make a state of about 10 KB, 1 MB and 10 MB.
var benchHeapSizes = []struct {
	name  string
	units int
}{
	{name: "heap=10KB", units: 14},
	{name: "heap=1MB", units: 1_700},
	{name: "heap=10MB", units: 16_400},
}

// benchRuntime is a runtime whose only tool is the durable approvals.request.
func benchRuntime(b *testing.B) *Runtime {
	b.Helper()
	rt, err := New(testOptions(Options{Tools: []Tool{
		{Path: "approvals.request", Description: "Ask a human to approve.", Durable: &approvals{}},
	}}))
	if err != nil {
		b.Fatal(err)
	}
	return rt
}

// suspendedRun executes src up to its suspension and saves it.
func suspendedRun(b *testing.B, rt *Runtime, src string) (*Execution, *Suspension) {
	b.Helper()
	e, err := rt.Execute(context.Background(), src, ExecOptions{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if e.State() != StateSuspended {
		b.Fatalf("run is %s, not suspended", e.State())
	}
	s, err := e.Suspend()
	if err != nil {
		b.Fatal(err)
	}
	return e, s
}

// BenchmarkSuspend measures Suspend of a run holding a heap of mixed data; MB/s is bytes of
// state per second.
func BenchmarkSuspend(b *testing.B) {
	for _, size := range benchHeapSizes {
		b.Run(size.name, func(b *testing.B) {
			rt := benchRuntime(b)
			e, s := suspendedRun(b, rt, fmt.Sprintf(benchHeapProgram, size.units))
			ratio := float64(s.State.Len()) / float64(liveJSONBytes(b, rt, size.units))
			b.SetBytes(int64(s.State.Len()))
			b.ReportAllocs()
			cpu := benchcpu.Start()
			for b.Loop() {
				if _, err := e.Suspend(); err != nil {
					b.Fatal(err)
				}
			}
			cpu.ReportThroughput(b, s.State.Len())
			b.ReportMetric(ratio, "state/json") // the state's size over the live data's JSON size
		})
	}
}

// BenchmarkResume measures Resume of the same runs with the outcome of their pending call,
// up to the run's result; MB/s is bytes of state per second.
func BenchmarkResume(b *testing.B) {
	for _, size := range benchHeapSizes {
		b.Run(size.name, func(b *testing.B) {
			rt := benchRuntime(b)
			_, s := suspendedRun(b, rt, fmt.Sprintf(benchHeapProgram, size.units))
			outcomes := []OutcomeFor{{Key: s.Pending[0].Key, Outcome: toolcall.Outcome{OK: true, Value: json.RawMessage(`"yes"`)}}}
			want := json.RawMessage(fmt.Sprint(9*size.units + 2*size.units - 1 + 3))
			b.SetBytes(int64(s.State.Len()))
			b.ReportAllocs()
			cpu := benchcpu.Start()
			for b.Loop() {
				e, err := rt.Resume(context.Background(), s.State, outcomes, ExecOptions{})
				if err != nil {
					b.Fatal(err)
				}
				res, ok := e.Result()
				if !ok || !res.OK || string(res.Value) != string(want) {
					b.Fatalf("run ended %v %+v, want the value %s", ok, res, want)
				}
			}
			cpu.ReportThroughput(b, s.State.Len())
		})
	}
}

// BenchmarkIdlePending100Suspend saves an idle run with 100 pending durable calls.
func BenchmarkIdlePending100Suspend(b *testing.B) {
	rt := benchRuntime(b)
	e, s := suspendedRun(b, rt, idlePending100)
	b.SetBytes(int64(s.State.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Suspend(); err != nil {
			b.Fatal(err)
		}
	}
}

// idlePending100 starts 100 durable calls and waits for them all.
const idlePending100 = `const ps = [];
for (let i = 0; i < 100; i++) ps.push(tools.approvals.request({i}));
return (await Promise.all(ps)).length`

// BenchmarkIdlePending100 saves and restores an idle run with 100 pending durable calls (no
// outcome arrives, so the resumed run suspends again).
func BenchmarkIdlePending100(b *testing.B) {
	rt := benchRuntime(b)
	e, s := suspendedRun(b, rt, idlePending100)
	if len(s.Pending) != 100 {
		b.Fatalf("%d pending calls, want 100", len(s.Pending))
	}
	b.SetBytes(int64(s.State.Len()))
	b.ReportAllocs()
	for b.Loop() {
		s, err := e.Suspend()
		if err != nil {
			b.Fatal(err)
		}
		e2, err := rt.Resume(context.Background(), s.State, nil, ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if e2.State() != StateSuspended {
			b.Fatalf("resumed run is %s, want suspended", e2.State())
		}
	}
}

package run_test

import (
	"context"
	"testing"

	"github.com/codemode/codemode/internal/benchcpu"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// benchRuntime is a runtime with the test toolset, served over HTTP, as tools.loadgen.*.
func benchRuntime(b *testing.B) *run.Runtime {
	srv := toolsettest.New(b, toolsettest.Options{})
	tools, namespaces, err := runtools.Load(context.Background(), toolset.Config{URL: srv.URL, Name: "loadgen"})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces})
	if err != nil {
		b.Fatal(err)
	}
	return rt
}

// BenchmarkExecuteTrivial measures the fixed cost of a run: Execute of `1 + 1` on a runtime
// with one tool protocol toolset (the test toolset, served over HTTP, as tools.loadgen.*), up
// to its result. The program makes no call: what is measured is setting the run up, running
// two instructions and building the result.
func BenchmarkExecuteTrivial(b *testing.B) {
	rt := benchRuntime(b)
	ctx := context.Background()
	b.ReportAllocs()
	cpu := benchcpu.Start()
	for b.Loop() {
		e, err := rt.Execute(ctx, "1 + 1", run.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res, ok := e.Result(); !ok || !res.OK || string(res.Value) != "2" {
			b.Fatalf("run ended %v %+v", ok, res)
		}
	}
	cpu.ReportPerOp(b)
}

// BenchmarkExecuteCalls10 measures a run of 10 sequential tool calls to the test toolset over
// HTTP (its echo tool), up to its result: the per-call cost of the runtime and the toolset
// client, without a journal.
func BenchmarkExecuteCalls10(b *testing.B) {
	rt := benchRuntime(b)
	const code = `let sum = 0;
for (let i = 0; i < 10; i++) sum += (await tools.loadgen.echo({i})).i;
sum`
	ctx := context.Background()
	b.ReportAllocs()
	cpu := benchcpu.Start()
	for b.Loop() {
		e, err := rt.Execute(ctx, code, run.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res, ok := e.Result(); !ok || !res.OK || string(res.Value) != "45" {
			b.Fatalf("run ended %v %+v", ok, res)
		}
	}
	cpu.ReportPerOp(b)
}

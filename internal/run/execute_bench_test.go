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

// BenchmarkExecuteTrivial measures the fixed cost of a run: Execute of `1 + 1` on a runtime
// with one tool protocol toolset (the test toolset, served over HTTP, as tools.loadgen.*), up
// to its result. The program makes no call: what is measured is setting the run up, running
// two instructions and building the result.
func BenchmarkExecuteTrivial(b *testing.B) {
	srv := toolsettest.New(b, toolsettest.Options{})
	tools, namespaces, err := runtools.Load(context.Background(), toolset.Config{URL: srv.URL, Name: "loadgen"})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces})
	if err != nil {
		b.Fatal(err)
	}
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

package interp

import (
	"context"
	"testing"

	"github.com/codemode/codemode/internal/benchcpu"
)

// BenchmarkNew measures New: a fresh VM with its realm cloned from the template (the fixed
// cost of every Restore). cpu-ns/op is the process CPU time per VM, garbage collection
// included, which a loaded machine disturbs less than the wall time.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	cpu := benchcpu.Start()
	for b.Loop() {
		if vm := New(Config{}); vm.realm == nil {
			b.Fatal("no realm")
		}
	}
	cpu.ReportPerOp(b)
}

// BenchmarkNewAndRun measures New followed by a short program that reaches a few globals
// and built-in methods (the first lookups on large built-ins use their hash indexes).
func BenchmarkNewAndRun(b *testing.B) {
	p, err := Compile(`const a = [3, 1, 2]; a.sort();
Object.keys({x: 1}).length + Math.max(...a) + JSON.stringify(a).length + 'abc'.toUpperCase().length + String(new Map([[1, 2]]).size)`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := benchcpu.Start()
	for b.Loop() {
		vm := New(Config{})
		if err := vm.Start(p); err != nil {
			b.Fatal(err)
		}
		if st, err := vm.Run(context.Background(), RunOptions{}); err != nil || st != StatusDone {
			b.Fatal(st, err)
		}
		if v, _ := vm.Result(); vm.ToGoString(v) != "141" {
			b.Fatal(vm.ToGoString(v))
		}
	}
	cpu.ReportPerOp(b)
}

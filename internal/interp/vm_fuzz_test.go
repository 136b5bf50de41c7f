package interp

import (
	"context"
	"testing"
	"time"
)

// FuzzCompileRun feeds arbitrary source through the compiler and the VM with a
// step budget: nothing may panic.
func FuzzCompileRun(f *testing.F) {
	for _, p := range snapshotPrograms {
		f.Add(p.src)
	}
	f.Add("for (;;) {}")
	f.Add("class A extends null { constructor() { super() } } new A()")
	f.Add("async function* g() { yield* [1] } for await (const x of g()) x")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile(src)
		if err != nil {
			return
		}
		vm := New(Config{MaxMemoryBytes: 16 << 20, MaxCallDepth: 500})
		if err := vm.Start(p); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, _ = vm.Run(ctx, RunOptions{MaxSteps: 20000})
		vm.Result()
	})
}

// FuzzRestore feeds mutated snapshots to Restore: it must fail cleanly, never panic. Each
// execution that gets past the document's first members compiles a program and builds a
// realm (about a millisecond), so the fuzzer spends long stretches minimizing new inputs;
// its execution count only moves when a minimization ends.
func FuzzRestore(f *testing.F) {
	for _, p := range snapshotPrograms[:6] {
		prog, err := Compile(p.src)
		if err != nil {
			f.Fatal(err)
		}
		vm := New(Config{})
		_ = vm.Start(prog)
		_, _ = vm.Run(context.Background(), RunOptions{MaxSteps: 40})
		data, err := vm.Snapshot()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// a heap of every kind of data, waiting on a host promise
	data, err := mixedHeapVM(f, 2).Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Restore(data, Config{})
	})
}

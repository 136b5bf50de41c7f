package interp

import (
	"context"
	"testing"
)

// benchProgram compiles src once and runs it b.N times on fresh VMs.
func benchProgram(b *testing.B, src string) {
	b.Helper()
	p, err := Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vm := New(Config{})
		if err := vm.Start(p); err != nil {
			b.Fatal(err)
		}
		if _, err := vm.Run(context.Background(), RunOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, thrown := vm.Result(); thrown {
			b.Fatal("program threw")
		}
	}
}

func BenchmarkFib(b *testing.B) {
	benchProgram(b, "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(22)")
}

func BenchmarkArithLoop(b *testing.B) {
	benchProgram(b, "let s = 0; for (let i = 0; i < 100000; i++) { s = (s + i * 3) % 1000003 } s")
}

func BenchmarkPropertyAccess(b *testing.B) {
	benchProgram(b, "const o = {a: 1, b: 2}; let s = 0; for (let i = 0; i < 50000; i++) { o.a = o.b + i; s += o.a } s")
}

func BenchmarkClosures(b *testing.B) {
	benchProgram(b, "function mk(k) { return x => x + k } let s = 0; for (let i = 0; i < 20000; i++) s = mk(i)(s) % 1000; s")
}

func BenchmarkExceptions(b *testing.B) {
	benchProgram(b, "let n = 0; for (let i = 0; i < 10000; i++) { try { throw new Error('x') } catch (e) { n++ } } n")
}

func BenchmarkStringConcat(b *testing.B) {
	benchProgram(b, "let s = ''; for (let i = 0; i < 20000; i++) s += 'ab'; s.length")
}

func BenchmarkAwaitLoop(b *testing.B) {
	benchProgram(b, "let s = 0; for (let i = 0; i < 10000; i++) s += await i; s")
}

func BenchmarkSnapshotRestore(b *testing.B) {
	p, err := Compile("function sum(n) { return n === 0 ? 0 : n + sum(n - 1) } const data = []; for (let i = 0; i < 1000; i++) data.push({i, s: 'v' + i}); sum(50)")
	if err != nil {
		b.Fatal(err)
	}
	vm := New(Config{})
	_ = vm.Start(p)
	_, _ = vm.Run(context.Background(), RunOptions{MaxSteps: 30000})
	b.ReportAllocs()
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		data, err := vm.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
		if _, err := Restore(data, Config{}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(size))
}

// BenchmarkSnapshotIdle100Pending measures Snapshot of a run waiting on 100 host calls
// (target: under 1 ms).
func BenchmarkSnapshotIdle100Pending(b *testing.B) {
	h := &testHost{}
	vm := New(Config{Host: h})
	if err := vm.Set(vm.Global(), "later", vm.NewHostFunction("later", "later", 0)); err != nil {
		b.Fatal(err)
	}
	p, err := Compile("const ps = []; for (let i = 0; i < 100; i++) ps.push(later()); (await Promise.all(ps)).length")
	if err != nil {
		b.Fatal(err)
	}
	_ = vm.Start(p)
	if st, err := vm.Run(context.Background(), RunOptions{}); err != nil || st != StatusWaiting {
		b.Fatal(st, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		data, err := vm.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "bytes")
}

package interp

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/codemode/codemode/internal/benchcpu"
)

// mixedHeapProgram builds n units of mixed live data, then waits on a host promise: records
// with several properties, arrays of numbers and of strings (short and long), nested arrays,
// a Map of small objects and closures over per-iteration bindings.
const mixedHeapProgram = mixedHeapData + `
const got = await later();
recs.length + nums.length + strs.length + nested.length + m.size + fns[n - 1]() + got
`

// mixedHeapData builds the live data of mixedHeapProgram.
const mixedHeapData = `
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
`

// mixedHeapJSONProgram builds the same data and returns the size of its JSON: the records,
// arrays and the Map's entries (the closures have none).
const mixedHeapJSONProgram = mixedHeapData + `
JSON.stringify({recs, nums, strs, nested, m: [...m]}).length
`

// mixedHeapJSONBytes is the size of the JSON of the live data of mixedHeapProgram with n units.
func mixedHeapJSONBytes(tb testing.TB, n int) int {
	tb.Helper()
	vm := New(Config{})
	p, err := Compile(fmt.Sprintf(mixedHeapJSONProgram, n))
	if err != nil {
		tb.Fatal(err)
	}
	if err := vm.Start(p); err != nil {
		tb.Fatal(err)
	}
	if st, err := vm.Run(context.Background(), RunOptions{}); err != nil || st != StatusDone {
		tb.Fatalf("status %v, %v", st, err)
	}
	v, _ := vm.Result()
	size, err := strconv.Atoi(vm.ToGoString(v))
	if err != nil {
		tb.Fatal(err)
	}
	return size
}

// mixedHeapUnits is the number of units that makes a snapshot of about 10 KB, 1 MB and 10 MB.
var mixedHeapUnits = []struct {
	name  string
	units int
}{
	{name: "heap=10KB", units: 14},
	{name: "heap=1MB", units: 1_700},
	{name: "heap=10MB", units: 16_400},
}

// mixedHeapVM runs mixedHeapProgram with n units up to its host call.
func mixedHeapVM(tb testing.TB, n int) *VM {
	tb.Helper()
	h := &testHost{}
	vm := New(Config{Host: h})
	if err := vm.Set(vm.Global(), "later", vm.NewHostFunction("later", "later", 0)); err != nil {
		tb.Fatal(err)
	}
	p, err := Compile(fmt.Sprintf(mixedHeapProgram, n))
	if err != nil {
		tb.Fatal(err)
	}
	if err := vm.Start(p); err != nil {
		tb.Fatal(err)
	}
	st, err := vm.Run(context.Background(), RunOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if st != StatusWaiting || len(h.pending) != 1 {
		tb.Fatalf("status %v with %d pending calls, want waiting on one", st, len(h.pending))
	}
	return vm
}

// BenchmarkSnapshot measures Snapshot (encode) and Restore (decode) of a VM holding a mix of
// live data, in format 1 (JSON) and format 2 (binary) side by side.
//
// MB/s is bytes of snapshot per second of wall-clock time (b.SetBytes is the length of the
// snapshot in the format measured), MB/cpu-s the same bytes per second of process CPU
// (collector included). The timed region is the whole operation: for encode, VM.Snapshot's
// walk of the heap and the assembly of the document; for decode, Restore from the bytes to a
// runnable VM, including its new realm and the program's lookup. The speed target (100 MB/s
// of snapshot, encode and decode, every size) is on MB/s, the honest measure for a format:
// what a store or a network moves per second.
//
// MB/s rates each format on its own bytes, so a smaller encoding of the same heap needs less
// time per snapshot for the same figure (format 2 is about half the bytes of format 1). To
// compare the formats on the same work, json-MB/s is the size of the JSON of the live data
// the snapshot holds (JSON.stringify of the records, arrays and Map: the same for both
// formats) per second of wall-clock time; x-json is the snapshot's size over that size.
func BenchmarkSnapshot(b *testing.B) {
	benchmarkSnapshotSizes(b)
}

// workerGCPercent is the collector setting of the service's workers (GOGC=400, set by
// runengine.TuneCollector when GOGC is not in the environment).
const workerGCPercent = 400

// BenchmarkSnapshotWorkerGC is BenchmarkSnapshot with the collector set as the service's
// workers set it (GOGC=400, unless GOGC is in the environment, as in the workers): the same
// operations and metrics, with fewer collection cycles during a restore. BenchmarkSnapshot,
// at the default setting, is the reference figure.
func BenchmarkSnapshotWorkerGC(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(workerGCPercent))
	}
	benchmarkSnapshotSizes(b)
}

// benchmarkSnapshotSizes runs the encode and decode benchmarks of BenchmarkSnapshot.
func benchmarkSnapshotSizes(b *testing.B) {
	for _, size := range mixedHeapUnits {
		b.Run(size.name, func(b *testing.B) {
			vm := mixedHeapVM(b, size.units)
			jsonBytes := mixedHeapJSONBytes(b, size.units)
			for _, format := range []int{snapshotFormat, snapshotFormat2} {
				b.Run(fmt.Sprintf("format=%d", format), func(b *testing.B) {
					data, err := vm.snapshot(format)
					if err != nil {
						b.Fatal(err)
					}
					ratio := float64(len(data)) / float64(jsonBytes)
					b.Run("encode", func(b *testing.B) {
						b.SetBytes(int64(len(data)))
						b.ReportAllocs()
						cpu := benchcpu.Start()
						for b.Loop() {
							if _, err := vm.snapshot(format); err != nil {
								b.Fatal(err)
							}
						}
						cpu.ReportThroughput(b, len(data))
						reportJSONThroughput(b, jsonBytes)
						b.ReportMetric(ratio, "x-json") // after the loop, which clears reported metrics
					})
					b.Run("decode", func(b *testing.B) {
						b.SetBytes(int64(len(data)))
						b.ReportAllocs()
						cpu := benchcpu.Start()
						for b.Loop() {
							if _, err := Restore(data, Config{}); err != nil {
								b.Fatal(err)
							}
						}
						cpu.ReportThroughput(b, len(data))
						reportJSONThroughput(b, jsonBytes)
					})
				})
			}
		})
	}
}

// reportJSONThroughput adds the metric "json-MB/s": jsonBytes (the JSON of the live data a
// snapshot holds) times b.N over the wall-clock time of the loop.
func reportJSONThroughput(b *testing.B, jsonBytes int) {
	if d := b.Elapsed(); d > 0 {
		b.ReportMetric(float64(jsonBytes)*float64(b.N)/d.Seconds()/1e6, "json-MB/s")
	}
}

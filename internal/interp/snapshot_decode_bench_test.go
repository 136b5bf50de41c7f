package interp

import (
	"testing"
)

// BenchmarkSnapshotDecode splits Restore of mixedHeapProgram's format-1 snapshots into its parts:
// "fresh" is the VM that Restore decodes into (New and the program cache), "sections" is
// the reading of the heap and exec sections into such a VM (made outside the timer), so
// that the decoder's own cost is measured without the realm's.
func BenchmarkSnapshotDecode(b *testing.B) {
	for _, size := range mixedHeapUnits {
		b.Run(size.name, func(b *testing.B) {
			data, err := mixedHeapVM(b, size.units).SnapshotFormat1() // snapshotSections reads JSON
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Restore(data, Config{}); err != nil {
				b.Fatal(err)
			}
			src, heapAt := snapshotSections(b, data)
			b.Run("fresh", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := restoreVM(src, false, "", nil, Config{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("sections", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				const batch = 32
				vms := make([]*VM, 0, batch)
				for i := 0; i < b.N; {
					b.StopTimer()
					vms = vms[:0]
					for range min(batch, b.N-i) {
						vm, err := restoreVM(src, false, "", nil, Config{})
						if err != nil {
							b.Fatal(err)
						}
						vms = append(vms, vm)
					}
					b.StartTimer()
					for _, vm := range vms {
						if err := decodeSections(vm, data, heapAt); err != nil {
							b.Fatal(err)
						}
						i++
					}
				}
			})
		})
	}
}

// snapshotSections returns a snapshot's program source (its JSON string) and the offset of
// its heap section.
func snapshotSections(tb testing.TB, data []byte) ([]byte, int) {
	tb.Helper()
	r := &jsonReader{data: data}
	var src []byte
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "source":
			start := r.pos
			r.skip()
			src = data[start:r.pos]
		case "heap":
			return src, r.pos
		default:
			r.skip()
		}
	}
	tb.Fatalf("no heap section: %v", r.err)
	return nil, 0
}

// decodeSections reads the heap section at heapAt and the exec section after it into vm,
// the way Restore does.
func decodeSections(vm *VM, data []byte, heapAt int) error {
	r := &jsonReader{data: data, pos: heapAt}
	d := vm.newHeapDecoder()
	if err := d.readHeap(r); err != nil {
		return err
	}
	r.more(false)
	if r.key() != "exec" {
		r.fail("expected the exec section")
		return r.err
	}
	vm.readExec(d, r)
	d.release()
	return r.err
}

// BenchmarkRestoreNoLiveData restores mixedHeapProgram's format-2 snapshot with no live data:
// the fixed cost of a restore (a new realm, the program's lookup, the intrinsics the heap
// names, the global it adds, the VM).
func BenchmarkRestoreNoLiveData(b *testing.B) {
	data, err := mixedHeapVM(b, 0).snapshot(snapshotFormat2)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Restore(data, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

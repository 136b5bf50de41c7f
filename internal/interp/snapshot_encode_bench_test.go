package interp

import "testing"

// BenchmarkChangedIntrinsics measures the comparison of a realm's intrinsics with the
// reference realm's that every snapshot makes.
func BenchmarkChangedIntrinsics(b *testing.B) {
	vm := New(Config{})
	vm.realm.materializeAll() // every intrinsic, as the comparison measured it before lazy realms
	r, ref := vm.realm, referenceRealm()
	b.Run("by-id", func(b *testing.B) {
		var buf []bool
		for b.Loop() {
			buf = changedIntrinsics(r, ref, buf)
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			for iid := 1; iid < r.objs.len(); iid++ {
				o := r.objs.at(iid)
				refObj := ref.counterpart(r, o)
				_ = refObj == nil || !intrinsicUnchanged(r, o, ref, refObj)
			}
		}
	})
}

// BenchmarkObjectIDs measures giving ids to the objects of the benchmark's 10 MB heap, in
// the order a snapshot first meets them, with the encoder's table and with a Go map.
func BenchmarkObjectIDs(b *testing.B) {
	vm := mixedHeapVM(b, 16_400)
	e := vm.newHeapEncoder()
	e.w = &jsonWriter{}
	e.value(vm.Global())
	e.values(vm.exec.stack[:vm.exec.sp])
	for _, f := range vm.exec.frames {
		e.node(f)
	}
	for _, id := range vm.pendingHostPromises() {
		e.object(vm.exec.hostPromise[id])
	}
	if _, err := e.finish(); err != nil {
		b.Fatal(err)
	}
	objs := append([]*Object(nil), e.objQueue...)
	if len(objs) < 100_000 {
		b.Fatalf("%d objects, want the whole heap", len(objs))
	}
	b.Run("table", func(b *testing.B) {
		var t objectIDTable
		for b.Loop() {
			t.reset()
			for i, o := range objs {
				t.lookupOrAdd(o, i)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		m := make(map[*Object]int, len(objs))
		for b.Loop() {
			clear(m)
			for i, o := range objs {
				if _, ok := m[o]; !ok {
					m[o] = i
				}
			}
		}
	})
}

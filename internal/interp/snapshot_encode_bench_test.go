package interp

import "testing"

// BenchmarkChangedIntrinsics measures the comparison of a realm's intrinsics with the
// reference realm's that every snapshot makes.
func BenchmarkChangedIntrinsics(b *testing.B) {
	vm := New(Config{})
	r, ref := vm.realm, referenceRealm()
	b.Run("by-id", func(b *testing.B) {
		var buf []bool
		for b.Loop() {
			buf = changedIntrinsics(r, ref, buf)
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			for iid := 1; iid < len(r.objs); iid++ {
				o := r.objs[iid]
				refObj := ref.counterpart(r, o)
				_ = refObj == nil || !intrinsicUnchanged(r, o, ref, refObj)
			}
		}
	})
}

package interp

import "testing"

// BenchmarkNew measures New: a fresh VM with its realm cloned from the template (the fixed
// cost of every Restore).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if vm := New(Config{}); vm.realm == nil {
			b.Fatal("no realm")
		}
	}
}

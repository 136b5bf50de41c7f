package interp

import (
	"strconv"
	"testing"
)

// Benchmarks of the runtime's hot paths as the execution engine uses them.

func BenchmarkGetOwnProperty(b *testing.B) {
	vm := newTestVM(&testing.T{})
	o := objectFrom(vm, "x", 1, "y", 2, "z", 3)
	key := strKey("z")
	b.ReportAllocs()
	for b.Loop() {
		_ = vm.getFrom(o, key, objectValue(o))
	}
}

func BenchmarkGetInheritedMethod(b *testing.B) {
	vm := newTestVM(&testing.T{})
	arr := vm.newArray([]Value{Number(1)})
	key := strKey("hasOwnProperty")
	b.ReportAllocs()
	for b.Loop() {
		_ = vm.getFrom(arr, key, objectValue(arr))
	}
}

func BenchmarkGetManyProperties(b *testing.B) {
	vm := newTestVM(&testing.T{})
	o := vm.newPlainObject()
	for i := 0; i < 50; i++ {
		vm.createDataProperty(o, strKey("k"+strconv.Itoa(i)), intValue(i))
	}
	key := strKey("k37")
	b.ReportAllocs()
	for b.Loop() {
		_ = vm.getFrom(o, key, objectValue(o))
	}
}

func BenchmarkSetExistingProperty(b *testing.B) {
	vm := newTestVM(&testing.T{})
	o := objectFrom(vm, "x", 1, "y", 2)
	key := strKey("y")
	b.ReportAllocs()
	for b.Loop() {
		vm.setProp(o, key, Number(3))
	}
}

func BenchmarkCreateObjectWithThreeProperties(b *testing.B) {
	vm := newTestVM(&testing.T{})
	kx, ky, kz := strKey("x"), strKey("y"), strKey("z")
	b.ReportAllocs()
	for b.Loop() {
		o := vm.newPlainObject()
		vm.setOn(o, kx, Number(1), objectValue(o))
		vm.setOn(o, ky, Number(2), objectValue(o))
		vm.setOn(o, kz, Number(3), objectValue(o))
	}
}

func BenchmarkNumberToString(b *testing.B) {
	vm := newTestVM(&testing.T{})
	b.ReportAllocs()
	for b.Loop() {
		_ = vm.toString(Number(1234.5678))
	}
}

func BenchmarkRopeAppend1000(b *testing.B) {
	piece := newASCII("0123456789")
	b.ReportAllocs()
	for b.Loop() {
		s := emptyString
		for i := 0; i < 1000; i++ {
			s = concatStrings(s, piece)
		}
		_ = s.flat()
	}
}

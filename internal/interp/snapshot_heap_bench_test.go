package interp

import (
	"strconv"
	"testing"
)

// bigHeap builds n records {id, name, tags: [a, b], nested: {x, y}} under one array.
func bigHeap(vm *VM, n int) Value {
	elems := make([]Value, n)
	for i := range elems {
		o := objectFrom(vm, "id", i, "name", "record number "+strconv.Itoa(i))
		vm.createDataProperty(o, strKey("tags"), vm.newArrayValue([]Value{asciiValue("alpha"), asciiValue("beta")}))
		vm.createDataProperty(o, strKey("nested"), objectValue(objectFrom(vm, "x", Number(float64(i)*1.5), "y", nullValue)))
		elems[i] = objectValue(o)
	}
	return vm.newArrayValue(elems)
}

func benchmarkSnapshotHeap(b *testing.B, n int) {
	vm := &VM{}
	vm.initRuntime()
	root := bigHeap(vm, n)
	var data []byte
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			e := vm.newHeapEncoder()
			w := &jsonWriter{}
			e.w = w
			e.value(root)
			heap, err := e.finish()
			if err != nil {
				b.Fatal(err)
			}
			data = heap
			b.SetBytes(int64(len(heap)))
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			vm2 := &VM{}
			vm2.initRuntime()
			d := vm2.newHeapDecoder()
			if err := d.readHeap(&jsonReader{data: data}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkSnapshotHeap1MB(b *testing.B)  { benchmarkSnapshotHeap(b, 8_000) }
func BenchmarkSnapshotHeap10MB(b *testing.B) { benchmarkSnapshotHeap(b, 80_000) }

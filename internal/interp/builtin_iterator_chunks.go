package interp

import "math"

// Iterator.prototype.chunks(chunkSize) and Iterator.prototype.windows(windowSize,
// undersized) from the iterator chunking proposal: lazy helpers that group the values of
// the underlying iterator into fresh arrays.
//
// Both are Iterator Helper objects (%IteratorHelperPrototype%) whose state is an
// iteratorHelper with method "chunks" or "windows": limit holds the size, items the values
// buffered so far (so a helper suspended mid-chunk survives a snapshot with its buffer), and
// for windows counter is 1 when undersized is "allow-partial".

// maxChunkSize is the largest chunk or window size the proposal accepts (2^32 - 1).
const maxChunkSize = 1<<32 - 1

// windowsAllowPartial is the counter value of a windows helper created with undersized
// "allow-partial"; 0 means "only-full".
const windowsAllowPartial = 1

// groupSize validates the size argument of chunks and windows without coercing it: a
// TypeError unless it is an integral Number, a RangeError unless it is in [1, 2^32-1]. On
// failure the receiver is closed first (errors from closing are dropped).
func (vm *VM) groupSize(o *Object, v Value, what string) float64 {
	it := &Iterator{Obj: objectValue(o)}
	if v.kind != KindNumber {
		vm.closeAndThrow(it, vm.newTypeError("%s must be a number, got %s", what, vm.describeForError(v)))
	}
	n := v.num
	if math.IsNaN(n) || math.IsInf(n, 0) || n != math.Trunc(n) {
		vm.closeAndThrow(it, vm.newTypeError("%s must be an integer, got %s", what, v.String()))
	}
	if n < 1 || n > maxChunkSize {
		vm.closeAndThrow(it, vm.newRangeError("%s must be between 1 and 4294967295, got %s", what, v.String()))
	}
	return n
}

// iteratorChunks is Iterator.prototype.chunks(chunkSize).
func iteratorChunks(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "chunks")
	size := vm.groupSize(o, c.Arg(0), "chunkSize")
	return vm.newIteratorHelper(o, "chunks", undefinedValue, size)
}

// iteratorWindows is Iterator.prototype.windows(windowSize, undersized); undersized is
// "only-full" (the default: no window shorter than windowSize) or "allow-partial" (an
// iterator shorter than windowSize yields one short window).
func iteratorWindows(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "windows")
	size := vm.groupSize(o, c.Arg(0), "windowSize")
	mode := int64(0)
	switch u := c.Arg(1); {
	case u.IsUndefined():
	case u.kind == KindString && u.str().String() == "only-full":
	case u.kind == KindString && u.str().String() == "allow-partial":
		mode = windowsAllowPartial
	default:
		it := &Iterator{Obj: objectValue(o)}
		vm.closeAndThrow(it, vm.newTypeError("undersized must be \"only-full\" or \"allow-partial\", got %s", vm.describeForError(u)))
	}
	h := vm.newIteratorHelper(o, "windows", undefinedValue, size)
	h.obj().slots.(*iteratorHelper).counter = mode
	return h
}

// chunksStep produces the next chunk: chunkSize values, or the last values left when the
// underlying iterator ends part-way through a chunk.
func (vm *VM) chunksStep(h *iteratorHelper) (Value, bool) {
	size := int(h.limit)
	for {
		v, ok := vm.iteratorStep(h.under)
		if !ok {
			if len(h.items) == 0 {
				return undefinedValue, false
			}
			out := h.items
			h.items = nil
			return vm.newArrayValue(out), true
		}
		h.items = append(h.items, v)
		if len(h.items) == size {
			out := h.items
			h.items = nil
			return vm.newArrayValue(out), true
		}
	}
}

// windowsStep produces the next sliding window: the last windowSize values, each in a fresh
// array. With "allow-partial", an underlying iterator that ends before the first window is
// full yields what it had as one short window.
func (vm *VM) windowsStep(h *iteratorHelper) (Value, bool) {
	size := int(h.limit)
	for {
		v, ok := vm.iteratorStep(h.under)
		if !ok {
			n := len(h.items)
			if h.counter == windowsAllowPartial && n > 0 && n < size {
				out := h.items
				h.items = nil
				return vm.newArrayValue(out), true
			}
			h.items = nil
			return undefinedValue, false
		}
		if len(h.items) == size {
			copy(h.items, h.items[1:])
			h.items = h.items[:size-1]
		}
		h.items = append(h.items, v)
		if len(h.items) == size {
			return vm.newArrayValue(append([]Value(nil), h.items...)), true
		}
	}
}

package interp

import "math"

// Element access for the Array built-ins: the generic operations (HasProperty, Get, Set,
// DeletePropertyOrThrow, CreateDataPropertyOrThrow on integer indices) with fast paths for
// dense storage, and the predicates that tell when an array may be handled directly as a
// Go slice (plainDense, cleanArray, freshArray) or visited by its present elements only
// (sparseIndices).

// thisArrayObject is ToObject(this) with V8's message for null and undefined.
func thisArrayObject(vm *VM, c *NativeCall, method string) *Object {
	if c.This.IsNullish() {
		vm.throwTypeError("Array.prototype.%s called on null or undefined", method)
	}
	return vm.toObject(c.This)
}

// relativeIndex resolves a relative index argument (negative counts from the end) clamped
// to [0, n]; undefined gives def.
func (vm *VM) relativeIndex(v Value, n int64, def int64) int64 {
	if v.IsUndefined() {
		return def
	}
	f := vm.toIntegerOrInfinity(v)
	if f < 0 {
		f += float64(n)
		if f < 0 {
			return 0
		}
		return int64(f)
	}
	if f > float64(n) {
		return n
	}
	return int64(f)
}

// pollLoop lets a long loop of a native over indices (array-likes may claim a length up to
// 2^53-1) be bounded: every 4096 indices it enforces the memory limit (what the loop built
// so far is charged as it goes; a result under construction must be pinned to be measured),
// and every 65536 indices it checks the run's interrupt flag (deadline or cancellation) and
// aborts the run.
func (vm *VM) pollLoop(k int64) {
	if k&0xFFF == 0 {
		vm.pollBounds(k)
	}
}

// pollBounds is the rarely taken part of pollLoop.
func (vm *VM) pollBounds(k int64) {
	if vm.maxMemory > 0 && vm.allocated > vm.maxMemory {
		vm.checkMemory()
	}
	if k&0xFFFF == 0 && vm.checkInterrupt() {
		panic(&abortSignal{err: errTimeLimit()})
	}
}

// getPresent returns element i of o and whether it exists (HasProperty then Get).
func (vm *VM) getPresent(o *Object, i int64) (Value, bool) {
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		return o.elems[i], true
	}
	k := vm.indexToKey(i)
	if !vm.hasProperty(o, k) {
		return undefinedValue, false
	}
	return vm.getProp(o, k), true
}

// setIndex is Set(o, i, v, true).
func (vm *VM) setIndex(o *Object, i int64, v Value) {
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		o.elems[i] = v
		return
	}
	vm.setProp(o, vm.indexToKey(i), v)
}

// deleteIndex is DeletePropertyOrThrow(o, i).
func (vm *VM) deleteIndex(o *Object, i int64) {
	vm.deletePropertyOrThrow(o, vm.indexToKey(i))
}

// createIndex is CreateDataPropertyOrThrow(o, i, v), appending directly to dense storage
// when possible.
func (vm *VM) createIndex(o *Object, i int64, v Value) {
	if o.class == ClassArray && i == int64(len(o.elems)) && i >= int64(o.length) &&
		o.flags&objLengthReadOnly == 0 && o.extensible() && i < maxDenseLength {
		vm.reserveElems(o, 1)
		o.elems = append(o.elems, v)
		o.length = uint32(i + 1)
		return
	}
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		o.elems[i] = v
		return
	}
	vm.createDataPropertyOrThrow(o, vm.indexToKey(i), v)
}

// setLength is Set(o, "length", n, true).
func (vm *VM) setLength(o *Object, n int64) {
	if o.class == ClassArray && n >= 0 && n <= math.MaxUint32 && o.flags&objLengthReadOnly == 0 {
		if !o.setArrayLength(uint32(n)) {
			vm.throwTypeError("Cannot delete property '%d' of %s", o.length-1, vm.describeObject(objectValue(o)))
		}
		return
	}
	vm.setProp(o, keyLength, Number(float64(n)))
}

// hasIndexKeys reports whether o has an own index-keyed property in its property map.
func hasIndexKeys(o *Object) bool {
	for _, k := range o.props.keys {
		// an array index starts with a digit: most keys are rejected by their first byte
		if k.sym != nil || k.name == "" || k.name[0] > '9' || k.name[0] < '0' {
			continue
		}
		if _, ok := k.arrayIndex(); ok {
			return true
		}
	}
	return false
}

// plainDense reports whether o is an array whose elements all live in dense storage
// (len(elems) == length, holes allowed), that is extensible with a writable length, and whose
// prototype chain is the untouched Array.prototype → Object.prototype without indexed
// properties. For such an array a hole means "absent" everywhere and elements can be moved
// with Go slice operations without observable differences.
func (vm *VM) plainDense(o *Object) bool {
	if o.class != ClassArray || int64(len(o.elems)) != int64(o.length) ||
		o.flags&objLengthReadOnly != 0 || !o.extensible() {
		return false
	}
	ap := vm.realm.ArrayPrototype
	if o.proto != ap || ap.length != 0 || ap.proto != vm.realm.ObjectPrototype {
		return false
	}
	op := vm.realm.ObjectPrototype
	if op.proto != nil || hasIndexKeys(op) {
		return false
	}
	return len(o.props.keys) == 0 || !hasIndexKeys(o)
}

// cleanArray reports whether o is an extensible array with a writable length, no element
// in its property map and the untouched prototype chain of plainDense: every index of it
// is either a plain element of dense storage or absent (a hole or beyond the storage).
func (vm *VM) cleanArray(o *Object) bool {
	if o.class != ClassArray || o.flags&objLengthReadOnly != 0 || !o.extensible() {
		return false
	}
	ap := vm.realm.ArrayPrototype
	if o.proto != ap || ap.length != 0 || ap.proto != vm.realm.ObjectPrototype ||
		hasIndexKeys(vm.realm.ObjectPrototype) {
		return false
	}
	return len(o.props.keys) == 0 || !hasIndexKeys(o)
}

// freshArray reports whether a is an array just made by ArrayCreate (for filling its dense
// storage directly).
func (vm *VM) freshArray(a *Object) bool {
	return a.class == ClassArray && len(a.elems) == 0 && a.props.len() == 0 &&
		a.proto == vm.realm.ArrayPrototype && a.extensible() && a.flags&objLengthReadOnly == 0
}

// chargeElems charges n element slots of array storage to the heap budget, before the
// caller allocates them: when the counter passes the memory limit, the live heap plus these
// slots is measured at once (a block of up to maxDenseLength slots must not wait for the
// dispatch loop's next look).
func (vm *VM) chargeElems(n int) { vm.chargeAhead(int64(n) * valueSize) }

// freshArrayTail reports whether a is a plain dense array made by this method whose storage
// ends exactly at n (so elements can be appended with a slice copy).
func (vm *VM) freshArrayTail(a *Object, n int64) bool {
	return a.class == ClassArray && int64(len(a.elems)) == n && int64(a.length) == n &&
		a.proto == vm.realm.ArrayPrototype && a.extensible() && a.flags&objLengthReadOnly == 0 &&
		!hasIndexKeys(a)
}

// sparseIndices returns, for a sparse array (length much larger than the elements it holds)
// whose prototype chain has no indexed properties, the ascending indices below n of its own
// elements. ok is false when the array is not such a sparse array: the caller then visits
// every index.
func (vm *VM) sparseIndices(o *Object, n int64) ([]int64, bool) {
	if o.class != ClassArray || n < 4096 || int64(len(o.elems))+int64(o.props.len()) > n/4 {
		return nil, false
	}
	ap := vm.realm.ArrayPrototype
	if o.proto != ap || ap.length != 0 || ap.proto != vm.realm.ObjectPrototype || hasIndexKeys(vm.realm.ObjectPrototype) {
		return nil, false
	}
	var out []int64
	for _, k := range o.ownKeys() {
		if idx, ok := k.arrayIndex(); ok && int64(idx) < n {
			out = append(out, int64(idx))
		}
	}
	return out, true
}

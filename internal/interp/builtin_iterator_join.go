package interp

import "math"

// Iterator.prototype.includes(searchElement, skippedElements) and
// Iterator.prototype.join(separator): eager helpers that consume the receiver.

// iteratorIncludes is Iterator.prototype.includes(searchElement, skippedElements): whether a
// value SameValueZero to searchElement follows the first skippedElements values (default
// 0; ±Infinity allowed, never coerced). A match closes the iterator.
func iteratorIncludes(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "includes")
	toSkip := 0.0
	if s := c.Arg(1); !s.IsUndefined() {
		it := &Iterator{Obj: objectValue(o)}
		if s.kind != KindNumber || math.IsNaN(s.num) || (!math.IsInf(s.num, 0) && s.num != math.Trunc(s.num)) {
			vm.closeAndThrow(it, vm.newTypeError("skippedElements must be an integer or Infinity, got %s", vm.describeForError(s)))
		}
		toSkip = s.num
		if toSkip < 0 {
			vm.closeAndThrow(it, vm.newRangeError("skippedElements must not be negative, got %s", s.String()))
		}
		if !math.IsInf(toSkip, 0) && toSkip > maxSafeInteger {
			vm.closeAndThrow(it, vm.newRangeError("skippedElements must be at most 2^53-1, got %s", s.String()))
		}
	}
	search := c.Arg(0)
	it := vm.getIteratorDirect(o)
	for skipped := 0.0; ; {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return falseValue
		}
		if skipped < toSkip {
			skipped++
			continue
		}
		if SameValueZero(v, search) {
			vm.iteratorClose(it, false)
			return trueValue
		}
	}
}

// iteratorJoin is Iterator.prototype.join(separator): the values as strings joined by
// separator ("," when undefined); null and undefined give "". The separator is converted
// before next is read; a failed conversion of the separator or of a value closes the
// iterator, a failing next() does not.
func iteratorJoin(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "join")
	sep := commaString
	if s := c.Arg(0); !s.IsUndefined() {
		sep = vm.toStringClosing(&Iterator{Obj: objectValue(o)}, s)
	}
	it := vm.getIteratorDirect(o)
	var b stringBuilder
	total := 0
	for first := true; ; first = false {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return stringValue(b.string())
		}
		var s *jsString
		if !v.IsNullish() {
			s = vm.toStringClosing(it, v)
		}
		if !first {
			total += sep.Len()
		}
		if s != nil {
			total += s.Len()
		}
		if total > maxJoinLength {
			vm.closeAndThrow(it, vm.newRangeError("Invalid string length"))
		}
		if !first {
			b.writeString(sep)
		}
		if s != nil {
			b.writeString(s)
		}
	}
}

// toStringClosing is ToString(v) that closes it (dropping errors from closing) and rethrows
// when the conversion throws.
func (vm *VM) toStringClosing(it *Iterator, v Value) (s *jsString) {
	if v.kind == KindString {
		return v.str()
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Exception); ok {
				vm.iteratorClose(it, true)
			}
			panic(r)
		}
	}()
	return vm.toString(v)
}

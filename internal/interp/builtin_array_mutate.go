package interp

// The Array.prototype methods that add and remove elements: pop, push, shift, unshift,
// slice and splice. On plain dense arrays they work on the storage slice directly.

// arrayPop is Array.prototype.pop.
func arrayPop(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "pop")
	if vm.plainDense(o) {
		n := len(o.elems)
		if n == 0 {
			return undefinedValue
		}
		v := o.elems[n-1]
		o.elems[n-1] = Value{}
		o.elems = o.elems[:n-1]
		o.length--
		if v.isHole() {
			return undefinedValue
		}
		return v
	}
	n := vm.lengthOfArrayLike(o)
	if n == 0 {
		vm.setLength(o, 0)
		return undefinedValue
	}
	v := vm.getIndex(o, n-1)
	vm.deleteIndex(o, n-1)
	vm.setLength(o, n-1)
	return v
}

// checkArrayGrowth throws the RangeError of the array length cap before a generic method
// grows array o from length n to newLen past maxArrayLength. Checked up front because the
// elements are written before the length: a sparse write past the cap would otherwise carry
// the length along with it.
func (vm *VM) checkArrayGrowth(o *Object, n, newLen int64) {
	if o.class == ClassArray && newLen > n && newLen > maxArrayLength {
		vm.throwRangeError("Invalid array length")
	}
}

// arrayPush is Array.prototype.push(...items).
func arrayPush(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "push")
	if vm.plainDense(o) {
		if len(o.elems)+len(c.Args) > maxDenseLength {
			vm.throwRangeError("Invalid array length")
		}
		vm.reserveElems(o, len(c.Args))
		o.elems = append(o.elems, c.Args...)
		o.length = uint32(len(o.elems))
		return intValue(len(o.elems))
	}
	n := vm.lengthOfArrayLike(o)
	if n+int64(len(c.Args)) > maxArrayLikeLength {
		vm.throwTypeError("Pushing %d elements on an array-like of length %d is disallowed, as the total surpasses 2**53-1", len(c.Args), n)
	}
	vm.checkArrayGrowth(o, n, n+int64(len(c.Args)))
	for _, v := range c.Args {
		vm.setIndex(o, n, v)
		n++
	}
	vm.setLength(o, n)
	return Number(float64(n))
}

// arrayShift is Array.prototype.shift.
func arrayShift(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "shift")
	if vm.plainDense(o) {
		if len(o.elems) == 0 {
			return undefinedValue
		}
		v := o.elems[0]
		o.elems[0] = Value{}
		o.elems = o.elems[1:]
		o.length--
		if v.isHole() {
			return undefinedValue
		}
		return v
	}
	n := vm.lengthOfArrayLike(o)
	if n == 0 {
		vm.setLength(o, 0)
		return undefinedValue
	}
	first := vm.getIndex(o, 0)
	for k := int64(1); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok {
			vm.setIndex(o, k-1, v)
		} else {
			vm.deleteIndex(o, k-1)
		}
	}
	vm.deleteIndex(o, n-1)
	vm.setLength(o, n-1)
	return first
}

// arrayUnshift is Array.prototype.unshift(...items).
func arrayUnshift(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "unshift")
	argc := int64(len(c.Args))
	if vm.plainDense(o) {
		if len(o.elems)+len(c.Args) > maxDenseLength {
			vm.throwRangeError("Invalid array length")
		}
		elems := make([]Value, len(o.elems)+len(c.Args))
		copy(elems, c.Args)
		copy(elems[len(c.Args):], o.elems)
		vm.chargeElems(len(elems))
		o.elems = elems
		o.length = uint32(len(elems))
		return intValue(len(elems))
	}
	n := vm.lengthOfArrayLike(o)
	if argc > 0 {
		if n+argc > maxArrayLikeLength {
			vm.throwTypeError("Invalid array length")
		}
		vm.checkArrayGrowth(o, n, n+argc)
		for k := n; k > 0; k-- {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(o, k-1); ok {
				vm.setIndex(o, k+argc-1, v)
			} else {
				vm.deleteIndex(o, k+argc-1)
			}
		}
		for j, v := range c.Args {
			vm.setIndex(o, int64(j), v)
		}
	}
	vm.setLength(o, n+argc)
	return Number(float64(n + argc))
}

// arraySlice is Array.prototype.slice(start, end).
func arraySlice(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "slice")
	n := vm.lengthOfArrayLike(o)
	k := vm.relativeIndex(c.Arg(0), n, 0)
	final := vm.relativeIndex(c.Arg(1), n, n)
	count := max(final-k, 0)
	a := vm.arraySpeciesCreate(o, count)
	if vm.plainDense(o) && int64(len(o.elems)) == n && vm.freshArray(a) && int64(a.length) == count {
		vm.chargeElems(int(count))
		a.elems = append([]Value(nil), o.elems[k:k+count]...)
		return objectValue(a)
	}
	defer vm.unpin(vm.pin(a))
	if idx, ok := vm.sparseIndices(o, n); ok {
		for _, i := range idx {
			if i >= k && i < final {
				vm.createIndex(a, i-k, vm.getIndex(o, i))
			}
		}
	} else {
		for i := int64(0); k < final; k, i = k+1, i+1 {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(o, k); ok {
				vm.createIndex(a, i, v)
			}
		}
	}
	vm.setLength(a, count)
	return objectValue(a)
}

// spliceCounts resolves the start and delete count arguments of splice/toSpliced.
func (vm *VM) spliceCounts(c *NativeCall, n int64) (start, del int64) {
	start = vm.relativeIndex(c.Arg(0), n, 0)
	switch len(c.Args) {
	case 0:
		del = 0
	case 1:
		del = n - start
	default:
		f := vm.toIntegerOrInfinity(c.Args[1])
		del = int64(min(max(f, 0), float64(n-start)))
	}
	return start, del
}

// arraySplice is Array.prototype.splice(start, deleteCount, ...items).
func arraySplice(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "splice")
	n := vm.lengthOfArrayLike(o)
	start, del := vm.spliceCounts(&c, n)
	var items []Value
	if len(c.Args) > 2 {
		items = c.Args[2:]
	}
	itemCount := int64(len(items))
	if n+itemCount-del > maxArrayLikeLength {
		vm.throwTypeError("Invalid array length")
	}
	vm.checkArrayGrowth(o, n, n+itemCount-del)
	a := vm.arraySpeciesCreate(o, del)
	if vm.plainDense(o) && int64(len(o.elems)) == n && vm.freshArray(a) && int64(a.length) == del {
		if n+itemCount-del > maxDenseLength {
			vm.throwRangeError("Invalid array length")
		}
		vm.chargeElems(int(del))
		a.elems = append([]Value(nil), o.elems[start:start+del]...)
		tail := o.elems[start+del:]
		newLen := n + itemCount - del
		elems := o.elems
		if itemCount > del {
			elems = make([]Value, newLen)
			vm.chargeElems(int(newLen))
			copy(elems, o.elems[:start])
		}
		copy(elems[start+itemCount:], tail)
		copy(elems[start:], items)
		clear(elems[newLen:])
		o.elems = elems[:newLen]
		o.length = uint32(newLen)
		return objectValue(a)
	}
	defer vm.unpin(vm.pin(a))
	for k := int64(0); k < del; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, start+k); ok {
			vm.createIndex(a, k, v)
		}
	}
	vm.setLength(a, del)
	switch {
	case itemCount < del:
		for k := start; k < n-del; k++ {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(o, k+del); ok {
				vm.setIndex(o, k+itemCount, v)
			} else {
				vm.deleteIndex(o, k+itemCount)
			}
		}
		for k := n; k > n-del+itemCount; k-- {
			vm.pollLoop(k)
			vm.deleteIndex(o, k-1)
		}
	case itemCount > del:
		for k := n - del; k > start; k-- {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(o, k+del-1); ok {
				vm.setIndex(o, k+itemCount-1, v)
			} else {
				vm.deleteIndex(o, k+itemCount-1)
			}
		}
	}
	for j, v := range items {
		vm.setIndex(o, start+int64(j), v)
	}
	vm.setLength(o, n-del+itemCount)
	return objectValue(a)
}

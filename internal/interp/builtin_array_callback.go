package interp

// The Array.prototype methods that call a callback for each element: forEach, map, filter,
// some, every, find, findIndex, findLast, findLastIndex, reduce, reduceRight, flat and
// flatMap. Each reads the length once, then visits indices in order; an element deleted by
// the callback before it is reached is skipped (HasProperty), an element appended is not
// visited. Dense arrays are read straight from their storage, re-checked at every step
// because the callback may change the array.

// callbackArg checks that the callback argument is callable (V8: "x is not a function").
func (vm *VM) callbackArg(c *NativeCall) Value {
	fn := c.Arg(0)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", describeNonCallable(fn))
	}
	return fn
}

// describeNonCallable renders a callback argument that is not callable as V8 does in
// "x is not a function": strings as their text, objects as #<Class>.
func describeNonCallable(v Value) string {
	switch v.kind {
	case KindString:
		return v.str().String()
	case KindObject:
		return "#<" + v.obj().className() + ">"
	}
	return v.String()
}

// callback calls one callable many times with a reused argument buffer (callees copy their
// arguments: natives must not keep them and closures copy them into their frame).
type callback struct {
	fn   *Object
	this Value
	args [4]Value
}

// newCallback prepares calls of fn (already checked callable) with this value this.
func newCallback(fn, this Value) *callback { return &callback{fn: fn.obj(), this: this} }

// call3 calls the callback with (a, b, c).
func (cb *callback) call3(vm *VM, a, b, c Value) Value {
	cb.args[0], cb.args[1], cb.args[2] = a, b, c
	return vm.callObject(cb.fn, cb.this, cb.args[:3], nil)
}

// call4 calls the callback with (a, b, c, d).
func (cb *callback) call4(vm *VM, a, b, c, d Value) Value {
	cb.args[0], cb.args[1], cb.args[2], cb.args[3] = a, b, c, d
	return vm.callObject(cb.fn, cb.this, cb.args[:4], nil)
}

// call2 calls the callback with (a, b).
func (cb *callback) call2(vm *VM, a, b Value) Value {
	cb.args[0], cb.args[1] = a, b
	return vm.callObject(cb.fn, cb.this, cb.args[:2], nil)
}

// arrayForEach is Array.prototype.forEach(fn, thisArg).
func arrayForEach(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "forEach")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	ov := objectValue(o)
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok {
			cb.call3(vm, v, Number(float64(k)), ov)
		}
	}
	return undefinedValue
}

// arrayMap is Array.prototype.map(fn, thisArg).
func arrayMap(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "map")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	a := vm.arraySpeciesCreate(o, n)
	ov := objectValue(o)
	if vm.freshArray(a) && n <= maxDenseLength {
		// a is not reachable by the callback: fill its dense storage directly (holes stay holes)
		vm.chargeElems(int(n))
		a.elems = make([]Value, 0, n)
		defer vm.unpin(vm.pin(a))
		for k := int64(0); k < n; k++ {
			vm.pollLoop(k)
			v, ok := vm.getPresent(o, k)
			if !ok {
				a.elems = append(a.elems, holeValue)
				continue
			}
			a.elems = append(a.elems, cb.call3(vm, v, Number(float64(k)), ov))
		}
		trimTrailingHoles(a)
		return objectValue(a)
	}
	defer vm.unpin(vm.pin(a))
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok {
			vm.createIndex(a, k, cb.call3(vm, v, Number(float64(k)), ov))
		}
	}
	return objectValue(a)
}

// trimTrailingHoles drops holes at the end of an array's dense storage (length is kept), so
// that storage never ends with a hole appended as a placeholder.
func trimTrailingHoles(a *Object) {
	n := len(a.elems)
	for n > 0 && a.elems[n-1].isHole() {
		n--
	}
	a.elems = a.elems[:n]
}

// arrayFilter is Array.prototype.filter(fn, thisArg).
func arrayFilter(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "filter")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	a := vm.arraySpeciesCreate(o, 0)
	defer vm.unpin(vm.pin(a))
	ov := objectValue(o)
	to := int64(0)
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok {
			if ToBoolean(cb.call3(vm, v, Number(float64(k)), ov)) {
				vm.createIndex(a, to, v)
				to++
			}
		}
	}
	return objectValue(a)
}

// arraySome is Array.prototype.some(fn, thisArg).
func arraySome(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "some")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	ov := objectValue(o)
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok && ToBoolean(cb.call3(vm, v, Number(float64(k)), ov)) {
			return trueValue
		}
	}
	return falseValue
}

// arrayEvery is Array.prototype.every(fn, thisArg).
func arrayEvery(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "every")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	ov := objectValue(o)
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok && !ToBoolean(cb.call3(vm, v, Number(float64(k)), ov)) {
			return falseValue
		}
	}
	return trueValue
}

// findIn runs the find family: visits every index (holes read as undefined) forwards or
// backwards and returns the first element and index where the predicate holds.
func (vm *VM) findIn(c *NativeCall, method string, backwards bool) (Value, int64) {
	o := thisArrayObject(vm, c, method)
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(c), c.Arg(1))
	ov := objectValue(o)
	for i := int64(0); i < n; i++ {
		vm.pollLoop(i)
		k := i
		if backwards {
			k = n - 1 - i
		}
		v := vm.getIndex(o, k)
		if ToBoolean(cb.call3(vm, v, Number(float64(k)), ov)) {
			return v, k
		}
	}
	return undefinedValue, -1
}

// arrayFind is Array.prototype.find.
func arrayFind(vm *VM, c NativeCall) Value {
	v, _ := vm.findIn(&c, "find", false)
	return v
}

// arrayFindIndex is Array.prototype.findIndex.
func arrayFindIndex(vm *VM, c NativeCall) Value {
	_, k := vm.findIn(&c, "findIndex", false)
	return Number(float64(k))
}

// arrayFindLast is Array.prototype.findLast.
func arrayFindLast(vm *VM, c NativeCall) Value {
	v, _ := vm.findIn(&c, "findLast", true)
	return v
}

// arrayFindLastIndex is Array.prototype.findLastIndex.
func arrayFindLastIndex(vm *VM, c NativeCall) Value {
	_, k := vm.findIn(&c, "findLastIndex", true)
	return Number(float64(k))
}

// reduceIn runs reduce (forwards) or reduceRight (backwards).
func (vm *VM) reduceIn(c *NativeCall, method string, backwards bool) Value {
	o := thisArrayObject(vm, c, method)
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(c), undefinedValue)
	ov := objectValue(o)
	k, step, end := int64(0), int64(1), n
	if backwards {
		k, step, end = n-1, -1, -1
	}
	var acc Value
	if len(c.Args) >= 2 {
		acc = c.Args[1]
	} else {
		found := false
		for ; k != end; k += step {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(o, k); ok {
				acc, found = v, true
				k += step
				break
			}
		}
		if !found {
			vm.throwTypeError("Reduce of empty array with no initial value")
		}
	}
	for ; k != end; k += step {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok {
			acc = cb.call4(vm, acc, v, Number(float64(k)), ov)
		}
	}
	return acc
}

// arrayReduce is Array.prototype.reduce(fn, initial).
func arrayReduce(vm *VM, c NativeCall) Value { return vm.reduceIn(&c, "reduce", false) }

// arrayReduceRight is Array.prototype.reduceRight(fn, initial).
func arrayReduceRight(vm *VM, c NativeCall) Value { return vm.reduceIn(&c, "reduceRight", true) }

// maxFlattenDepth bounds the recursion of flat with an infinite depth: nesting deeper than
// this is a RangeError like a stack overflow.
const maxFlattenDepth = 1000

// flattenInto is FlattenIntoArray: copies the elements of source (length n) into target from
// index start, flattening nested arrays down to depth levels, mapping first when cb is not
// nil (flatMap). It returns the next target index.
func (vm *VM) flattenInto(target, source *Object, n, start int64, depth float64, cb *callback, level int) int64 {
	if level > maxFlattenDepth {
		vm.throwRangeError("Maximum call stack size exceeded")
	}
	ov := objectValue(source)
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		v, ok := vm.getPresent(source, k)
		if !ok {
			continue
		}
		if cb != nil {
			v = cb.call3(vm, v, Number(float64(k)), ov)
		}
		if depth > 0 && vm.isArray(v) {
			e := v.obj()
			start = vm.flattenInto(target, e, vm.lengthOfArrayLike(e), start, depth-1, nil, level+1)
			continue
		}
		if start >= maxArrayLikeLength {
			vm.throwTypeError("Invalid array length")
		}
		vm.createIndex(target, start, v)
		start++
	}
	return start
}

// arrayFlat is Array.prototype.flat(depth = 1).
func arrayFlat(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "flat")
	n := vm.lengthOfArrayLike(o)
	depth := 1.0
	if d := c.Arg(0); !d.IsUndefined() {
		depth = vm.toIntegerOrInfinity(d)
		if depth < 0 {
			depth = 0
		}
	}
	a := vm.arraySpeciesCreate(o, 0)
	defer vm.unpin(vm.pin(a))
	vm.flattenInto(a, o, n, 0, depth, nil, 0)
	return objectValue(a)
}

// arrayFlatMap is Array.prototype.flatMap(fn, thisArg).
func arrayFlatMap(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "flatMap")
	n := vm.lengthOfArrayLike(o)
	cb := newCallback(vm.callbackArg(&c), c.Arg(1))
	a := vm.arraySpeciesCreate(o, 0)
	defer vm.unpin(vm.pin(a))
	vm.flattenInto(a, o, n, 0, 1, cb, 0)
	return objectValue(a)
}

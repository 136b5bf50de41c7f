package interp

// %TypedArray%.prototype: the accessors (buffer, byteLength, byteOffset, length,
// @@toStringTag) and the methods. Each method validates its this value (a typed array inside
// its buffer) and reads elements through typedArrayGet, which gives undefined for an index
// that a callback made invalid by shrinking or detaching the buffer, as the spec's Get does.

import (
	"math"
	"slices"
)

func setupTypedArrayPrototype(r *Realm, proto *Object) {
	r.getter(proto, strKey("buffer"), func(vm *VM, c NativeCall) Value {
		_, t := vm.thisTypedArray(c.This)
		return objectValue(t.buffer)
	})
	r.getter(proto, strKey("byteLength"), func(vm *VM, c NativeCall) Value {
		_, t := vm.thisTypedArray(c.This)
		return intValue(t.byteLength())
	})
	r.getter(proto, strKey("byteOffset"), func(vm *VM, c NativeCall) Value {
		_, t := vm.thisTypedArray(c.This)
		if _, ok := t.length(); !ok {
			return intValue(0)
		}
		return intValue(t.offset)
	})
	r.getter(proto, strKey("length"), func(vm *VM, c NativeCall) Value {
		_, t := vm.thisTypedArray(c.This)
		n, _ := t.length()
		return intValue(n)
	})
	r.getter(proto, symKey(symToStringTag), func(vm *VM, c NativeCall) Value {
		if o := c.This.asObject(); o != nil && o.class == ClassTypedArray {
			return asciiValue(o.slots.(*typedArray).elem().name)
		}
		return undefinedValue
	})
	r.method(proto, "at", 1, taAt)
	r.method(proto, "copyWithin", 2, taCopyWithin)
	r.method(proto, "entries", 0, func(vm *VM, c NativeCall) Value {
		o, _, _ := vm.validateTypedArray(c.This, "%TypedArray%.prototype.entries")
		return vm.newArrayIterator(objectValue(o), iterEntries)
	})
	r.method(proto, "every", 1, func(vm *VM, c NativeCall) Value {
		return taIterate(vm, c, "every", func(v, r Value, k int) (Value, bool) {
			if !ToBoolean(r) {
				return falseValue, true
			}
			return trueValue, false
		}, trueValue)
	})
	r.method(proto, "fill", 1, taFill)
	r.method(proto, "filter", 1, taFilter)
	r.method(proto, "find", 1, func(vm *VM, c NativeCall) Value {
		return taIterate(vm, c, "find", func(v, r Value, k int) (Value, bool) { return v, ToBoolean(r) }, undefinedValue)
	})
	r.method(proto, "findIndex", 1, func(vm *VM, c NativeCall) Value {
		return taIterate(vm, c, "findIndex", func(v, r Value, k int) (Value, bool) { return intValue(k), ToBoolean(r) }, intValue(-1))
	})
	r.method(proto, "findLast", 1, func(vm *VM, c NativeCall) Value {
		return taIterateBack(vm, c, "findLast", func(v Value, k int) Value { return v }, undefinedValue)
	})
	r.method(proto, "findLastIndex", 1, func(vm *VM, c NativeCall) Value {
		return taIterateBack(vm, c, "findLastIndex", func(v Value, k int) Value { return intValue(k) }, intValue(-1))
	})
	r.method(proto, "forEach", 1, func(vm *VM, c NativeCall) Value {
		return taIterate(vm, c, "forEach", func(v, r Value, k int) (Value, bool) { return undefinedValue, false }, undefinedValue)
	})
	r.method(proto, "includes", 1, taIncludes)
	r.method(proto, "indexOf", 1, taIndexOf)
	r.method(proto, "join", 1, taJoin)
	r.method(proto, "keys", 0, func(vm *VM, c NativeCall) Value {
		o, _, _ := vm.validateTypedArray(c.This, "%TypedArray%.prototype.keys")
		return vm.newArrayIterator(objectValue(o), iterKeys)
	})
	r.method(proto, "lastIndexOf", 1, taLastIndexOf)
	r.method(proto, "map", 1, taMap)
	r.method(proto, "reduce", 1, func(vm *VM, c NativeCall) Value { return taReduce(vm, c, false) })
	r.method(proto, "reduceRight", 1, func(vm *VM, c NativeCall) Value { return taReduce(vm, c, true) })
	r.method(proto, "reverse", 0, taReverse)
	r.method(proto, "set", 1, taSet)
	r.method(proto, "slice", 2, taSlice)
	r.method(proto, "some", 1, func(vm *VM, c NativeCall) Value {
		return taIterate(vm, c, "some", func(v, r Value, k int) (Value, bool) {
			if ToBoolean(r) {
				return trueValue, true
			}
			return falseValue, false
		}, falseValue)
	})
	r.method(proto, "sort", 1, taSort)
	r.method(proto, "subarray", 2, taSubarray)
	r.method(proto, "toLocaleString", 0, taToLocaleString)
	r.method(proto, "toReversed", 0, taToReversed)
	r.method(proto, "toSorted", 1, taToSorted)
	values := r.method(proto, "values", 0, func(vm *VM, c NativeCall) Value {
		o, _, _ := vm.validateTypedArray(c.This, "%TypedArray%.prototype.values")
		return vm.newArrayIterator(objectValue(o), iterValues)
	})
	r.method(proto, "with", 2, taWith)
	// toString is Array.prototype.toString itself; @@iterator is values.
	r.value(proto, keyToString, objectValue(r.Intrinsic("Array.prototype.toString")), propHidden)
	r.value(proto, symKey(symIterator), objectValue(values), propHidden)
}

// taCallback validates this and the callback argument of an iterating method.
func taCallback(vm *VM, c NativeCall, method string) (*Object, *typedArray, int, Value) {
	o, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype."+method)
	fn := c.Arg(0)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	return o, t, n, fn
}

// taIterate runs callbackfn(value, index, array) over the elements in order; step gets the
// value, the callback's result and the index, and stops the walk with a result when done.
func taIterate(vm *VM, c NativeCall, method string, step func(v, r Value, k int) (Value, bool), def Value) Value {
	o, _, n, fn := taCallback(vm, c, method)
	for k := 0; k < n; k++ {
		v := typedArrayGet(o, float64(k))
		r := vm.Call(fn, c.Arg(1), v, intValue(k), objectValue(o))
		if res, done := step(v, r, k); done {
			return res
		}
	}
	return def
}

// taIterateBack is findLast and findLastIndex.
func taIterateBack(vm *VM, c NativeCall, method string, result func(v Value, k int) Value, def Value) Value {
	o, _, n, fn := taCallback(vm, c, method)
	for k := n - 1; k >= 0; k-- {
		v := typedArrayGet(o, float64(k))
		if ToBoolean(vm.Call(fn, c.Arg(1), v, intValue(k), objectValue(o))) {
			return result(v, k)
		}
	}
	return def
}

func taAt(vm *VM, c NativeCall) Value {
	o, _, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.at")
	rel := vm.toIntegerOrInfinity(c.Arg(0))
	k := rel
	if rel < 0 {
		k = float64(n) + rel
	}
	if k < 0 || k >= float64(n) {
		return undefinedValue
	}
	return typedArrayGet(o, k)
}

func taCopyWithin(vm *VM, c NativeCall) Value {
	const name = "%TypedArray%.prototype.copyWithin"
	o, t, n := vm.validateTypedArray(c.This, name)
	to := vm.relIndex(c.Arg(0), n, 0)
	from := vm.relIndex(c.Arg(1), n, 0)
	final := vm.relIndex(c.Arg(2), n, n)
	count := min(final-from, n-to)
	if count > 0 {
		n2, ok := t.length()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		size := t.elem().size
		limit := n2*size + t.offset
		toB, fromB := to*size+t.offset, from*size+t.offset
		cnt := min(count*size, limit-fromB, limit-toB)
		if cnt > 0 {
			data := t.buf().data
			copy(data[toB:toB+cnt], data[fromB:fromB+cnt])
		}
	}
	return objectValue(o)
}

func taFill(vm *VM, c NativeCall) Value {
	const name = "%TypedArray%.prototype.fill"
	o, t, n := vm.validateTypedArray(c.This, name)
	v := vm.toElemValue(t.elem(), c.Arg(0))
	k := vm.relIndex(c.Arg(1), n, 0)
	final := vm.relIndex(c.Arg(2), n, n)
	n2, ok := t.length()
	if !ok {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	final = min(final, n2)
	for ; k < final; k++ {
		t.put(k, v)
	}
	return objectValue(o)
}

func taFilter(vm *VM, c NativeCall) Value {
	o, _, n, fn := taCallback(vm, c, "filter")
	var kept []Value
	for k := 0; k < n; k++ {
		v := typedArrayGet(o, float64(k))
		if ToBoolean(vm.Call(fn, c.Arg(1), v, intValue(k), objectValue(o))) {
			kept = append(kept, v)
		}
	}
	a, _ := vm.typedArraySpeciesCreate(o, "%TypedArray%.prototype.filter", intValue(len(kept)))
	for i, v := range kept {
		vm.setProp(a, indexKey(uint32(i)), v)
	}
	return objectValue(a)
}

// taStart is the start index of includes/indexOf from fromIndex; ok is false when the
// search is over before it starts.
func taStart(vm *VM, from Value, n int) (int, bool) {
	f := vm.toIntegerOrInfinity(from)
	if f >= float64(n) {
		return 0, false
	}
	if f < 0 {
		f = math.Max(float64(n)+f, 0)
	}
	return int(f), true
}

func taIncludes(vm *VM, c NativeCall) Value {
	o, _, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.includes")
	if n == 0 {
		return falseValue
	}
	k, ok := taStart(vm, c.Arg(1), n)
	if !ok {
		return falseValue
	}
	target := c.Arg(0)
	for ; k < n; k++ {
		if SameValueZero(typedArrayGet(o, float64(k)), target) {
			return trueValue
		}
	}
	return falseValue
}

func taIndexOf(vm *VM, c NativeCall) Value {
	_, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.indexOf")
	if n == 0 {
		return intValue(-1)
	}
	k, ok := taStart(vm, c.Arg(1), n)
	if !ok {
		return intValue(-1)
	}
	target := c.Arg(0)
	for ; k < n; k++ {
		if t.validIndex(float64(k)) && StrictEquals(t.at(k), target) {
			return intValue(k)
		}
	}
	return intValue(-1)
}

func taLastIndexOf(vm *VM, c NativeCall) Value {
	_, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.lastIndexOf")
	if n == 0 {
		return intValue(-1)
	}
	k := float64(n - 1)
	if len(c.Args) > 1 {
		f := vm.toIntegerOrInfinity(c.Args[1])
		if f == math.Inf(-1) {
			return intValue(-1)
		}
		if f >= 0 {
			k = math.Min(f, float64(n-1))
		} else {
			k = float64(n) + f
		}
	}
	target := c.Arg(0)
	for i := int(k); i >= 0; i-- {
		if t.validIndex(float64(i)) && StrictEquals(t.at(i), target) {
			return intValue(i)
		}
	}
	return intValue(-1)
}

func taJoin(vm *VM, c NativeCall) Value {
	o, _, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.join")
	sep := newASCII(",")
	if !c.Arg(0).IsUndefined() {
		sep = vm.toString(c.Arg(0))
	}
	var b stringBuilder
	for k := 0; k < n; k++ {
		if k > 0 {
			b.writeString(sep)
		}
		if v := typedArrayGet(o, float64(k)); !v.IsUndefined() {
			b.writeString(vm.toString(v))
		}
	}
	return stringValue(vm.chargeString(b.string()))
}

func taMap(vm *VM, c NativeCall) Value {
	o, _, n, fn := taCallback(vm, c, "map")
	a, _ := vm.typedArraySpeciesCreate(o, "%TypedArray%.prototype.map", intValue(n))
	for k := 0; k < n; k++ {
		v := typedArrayGet(o, float64(k))
		vm.setProp(a, indexKey(uint32(k)), vm.Call(fn, c.Arg(1), v, intValue(k), objectValue(o)))
	}
	return objectValue(a)
}

func taReduce(vm *VM, c NativeCall, right bool) Value {
	method := "reduce"
	if right {
		method = "reduceRight"
	}
	o, _, n, fn := taCallback(vm, c, method)
	k, step, end := 0, 1, n
	if right {
		k, step, end = n-1, -1, -1
	}
	var acc Value
	if len(c.Args) > 1 {
		acc = c.Args[1]
	} else {
		if n == 0 {
			vm.throwTypeError("Reduce of empty array with no initial value")
		}
		acc = typedArrayGet(o, float64(k))
		k += step
	}
	for ; k != end; k += step {
		acc = vm.Call(fn, undefinedValue, acc, typedArrayGet(o, float64(k)), intValue(k), objectValue(o))
	}
	return acc
}

func taReverse(vm *VM, c NativeCall) Value {
	o, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.reverse")
	for lo, hi := 0, n-1; lo < hi; lo, hi = lo+1, hi-1 {
		a, b := t.at(lo), t.at(hi)
		t.put(lo, b)
		t.put(hi, a)
	}
	return objectValue(o)
}

func taSet(vm *VM, c NativeCall) Value {
	const name = "%TypedArray%.prototype.set"
	o, t := vm.thisTypedArray(c.This)
	off := vm.toIntegerOrInfinity(c.Arg(1))
	if off < 0 {
		vm.throwRangeError("offset is out of bounds")
	}
	targetLen, ok := t.length()
	if !ok {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	if so := c.Arg(0).asObject(); so != nil && so.class == ClassTypedArray {
		st := so.slots.(*typedArray)
		srcLen, ok := st.length()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		if st.elem().bigint != t.elem().bigint {
			vm.throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
		}
		if math.IsInf(off, 1) || float64(srcLen)+off > float64(targetLen) {
			vm.throwRangeError("offset is out of bounds")
		}
		to := int(off)
		if st.kind == t.kind {
			size := t.elem().size
			copy(t.bytes()[to*size:], st.bytes())
			return undefinedValue
		}
		vals := make([]Value, srcLen)
		for i := range vals {
			vals[i] = st.at(i)
		}
		for i, v := range vals {
			t.put(to+i, v)
		}
		return undefinedValue
	}
	src := vm.toObject(c.Arg(0))
	srcLen := vm.lengthOfArrayLike(src)
	if math.IsInf(off, 1) || float64(srcLen)+off > float64(targetLen) {
		vm.throwRangeError("offset is out of bounds")
	}
	to := int(off)
	for k := int64(0); k < srcLen; k++ {
		vm.typedArraySetElement(o, float64(to+int(k)), vm.getIndex(src, k))
	}
	return undefinedValue
}

func taSlice(vm *VM, c NativeCall) Value {
	const name = "%TypedArray%.prototype.slice"
	o, t, n := vm.validateTypedArray(c.This, name)
	start := vm.relIndex(c.Arg(0), n, 0)
	end := vm.relIndex(c.Arg(1), n, n)
	count := max(end-start, 0)
	a, at := vm.typedArraySpeciesCreate(o, name, intValue(count))
	if count > 0 {
		n2, ok := t.length()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		end = min(end, n2)
		count = max(end-start, 0)
		if count == 0 {
			return objectValue(a)
		}
		if at.kind == t.kind {
			size := t.elem().size
			// byte by byte, forwards: a species result may view the same buffer
			src := t.buf().data[t.offset+start*size : t.offset+start*size+count*size]
			dst := at.bytes()
			for i := 0; i < len(src) && i < len(dst); i++ {
				dst[i] = src[i]
			}
		} else {
			for k, i := start, 0; k < end; k, i = k+1, i+1 {
				vm.setProp(a, indexKey(uint32(i)), typedArrayGet(o, float64(k)))
			}
		}
	}
	return objectValue(a)
}

// taSortValues sorts vals as %TypedArray%.prototype.sort does: by comparefn (NaN results
// count as 0), or numerically with -0 before +0 and NaN last.
func taSortValues(vm *VM, vals []Value, comparefn Value) {
	if comparefn.IsUndefined() {
		if len(vals) > 0 && vals[0].kind == KindBigInt {
			slices.SortStableFunc(vals, func(a, b Value) int { return a.bigint().Cmp(b.bigint()) })
			return
		}
		slices.SortStableFunc(vals, func(a, b Value) int {
			x, y := a.num, b.num
			switch {
			case x != x && y != y:
				return 0
			case x != x:
				return 1
			case y != y:
				return -1
			case x < y:
				return -1
			case x > y:
				return 1
			case x == 0 && y == 0:
				sx, sy := math.Signbit(x), math.Signbit(y)
				if sx && !sy {
					return -1
				}
				if sy && !sx {
					return 1
				}
			}
			return 0
		})
		return
	}
	v8TypedArrayMergeSort(vals, func(a, b Value) int {
		f := vm.toNumber(vm.Call(comparefn, undefinedValue, a, b))
		switch {
		case f < 0:
			return -1
		case f > 0:
			return 1
		}
		return 0
	})
}

// taComparefn checks sort's comparator argument.
func taComparefn(vm *VM, c NativeCall) Value {
	fn := c.Arg(0)
	if !fn.IsUndefined() && !IsCallable(fn) {
		vm.throwTypeError("The comparison function must be either a function or undefined")
	}
	return fn
}

func taSort(vm *VM, c NativeCall) Value {
	fn := taComparefn(vm, c)
	o, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.sort")
	vals := make([]Value, n)
	for i := range vals {
		vals[i] = t.at(i)
	}
	taSortValues(vm, vals, fn)
	for i, v := range vals {
		if t.validIndex(float64(i)) {
			t.put(i, v)
		}
	}
	return objectValue(o)
}

func taToSorted(vm *VM, c NativeCall) Value {
	fn := taComparefn(vm, c)
	_, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.toSorted")
	a, at := vm.typedArrayCreateSameType(t, n)
	vals := make([]Value, n)
	for i := range vals {
		vals[i] = t.at(i)
	}
	taSortValues(vm, vals, fn)
	for i, v := range vals {
		at.put(i, v)
	}
	return objectValue(a)
}

func taToReversed(vm *VM, c NativeCall) Value {
	o, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.toReversed")
	a, at := vm.typedArrayCreateSameType(t, n)
	for k := 0; k < n; k++ {
		at.put(k, vm.toElemValue(at.elem(), typedArrayGet(o, float64(n-1-k))))
	}
	return objectValue(a)
}

func taWith(vm *VM, c NativeCall) Value {
	o, t, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.with")
	rel := vm.toIntegerOrInfinity(c.Arg(0))
	idx := rel
	if rel < 0 {
		idx = float64(n) + rel
	}
	v := vm.toElemValue(t.elem(), c.Arg(1))
	if !t.validIndex(idx + 0) {
		vm.throwRangeError("Invalid typed array index")
	}
	a, at := vm.typedArrayCreateSameType(t, n)
	for k := 0; k < n; k++ {
		if float64(k) == idx {
			at.put(k, v)
		} else {
			at.put(k, vm.toElemValue(at.elem(), typedArrayGet(o, float64(k))))
		}
	}
	return objectValue(a)
}

func taSubarray(vm *VM, c NativeCall) Value {
	o, t := vm.thisTypedArray(c.This)
	n, _ := t.length()
	start := vm.relIndex(c.Arg(0), n, 0)
	size := t.elem().size
	begin := t.offset + start*size
	args := []Value{objectValue(t.buffer), intValue(begin)}
	if t.fixed >= 0 || !c.Arg(1).IsUndefined() {
		end := vm.relIndex(c.Arg(1), n, n)
		args = append(args, intValue(max(end-start, 0)))
	}
	et := o.slots.(*typedArray)
	def := objectValue(vm.realm.Intrinsic(et.elem().name))
	ctor := vm.speciesConstructor(o, def)
	r := vm.construct(ctor, nil, args...)
	ro, rt, _ := vm.validateTypedArray(r, "%TypedArray%.prototype.subarray")
	if rt.elem().bigint != t.elem().bigint {
		vm.throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
	}
	return objectValue(ro)
}

func taToLocaleString(vm *VM, c NativeCall) Value {
	o, _, n := vm.validateTypedArray(c.This, "%TypedArray%.prototype.toLocaleString")
	var b stringBuilder
	for k := 0; k < n; k++ {
		if k > 0 {
			b.writeGo(",")
		}
		if v := typedArrayGet(o, float64(k)); !v.IsNullish() {
			b.writeString(vm.toString(vm.invoke(v, strKey("toLocaleString"))))
		}
	}
	return stringValue(vm.chargeString(b.string()))
}

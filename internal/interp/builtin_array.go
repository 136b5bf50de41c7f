package interp

// The Array global: the constructor, Array.from/of/isArray, Array[Symbol.species] and the
// prototype methods that search, copy within or fill. The other methods live beside it:
// builtin_array_callback.go (forEach, map, filter, reduce, find, flat, ...),
// builtin_array_order.go (sort, reverse and the copying toSorted/toReversed/toSpliced/with),
// builtin_array_mutate.go (pop, push, shift, unshift, slice, splice), builtin_array_join.go
// (join, toString, toLocaleString) and builtin_array_async.go (Array.fromAsync). Every method
// is generic: it works on any array-like this value as the spec says, with fast paths for
// plain dense arrays (builtin_array_access.go).

func init() { registerBuiltin("Array", 10, setupArray) }

// setupArray installs Array and Array.prototype (which exists already as an empty array).
func setupArray(r *Realm) {
	proto := r.ArrayPrototype
	ctor := r.newConstructor("Array", 1, arrayConstructor, proto)
	r.ArrayConstructor = ctor
	r.method(ctor, "isArray", 1, arrayIsArray)
	r.method(ctor, "from", 1, arrayFrom)
	r.method(ctor, "of", 0, arrayOf)
	r.method(ctor, "fromAsync", 1, arrayFromAsync)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })

	r.method(proto, "at", 1, arrayAt)
	r.method(proto, "concat", 1, arrayConcat)
	r.method(proto, "copyWithin", 2, arrayCopyWithin)
	r.method(proto, "fill", 1, arrayFill)
	r.method(proto, "find", 1, arrayFind)
	r.method(proto, "findIndex", 1, arrayFindIndex)
	r.method(proto, "findLast", 1, arrayFindLast)
	r.method(proto, "findLastIndex", 1, arrayFindLastIndex)
	r.method(proto, "lastIndexOf", 1, arrayLastIndexOf)
	r.method(proto, "pop", 0, arrayPop)
	r.method(proto, "push", 1, arrayPush)
	r.method(proto, "reverse", 0, arrayReverse)
	r.method(proto, "shift", 0, arrayShift)
	r.method(proto, "unshift", 1, arrayUnshift)
	r.method(proto, "slice", 2, arraySlice)
	r.method(proto, "sort", 1, arraySort)
	r.method(proto, "splice", 2, arraySplice)
	r.method(proto, "includes", 1, arrayIncludes)
	r.method(proto, "indexOf", 1, arrayIndexOf)
	r.method(proto, "join", 1, arrayJoin)
	r.method(proto, "keys", 0, arrayKeys)
	r.method(proto, "entries", 0, arrayEntries)
	values := r.method(proto, "values", 0, arrayValues)
	r.method(proto, "forEach", 1, arrayForEach)
	r.method(proto, "filter", 1, arrayFilter)
	r.method(proto, "flat", 0, arrayFlat)
	r.method(proto, "flatMap", 1, arrayFlatMap)
	r.method(proto, "map", 1, arrayMap)
	r.method(proto, "every", 1, arrayEvery)
	r.method(proto, "some", 1, arraySome)
	r.method(proto, "reduce", 1, arrayReduce)
	r.method(proto, "reduceRight", 1, arrayReduceRight)
	r.method(proto, "toLocaleString", 0, arrayToLocaleString)
	r.method(proto, "toString", 0, arrayToString)
	r.method(proto, "toReversed", 0, arrayToReversed)
	r.method(proto, "toSorted", 1, arrayToSorted)
	r.method(proto, "toSpliced", 2, arrayToSpliced)
	r.method(proto, "with", 2, arrayWith)
	// Array.prototype[Symbol.iterator] is the same function object as values.
	r.value(proto, symKey(symIterator), objectValue(values), propHidden)

	unscopables := r.vm.newObject(nil, ClassObject)
	for _, name := range []string{"at", "copyWithin", "entries", "fill", "find", "findIndex",
		"findLast", "findLastIndex", "flat", "flatMap", "includes", "keys", "toReversed",
		"toSorted", "toSpliced", "values"} {
		unscopables.props.add(strKey(name), Property{value: trueValue, flags: propDefault})
	}
	r.value(proto, symKey(symUnscopables), objectValue(unscopables), propConfigurable)
	r.defineGlobal("Array", objectValue(ctor))
}

// maxArrayLikeLength is 2^53-1, the largest length of a generic array-like.
const maxArrayLikeLength = 1<<53 - 1

// arrayConstructor is Array(...items): Array(len) makes an empty array of that length.
func arrayConstructor(vm *VM, c NativeCall) Value {
	proto := vm.realm.ArrayPrototype
	if c.NewTarget != nil && c.NewTarget != c.Callee {
		proto = vm.getPrototypeFromConstructor(c.NewTarget, "Array.prototype")
	}
	var a *Object
	switch len(c.Args) {
	case 0:
		a = vm.newArray(nil)
	case 1:
		n := c.Args[0]
		if n.kind != KindNumber {
			a = vm.newArray([]Value{n})
			break
		}
		if !validArrayLength(n.num) || n.num > maxArrayLength {
			vm.throwRangeError("Invalid array length")
		}
		a = vm.arrayCreate(int64(n.num))
	default:
		a = vm.newArray(append([]Value(nil), c.Args...))
	}
	a.proto = proto
	return objectValue(a)
}

// arrayCreate is ArrayCreate(length): an empty array whose length is n. The standard's bound
// is 2^32-1; codemode's array length cap (maxArrayLength) is lower and gives the same
// RangeError. Storage for small lengths is reserved up front.
func (vm *VM) arrayCreate(n int64) *Object {
	if n > maxArrayLength {
		vm.throwRangeError("Invalid array length")
	}
	a := vm.newArray(nil)
	a.length = uint32(n)
	return a
}

// arraySpeciesCreate is ArraySpeciesCreate(original, length): an array made by the species
// constructor of original when original is an array.
func (vm *VM) arraySpeciesCreate(original *Object, n int64) *Object {
	if original.class != ClassArray && !vm.isArray(objectValue(original)) {
		return vm.arrayCreate(n)
	}
	c := vm.getProp(original, keyConstructor)
	if o := c.asObject(); o != nil {
		c = vm.getProp(o, symKey(symSpecies))
		if c.IsNull() {
			c = undefinedValue
		}
	}
	if c.IsUndefined() || c.asObject() == vm.realm.arrayConstructor() {
		return vm.arrayCreate(n)
	}
	if !IsConstructor(c) {
		vm.throwTypeError("object.constructor[Symbol.species] is not a constructor")
	}
	r := vm.construct(c, nil, Number(float64(n)))
	if r.kind != KindObject {
		vm.throwTypeError("species constructor did not return an object")
	}
	return r.obj()
}

// arrayIsArray is Array.isArray.
func arrayIsArray(vm *VM, c NativeCall) Value { return Bool(vm.isArray(c.Arg(0))) }

// arrayOf is Array.of(...items).
func arrayOf(vm *VM, c NativeCall) Value {
	n := len(c.Args)
	var a *Object
	if IsConstructor(c.This) && c.This.asObject() != vm.realm.arrayConstructor() {
		r := vm.construct(c.This, nil, intValue(n))
		if r.kind != KindObject {
			vm.throwTypeError("constructor did not return an object")
		}
		a = r.obj()
	} else {
		a = vm.arrayCreate(int64(n))
	}
	for k, v := range c.Args {
		vm.createIndex(a, int64(k), v)
	}
	vm.setLength(a, int64(n))
	return objectValue(a)
}

// arrayFrom is Array.from(items, mapFn, thisArg): from an iterable, else an array-like.
func arrayFrom(vm *VM, c NativeCall) Value {
	items, mapFn, thisArg := c.Arg(0), c.Arg(1), c.Arg(2)
	mapping := !mapFn.IsUndefined()
	if mapping && !IsCallable(mapFn) {
		vm.throwTypeError("%s is not a function", describeNonCallable(mapFn))
	}
	useCtor := IsConstructor(c.This) && c.This.asObject() != vm.realm.arrayConstructor()
	construct := func(args ...Value) *Object {
		r := vm.construct(c.This, nil, args...)
		if r.kind != KindObject {
			vm.throwTypeError("constructor did not return an object")
		}
		return r.obj()
	}
	if items.IsNullish() {
		what := "undefined"
		if items.IsNull() {
			what = "object null"
		}
		vm.throwTypeError("%s is not iterable (cannot read property Symbol(Symbol.iterator))", what)
	}
	usingIterator := vm.getMethod(items, symKey(symIterator))
	if !usingIterator.IsUndefined() {
		var a *Object
		if useCtor {
			a = construct()
		} else {
			a = vm.newArray(nil)
		}
		defer vm.unpin(vm.pin(a))
		if src := items.asObject(); src != nil && vm.builtinArrayIteration(src, usingIterator) {
			// the built-in array iterator reads length and the element at each step:
			// do the same without creating the iterator and its result objects
			k := int64(0)
			for ; k < vm.lengthOfArrayLike(src); k++ {
				vm.pollLoop(k)
				v := vm.getIndex(src, k)
				if mapping {
					v = vm.Call(mapFn, thisArg, v, Number(float64(k)))
				}
				vm.createIndex(a, k, v)
			}
			vm.setLength(a, k)
			return objectValue(a)
		}
		it := vm.getIteratorFromMethod(items, usingIterator)
		k := int64(0)
		vm.iterate(it, func(v Value) bool {
			if k >= maxArrayLikeLength {
				vm.throwTypeError("Array.from: too many elements")
			}
			vm.pollLoop(k)
			if mapping {
				v = vm.Call(mapFn, thisArg, v, Number(float64(k)))
			}
			vm.createIndex(a, k, v)
			k++
			return true
		})
		vm.setLength(a, k)
		return objectValue(a)
	}
	src := vm.toObject(items)
	n := vm.lengthOfArrayLike(src)
	var a *Object
	if useCtor {
		a = construct(Number(float64(n)))
	} else {
		a = vm.arrayCreate(n)
	}
	defer vm.unpin(vm.pin(a))
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		v := vm.getIndex(src, k)
		if mapping {
			v = vm.Call(mapFn, thisArg, v, Number(float64(k)))
		}
		vm.createIndex(a, k, v)
	}
	vm.setLength(a, n)
	return objectValue(a)
}

// builtinArrayIteration reports whether iterating array o with method is the built-in
// array iteration: method is Array.prototype.values and %ArrayIteratorPrototype%.next is
// the original, so that reading elements by index is indistinguishable from iterating.
func (vm *VM) builtinArrayIteration(o *Object, method Value) bool {
	if o.class != ClassArray {
		return false
	}
	m := method.asObject()
	if m == nil {
		return false
	}
	if nf, ok := m.slots.(*nativeFunction); !ok || nf.name != "Array.prototype.values" {
		return false
	}
	// a placeholder (realm_lazy.go) names the same native as the intrinsic it stands for
	p := vm.realm.arrayIteratorPrototype().props.peek(keyNext)
	if p == nil || p.isAccessor() {
		return false
	}
	next := p.value.asObject()
	if next == nil {
		return false
	}
	nf, ok := next.slots.(*nativeFunction)
	return ok && nf.name == "%ArrayIteratorPrototype%.next"
}

// arrayAt is Array.prototype.at.
func arrayAt(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "at")
	n := vm.lengthOfArrayLike(o)
	f := vm.toIntegerOrInfinity(c.Arg(0))
	if f < 0 {
		f += float64(n)
	}
	if f < 0 || f >= float64(n) {
		return undefinedValue
	}
	return vm.getIndex(o, int64(f))
}

// isConcatSpreadable is IsConcatSpreadable.
func (vm *VM) isConcatSpreadable(v Value) bool {
	o := v.asObject()
	if o == nil {
		return false
	}
	s := vm.getProp(o, symKey(symIsConcatSpreadable))
	if !s.IsUndefined() {
		return ToBoolean(s)
	}
	return vm.isArray(v)
}

// arrayConcat is Array.prototype.concat.
func arrayConcat(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "concat")
	a := vm.arraySpeciesCreate(o, 0)
	defer vm.unpin(vm.pin(a))
	n := int64(0)
	add := func(e Value) {
		if !vm.isConcatSpreadable(e) {
			if n >= maxArrayLikeLength {
				vm.throwTypeError("Invalid array length")
			}
			vm.createIndex(a, n, e)
			n++
			return
		}
		eo := e.obj()
		ln := vm.lengthOfArrayLike(eo)
		if n+ln > maxArrayLikeLength {
			vm.throwTypeError("Invalid array length")
		}
		if vm.plainDense(eo) && vm.freshArrayTail(a, n) {
			if n+ln > maxDenseLength {
				vm.throwRangeError("Invalid array length")
			}
			vm.chargeElems(len(eo.elems))
			a.elems = append(a.elems, eo.elems...)
			n += ln
			a.length = uint32(n)
			return
		}
		if idx, ok := vm.sparseIndices(eo, ln); ok {
			for _, k := range idx {
				vm.createIndex(a, n+k, vm.getIndex(eo, k))
			}
			n += ln
			return
		}
		for k := int64(0); k < ln; k++ {
			vm.pollLoop(k)
			if v, ok := vm.getPresent(eo, k); ok {
				vm.createIndex(a, n, v)
			}
			n++
		}
	}
	add(objectValue(o))
	for _, e := range c.Args {
		add(e)
	}
	vm.setLength(a, n)
	return objectValue(a)
}

// arrayCopyWithin is Array.prototype.copyWithin(target, start, end).
func arrayCopyWithin(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "copyWithin")
	n := vm.lengthOfArrayLike(o)
	to := vm.relativeIndex(c.Arg(0), n, 0)
	from := vm.relativeIndex(c.Arg(1), n, 0)
	final := vm.relativeIndex(c.Arg(2), n, n)
	count := min(final-from, n-to)
	if count <= 0 {
		return objectValue(o)
	}
	// (the argument conversions may have shrunk the array: n is the length read first)
	if vm.plainDense(o) && int64(len(o.elems)) == n {
		copy(o.elems[to:to+count], o.elems[from:from+count])
		return objectValue(o)
	}
	dir := int64(1)
	if from < to && to < from+count {
		dir = -1
		from += count - 1
		to += count - 1
	}
	for ; count > 0; count-- {
		if v, ok := vm.getPresent(o, from); ok {
			vm.setIndex(o, to, v)
		} else {
			vm.deleteIndex(o, to)
		}
		from += dir
		to += dir
	}
	return objectValue(o)
}

// arrayFill is Array.prototype.fill(value, start, end).
func arrayFill(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "fill")
	n := vm.lengthOfArrayLike(o)
	v := c.Arg(0)
	k := vm.relativeIndex(c.Arg(1), n, 0)
	final := vm.relativeIndex(c.Arg(2), n, n)
	if k < final && final <= maxDenseLength && vm.cleanArray(o) {
		// every index is a plain element: fill dense storage, growing it over holes
		if grow := final - int64(len(o.elems)); grow > 0 {
			vm.chargeElems(int(grow))
			o.elems = append(o.elems, make([]Value, grow)...)
			for i := final - grow; i < k; i++ {
				o.elems[i] = holeValue
			}
		}
		for ; k < final; k++ {
			o.elems[k] = v
		}
		if final > int64(o.length) {
			o.length = uint32(final)
		}
		return objectValue(o)
	}
	for ; k < final; k++ {
		vm.pollLoop(k)
		vm.setIndex(o, k, v)
	}
	return objectValue(o)
}

// arrayIncludes is Array.prototype.includes(search, fromIndex) (SameValueZero; holes read
// as undefined).
func arrayIncludes(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "includes")
	n := vm.lengthOfArrayLike(o)
	if n == 0 {
		return falseValue
	}
	k := vm.relativeIndex(c.Arg(1), n, 0)
	target := c.Arg(0)
	if vm.plainDense(o) && int64(len(o.elems)) == n {
		for ; k < n; k++ {
			v := o.elems[k]
			if v.isHole() {
				v = undefinedValue
			}
			if SameValueZero(v, target) {
				return trueValue
			}
		}
		return falseValue
	}
	for ; k < n; k++ {
		vm.pollLoop(k)
		if SameValueZero(vm.getIndex(o, k), target) {
			return trueValue
		}
	}
	return falseValue
}

// arrayIndexOf is Array.prototype.indexOf(search, fromIndex) (strict equality, holes skipped).
func arrayIndexOf(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "indexOf")
	n := vm.lengthOfArrayLike(o)
	if n == 0 {
		return intValue(-1)
	}
	k := vm.relativeIndex(c.Arg(1), n, 0)
	target := c.Arg(0)
	if vm.plainDense(o) {
		for ; k < int64(len(o.elems)); k++ {
			if v := o.elems[k]; !v.isHole() && StrictEquals(v, target) {
				return Number(float64(k))
			}
		}
		return intValue(-1)
	}
	if idx, ok := vm.sparseIndices(o, n); ok {
		for _, i := range idx {
			if i >= k && StrictEquals(vm.getIndex(o, i), target) {
				return Number(float64(i))
			}
		}
		return intValue(-1)
	}
	for ; k < n; k++ {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok && StrictEquals(v, target) {
			return Number(float64(k))
		}
	}
	return intValue(-1)
}

// arrayLastIndexOf is Array.prototype.lastIndexOf(search, fromIndex).
func arrayLastIndexOf(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "lastIndexOf")
	n := vm.lengthOfArrayLike(o)
	if n == 0 {
		return intValue(-1)
	}
	k := n - 1
	if len(c.Args) > 1 {
		f := vm.toIntegerOrInfinity(c.Args[1])
		if f >= 0 {
			if f < float64(n-1) {
				k = int64(f)
			}
		} else {
			f += float64(n)
			if f < 0 {
				return intValue(-1)
			}
			k = int64(f)
		}
	}
	target := c.Arg(0)
	for ; k >= 0; k-- {
		vm.pollLoop(k)
		if v, ok := vm.getPresent(o, k); ok && StrictEquals(v, target) {
			return Number(float64(k))
		}
	}
	return intValue(-1)
}

// arrayKeys, arrayValues and arrayEntries make Array Iterators.
func arrayKeys(vm *VM, c NativeCall) Value {
	return vm.newArrayIterator(objectValue(thisArrayObject(vm, &c, "keys")), iterKeys)
}

func arrayValues(vm *VM, c NativeCall) Value {
	return vm.newArrayIterator(objectValue(thisArrayObject(vm, &c, "values")), iterValues)
}

func arrayEntries(vm *VM, c NativeCall) Value {
	return vm.newArrayIterator(objectValue(thisArrayObject(vm, &c, "entries")), iterEntries)
}

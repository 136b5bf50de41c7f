package interp

import (
	"math"
	"sync"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// The Array global: the constructor, Array.from/of/isArray, Array[Symbol.species] and the
// prototype methods that neither take callbacks nor reorder (the others are in
// builtin_array_callback.go and builtin_array_order.go). Every method is generic: it works on
// any array-like this value as the spec says, with fast paths for plain dense arrays.

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
		proto = vm.GetPrototypeFromConstructor(c.NewTarget, "Array.prototype")
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
		if !validArrayLength(n.num) {
			vm.throwRangeError("Invalid array length")
		}
		a = vm.arrayCreate(int64(n.num))
	default:
		a = vm.newArray(append([]Value(nil), c.Args...))
	}
	a.proto = proto
	return objectValue(a)
}

// arrayCreate is ArrayCreate(length): an empty array whose length is n (RangeError above
// 2^32-1). Storage for small lengths is reserved up front.
func (vm *VM) arrayCreate(n int64) *Object {
	if n > math.MaxUint32 {
		vm.throwRangeError("Invalid array length")
	}
	a := vm.newArray(nil)
	a.length = uint32(n)
	return a
}

// arraySpeciesCreate is ArraySpeciesCreate(original, length): an array made by the species
// constructor of original when original is an array.
func (vm *VM) arraySpeciesCreate(original *Object, n int64) *Object {
	if original.class != ClassArray {
		return vm.arrayCreate(n)
	}
	c := vm.GetProp(original, keyConstructor)
	if o := c.asObject(); o != nil {
		c = vm.GetProp(o, symKey(symSpecies))
		if c.IsNull() {
			c = undefinedValue
		}
	}
	if c.IsUndefined() || c.asObject() == vm.realm.ArrayConstructor {
		return vm.arrayCreate(n)
	}
	if !IsConstructor(c) {
		vm.throwTypeError("object.constructor[Symbol.species] is not a constructor")
	}
	r := vm.Construct(c, nil, Number(float64(n)))
	if r.kind != KindObject {
		vm.throwTypeError("species constructor did not return an object")
	}
	return r.obj()
}

// arrayIsArray is Array.isArray.
func arrayIsArray(vm *VM, c NativeCall) Value { return Bool(IsArray(c.Arg(0))) }

// arrayOf is Array.of(...items).
func arrayOf(vm *VM, c NativeCall) Value {
	n := len(c.Args)
	var a *Object
	if IsConstructor(c.This) && c.This.asObject() != vm.realm.ArrayConstructor {
		r := vm.Construct(c.This, nil, intValue(n))
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
	useCtor := IsConstructor(c.This) && c.This.asObject() != vm.realm.ArrayConstructor
	construct := func(args ...Value) *Object {
		r := vm.Construct(c.This, nil, args...)
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
	usingIterator := vm.GetMethod(items, symKey(symIterator))
	if !usingIterator.IsUndefined() {
		var a *Object
		if useCtor {
			a = construct()
		} else {
			a = vm.newArray(nil)
		}
		if src := items.asObject(); src != nil && vm.builtinArrayIteration(src, usingIterator) {
			// the built-in array iterator reads length and the element at each step:
			// do the same without creating the iterator and its result objects
			k := int64(0)
			for ; k < vm.LengthOfArrayLike(src); k++ {
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
		it := vm.GetIteratorFromMethod(items, usingIterator)
		k := int64(0)
		vm.iterate(it, func(v Value) bool {
			if k >= maxArrayLikeLength {
				vm.throwTypeError("Array.from: too many elements")
			}
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
	src := vm.ToObject(items)
	n := vm.LengthOfArrayLike(src)
	var a *Object
	if useCtor {
		a = construct(Number(float64(n)))
	} else {
		a = vm.arrayCreate(n)
	}
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
	p := vm.realm.ArrayIteratorPrototype.props.get(keyNext)
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

// thisArrayObject is ToObject(this) with V8's message for null and undefined.
func thisArrayObject(vm *VM, c *NativeCall, method string) *Object {
	if c.This.IsNullish() {
		vm.throwTypeError("Array.prototype.%s called on null or undefined", method)
	}
	return vm.ToObject(c.This)
}

// relativeIndex resolves a relative index argument (negative counts from the end) clamped
// to [0, n]; undefined gives def.
func (vm *VM) relativeIndex(v Value, n int64, def int64) int64 {
	if v.IsUndefined() {
		return def
	}
	f := vm.ToIntegerOrInfinity(v)
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

// ---- element access helpers (with dense fast paths) ----

// pollLoop lets a long loop of a native over indices (array-likes may claim a length up to
// 2^53-1) be interrupted: every 65536 indices it checks the run's interrupt flag (deadline
// or cancellation) and aborts the run.
func (vm *VM) pollLoop(k int64) {
	if k&0xFFFF == 0 && vm.checkInterrupt() {
		panic(&abortSignal{err: &Diagnostic{Kind: "TimeoutExceeded", Message: "the run exceeded its time limit"}})
	}
}

// getPresent returns element i of o and whether it exists (HasProperty then Get).
func (vm *VM) getPresent(o *Object, i int64) (Value, bool) {
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		return o.elems[i], true
	}
	k := vm.indexToKey(i)
	if !vm.HasProperty(o, k) {
		return undefinedValue, false
	}
	return vm.GetProp(o, k), true
}

// hasIndex is HasProperty(o, i).
func (vm *VM) hasIndex(o *Object, i int64) bool {
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		return true
	}
	return vm.HasProperty(o, vm.indexToKey(i))
}

// setIndex is Set(o, i, v, true).
func (vm *VM) setIndex(o *Object, i int64, v Value) {
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		o.elems[i] = v
		return
	}
	vm.SetProp(o, vm.indexToKey(i), v)
}

// deleteIndex is DeletePropertyOrThrow(o, i).
func (vm *VM) deleteIndex(o *Object, i int64) {
	vm.DeletePropertyOrThrow(o, vm.indexToKey(i))
}

// createIndex is CreateDataPropertyOrThrow(o, i, v), appending directly to dense storage
// when possible.
func (vm *VM) createIndex(o *Object, i int64, v Value) {
	if o.class == ClassArray && i == int64(len(o.elems)) && i >= int64(o.length) &&
		o.flags&objLengthReadOnly == 0 && o.extensible() && i < maxDenseLength {
		o.elems = append(o.elems, v)
		o.length = uint32(i + 1)
		vm.allocated += valueSize
		return
	}
	if o.class == ClassArray && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		o.elems[i] = v
		return
	}
	vm.CreateDataPropertyOrThrow(o, vm.indexToKey(i), v)
}

// setLength is Set(o, "length", n, true).
func (vm *VM) setLength(o *Object, n int64) {
	if o.class == ClassArray && n >= 0 && n <= math.MaxUint32 && o.flags&objLengthReadOnly == 0 {
		if !o.setArrayLength(uint32(n)) {
			vm.throwTypeError("Cannot delete property '%d' of %s", o.length-1, vm.describeForError(objectValue(o)))
		}
		return
	}
	vm.SetProp(o, keyLength, Number(float64(n)))
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

// growElems reserves storage for n more elements of a and charges it to the heap budget.
func (vm *VM) chargeElems(n int) { vm.allocated += int64(n) * valueSize }

// ---- methods ----

// arrayAt is Array.prototype.at.
func arrayAt(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "at")
	n := vm.LengthOfArrayLike(o)
	f := vm.ToIntegerOrInfinity(c.Arg(0))
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
	s := vm.GetProp(o, symKey(symIsConcatSpreadable))
	if !s.IsUndefined() {
		return ToBoolean(s)
	}
	return o.class == ClassArray
}

// arrayConcat is Array.prototype.concat.
func arrayConcat(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "concat")
	a := vm.arraySpeciesCreate(o, 0)
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
		ln := vm.LengthOfArrayLike(eo)
		if n+ln > maxArrayLikeLength {
			vm.throwTypeError("Invalid array length")
		}
		if vm.plainDense(eo) && vm.freshArrayTail(a, n) {
			if n+ln > maxDenseLength {
				vm.throwRangeError("Invalid array length")
			}
			a.elems = append(a.elems, eo.elems...)
			vm.chargeElems(len(eo.elems))
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

// arrayCopyWithin is Array.prototype.copyWithin(target, start, end).
func arrayCopyWithin(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "copyWithin")
	n := vm.LengthOfArrayLike(o)
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
	n := vm.LengthOfArrayLike(o)
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
	n := vm.LengthOfArrayLike(o)
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
	n := vm.LengthOfArrayLike(o)
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
	n := vm.LengthOfArrayLike(o)
	if n == 0 {
		return intValue(-1)
	}
	k := n - 1
	if len(c.Args) > 1 {
		f := vm.ToIntegerOrInfinity(c.Args[1])
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

// arrayJoin is Array.prototype.join(separator): null and undefined elements give "".
func arrayJoin(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "join")
	n := vm.LengthOfArrayLike(o)
	sep := commaString
	if s := c.Arg(0); !s.IsUndefined() {
		sep = vm.ToString(s)
	}
	if !vm.enterJoin(o) {
		return stringValue(emptyString)
	}
	defer vm.leaveJoin(o)
	return stringValue(vm.joinArray(o, n, sep, false))
}

// commaString is the default separator of join.
var commaString = newASCII(",")

// maxJoinLength is the string length cap (2^24 code units) that join checks as it goes.
const maxJoinLength = 1 << 24

// joinArray joins elements [0, n) of o with sep, converting each with ToString (or, for
// toLocaleString, by calling its toLocaleString method).
func (vm *VM) joinArray(o *Object, n int64, sep *jsString, locale bool, localeArgs ...Value) *jsString {
	var b stringBuilder
	total := 0
	sepLen := sep.Len()
	if n > 1 && (n-1)*int64(sepLen) > maxJoinLength {
		vm.throwRangeError("Invalid string length")
	}
	write := func(v Value) {
		if v.IsNullish() {
			return
		}
		if v.kind == KindNumber && !locale && !b.isWide {
			// numbers format straight into the builder (no string allocation)
			before := len(b.ascii)
			b.ascii = numconv.AppendNumber(b.ascii, v.num)
			total += len(b.ascii) - before
			if total > maxJoinLength {
				vm.throwRangeError("Invalid string length")
			}
			return
		}
		var s *jsString
		if locale {
			s = vm.ToString(vm.Invoke(v, strKey("toLocaleString"), localeArgs...))
		} else if v.kind == KindString {
			s = v.str()
		} else {
			s = vm.ToString(v)
		}
		total += s.Len()
		if total > maxJoinLength {
			vm.throwRangeError("Invalid string length")
		}
		b.writeString(s)
	}
	if idx, ok := vm.sparseIndices(o, n); ok && !locale {
		// only the present elements contribute text; every gap is separators
		total = int((n - 1) * int64(sepLen))
		prev := int64(0)
		for _, i := range idx {
			for ; sepLen > 0 && prev < i; prev++ {
				b.writeString(sep)
			}
			write(vm.getIndex(o, i))
		}
		for ; sepLen > 0 && prev < n-1; prev++ {
			b.writeString(sep)
		}
		return b.string()
	}
	for k := int64(0); k < n; k++ {
		vm.pollLoop(k)
		if k > 0 && sepLen > 0 {
			total += sepLen
			if total > maxJoinLength {
				vm.throwRangeError("Invalid string length")
			}
			b.writeString(sep)
		}
		write(vm.getIndex(o, k))
	}
	return b.string()
}

// enterJoin guards join/toString/toLocaleString against cycles (an array containing itself
// joins as ""), as V8 does; it reports false when o is already being joined.
func (vm *VM) enterJoin(o *Object) bool {
	joinGuards.Lock()
	defer joinGuards.Unlock()
	for _, x := range joinGuards.m[vm] {
		if x == o {
			return false
		}
	}
	joinGuards.m[vm] = append(joinGuards.m[vm], o)
	return true
}

// leaveJoin pops o from the join cycle guard.
func (vm *VM) leaveJoin(o *Object) {
	joinGuards.Lock()
	defer joinGuards.Unlock()
	js := joinGuards.m[vm]
	if n := len(js); n > 0 && js[n-1] == o {
		js = js[:n-1]
	}
	if len(js) == 0 {
		delete(joinGuards.m, vm)
		return
	}
	joinGuards.m[vm] = js
}

// joinGuards holds the join cycle guard of each VM that is joining right now. The guard is
// transient (empty whenever the VM is at a safe point), so it is not part of snapshots.
var joinGuards = struct {
	sync.Mutex
	m map[*VM][]*Object
}{m: map[*VM][]*Object{}}

// arrayToString is Array.prototype.toString: this.join(), or Object.prototype.toString when
// join is not callable.
func arrayToString(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toString")
	join := vm.GetProp(o, strKey("join"))
	if IsCallable(join) {
		return vm.Call(join, objectValue(o))
	}
	return objectProtoToString(vm, NativeCall{This: objectValue(o)})
}

// arrayToLocaleString is Array.prototype.toLocaleString(locales, options): elements'
// toLocaleString(locales, options) joined with "," (ECMA-402).
func arrayToLocaleString(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toLocaleString")
	n := vm.LengthOfArrayLike(o)
	if !vm.enterJoin(o) {
		return stringValue(emptyString)
	}
	defer vm.leaveJoin(o)
	return stringValue(vm.joinArray(o, n, commaString, true, c.Arg(0), c.Arg(1)))
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
	n := vm.LengthOfArrayLike(o)
	if n == 0 {
		vm.setLength(o, 0)
		return undefinedValue
	}
	v := vm.getIndex(o, n-1)
	vm.deleteIndex(o, n-1)
	vm.setLength(o, n-1)
	return v
}

// arrayPush is Array.prototype.push(...items).
func arrayPush(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "push")
	if vm.plainDense(o) {
		if len(o.elems)+len(c.Args) > maxDenseLength {
			vm.throwRangeError("Invalid array length")
		}
		o.elems = append(o.elems, c.Args...)
		vm.chargeElems(len(c.Args))
		o.length = uint32(len(o.elems))
		return intValue(len(o.elems))
	}
	n := vm.LengthOfArrayLike(o)
	if n+int64(len(c.Args)) > maxArrayLikeLength {
		vm.throwTypeError("Pushing %d elements on an array-like of length %d is disallowed, as the total surpasses 2**53-1", len(c.Args), n)
	}
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
	n := vm.LengthOfArrayLike(o)
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
	n := vm.LengthOfArrayLike(o)
	if argc > 0 {
		if n+argc > maxArrayLikeLength {
			vm.throwTypeError("Invalid array length")
		}
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
	n := vm.LengthOfArrayLike(o)
	k := vm.relativeIndex(c.Arg(0), n, 0)
	final := vm.relativeIndex(c.Arg(1), n, n)
	count := max(final-k, 0)
	a := vm.arraySpeciesCreate(o, count)
	if vm.plainDense(o) && int64(len(o.elems)) == n && vm.freshArray(a) && int64(a.length) == count {
		a.elems = append([]Value(nil), o.elems[k:k+count]...)
		vm.chargeElems(int(count))
		return objectValue(a)
	}
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
		f := vm.ToIntegerOrInfinity(c.Args[1])
		del = int64(min(max(f, 0), float64(n-start)))
	}
	return start, del
}

// arraySplice is Array.prototype.splice(start, deleteCount, ...items).
func arraySplice(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "splice")
	n := vm.LengthOfArrayLike(o)
	start, del := vm.spliceCounts(&c, n)
	var items []Value
	if len(c.Args) > 2 {
		items = c.Args[2:]
	}
	itemCount := int64(len(items))
	if n+itemCount-del > maxArrayLikeLength {
		vm.throwTypeError("Invalid array length")
	}
	a := vm.arraySpeciesCreate(o, del)
	if vm.plainDense(o) && int64(len(o.elems)) == n && vm.freshArray(a) && int64(a.length) == del {
		if n+itemCount-del > maxDenseLength {
			vm.throwRangeError("Invalid array length")
		}
		a.elems = append([]Value(nil), o.elems[start:start+del]...)
		vm.chargeElems(int(del))
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

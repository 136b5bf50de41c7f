package interp

import "slices"

// The Array.prototype methods that reorder or copy with changes: sort (V8's TimSort),
// reverse, and the copying ES2023 methods toSorted, toReversed, toSpliced and with.

// checkComparator validates sort's comparator argument before anything else is read.
func (vm *VM) checkComparator(cmp Value) {
	if !cmp.IsUndefined() && !IsCallable(cmp) {
		vm.throwTypeError("The comparison function must be either a function or undefined")
	}
}

// sortValues sorts vals (no holes) as SortIndexedProperties does: undefined last, then by
// the comparator, or by string order of ToString when cmp is undefined. It is stable. A
// comparator is called exactly as V8 calls it (v8TimSort). Without one, primitives are
// converted once and sorted by any stable sort (the order is consistent, so the result is
// V8's); objects and Symbols are converted at each comparison, as V8 does, because their
// conversion is observable.
func (vm *VM) sortValues(vals []Value, cmp Value) []Value {
	defined := vals[:0:0]
	undef := 0
	for _, v := range vals {
		if v.IsUndefined() {
			undef++
			continue
		}
		defined = append(defined, v)
	}
	switch {
	case cmp.IsUndefined() && !allPrimitive(defined):
		// ToString of an object runs its toString or valueOf, and of a Symbol throws: V8
		// converts both operands on every comparison, in TimSort's order.
		v8TimSort(defined, func(x, y Value) int { return vm.toString(x).Compare(vm.toString(y)) })
	case cmp.IsUndefined():
		type keyed struct {
			s *jsString
			v Value
		}
		items := make([]keyed, len(defined))
		for i, v := range defined {
			var s *jsString
			if v.kind == KindString {
				s = v.str()
			} else {
				s = vm.toString(v)
			}
			items[i] = keyed{s, v}
		}
		mergeSort(items, func(x, y keyed) int { return x.s.Compare(y.s) })
		for i, it := range items {
			defined[i] = it.v
		}
	default:
		cb := newCallback(cmp, undefinedValue)
		v8TimSort(defined, func(x, y Value) int {
			r := cb.call2(vm, x, y)
			f := r.num
			if r.kind != KindNumber {
				f = vm.toNumber(r)
			}
			switch {
			case f < 0:
				return -1
			case f > 0:
				return 1
			}
			return 0
		})
	}
	for ; undef > 0; undef-- {
		defined = append(defined, undefinedValue)
	}
	return defined
}

// allPrimitive reports whether converting each of vals to a string is unobservable: no
// object (whose toString or valueOf may run) and no Symbol (which throws).
func allPrimitive(vals []Value) bool {
	for _, v := range vals {
		if v.kind == KindObject || v.kind == KindSymbol {
			return false
		}
	}
	return true
}

// mergeSort sorts a stably with cmp using a top-down merge sort with insertion sort for
// short runs; already ordered halves are not merged (sorted input costs n-1 comparisons).
// cmp may panic (a JavaScript exception): a is then left in some permutation.
func mergeSort[T any](a []T, cmp func(x, y T) int) {
	if len(a) < 2 {
		return
	}
	buf := make([]T, (len(a)+1)/2)
	mergeSortRec(a, buf, cmp)
}

func mergeSortRec[T any](a, buf []T, cmp func(x, y T) int) {
	n := len(a)
	if n <= 10 {
		for i := 1; i < n; i++ {
			x := a[i]
			j := i
			for ; j > 0 && cmp(a[j-1], x) > 0; j-- {
				a[j] = a[j-1]
			}
			a[j] = x
		}
		return
	}
	m := n / 2
	mergeSortRec(a[:m], buf, cmp)
	mergeSortRec(a[m:], buf, cmp)
	if cmp(a[m-1], a[m]) <= 0 {
		return
	}
	copy(buf[:m], a[:m])
	i, j, k := 0, m, 0
	for i < m && j < n {
		if cmp(a[j], buf[i]) < 0 {
			a[k] = a[j]
			j++
		} else {
			a[k] = buf[i]
			i++
		}
		k++
	}
	for i < m {
		a[k] = buf[i]
		i++
		k++
	}
}

// collectValues reads elements [0, n) of o; holes are skipped when skipHoles, else read as
// undefined.
func (vm *VM) collectValues(o *Object, n int64, skipHoles bool) []Value {
	if skipHoles {
		if idx, ok := vm.sparseIndices(o, n); ok {
			vals := make([]Value, 0, len(idx))
			vm.chargeElems(len(idx))
			for _, k := range idx {
				vals = append(vals, vm.getIndex(o, k))
			}
			return vals
		}
	}
	if n > maxDenseLength {
		vm.throwRangeError("Invalid array length")
	}
	vals := make([]Value, 0, n)
	vm.chargeElems(int(n))
	for k := int64(0); k < n; k++ {
		if skipHoles {
			if v, ok := vm.getPresent(o, k); ok {
				vals = append(vals, v)
			}
			continue
		}
		vals = append(vals, vm.getIndex(o, k))
	}
	return vals
}

// arraySort is Array.prototype.sort(comparefn): stable; undefined sorts last and holes go
// to the end.
func arraySort(vm *VM, c NativeCall) Value {
	cmp := c.Arg(0)
	vm.checkComparator(cmp)
	o := thisArrayObject(vm, &c, "sort")
	n := vm.lengthOfArrayLike(o)
	sorted := vm.sortValues(vm.collectValues(o, n, true), cmp)
	if vm.plainDense(o) && int64(len(o.elems)) == n {
		copy(o.elems, sorted)
		for k := len(sorted); k < len(o.elems); k++ {
			o.elems[k] = holeValue
		}
		trimTrailingHoles(o)
		return objectValue(o)
	}
	for k, v := range sorted {
		vm.setIndex(o, int64(k), v)
	}
	if idx, ok := vm.sparseIndices(o, n); ok {
		// deleting an absent element is a no-op: visit only the present ones
		for _, k := range idx {
			if k >= int64(len(sorted)) {
				vm.deleteIndex(o, k)
			}
		}
		return objectValue(o)
	}
	for k := int64(len(sorted)); k < n; k++ {
		vm.pollLoop(k)
		vm.deleteIndex(o, k)
	}
	return objectValue(o)
}

// arrayToSorted is Array.prototype.toSorted(comparefn): a sorted copy (holes become
// undefined).
func arrayToSorted(vm *VM, c NativeCall) Value {
	cmp := c.Arg(0)
	vm.checkComparator(cmp)
	o := thisArrayObject(vm, &c, "toSorted")
	n := vm.lengthOfArrayLike(o)
	if n > maxDenseLength {
		vm.throwRangeError("Invalid array length")
	}
	vals := vm.collectValues(o, n, false)
	return vm.newArrayValue(vm.sortValues(vals, cmp))
}

// arrayReverse is Array.prototype.reverse.
func arrayReverse(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "reverse")
	if vm.plainDense(o) {
		slices.Reverse(o.elems)
		trimTrailingHoles(o)
		return objectValue(o)
	}
	n := vm.lengthOfArrayLike(o)
	for lower := int64(0); lower < n/2; lower++ {
		vm.pollLoop(lower)
		upper := n - 1 - lower
		lv, lok := vm.getPresent(o, lower)
		uv, uok := vm.getPresent(o, upper)
		switch {
		case lok && uok:
			vm.setIndex(o, lower, uv)
			vm.setIndex(o, upper, lv)
		case uok:
			vm.setIndex(o, lower, uv)
			vm.deleteIndex(o, upper)
		case lok:
			vm.deleteIndex(o, lower)
			vm.setIndex(o, upper, lv)
		}
	}
	return objectValue(o)
}

// arrayToReversed is Array.prototype.toReversed: a reversed copy (holes become undefined).
func arrayToReversed(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toReversed")
	n := vm.lengthOfArrayLike(o)
	if n > maxDenseLength {
		vm.arrayCreate(n) // RangeError above 2^32-1
		vm.throwRangeError("Invalid array length")
	}
	vals := make([]Value, n)
	for k := int64(0); k < n; k++ {
		vals[k] = vm.getIndex(o, n-1-k)
	}
	return vm.newArrayValue(vals)
}

// arrayToSpliced is Array.prototype.toSpliced(start, skipCount, ...items): a copy with the
// splice applied.
func arrayToSpliced(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "toSpliced")
	n := vm.lengthOfArrayLike(o)
	start, skip := vm.spliceCounts(&c, n)
	var items []Value
	if len(c.Args) > 2 {
		items = c.Args[2:]
	}
	newLen := n + int64(len(items)) - skip
	if newLen > maxArrayLikeLength {
		vm.throwTypeError("Invalid array length")
	}
	if newLen > maxDenseLength {
		vm.arrayCreate(newLen)
		vm.throwRangeError("Invalid array length")
	}
	vals := make([]Value, 0, newLen)
	for k := int64(0); k < start; k++ {
		vals = append(vals, vm.getIndex(o, k))
	}
	vals = append(vals, items...)
	for k := start + skip; k < n; k++ {
		vals = append(vals, vm.getIndex(o, k))
	}
	return vm.newArrayValue(vals)
}

// arrayWith is Array.prototype.with(index, value): a copy with one element replaced.
func arrayWith(vm *VM, c NativeCall) Value {
	o := thisArrayObject(vm, &c, "with")
	n := vm.lengthOfArrayLike(o)
	rel := vm.toIntegerOrInfinity(c.Arg(0))
	actual := rel
	if rel < 0 {
		actual = float64(n) + rel
	}
	if actual >= float64(n) || actual < 0 {
		vm.throwRangeError("Invalid index : %s", numberToString(rel))
	}
	if n > maxDenseLength {
		vm.arrayCreate(n)
		vm.throwRangeError("Invalid array length")
	}
	vals := make([]Value, n)
	idx := int64(actual)
	for k := int64(0); k < n; k++ {
		if k == idx {
			vals[k] = c.Arg(1)
			continue
		}
		vals[k] = vm.getIndex(o, k)
	}
	return vm.newArrayValue(vals)
}

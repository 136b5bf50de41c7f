package interp

// Iterator.zip(iterables, options) and Iterator.zipKeyed(iterables, options) from the joint
// iteration proposal: one iterator that steps several iterators together and yields their
// values as an array (zip) or as a null-prototype object keyed like the input (zipKeyed).
//
// The result is an Iterator Helper object (%IteratorHelperPrototype%) whose slot is a
// zipHelper: plain data (iterator records, padding values, keys) so that a zip suspended
// part-way survives a snapshot.

// zipMode is the options.mode of Iterator.zip: when the shortest input ends, the zip ends
// ("shortest"), pads the finished inputs until all end ("longest"), or requires all inputs to
// end together ("strict", a TypeError otherwise).
type zipMode uint8

const (
	zipShortest zipMode = iota
	zipLongest
	zipStrict
)

// zipHelper is the slot data of an Iterator.zip / Iterator.zipKeyed result.
type zipHelper struct {
	iters   []*Iterator // the inputs; nil once an input is finished (no longer open)
	padding []Value     // longest: the value used for each finished input
	keys    []Value     // zipKeyed: the property key (string or symbol) of each input
	keyed   bool        // results are keyed objects (zipKeyed) rather than arrays (zip)
	mode    zipMode
	started bool // next has run once (return then resumes the suspended zip: "executing")
	running bool // re-entrancy guard (TypeError "Generator is already running")
	done    bool
}

// catchJS runs fn and returns the JavaScript exception it threw, or nil; other panics go on.
func catchJS(fn func()) (exc *Exception) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Exception)
			if !ok {
				panic(r)
			}
			exc = e
		}
	}()
	fn()
	return nil
}

// iteratorCloseAll is IteratorCloseAll: it closes the given iterators in reverse order (nil
// entries are skipped). With a pending exception, errors from closing are dropped and the
// exception is rethrown; otherwise the first error from a return() is thrown after all are
// closed.
func (vm *VM) iteratorCloseAll(iters []*Iterator, pending *Exception) {
	for i := len(iters) - 1; i >= 0; i-- {
		it := iters[i]
		if it == nil {
			continue
		}
		if pending != nil {
			vm.iteratorClose(it, true)
			continue
		}
		pending = catchJS(func() { vm.iteratorClose(it, false) })
	}
	if pending != nil {
		panic(pending)
	}
}

// closeAllOnThrow runs fn; if it throws, iters are closed (IfAbruptCloseIterators) and the
// exception goes on.
func (vm *VM) closeAllOnThrow(iters []*Iterator, fn func()) {
	if exc := catchJS(fn); exc != nil {
		vm.iteratorCloseAll(iters, exc)
	}
}

// zipOptions reads options (GetOptionsObject, then mode and, for "longest", padding). It
// returns the mode and the padding option (undefined unless given).
func (vm *VM) zipOptions(options Value) (zipMode, Value) {
	if options.IsUndefined() {
		return zipShortest, undefinedValue
	}
	if options.kind != KindObject {
		vm.throwTypeError("options must be an object, got %s", vm.describeForError(options))
	}
	o := options.obj()
	mode := zipShortest
	switch m := vm.getProp(o, strKey("mode")); {
	case m.IsUndefined():
	case m.kind == KindString && m.str().String() == "shortest":
	case m.kind == KindString && m.str().String() == "longest":
		mode = zipLongest
	case m.kind == KindString && m.str().String() == "strict":
		mode = zipStrict
	default:
		vm.throwTypeError("mode must be \"shortest\", \"longest\" or \"strict\", got %s", vm.describeForError(m))
	}
	if mode != zipLongest {
		return mode, undefinedValue
	}
	pad := vm.getProp(o, strKey("padding"))
	if !pad.IsUndefined() && pad.kind != KindObject {
		vm.throwTypeError("padding must be an object, got %s", vm.describeForError(pad))
	}
	return mode, pad
}

// iteratorZip is Iterator.zip(iterables, options).
func iteratorZip(vm *VM, c NativeCall) Value {
	iterables := c.Arg(0)
	if iterables.kind != KindObject {
		vm.throwTypeError("%s is not an object", vm.describeForError(iterables))
	}
	mode, padOpt := vm.zipOptions(c.Arg(1))
	input := vm.getIterator(iterables)
	var iters []*Iterator
	for {
		var next Value
		var ok bool
		vm.closeAllOnThrow(iters, func() { next, ok = vm.iteratorStep(input) })
		if !ok {
			break
		}
		var it *Iterator
		opened := append([]*Iterator{input}, iters...)
		vm.closeAllOnThrow(opened, func() { it = vm.getIteratorFlattenable(next, false) })
		iters = append(iters, it)
	}
	padding := make([]Value, len(iters))
	if mode == zipLongest && !padOpt.IsUndefined() {
		var padIter *Iterator
		vm.closeAllOnThrow(iters, func() { padIter = vm.getIterator(padOpt) })
		using := true
		for i := range padding {
			var v Value
			vm.closeAllOnThrow(iters, func() { v, using = vm.iteratorStep(padIter) })
			if !using {
				break
			}
			padding[i] = v
		}
		if using {
			vm.closeAllOnThrow(iters, func() { vm.iteratorClose(padIter, false) })
		}
	}
	return vm.newZipHelper(&zipHelper{iters: iters, padding: padding, mode: mode})
}

// iteratorZipKeyed is Iterator.zipKeyed(iterables, options): the inputs are the own
// enumerable properties of iterables whose value is not undefined, in property order.
func iteratorZipKeyed(vm *VM, c NativeCall) Value {
	iterables := c.Arg(0)
	if iterables.kind != KindObject {
		vm.throwTypeError("%s is not an object", vm.describeForError(iterables))
	}
	mode, padOpt := vm.zipOptions(c.Arg(1))
	src := iterables.obj()
	var iters []*Iterator
	var keys []Value
	for _, k := range vm.ownPropertyKeys(src) {
		var v Value
		skip := false
		vm.closeAllOnThrow(iters, func() {
			d, ok := vm.getOwnProperty(src, k)
			if !ok || !d.Enumerable {
				skip = true
				return
			}
			v = vm.getProp(src, k)
		})
		if skip || v.IsUndefined() {
			continue
		}
		keys = append(keys, k.toValue())
		var it *Iterator
		vm.closeAllOnThrow(iters, func() { it = vm.getIteratorFlattenable(v, false) })
		iters = append(iters, it)
	}
	padding := make([]Value, len(iters))
	if mode == zipLongest && !padOpt.IsUndefined() {
		pad := padOpt.obj()
		for i, k := range keys {
			vm.closeAllOnThrow(iters, func() { padding[i] = vm.getProp(pad, zipKey(k)) })
		}
	}
	return vm.newZipHelper(&zipHelper{iters: iters, padding: padding, keys: keys, keyed: true, mode: mode})
}

// zipKey turns a stored key value (string or symbol) back into a property key.
func zipKey(k Value) PropertyKey {
	if k.kind == KindSymbol {
		return symKey(k.sym())
	}
	return jsStringKey(k.str())
}

// newZipHelper wraps zip state in an Iterator Helper object.
func (vm *VM) newZipHelper(z *zipHelper) Value {
	obj := vm.newObject(vm.realm.Intrinsic("%IteratorHelperPrototype%"), ClassIterator)
	obj.slots = z
	return objectValue(obj)
}

// zipNext is %IteratorHelperPrototype%.next for a zip.
func (vm *VM) zipNext(z *zipHelper) Value {
	if z.running {
		vm.throwTypeError("Generator is already running")
	}
	if z.done {
		return vm.createIterResultObject(undefinedValue, true)
	}
	z.started = true
	z.running = true
	defer func() { z.running = false }()
	v, ok := vm.zipStep(z)
	if !ok {
		z.done = true
		return vm.createIterResultObject(undefinedValue, true)
	}
	return vm.createIterResultObject(v, false)
}

// zipReturn is %IteratorHelperPrototype%.return for a zip: it closes the open inputs. A zip
// not yet started is completed before closing (its next then reports done); a started one
// is executing while its inputs close (its next then throws).
func (vm *VM) zipReturn(z *zipHelper) Value {
	if z.running {
		vm.throwTypeError("Generator is already running")
	}
	if !z.done {
		z.done = true
		z.running = z.started
		defer func() { z.running = false }()
		open := z.iters
		z.iters = make([]*Iterator, len(open))
		vm.iteratorCloseAll(open, nil)
	}
	return vm.createIterResultObject(undefinedValue, true)
}

// zipStep produces the next result of a zip, or ok=false when it has ended.
func (vm *VM) zipStep(z *zipHelper) (Value, bool) {
	defer func() {
		if r := recover(); r != nil {
			z.done = true
			panic(r)
		}
	}()
	n := len(z.iters)
	if n == 0 {
		return undefinedValue, false
	}
	results := make([]Value, n)
	for i := 0; i < n; i++ {
		it := z.iters[i]
		if it == nil {
			results[i] = z.padding[i]
			continue
		}
		var v Value
		var ok bool
		if exc := catchJS(func() { v, ok = vm.iteratorStep(it) }); exc != nil {
			z.iters[i] = nil
			vm.iteratorCloseAll(z.iters, exc)
		}
		if ok {
			results[i] = v
			continue
		}
		z.iters[i] = nil
		switch z.mode {
		case zipShortest:
			vm.iteratorCloseAll(z.iters, nil)
			return undefinedValue, false
		case zipStrict:
			vm.zipStrictEnd(z, i)
			return undefinedValue, false
		}
		if z.allFinished() {
			return undefinedValue, false
		}
		results[i] = z.padding[i]
	}
	return vm.zipResult(z, results), true
}

// zipStrictEnd handles the end of input i in "strict" mode: every other input must end at
// the same step, else a TypeError (after closing the inputs still open).
func (vm *VM) zipStrictEnd(z *zipHelper, i int) {
	if i != 0 {
		vm.iteratorCloseAll(z.iters, &Exception{Value: vm.newTypeError("Iterator.zip: inputs have different lengths")})
	}
	for k := 1; k < len(z.iters); k++ {
		it := z.iters[k]
		var done bool
		if exc := catchJS(func() { done = vm.iteratorStepDone(it) }); exc != nil {
			z.iters[k] = nil
			vm.iteratorCloseAll(z.iters, exc)
		}
		if !done {
			vm.iteratorCloseAll(z.iters, &Exception{Value: vm.newTypeError("Iterator.zip: inputs have different lengths")})
		}
		z.iters[k] = nil
	}
}

// iteratorStepDone is IteratorStep without reading the value: whether the iterator is done.
func (vm *VM) iteratorStepDone(it *Iterator) bool {
	if it.Done {
		return true
	}
	it.Done = true
	r := vm.iteratorNext(it)
	if ToBoolean(vm.getProp(r, keyDone)) {
		return true
	}
	it.Done = false
	return false
}

// allFinished reports whether no input is open any more.
func (z *zipHelper) allFinished() bool {
	for _, it := range z.iters {
		if it != nil {
			return false
		}
	}
	return true
}

// zipResult makes one result: a fresh array (zip) or a fresh null-prototype object whose
// properties are the input keys in order (zipKeyed).
func (vm *VM) zipResult(z *zipHelper, results []Value) Value {
	if !z.keyed {
		return vm.newArrayValue(results)
	}
	o := vm.newObject(nil, ClassObject)
	for i, k := range z.keys {
		vm.createDataPropertyOrThrow(o, zipKey(k), results[i])
	}
	return objectValue(o)
}

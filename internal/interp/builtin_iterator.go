package interp

import "math"

// %IteratorPrototype%, the Iterator global with its helper methods (map, filter, take, drop,
// flatMap, reduce, toArray, forEach, some, every, find; chunks, windows, includes and join
// in their own files) and Iterator.from, Iterator.concat (Iterator.zip and zipKeyed in
// builtin_iterator_zip.go), and
// %ArrayIteratorPrototype% (Array.prototype.values/keys/entries and for-of over arrays).
//
// Iterator state lives in the iterator object's slots as plain data (arrayIterator,
// iteratorHelper) so that a suspended iteration survives a snapshot.

func init() { registerBuiltin("Iterator", 3, setupIterator) }

// arrayIterKind selects what an array iterator yields.
type arrayIterKind uint8

const (
	iterValues  arrayIterKind = iota // values()
	iterKeys                         // keys()
	iterEntries                      // entries(): [index, value]
)

// arrayIterator is the slot data of an Array Iterator object.
type arrayIterator struct {
	target Value // the iterated object; undefined once exhausted
	index  int64
	kind   arrayIterKind
}

// iteratorHelper is the slot data of an Iterator Helper object (the result of map/filter/...).
type iteratorHelper struct {
	method  string    // "map", "filter", "take", "drop", "flatMap", "concat", "chunks", "windows"
	under   *Iterator // the underlying iterator record (nil for concat)
	items   []Value   // concat: pairs of (iterator method, iterable); chunks/windows: the buffer
	pos     int       // concat: the next pair to open
	fn      Value     // the callback (map/filter/flatMap); undefined otherwise
	counter int64     // the index passed to the callback; windows: the undersized mode
	limit   float64   // take/drop: the remaining count; chunks/windows: the size
	inner   *Iterator // flatMap: the current inner iterator, or nil
	running bool      // re-entrancy guard (TypeError "Generator is already running")
	done    bool
}

// wrapForValidIterator is the slot data of Iterator.from's wrapper (%WrapForValidIteratorPrototype%).
type wrapForValidIterator struct {
	iterated *Iterator
}

func setupIterator(r *Realm) {
	ip := r.IteratorPrototype
	r.symbolMethod(ip, symIterator, 0, func(vm *VM, c NativeCall) Value { return c.This }, propHidden)
	ctor := r.newConstructor("Iterator", 0, iteratorConstructor, ip)
	r.method(ctor, "from", 1, iteratorFrom)
	r.method(ctor, "concat", 0, iteratorConcat)
	r.method(ctor, "zip", 1, iteratorZip)
	r.method(ctor, "zipKeyed", 1, iteratorZipKeyed)
	// Iterator.prototype.constructor and [Symbol.toStringTag] are accessors whose setters
	// ignore the prototype itself (web compatibility).
	ip.props.remove(keyConstructor)
	r.accessor(ip, keyConstructor, iteratorProtoConstructorGet, iteratorProtoConstructorSet)
	r.accessor(ip, symKey(symToStringTag), iteratorProtoTagGet, iteratorProtoTagSet)
	r.method(ip, "map", 1, iteratorMap)
	r.method(ip, "filter", 1, iteratorFilter)
	r.method(ip, "take", 1, iteratorTake)
	r.method(ip, "drop", 1, iteratorDrop)
	r.method(ip, "flatMap", 1, iteratorFlatMap)
	r.method(ip, "reduce", 1, iteratorReduce)
	r.method(ip, "toArray", 0, iteratorToArray)
	r.method(ip, "forEach", 1, iteratorForEach)
	r.method(ip, "some", 1, iteratorSome)
	r.method(ip, "every", 1, iteratorEvery)
	r.method(ip, "find", 1, iteratorFind)
	r.method(ip, "chunks", 1, iteratorChunks)
	r.method(ip, "windows", 1, iteratorWindows)
	r.method(ip, "includes", 1, iteratorIncludes)
	r.method(ip, "join", 1, iteratorJoin)
	r.defineGlobal("Iterator", objectValue(ctor))

	ai := r.ArrayIteratorPrototype
	r.method(ai, "next", 0, arrayIteratorNext)
	r.value(ai, symKey(symToStringTag), asciiValue("Array Iterator"), propConfigurable)

	hp := r.vm.newObject(ip, ClassObject)
	r.addIntrinsic("%IteratorHelperPrototype%", hp)
	r.method(hp, "next", 0, iteratorHelperNext)
	r.method(hp, "return", 0, iteratorHelperReturn)
	r.value(hp, symKey(symToStringTag), asciiValue("Iterator Helper"), propConfigurable)

	wp := r.vm.newObject(ip, ClassObject)
	r.addIntrinsic("%WrapForValidIteratorPrototype%", wp)
	r.method(wp, "next", 0, wrapIteratorNext)
	r.method(wp, "return", 0, wrapIteratorReturn)
}

// newArrayIterator creates an Array Iterator over target (CreateArrayIterator).
func (vm *VM) newArrayIterator(target Value, kind arrayIterKind) Value {
	o := vm.newObject(vm.realm.arrayIteratorPrototype(), ClassIterator)
	o.slots = &arrayIterator{target: target, kind: kind}
	return objectValue(o)
}

// arrayIteratorNext is %ArrayIteratorPrototype%.next.
func arrayIteratorNext(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	var it *arrayIterator
	if o != nil {
		it, _ = o.slots.(*arrayIterator)
	}
	if it == nil {
		vm.throwTypeError("next method called on incompatible %s", vm.describeForError(c.This))
	}
	if it.target.IsUndefined() {
		return vm.createIterResultObject(undefinedValue, true)
	}
	t := it.target.obj()
	if t.class == ClassTypedArray {
		if _, ok := t.slots.(*typedArray).length(); !ok {
			vm.throwTypeError("Cannot perform %%ArrayIteratorPrototype%%.next on a detached ArrayBuffer")
		}
		if n, _ := t.slots.(*typedArray).length(); it.index >= int64(n) {
			it.target = undefinedValue
			return vm.createIterResultObject(undefinedValue, true)
		}
	} else if it.index >= vm.lengthOfArrayLike(t) {
		it.target = undefinedValue
		return vm.createIterResultObject(undefinedValue, true)
	}
	i := it.index
	it.index++
	switch it.kind {
	case iterKeys:
		return vm.createIterResultObject(Number(float64(i)), false)
	case iterEntries:
		pair := vm.newArrayValue([]Value{Number(float64(i)), vm.getIndex(t, i)})
		return vm.createIterResultObject(pair, false)
	}
	return vm.createIterResultObject(vm.getIndex(t, i), false)
}

// iteratorConstructor is Iterator(): abstract, only constructible through a subclass.
func iteratorConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil || c.NewTarget == c.Callee {
		vm.throwTypeError("Abstract class Iterator not directly constructable")
	}
	return objectValue(vm.ordinaryCreateFromConstructor(c.NewTarget, "Iterator.prototype", ClassObject))
}

// thisIteratorRecord checks that this is an object and returns GetIteratorDirect(this)
// without reading next (helpers read next lazily after validating arguments).
func thisIteratorObject(vm *VM, c NativeCall, method string) *Object {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Iterator.prototype.%s called on non-object", method)
	}
	return o
}

// closeOnThrow closes the iterator (ignoring its errors) and rethrows v.
func (vm *VM) closeAndThrow(it *Iterator, v Value) {
	vm.iteratorClose(it, true)
	vm.throw(v)
}

// requireCallableArg validates a callback argument of a helper, closing the iterator first.
func (vm *VM) requireCallableArg(o *Object, fn Value, method string) {
	if !IsCallable(fn) {
		it := &Iterator{Obj: objectValue(o)}
		vm.closeAndThrow(it, vm.newTypeError("%s is not a function", vm.describeForError(fn)))
	}
}

// newIteratorHelper creates the helper object for map/filter/take/drop/flatMap.
func (vm *VM) newIteratorHelper(o *Object, method string, fn Value, limit float64) Value {
	h := &iteratorHelper{method: method, under: vm.getIteratorDirect(o), fn: fn, limit: limit}
	obj := vm.newObject(vm.realm.Intrinsic("%IteratorHelperPrototype%"), ClassIterator)
	obj.slots = h
	return objectValue(obj)
}

func iteratorMap(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "map")
	vm.requireCallableArg(o, c.Arg(0), "map")
	return vm.newIteratorHelper(o, "map", c.Arg(0), 0)
}

func iteratorFilter(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "filter")
	vm.requireCallableArg(o, c.Arg(0), "filter")
	return vm.newIteratorHelper(o, "filter", c.Arg(0), 0)
}

func iteratorFlatMap(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "flatMap")
	vm.requireCallableArg(o, c.Arg(0), "flatMap")
	return vm.newIteratorHelper(o, "flatMap", c.Arg(0), 0)
}

// helperLimit validates the count argument of take/drop.
func (vm *VM) helperLimit(o *Object, v Value) float64 {
	it := &Iterator{Obj: objectValue(o)}
	var n float64
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(*Exception); ok {
					vm.closeAndThrow(it, e.Value)
				}
				panic(r)
			}
		}()
		n = vm.toNumber(v)
	}()
	if n != n {
		vm.closeAndThrow(it, vm.newRangeError("%s must be positive", v.String()))
	}
	n = vm.toIntegerOrInfinity(Number(n))
	if n < 0 || (n > maxSafeInteger && !math.IsInf(n, 1)) {
		vm.closeAndThrow(it, vm.newRangeError("%s must be positive", v.String()))
	}
	return n
}

func iteratorTake(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "take")
	return vm.newIteratorHelper(o, "take", undefinedValue, vm.helperLimit(o, c.Arg(0)))
}

func iteratorDrop(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "drop")
	return vm.newIteratorHelper(o, "drop", undefinedValue, vm.helperLimit(o, c.Arg(0)))
}

// callClosing calls fn(args) and closes it (then rethrows) if fn throws.
func (vm *VM) callClosing(it *Iterator, fn Value, args ...Value) (result Value) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Exception); ok {
				vm.iteratorClose(it, true)
			}
			panic(r)
		}
	}()
	return vm.Call(fn, undefinedValue, args...)
}

// iteratorHelperNext is %IteratorHelperPrototype%.next.
func iteratorHelperNext(vm *VM, c NativeCall) Value {
	if z := thisZip(c.This); z != nil {
		return vm.zipNext(z)
	}
	h := thisHelper(vm, c.This)
	if h.running {
		vm.throwTypeError("Generator is already running")
	}
	if h.done {
		return vm.createIterResultObject(undefinedValue, true)
	}
	h.running = true
	defer func() { h.running = false }()
	v, ok := vm.helperStep(h)
	if !ok {
		h.done = true
		return vm.createIterResultObject(undefinedValue, true)
	}
	return vm.createIterResultObject(v, false)
}

// helperStep produces the next value of a helper, or ok=false when it is exhausted.
func (vm *VM) helperStep(h *iteratorHelper) (Value, bool) {
	markDone := func() { h.done = true }
	defer func() {
		if r := recover(); r != nil {
			markDone()
			panic(r)
		}
	}()
	switch h.method {
	case "chunks":
		return vm.chunksStep(h)
	case "windows":
		return vm.windowsStep(h)
	case "map":
		v, ok := vm.iteratorStep(h.under)
		if !ok {
			return undefinedValue, false
		}
		r := vm.callClosing(h.under, h.fn, v, Number(float64(h.counter)))
		h.counter++
		return r, true
	case "filter":
		for {
			v, ok := vm.iteratorStep(h.under)
			if !ok {
				return undefinedValue, false
			}
			sel := vm.callClosing(h.under, h.fn, v, Number(float64(h.counter)))
			h.counter++
			if ToBoolean(sel) {
				return v, true
			}
		}
	case "take":
		if h.limit == 0 {
			vm.iteratorClose(h.under, false)
			return undefinedValue, false
		}
		h.limit--
		return vm.iteratorStep(h.under)
	case "drop":
		for h.limit > 0 {
			h.limit--
			if _, ok := vm.iteratorStep(h.under); !ok {
				return undefinedValue, false
			}
		}
		return vm.iteratorStep(h.under)
	case "concat":
		for {
			if h.inner != nil {
				if v, ok := vm.iteratorStep(h.inner); ok {
					return v, true
				}
				h.inner = nil
			}
			if 2*h.pos >= len(h.items) {
				return undefinedValue, false
			}
			method, iterable := h.items[2*h.pos], h.items[2*h.pos+1]
			h.pos++
			it := vm.Call(method, iterable)
			if it.kind != KindObject {
				vm.throwTypeError("Result of the Symbol.iterator method is not an object")
			}
			h.inner = vm.getIteratorDirect(it.obj())
		}
	case "flatMap":
		for {
			if h.inner != nil {
				v, ok := func() (v Value, ok bool) {
					defer func() {
						if r := recover(); r != nil {
							if _, isEx := r.(*Exception); isEx {
								vm.iteratorClose(h.under, true)
							}
							panic(r)
						}
					}()
					return vm.iteratorStep(h.inner)
				}()
				if ok {
					return v, true
				}
				h.inner = nil
			}
			v, ok := vm.iteratorStep(h.under)
			if !ok {
				return undefinedValue, false
			}
			mapped := vm.callClosing(h.under, h.fn, v, Number(float64(h.counter)))
			h.counter++
			func() {
				defer func() {
					if r := recover(); r != nil {
						if _, isEx := r.(*Exception); isEx {
							vm.iteratorClose(h.under, true)
						}
						panic(r)
					}
				}()
				h.inner = vm.getIteratorFlattenable(mapped, false)
			}()
		}
	}
	return undefinedValue, false
}

// getIteratorFlattenable is GetIteratorFlattenable (iterate-strings when allowStrings).
func (vm *VM) getIteratorFlattenable(v Value, allowStrings bool) *Iterator {
	if v.kind != KindObject && !(allowStrings && v.kind == KindString) {
		vm.throwTypeError("%s is not an object", vm.describeForError(v))
	}
	m := vm.getMethod(v, symKey(symIterator))
	var it Value
	if m.IsUndefined() {
		it = v
	} else {
		it = vm.Call(m, v)
	}
	if it.kind != KindObject {
		vm.throwTypeError("%s is not an object", vm.describeForError(it))
	}
	return vm.getIteratorDirect(it.obj())
}

// thisZip returns the zip state of an Iterator.zip / zipKeyed result, or nil.
func thisZip(v Value) *zipHelper {
	if o := v.asObject(); o != nil {
		z, _ := o.slots.(*zipHelper)
		return z
	}
	return nil
}

// thisHelper unwraps an Iterator Helper this value.
func thisHelper(vm *VM, v Value) *iteratorHelper {
	if o := v.asObject(); o != nil {
		if h, ok := o.slots.(*iteratorHelper); ok {
			return h
		}
	}
	vm.throwTypeError("Iterator Helper method called on incompatible receiver %s", vm.describeForError(v))
	return nil
}

// iteratorHelperReturn is %IteratorHelperPrototype%.return.
func iteratorHelperReturn(vm *VM, c NativeCall) Value {
	if z := thisZip(c.This); z != nil {
		return vm.zipReturn(z)
	}
	h := thisHelper(vm, c.This)
	if h.running {
		vm.throwTypeError("Generator is already running")
	}
	if !h.done {
		h.done = true
		h.running = true
		defer func() { h.running = false }()
		if h.inner != nil {
			inner := h.inner
			h.inner = nil
			func() {
				defer func() {
					if r := recover(); r != nil {
						if h.under != nil {
							vm.iteratorClose(h.under, true)
						}
						panic(r)
					}
				}()
				vm.iteratorClose(inner, false)
			}()
		}
		if h.under != nil {
			vm.iteratorClose(h.under, false)
		}
	}
	return vm.createIterResultObject(undefinedValue, true)
}

// consume drives the underlying iterator of this for the eager helpers.
func (vm *VM) consumeIterator(c NativeCall, method string, needFn bool, fn func(it *Iterator, v Value, i int64) bool) {
	o := thisIteratorObject(vm, c, method)
	if needFn {
		vm.requireCallableArg(o, c.Arg(0), method)
	}
	it := vm.getIteratorDirect(o)
	for i := int64(0); ; i++ {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return
		}
		if !fn(it, v, i) {
			return
		}
	}
}

func iteratorReduce(vm *VM, c NativeCall) Value {
	o := thisIteratorObject(vm, c, "reduce")
	vm.requireCallableArg(o, c.Arg(0), "reduce")
	it := vm.getIteratorDirect(o)
	var acc Value
	counter := int64(0)
	if len(c.Args) < 2 {
		v, ok := vm.iteratorStep(it)
		if !ok {
			vm.throwTypeError("Reduce of empty iterator with no initial value")
		}
		acc = v
		counter = 1
	} else {
		acc = c.Args[1]
	}
	fn := c.Arg(0)
	for ; ; counter++ {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return acc
		}
		acc = vm.callClosing(it, fn, acc, v, Number(float64(counter)))
	}
}

func iteratorToArray(vm *VM, c NativeCall) Value {
	var out []Value
	vm.consumeIterator(c, "toArray", false, func(_ *Iterator, v Value, _ int64) bool {
		out = append(out, v)
		return true
	})
	return vm.newArrayValue(out)
}

func iteratorForEach(vm *VM, c NativeCall) Value {
	fn := c.Arg(0)
	vm.consumeIterator(c, "forEach", true, func(it *Iterator, v Value, i int64) bool {
		vm.callClosing(it, fn, v, Number(float64(i)))
		return true
	})
	return undefinedValue
}

func iteratorSome(vm *VM, c NativeCall) Value {
	fn, found := c.Arg(0), false
	vm.consumeIterator(c, "some", true, func(it *Iterator, v Value, i int64) bool {
		if ToBoolean(vm.callClosing(it, fn, v, Number(float64(i)))) {
			found = true
			vm.iteratorClose(it, false)
			return false
		}
		return true
	})
	return Bool(found)
}

func iteratorEvery(vm *VM, c NativeCall) Value {
	fn, all := c.Arg(0), true
	vm.consumeIterator(c, "every", true, func(it *Iterator, v Value, i int64) bool {
		if !ToBoolean(vm.callClosing(it, fn, v, Number(float64(i)))) {
			all = false
			vm.iteratorClose(it, false)
			return false
		}
		return true
	})
	return Bool(all)
}

func iteratorFind(vm *VM, c NativeCall) Value {
	fn, found := c.Arg(0), undefinedValue
	vm.consumeIterator(c, "find", true, func(it *Iterator, v Value, i int64) bool {
		if ToBoolean(vm.callClosing(it, fn, v, Number(float64(i)))) {
			found = v
			vm.iteratorClose(it, false)
			return false
		}
		return true
	})
	return found
}

// iteratorFrom is Iterator.from(obj).
func iteratorFrom(vm *VM, c NativeCall) Value {
	rec := vm.getIteratorFlattenable(c.Arg(0), true)
	if o := rec.Obj.obj(); vm.ordinaryHasInstance(objectValue(vm.realm.Intrinsic("Iterator")), rec.Obj) {
		return objectValue(o)
	}
	w := vm.newObject(vm.realm.Intrinsic("%WrapForValidIteratorPrototype%"), ClassIterator)
	w.slots = &wrapForValidIterator{iterated: rec}
	return objectValue(w)
}

func thisWrap(vm *VM, v Value) *wrapForValidIterator {
	if o := v.asObject(); o != nil {
		if w, ok := o.slots.(*wrapForValidIterator); ok {
			return w
		}
	}
	vm.throwTypeError("incompatible receiver %s", vm.describeForError(v))
	return nil
}

func wrapIteratorNext(vm *VM, c NativeCall) Value {
	w := thisWrap(vm, c.This)
	return vm.Call(w.iterated.Next, w.iterated.Obj)
}

func wrapIteratorReturn(vm *VM, c NativeCall) Value {
	w := thisWrap(vm, c.This)
	ret := vm.getMethod(w.iterated.Obj, keyReturn)
	if ret.IsUndefined() {
		return vm.createIterResultObject(undefinedValue, true)
	}
	return vm.Call(ret, w.iterated.Obj)
}

// iteratorConcat is Iterator.concat(...items): one iterator over each item's values in turn.
func iteratorConcat(vm *VM, c NativeCall) Value {
	items := make([]Value, 0, 2*len(c.Args))
	for _, item := range c.Args {
		if item.kind != KindObject {
			vm.throwTypeError("%s is not an object", vm.describeForError(item))
		}
		m := vm.getMethod(item, symKey(symIterator))
		if m.IsUndefined() {
			vm.throwTypeError("%s is not iterable", vm.describeForError(item))
		}
		items = append(items, m, item)
	}
	obj := vm.newObject(vm.realm.Intrinsic("%IteratorHelperPrototype%"), ClassIterator)
	obj.slots = &iteratorHelper{method: "concat", items: items}
	return objectValue(obj)
}

// setterIgnoringPrototype is SetterThatIgnoresPrototypeProperties(this, home, key, v).
func (vm *VM) setterIgnoringPrototype(this Value, home *Object, key PropertyKey, v Value) {
	o := this.asObject()
	if o == nil {
		vm.throwTypeError("setter called on non-object")
	}
	if o == home {
		vm.throwTypeError("Cannot assign to read only property '%s' of object", key)
	}
	if !vm.hasOwnProperty(o, key) {
		vm.createDataPropertyOrThrow(o, key, v)
		return
	}
	vm.setProp(o, key, v)
}

func iteratorProtoConstructorGet(vm *VM, c NativeCall) Value {
	return objectValue(vm.realm.Intrinsic("Iterator"))
}

func iteratorProtoConstructorSet(vm *VM, c NativeCall) Value {
	vm.setterIgnoringPrototype(c.This, vm.realm.iteratorPrototype(), keyConstructor, c.Arg(0))
	return undefinedValue
}

func iteratorProtoTagGet(vm *VM, c NativeCall) Value { return asciiValue("Iterator") }

func iteratorProtoTagSet(vm *VM, c NativeCall) Value {
	vm.setterIgnoringPrototype(c.This, vm.realm.iteratorPrototype(), symKey(symToStringTag), c.Arg(0))
	return undefinedValue
}

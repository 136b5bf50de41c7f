package interp

// Promise.allKeyed(promises) and Promise.allSettledKeyed(promises) from the await dictionary
// proposal: like Promise.all / allSettled over the own enumerable properties of an object,
// settling with a null-prototype object that has the same keys in the same order.
//
// The shared state (keys, values so far, the remaining count) and each element function's
// state are plain records with snapshot codecs, so a run suspended while the promises are
// pending resumes with the combinator intact.

func init() {
	registerBuiltin("PromiseKeyed", 32, setupPromiseKeyed)
	registerSlotType("keyedCombinator", func() slotCodec { return &keyedCombinator{} }, decodeKeyedCombinator)
	registerSlotType("keyedElement", func() slotCodec { return &keyedElement{} }, decodeKeyedElement)
}

func setupPromiseKeyed(r *Realm) {
	ctor := r.Intrinsic("Promise")
	r.method(ctor, "allKeyed", 1, func(vm *VM, c NativeCall) Value { return vm.promiseAllKeyed(c, false) })
	r.method(ctor, "allSettledKeyed", 1, func(vm *VM, c NativeCall) Value { return vm.promiseAllKeyed(c, true) })
}

// keyedCombinator is the state shared by the element functions of one allKeyed or
// allSettledKeyed call.
type keyedCombinator struct {
	keys      []Value // the property keys (strings or symbols), in order
	values    []Value // the settled value (or allSettled record) of each key so far
	remaining int     // elements not yet settled, plus one while the keys are being read
	resolve   Value   // the result capability's resolve function
	settled   bool    // allSettledKeyed (values are {status, value|reason} records)
}

// keyedElement is the data of one element function (fulfilled or, for allSettledKeyed,
// rejected). The pair made for one key shares called.
type keyedElement struct {
	state  *keyedCombinator
	called *resolvedFlag // [[AlreadyCalled]]
	index  int
	reject bool
}

var nativeKeyedElement = registerNative("%PromiseKeyedElement%", keyedElementFunction)

// keyedElementFunction records one settled value; the last one resolves the result.
func keyedElementFunction(vm *VM, c NativeCall) Value {
	d := c.Callee.slots.(*nativeFunction).data.(*keyedElement)
	if d.called.done {
		return undefinedValue
	}
	d.called.done = true
	st := d.state
	if d.index >= len(st.values) {
		vm.throwTypeError("Promise keyed element function out of range")
	}
	v := c.Arg(0)
	if st.settled {
		v = vm.settledRecord(v, d.reject)
	}
	st.values[d.index] = v
	st.remaining--
	if st.remaining == 0 {
		return vm.Call(st.resolve, undefinedValue, vm.keyedResult(st))
	}
	return undefinedValue
}

// keyedResult is CreateKeyedPromiseCombinatorResultObject: a null-prototype object with
// each key mapped to its value.
func (vm *VM) keyedResult(st *keyedCombinator) Value {
	o := vm.newObject(nil, ClassObject)
	for i, k := range st.keys {
		vm.createDataPropertyOrThrow(o, zipKey(k), st.values[i])
	}
	return objectValue(o)
}

// newKeyedElement creates an element function (length 1, no name).
func (vm *VM) newKeyedElement(st *keyedCombinator, called *resolvedFlag, i int, reject bool) Value {
	return objectValue(vm.newNativeFunction(&nativeFunction{name: nativeKeyedElement.name, fn: nativeKeyedElement.fn,
		data: &keyedElement{state: st, called: called, index: i, reject: reject}}, "", 1))
}

// promiseAllKeyed is Promise.allKeyed (settled=false) and Promise.allSettledKeyed.
func (vm *VM) promiseAllKeyed(c NativeCall, settled bool) Value {
	p, resolve, reject := vm.newPromiseCapability(c.This)
	func() {
		defer vm.rejectOnThrow(reject)
		resolveFn := vm.getProp(c.This.obj(), strKey("resolve"))
		if !IsCallable(resolveFn) {
			vm.throwTypeError("Promise resolve is not a function")
		}
		promises := c.Arg(0)
		if promises.kind != KindObject {
			vm.throwTypeError("%s is not an object", vm.describeForError(promises))
		}
		src := promises.obj()
		st := &keyedCombinator{remaining: 1, resolve: resolve, settled: settled}
		for _, k := range vm.ownPropertyKeys(src) {
			d, ok := vm.getOwnProperty(src, k)
			if !ok || !d.Enumerable {
				continue
			}
			v := vm.getProp(src, k)
			i := len(st.keys)
			st.keys = append(st.keys, k.toValue())
			st.values = append(st.values, undefinedValue)
			next := vm.Call(resolveFn, c.This, v)
			called := &resolvedFlag{}
			onF, onR := vm.newKeyedElement(st, called, i, false), reject
			if settled {
				onR = vm.newKeyedElement(st, called, i, true)
			}
			st.remaining++
			vm.combinatorThen(next, onF, onR)
		}
		st.remaining--
		if st.remaining == 0 {
			vm.Call(resolve, undefinedValue, vm.keyedResult(st))
		}
	}()
	return p
}

// Snapshot codecs: a keyedCombinator is [keys, values, remaining, resolve, settled]; a
// keyedElement is [state, called, index, reject].

func (st *keyedCombinator) slotTag() string { return "keyedCombinator" }

func (st *keyedCombinator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.values(st.keys)
	e.values(st.values)
	e.w.int(int64(st.remaining))
	e.value(st.resolve)
	e.w.bool(st.settled)
	e.w.endArray()
}

func (st *keyedCombinator) walkSlot(w *heapWalker) {
	w.values(st.keys)
	w.values(st.values)
	w.value(st.resolve)
}

func decodeKeyedCombinator(d *heapDecoder, r *jsonReader, s slotCodec) {
	st := s.(*keyedCombinator)
	r.beginArray()
	r.more(true)
	st.keys = d.values(r)
	r.more(false)
	st.values = d.values(r)
	r.more(false)
	st.remaining = int(r.int())
	r.more(false)
	st.resolve = d.value(r)
	r.more(false)
	st.settled = r.bool()
	r.more(false)
	if len(st.keys) != len(st.values) {
		r.fail("keyed combinator keys and values differ in length")
	}
	for _, k := range st.keys {
		if k.kind != KindString && k.kind != KindSymbol {
			r.fail("keyed combinator key is not a property key")
		}
	}
}

func (ed *keyedElement) slotTag() string { return "keyedElement" }

func (ed *keyedElement) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.node(ed.state)
	e.node(ed.called)
	e.w.int(int64(ed.index))
	e.w.bool(ed.reject)
	e.w.endArray()
}

func (ed *keyedElement) walkSlot(w *heapWalker) {
	w.node(ed.state)
	w.node(ed.called)
}

func decodeKeyedElement(d *heapDecoder, r *jsonReader, s slotCodec) {
	ed := s.(*keyedElement)
	r.beginArray()
	r.more(true)
	ed.state, _ = d.node(r).(*keyedCombinator)
	r.more(false)
	ed.called, _ = d.node(r).(*resolvedFlag)
	r.more(false)
	ed.index = int(r.int())
	r.more(false)
	ed.reject = r.bool()
	r.more(false)
	if ed.state == nil || ed.called == nil {
		r.fail("keyed element function without its state")
		ed.state, ed.called = &keyedCombinator{}, &resolvedFlag{}
	}
	if ed.index < 0 {
		r.fail("bad keyed element index")
	}
}

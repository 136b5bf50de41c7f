package interp

// Array.fromAsync(items, mapFn, thisArg): the asynchronous Array.from. It returns a promise
// and runs as a state machine driven by promise reactions: every await registers two
// run-time natives ("Array.fromAsync resume" / "Array.fromAsync abort") whose data is the
// shared fromAsyncState, so a suspended Array.fromAsync is plain heap data that snapshots
// carry. Values come from an async iterator, a sync iterator (each value awaited, the
// iterator closed when a value rejects), or an array-like (each element awaited).

// fromAsyncPhase says what the pending await of an Array.fromAsync is for.
type fromAsyncPhase uint8

const (
	fromAsyncNext   fromAsyncPhase = iota // the result of an async iterator's next()
	fromAsyncValue                        // a value of a sync iterator or an array-like element
	fromAsyncMapped                       // the result of the mapping function
	fromAsyncClose                        // an async iterator's return() while an error propagates
)

// fromAsyncState is the state of one Array.fromAsync call.
type fromAsyncState struct {
	promise   *Object   // the promise Array.fromAsync returned
	target    *Object   // the array (or constructed object) being filled
	mapFn     Value     // undefined when not mapping
	thisArg   Value     // this of mapFn
	iter      *Iterator // the iterator; nil for an array-like
	sync      bool      // iter is a sync iterator
	arrayLike *Object   // the array-like source when iter is nil
	length    int64     // the array-like's length
	k         int64     // the next index
	phase     fromAsyncPhase
	pending   Value // the error being propagated while closing
	settled   bool
}

// fromAsyncRef is the data of the resume/abort natives: a reference to the shared state.
type fromAsyncRef struct{ st *fromAsyncState }

// The run-time natives that continue an Array.fromAsync after an await (registered in init:
// they refer back to the state machine, which refers to them).
var nativeFromAsyncResume, nativeFromAsyncAbort *nativeFunction

func init() {
	nativeFromAsyncResume = registerNative("Array.fromAsync resume", func(vm *VM, c NativeCall) Value {
		st := c.Callee.slots.(*nativeFunction).data.(*fromAsyncRef).st
		vm.fromAsyncGuard(st, func() { vm.fromAsyncResume(st, c.Arg(0)) })
		return undefinedValue
	})
	nativeFromAsyncAbort = registerNative("Array.fromAsync abort", func(vm *VM, c NativeCall) Value {
		st := c.Callee.slots.(*nativeFunction).data.(*fromAsyncRef).st
		vm.fromAsyncGuard(st, func() { vm.fromAsyncAbort(st, c.Arg(0)) })
		return undefinedValue
	})
}

// arrayFromAsync is Array.fromAsync(items, mapFn, thisArg).
func arrayFromAsync(vm *VM, c NativeCall) Value {
	vm.checkPendingPromises()
	p := vm.newPromise()
	st := &fromAsyncState{promise: p, mapFn: c.Arg(1), thisArg: c.Arg(2)}
	items, ctor := c.Arg(0), c.This
	vm.fromAsyncGuard(st, func() {
		if !st.mapFn.IsUndefined() && !IsCallable(st.mapFn) {
			vm.throwTypeError("%s is not a function", describeNonCallable(st.mapFn))
		}
		method := vm.getMethod(items, symKey(symAsyncIterator))
		if method.IsUndefined() {
			method = vm.getMethod(items, symKey(symIterator))
			st.sync = !method.IsUndefined()
		}
		if !method.IsUndefined() {
			if IsConstructor(ctor) {
				st.target = vm.constructTarget(ctor)
			} else {
				st.target = vm.newArray(nil)
			}
			st.iter = vm.getIteratorFromMethod(items, method)
			vm.fromAsyncStep(st)
			return
		}
		st.arrayLike = vm.toObject(items)
		st.length = vm.lengthOfArrayLike(st.arrayLike)
		if IsConstructor(ctor) {
			st.target = vm.constructTarget(ctor, Number(float64(st.length)))
		} else {
			st.target = vm.arrayCreate(st.length)
		}
		vm.fromAsyncStep(st)
	})
	return objectValue(p)
}

// constructTarget is Construct(C, args) checked to return an object.
func (vm *VM) constructTarget(ctor Value, args ...Value) *Object {
	r := vm.construct(ctor, nil, args...)
	if r.kind != KindObject {
		vm.throwTypeError("constructor did not return an object")
	}
	return r.obj()
}

// fromAsyncGuard runs fn, rejecting the result promise with any exception it throws.
func (vm *VM) fromAsyncGuard(st *fromAsyncState, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Exception)
			if !ok {
				panic(r)
			}
			vm.fromAsyncReject(st, e.Value)
		}
	}()
	fn()
}

// fromAsyncReject settles the result promise as rejected.
func (vm *VM) fromAsyncReject(st *fromAsyncState, reason Value) {
	if !st.settled {
		st.settled = true
		vm.rejectPromise(st.promise, reason)
	}
}

// fromAsyncAwait awaits v, resuming in phase.
func (vm *VM) fromAsyncAwait(st *fromAsyncState, v Value, phase fromAsyncPhase) {
	st.phase = phase
	p := vm.promiseResolve(v)
	onF := vm.newNativeFunction(&nativeFunction{name: nativeFromAsyncResume.name, fn: nativeFromAsyncResume.fn, data: &fromAsyncRef{st}}, "", 1)
	onR := vm.newNativeFunction(&nativeFunction{name: nativeFromAsyncAbort.name, fn: nativeFromAsyncAbort.fn, data: &fromAsyncRef{st}}, "", 1)
	vm.performThen(p, &reaction{handler: objectValue(onF)}, &reaction{handler: objectValue(onR), reject: true})
}

// fromAsyncStep fetches the next value: calls next() or reads the next element.
func (vm *VM) fromAsyncStep(st *fromAsyncState) {
	if st.iter == nil {
		if st.k >= st.length {
			vm.fromAsyncFinish(st, st.length)
			return
		}
		vm.fromAsyncAwait(st, vm.getIndex(st.arrayLike, st.k), fromAsyncValue)
		return
	}
	if st.k >= maxArrayLikeLength {
		vm.fromAsyncCloseWith(st, vm.newTypeError("Array.fromAsync: too many elements"))
		return
	}
	if !st.sync {
		vm.fromAsyncAwait(st, vm.Call(st.iter.Next, st.iter.Obj), fromAsyncNext)
		return
	}
	r := vm.iteratorNext(st.iter)
	if ToBoolean(vm.getProp(r, keyDone)) {
		st.iter.Done = true
		vm.fromAsyncFinish(st, st.k)
		return
	}
	vm.fromAsyncAwait(st, vm.getProp(r, keyValue), fromAsyncValue)
}

// fromAsyncResume continues after an await fulfilled with v.
func (vm *VM) fromAsyncResume(st *fromAsyncState, v Value) {
	switch st.phase {
	case fromAsyncNext:
		r := v.asObject()
		if r == nil {
			vm.throwTypeError("Iterator result %s is not an object", v.String())
		}
		if ToBoolean(vm.getProp(r, keyDone)) {
			st.iter.Done = true
			vm.fromAsyncFinish(st, st.k)
			return
		}
		vm.fromAsyncValueReady(st, vm.getProp(r, keyValue))
	case fromAsyncValue:
		vm.fromAsyncValueReady(st, v)
	case fromAsyncMapped:
		vm.fromAsyncDefine(st, v)
	case fromAsyncClose:
		vm.fromAsyncReject(st, st.pending)
	}
}

// fromAsyncAbort continues after an await rejected with reason.
func (vm *VM) fromAsyncAbort(st *fromAsyncState, reason Value) {
	switch {
	case st.phase == fromAsyncClose:
		vm.fromAsyncReject(st, st.pending)
	case st.phase == fromAsyncValue && st.iter != nil && st.sync:
		// a rejected value of a sync iterator closes it
		vm.iteratorClose(st.iter, true)
		vm.fromAsyncReject(st, reason)
	case st.phase == fromAsyncMapped && st.iter != nil:
		vm.fromAsyncCloseWith(st, reason)
	default:
		vm.fromAsyncReject(st, reason)
	}
}

// fromAsyncValueReady maps the value (awaiting the result) or stores it.
func (vm *VM) fromAsyncValueReady(st *fromAsyncState, v Value) {
	if st.mapFn.IsUndefined() {
		vm.fromAsyncDefine(st, v)
		return
	}
	var mapped Value
	if !vm.fromAsyncTry(st, func() { mapped = vm.Call(st.mapFn, st.thisArg, v, Number(float64(st.k))) }) {
		return
	}
	vm.fromAsyncAwait(st, mapped, fromAsyncMapped)
}

// fromAsyncDefine stores v at index k and goes on with the next value.
func (vm *VM) fromAsyncDefine(st *fromAsyncState, v Value) {
	if !vm.fromAsyncTry(st, func() { vm.createIndex(st.target, st.k, v) }) {
		return
	}
	st.k++
	vm.fromAsyncStep(st)
}

// fromAsyncTry runs fn; when it throws while an iterator is open, the iterator is closed
// and the error propagates to the result promise. It reports whether fn completed.
func (vm *VM) fromAsyncTry(st *fromAsyncState, fn func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			e, isExc := r.(*Exception)
			if !isExc || st.iter == nil {
				panic(r)
			}
			vm.fromAsyncCloseWith(st, e.Value)
			ok = false
		}
	}()
	fn()
	return true
}

// fromAsyncCloseWith closes the iterator because of the error reason (AsyncIteratorClose
// for async iterators awaits return()'s result), then rejects with reason.
func (vm *VM) fromAsyncCloseWith(st *fromAsyncState, reason Value) {
	if st.sync {
		vm.iteratorClose(st.iter, true)
		vm.fromAsyncReject(st, reason)
		return
	}
	st.iter.Done = true
	var ret Value
	failed := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*Exception); !ok {
					panic(r)
				}
				failed = true
			}
		}()
		m := vm.getMethod(st.iter.Obj, keyReturn)
		if m.IsUndefined() {
			failed = true
			return
		}
		ret = vm.Call(m, st.iter.Obj)
	}()
	if failed {
		vm.fromAsyncReject(st, reason)
		return
	}
	st.pending = reason
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*Exception); !ok {
					panic(r)
				}
				vm.fromAsyncReject(st, reason)
			}
		}()
		vm.fromAsyncAwait(st, ret, fromAsyncClose)
	}()
}

// fromAsyncFinish sets the length and fulfils the result promise with the array.
func (vm *VM) fromAsyncFinish(st *fromAsyncState, n int64) {
	vm.setLength(st.target, n)
	if !st.settled {
		st.settled = true
		vm.resolvePromise(st.promise, objectValue(st.target))
	}
}

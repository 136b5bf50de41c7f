package interp

// The Promise built-in: constructor, then/catch/finally, resolve/reject.

func init() { registerBuiltin("Promise", 30, setupPromise) }

func setupPromise(r *Realm) {
	proto := r.namedObject("Promise.prototype", r.ObjectPrototype)
	ctor := r.newConstructor("Promise", 1, promiseConstructor, proto)
	r.method(proto, "then", 2, promiseThen)
	r.method(proto, "catch", 1, promiseCatch)
	r.method(ctor, "resolve", 1, promiseStaticResolve)
	r.method(ctor, "reject", 1, promiseStaticReject)
	r.defineGlobal("Promise", objectValue(ctor))
}

func promiseConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Promise constructor cannot be invoked without 'new'")
	}
	exec := c.Arg(0)
	if !IsCallable(exec) {
		vm.throwTypeError("Promise resolver %s is not a function", vm.describeForError(exec))
	}
	vm.checkPendingPromises()
	p := vm.ordinaryCreateFromConstructor(c.NewTarget, "Promise.prototype", ClassPromise)
	vm.exec.promiseSeq++
	vm.exec.pendingPromises++
	p.slots = &promiseSlots{seq: vm.exec.promiseSeq}
	res, rej := vm.resolvingFunctions(p)
	func() {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(*Exception)
				if !ok {
					panic(r)
				}
				vm.Call(objectValue(rej), undefinedValue, e.Value)
			}
		}()
		vm.Call(exec, undefinedValue, objectValue(res), objectValue(rej))
	}()
	return objectValue(p)
}

func thisPromise(vm *VM, v Value, method string) *Object {
	o := v.asObject()
	if promiseOf(o) == nil {
		vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeForError(v))
	}
	return o
}

func promiseThen(vm *VM, c NativeCall) Value {
	p := thisPromise(vm, c.This, "Promise.prototype.then")
	pc := objectValue(vm.realm.Intrinsic("Promise"))
	ctor := vm.speciesConstructor(p, pc)
	onF, onR := c.Arg(0), c.Arg(1)
	if !IsCallable(onF) {
		onF = undefinedValue
	}
	if !IsCallable(onR) {
		onR = undefinedValue
	}
	if SameValue(ctor, pc) {
		vm.checkPendingPromises()
		derived := vm.newPromise()
		if vm.exec.combinatorThens > 0 {
			// Promise.all(items) subscribes with then: the promises that makes are the
			// combinator's bookkeeping, so that n calls cost n promises, not 2n
			promiseOf(derived).uncounted = true
			vm.exec.pendingPromises--
		}
		vm.performThen(p, &reaction{handler: onF, derived: derived}, &reaction{handler: onR, derived: derived, reject: true})
		return objectValue(derived)
	}
	// A subclass or foreign constructor: settle its capability through its functions.
	derived, resolve, reject := vm.newPromiseCapability(ctor)
	vm.performThen(p, &reaction{handler: onF, capPromise: derived, capResolve: resolve, capReject: reject},
		&reaction{handler: onR, capPromise: derived, capResolve: resolve, capReject: reject, reject: true})
	return derived
}

func promiseCatch(vm *VM, c NativeCall) Value {
	return vm.invoke(c.This, strKey("then"), undefinedValue, c.Arg(0))
}

func promiseStaticResolve(vm *VM, c NativeCall) Value {
	if c.This.kind != KindObject {
		vm.throwTypeError("PromiseResolve called on non-object")
	}
	return vm.promiseResolveWith(c.This, c.Arg(0))
}

func promiseStaticReject(vm *VM, c NativeCall) Value {
	p, _, reject := vm.newPromiseCapability(c.This)
	vm.Call(reject, undefinedValue, c.Arg(0))
	return p
}

// Promise combinators, finally, try and withResolvers.

func init() { registerBuiltin("PromiseStatics", 31, setupPromiseStatics) }

func setupPromiseStatics(r *Realm) {
	ctor := r.Intrinsic("Promise")
	proto := r.Intrinsic("Promise.prototype")
	r.method(proto, "finally", 1, promiseFinally)
	r.method(ctor, "all", 1, func(vm *VM, c NativeCall) Value { return vm.promiseCombinator(c, combineAll) })
	r.method(ctor, "allSettled", 1, func(vm *VM, c NativeCall) Value { return vm.promiseCombinator(c, combineAllSettled) })
	r.method(ctor, "any", 1, func(vm *VM, c NativeCall) Value { return vm.promiseCombinator(c, combineAny) })
	r.method(ctor, "race", 1, promiseRace)
	r.method(ctor, "try", 1, promiseTry)
	r.method(ctor, "withResolvers", 0, promiseWithResolvers)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.value(proto, symKey(symToStringTag), asciiValue("Promise"), propConfigurable)
}

// combinatorThen subscribes a combinator (Promise.all, race, ...) to one of its elements with
// next.then(onF, onR). The promise then makes for it is the combinator's bookkeeping: it is
// left out of the pending-promise cap, so that n pending calls cost n promises, not 2n.
func (vm *VM) combinatorThen(next, onF, onR Value) {
	vm.exec.combinatorThens++
	defer func() { vm.exec.combinatorThens-- }()
	vm.invoke(next, strKey("then"), onF, onR)
}

// newPromiseCapability is NewPromiseCapability(C): the promise and its resolving functions.
func (vm *VM) newPromiseCapability(c Value) (p Value, resolve, reject Value) {
	if pc := vm.realm.Intrinsic("Promise"); c.kind == KindObject && c.obj() == pc {
		vm.checkPendingPromises()
		o := vm.newPromise()
		res, rej := vm.resolvingFunctions(o)
		return objectValue(o), objectValue(res), objectValue(rej)
	}
	if !IsConstructor(c) {
		vm.throwTypeError("Promise capability constructor %s is not a constructor", vm.describeForError(c))
	}
	holder := vm.newPlainObject()
	exec := vm.newNativeFunction(&nativeFunction{name: nativeCapabilityExecutor.name, fn: nativeCapabilityExecutor.fn, data: &capabilityHolder{obj: holder}}, "", 2)
	p = vm.construct(c, nil, objectValue(exec))
	resolve = vm.getProp(holder, strKey("resolve"))
	reject = vm.getProp(holder, strKey("reject"))
	if !IsCallable(resolve) || !IsCallable(reject) {
		vm.throwTypeError("Promise resolve or reject function is not callable")
	}
	return p, resolve, reject
}

var nativeCapabilityExecutor = registerNative("%GetCapabilitiesExecutor%", func(vm *VM, c NativeCall) Value {
	holder := c.Callee.slots.(*nativeFunction).data.(*capabilityHolder).obj
	if !vm.getProp(holder, strKey("resolve")).IsUndefined() || !vm.getProp(holder, strKey("reject")).IsUndefined() {
		vm.throwTypeError("Promise executor has already been invoked with non-undefined arguments")
	}
	vm.createDataPropertyOrThrow(holder, strKey("resolve"), c.Arg(0))
	vm.createDataPropertyOrThrow(holder, strKey("reject"), c.Arg(1))
	return undefinedValue
})

type combinator uint8

const (
	combineAll combinator = iota
	combineAllSettled
	combineAny
)

// combinatorState is shared by the element functions of one combinator call.
type combinatorState struct {
	values    []Value
	remaining int
	resolve   Value
	reject    Value
	kind      combinator
}

// elementData is the state of one element function.
type elementData struct {
	state  *combinatorState
	index  int
	called bool
	reject bool // allSettled: the rejected element function
}

var nativeCombinatorElement = registerNative("%PromiseCombinatorElement%", func(vm *VM, c NativeCall) Value {
	d := c.Callee.slots.(*nativeFunction).data.(*elementData)
	if d.called {
		return undefinedValue
	}
	d.called = true
	st := d.state
	v := c.Arg(0)
	if st.kind == combineAllSettled {
		v = vm.settledRecord(v, d.reject)
	}
	st.values[d.index] = v
	st.remaining--
	if st.remaining == 0 {
		arr := vm.newArray(append([]Value(nil), st.values...))
		if st.kind == combineAny {
			e := vm.NewError("AggregateError", "All promises were rejected")
			vm.definePropertyOrThrow(e.obj(), strKey("errors"), dataDescriptor(objectValue(arr), propHidden))
			vm.Call(st.reject, undefinedValue, e)
		} else {
			vm.Call(st.resolve, undefinedValue, objectValue(arr))
		}
	}
	return undefinedValue
})

// settledRecord is the {status, value} or {status, reason} record Promise.allSettled (and
// allSettledKeyed) gives for one settled promise.
func (vm *VM) settledRecord(v Value, rejected bool) Value {
	o := vm.newPlainObject()
	if rejected {
		vm.createDataPropertyOrThrow(o, strKey("status"), asciiValue("rejected"))
		vm.createDataPropertyOrThrow(o, strKey("reason"), v)
	} else {
		vm.createDataPropertyOrThrow(o, strKey("status"), asciiValue("fulfilled"))
		vm.createDataPropertyOrThrow(o, strKey("value"), v)
	}
	return objectValue(o)
}

func (vm *VM) newElementFunction(st *combinatorState, i int, reject bool) Value {
	return objectValue(vm.newNativeFunction(&nativeFunction{name: nativeCombinatorElement.name,
		fn: nativeCombinatorElement.fn, data: &elementData{state: st, index: i, reject: reject}}, "", 1))
}

// promiseCombinator implements Promise.all, allSettled and any.
func (vm *VM) promiseCombinator(c NativeCall, kind combinator) Value {
	p, resolve, reject := vm.newPromiseCapability(c.This)
	func() {
		defer vm.rejectOnThrow(reject)
		resolveFn := vm.getProp(c.This.obj(), strKey("resolve"))
		if !IsCallable(resolveFn) {
			vm.throwTypeError("Promise resolve is not a function")
		}
		st := &combinatorState{remaining: 1, resolve: resolve, reject: reject, kind: kind}
		i := 0
		vm.forOf(c.Arg(0), func(v Value) bool {
			st.values = append(st.values, undefinedValue)
			next := vm.Call(resolveFn, c.This, v)
			st.remaining++
			var onF, onR Value
			switch kind {
			case combineAll:
				onF, onR = vm.newElementFunction(st, i, false), reject
			case combineAllSettled:
				onF, onR = vm.newElementFunction(st, i, false), vm.newElementFunction(st, i, true)
			case combineAny:
				onF, onR = resolve, vm.newElementFunction(st, i, false)
			}
			vm.combinatorThen(next, onF, onR)
			i++
			return true
		})
		st.remaining--
		if st.remaining == 0 {
			arr := objectValue(vm.newArray(append([]Value(nil), st.values...)))
			if kind == combineAny {
				e := vm.NewError("AggregateError", "All promises were rejected")
				vm.definePropertyOrThrow(e.obj(), strKey("errors"), dataDescriptor(arr, propHidden))
				vm.Call(reject, undefinedValue, e)
			} else {
				vm.Call(resolve, undefinedValue, arr)
			}
		}
	}()
	return p
}

// rejectOnThrow turns a JavaScript exception into a call of reject (IfAbruptRejectPromise).
func (vm *VM) rejectOnThrow(reject Value) {
	if r := recover(); r != nil {
		e, ok := r.(*Exception)
		if !ok {
			panic(r)
		}
		vm.Call(reject, undefinedValue, e.Value)
	}
}

func promiseRace(vm *VM, c NativeCall) Value {
	p, resolve, reject := vm.newPromiseCapability(c.This)
	func() {
		defer vm.rejectOnThrow(reject)
		resolveFn := vm.getProp(c.This.obj(), strKey("resolve"))
		if !IsCallable(resolveFn) {
			vm.throwTypeError("Promise resolve is not a function")
		}
		vm.forOf(c.Arg(0), func(v Value) bool {
			next := vm.Call(resolveFn, c.This, v)
			vm.combinatorThen(next, resolve, reject)
			return true
		})
	}()
	return p
}

func promiseTry(vm *VM, c NativeCall) Value {
	p, resolve, reject := vm.newPromiseCapability(c.This)
	func() {
		defer vm.rejectOnThrow(reject)
		var args []Value
		if len(c.Args) > 1 {
			args = c.Args[1:]
		}
		r := vm.Call(c.Arg(0), undefinedValue, args...)
		vm.Call(resolve, undefinedValue, r)
	}()
	return p
}

func promiseWithResolvers(vm *VM, c NativeCall) Value {
	p, resolve, reject := vm.newPromiseCapability(c.This)
	o := vm.newPlainObject()
	vm.createDataPropertyOrThrow(o, strKey("promise"), p)
	vm.createDataPropertyOrThrow(o, strKey("resolve"), resolve)
	vm.createDataPropertyOrThrow(o, strKey("reject"), reject)
	return objectValue(o)
}

// finallyData is the state of the functions made by Promise.prototype.finally.
type finallyData struct {
	onFinally Value
	ctor      Value
	reject    bool  // catchFinally (rethrow) rather than thenFinally
	value     Value // valueThunk / thrower: the value to return or throw
	thunk     bool  // the function is a value thunk or thrower
}

var nativeFinally = registerNative("%PromiseFinallyFunction%", finallyFunction)

func finallyFunction(vm *VM, c NativeCall) Value {
	d := c.Callee.slots.(*nativeFunction).data.(*finallyData)
	if d.thunk {
		if d.reject {
			vm.throw(d.value)
		}
		return d.value
	}
	r := vm.Call(d.onFinally, undefinedValue)
	p := vm.promiseResolveWith(d.ctor, r)
	thunk := vm.newNativeFunction(&nativeFunction{name: "%PromiseFinallyFunction%", fn: finallyFunction,
		data: &finallyData{thunk: true, reject: d.reject, value: c.Arg(0)}}, "", 0)
	return vm.invoke(p, strKey("then"), objectValue(thunk))
}

func promiseFinally(vm *VM, c NativeCall) Value {
	if c.This.kind != KindObject {
		vm.throwTypeError("Promise.prototype.finally called on a non-object")
	}
	ctor := vm.speciesConstructor(c.This.obj(), objectValue(vm.realm.Intrinsic("Promise")))
	onFinally := c.Arg(0)
	if !IsCallable(onFinally) {
		return vm.invoke(c.This, strKey("then"), onFinally, onFinally)
	}
	mk := func(reject bool) Value {
		return objectValue(vm.newNativeFunction(&nativeFunction{name: nativeFinally.name, fn: nativeFinally.fn,
			data: &finallyData{onFinally: onFinally, ctor: ctor, reject: reject}}, "", 1))
	}
	return vm.invoke(c.This, strKey("then"), mk(false), mk(true))
}

// promiseResolveWith is PromiseResolve(C, x).
func (vm *VM) promiseResolveWith(c Value, x Value) Value {
	if pc := vm.realm.Intrinsic("Promise"); c.kind == KindObject && c.obj() == pc {
		return objectValue(vm.promiseResolve(x))
	}
	if o := x.asObject(); o != nil && promiseOf(o) != nil {
		if ctor := vm.getProp(o, keyConstructor); SameValue(ctor, c) {
			return x
		}
	}
	p, resolve, _ := vm.newPromiseCapability(c)
	vm.Call(resolve, undefinedValue, x)
	return p
}

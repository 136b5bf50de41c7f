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
	p := vm.OrdinaryCreateFromConstructor(c.NewTarget, "Promise.prototype", ClassPromise)
	p.slots = &promiseSlots{}
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
	derived := vm.newPromise()
	onF, onR := c.Arg(0), c.Arg(1)
	if !IsCallable(onF) {
		onF = undefinedValue
	}
	if !IsCallable(onR) {
		onR = undefinedValue
	}
	vm.performThen(p, &reaction{handler: onF, derived: derived}, &reaction{handler: onR, derived: derived, reject: true})
	return objectValue(derived)
}

func promiseCatch(vm *VM, c NativeCall) Value {
	return vm.Invoke(c.This, strKey("then"), undefinedValue, c.Arg(0))
}

func promiseStaticResolve(vm *VM, c NativeCall) Value {
	return objectValue(vm.promiseResolve(c.Arg(0)))
}

func promiseStaticReject(vm *VM, c NativeCall) Value {
	p := vm.newPromise()
	vm.rejectPromise(p, c.Arg(0))
	return objectValue(p)
}

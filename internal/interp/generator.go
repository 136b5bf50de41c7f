package interp

import "github.com/codemode/codemode/internal/interp/bytecode"

// Generators and async generators: %GeneratorPrototype% and
// %AsyncGeneratorPrototype% with next/return/throw, resumption of parked
// generator frames, and yield* delegation.

func init() { registerBuiltin("Generator", 31, setupGenerators) }

func setupGenerators(r *Realm) {
	// %GeneratorFunction.prototype% and friends: the [[Prototype]] of generator,
	// async generator and async functions.
	gfp := r.namedObject("%GeneratorFunction.prototype%", r.FunctionPrototype)
	agfp := r.namedObject("%AsyncGeneratorFunction.prototype%", r.FunctionPrototype)
	afp := r.namedObject("%AsyncFunction.prototype%", r.FunctionPrototype)
	r.value(gfp, symKey(symToStringTag), asciiValue("GeneratorFunction"), propConfigurable)
	r.value(agfp, symKey(symToStringTag), asciiValue("AsyncGeneratorFunction"), propConfigurable)
	r.value(afp, symKey(symToStringTag), asciiValue("AsyncFunction"), propConfigurable)
	gp := r.namedObject("%GeneratorPrototype%", r.IteratorPrototype)
	r.value(gfp, keyPrototype, objectValue(gp), propConfigurable)
	r.value(gp, keyConstructor, objectValue(gfp), propConfigurable)
	r.method(gp, "next", 1, generatorNext)
	r.method(gp, "return", 1, generatorReturn)
	r.method(gp, "throw", 1, generatorThrow)
	r.value(gp, symKey(symToStringTag), asciiValue("Generator"), propConfigurable)
	agp := r.namedObject("%AsyncGeneratorPrototype%", r.AsyncIteratorPrototype)
	r.value(agfp, keyPrototype, objectValue(agp), propConfigurable)
	r.value(agp, keyConstructor, objectValue(agfp), propConfigurable)
	r.method(agp, "next", 1, asyncGeneratorNext)
	r.method(agp, "return", 1, asyncGeneratorReturn)
	r.method(agp, "throw", 1, asyncGeneratorThrow)
	r.value(agp, symKey(symToStringTag), asciiValue("AsyncGenerator"), propConfigurable)
	// %GeneratorFunction%, %AsyncGeneratorFunction% and %AsyncFunction%: constructors that,
	// like Function, cannot evaluate code (calling one throws an EvalError), there so that
	// fn.constructor.name tells the kind of a function as in node.
	fnCtor := r.Intrinsic("Function")
	for _, k := range []struct {
		name  string
		proto *Object
	}{{"GeneratorFunction", gfp}, {"AsyncGeneratorFunction", agfp}, {"AsyncFunction", afp}} {
		c := r.newFunction("%"+k.name+"%", k.name, 1, functionKindConstructorAbsent)
		c.flags |= objConstructor
		if fnCtor != nil {
			c.proto = fnCtor
		}
		c.props.add(keyPrototype, Property{value: objectValue(k.proto)})
		r.value(k.proto, keyConstructor, objectValue(c), propConfigurable)
	}
	if r.AsyncIteratorPrototype.props.get(symKey(symAsyncIterator)) == nil {
		r.symbolMethod(r.AsyncIteratorPrototype, symAsyncIterator, 0, func(vm *VM, c NativeCall) Value { return c.This }, propHidden)
	}
}

func thisGenerator(vm *VM, v Value, kind coKind, method string) *coroutine {
	if o := v.asObject(); o != nil {
		if co := coroutineOf(o); co != nil && co.kind == kind && co.gen == o {
			return co
		}
	}
	vm.throwTypeError("Method [Generator].prototype.%s called on incompatible receiver %s", method, vm.describeObject(v))
	return nil
}

func generatorNext(vm *VM, c NativeCall) Value {
	return vm.genResumeNative(thisGenerator(vm, c.This, coGen, "next"), resumeNext, c.Arg(0))
}

func generatorReturn(vm *VM, c NativeCall) Value {
	return vm.genResumeNative(thisGenerator(vm, c.This, coGen, "return"), resumeReturn, c.Arg(0))
}

func generatorThrow(vm *VM, c NativeCall) Value {
	return vm.genResumeNative(thisGenerator(vm, c.This, coGen, "throw"), resumeThrow, c.Arg(0))
}

// genResumeImmediate handles a resumption that does not run the generator
// (completed or not started with return/throw). It reports handled=true with
// the result.
func (vm *VM) genResumeImmediate(co *coroutine, mode resumeMode, v Value) (Value, bool) {
	switch co.status {
	case genExecuting, genAwaiting:
		vm.throwTypeError("Generator is already running")
	case genCompleted:
		switch mode {
		case resumeThrow:
			vm.throw(v)
		case resumeReturn:
			return vm.createIterResultObject(v, true), true
		}
		return vm.createIterResultObject(undefinedValue, true), true
	case genSuspendedStart:
		switch mode {
		case resumeThrow:
			co.status = genCompleted
			vm.throw(v)
		case resumeReturn:
			co.status = genCompleted
			return vm.createIterResultObject(v, true), true
		}
	}
	return undefinedValue, false
}

// genResumeNative resumes a sync generator from Go (a native call): the frame
// runs in a nested dispatch loop until it yields, returns or throws.
func (vm *VM) genResumeNative(co *coroutine, mode resumeMode, v Value) Value {
	if r, ok := vm.genResumeImmediate(co, mode, v); ok {
		return r
	}
	ex := &vm.exec
	depth := len(ex.frames)
	saveSp := ex.sp
	f := vm.unpark(co)
	f.ret = retExit
	co.status = genExecuting
	returned := false
	ex.noPause++
	defer func() {
		ex.noPause--
		if !returned {
			// unwinding: drop the generator's frames and let the panic go on (not
			// recovering it keeps unwinding through nested resumes linear)
			ex.frames = ex.frames[:depth]
			ex.sp = saveSp
		}
	}()
	var r Value
	if vm.deliverResume(f, mode, v, depth) {
		r = vm.run(depth)
	} else {
		r = ex.asyncExitValue
	}
	returned = true
	return r
}

// deliverResume hands a resumption to an unparked frame. Throws are raised at
// the suspension point (handlers of the frame may catch them). It reports
// whether the frame is ready to run.
func (vm *VM) deliverResume(f *frame, mode resumeMode, v Value, depth int) bool {
	ex := &vm.exec
	f.co.mode = mode
	if mode == resumeThrow && !forwardsThrow(f) {
		f.co.mode = resumeNext
		if !vm.unwindTo(v, depth) {
			if ex.asyncExit {
				ex.asyncExit = false
				return false
			}
			panic(&Exception{Value: v})
		}
		return true
	}
	ex.push(v)
	return true
}

// genResumeFromJS resumes a sync generator called from bytecode (gen.next()
// and friends): the call layout at fnIdx is replaced by the generator frame,
// whose result lands where the call's result goes. It reports whether a frame
// was pushed.
func (vm *VM) genResumeFromJS(co *coroutine, mode resumeMode, fnIdx, argc int) bool {
	ex := &vm.exec
	v := undefinedValue
	if argc > 0 {
		v = ex.stack[fnIdx+2]
	}
	ex.sp = fnIdx
	if r, ok := vm.genResumeImmediate(co, mode, v); ok {
		ex.push(r)
		return false
	}
	f := vm.unpark(co)
	f.ret = retPush
	co.status = genExecuting

	if !vm.deliverResume(f, mode, v, len(ex.frames)-1) {
		return false
	}
	return true
}

// generatorFastPath recognises calls of the generator methods from bytecode.
func generatorFastPath(nf *nativeFunction, this Value) (*coroutine, resumeMode, bool) {
	var mode resumeMode
	switch nf.name {
	case "%GeneratorPrototype%.next":
		mode = resumeNext
	case "%GeneratorPrototype%.return":
		mode = resumeReturn
	case "%GeneratorPrototype%.throw":
		mode = resumeThrow
	default:
		return nil, 0, false
	}
	o := this.asObject()
	if o == nil {
		return nil, 0, false
	}
	co := coroutineOf(o)
	if co == nil || co.kind != coGen || co.gen != o {
		return nil, 0, false
	}
	return co, mode, true
}

// yieldDelegate executes one step of yield*: [iter received] with the
// frame's resume mode.
func (vm *VM) yieldDelegate(f *frame, in bytecode.Instr) (bool, Value) {
	ex := &vm.exec
	co := f.co
	it := iteratorOf(ex.stack[ex.sp-2])
	received := ex.stack[ex.sp-1]
	mode := co.mode
	co.mode = resumeNext
	var r Value
	switch mode {
	case resumeNext:
		r = vm.Call(it.Next, it.Obj, received)
	case resumeThrow:
		m := vm.getMethod(it.Obj, strKey("throw"))
		if m.IsUndefined() {
			vm.iteratorClose(it, false)
			vm.throwTypeError("The iterator does not provide a 'throw' method.")
		}
		r = vm.Call(m, it.Obj, received)
	case resumeReturn:
		m := vm.getMethod(it.Obj, strKey("return"))
		if m.IsUndefined() {
			ex.sp -= 2
			ex.push(received)
			return false, undefinedValue // fall through to the return path
		}
		r = vm.Call(m, it.Obj, received)
	}
	if r.kind != KindObject {
		vm.throwTypeError("Iterator result %s is not an object", r.String())
	}
	if ToBoolean(vm.getProp(r.obj(), strKey("done"))) {
		val := vm.getProp(r.obj(), strKey("value"))
		ex.sp -= 2
		ex.push(val)
		if mode != resumeReturn {
			f.pc = int(in.A)
		}
		return false, undefinedValue
	}
	// Suspend at this instruction with [iter]; the resumption pushes the sent value.
	ex.sp--
	f.pc--
	vm.park(f)
	co.status = genSuspendedYield
	return vm.coroutineHandOff(f, r)
}

// Async generators.

func asyncGeneratorNext(vm *VM, c NativeCall) Value {
	return vm.asyncGenEnqueue(c.This, resumeNext, c.Arg(0))
}

func asyncGeneratorReturn(vm *VM, c NativeCall) Value {
	return vm.asyncGenEnqueue(c.This, resumeReturn, c.Arg(0))
}

func asyncGeneratorThrow(vm *VM, c NativeCall) Value {
	return vm.asyncGenEnqueue(c.This, resumeThrow, c.Arg(0))
}

// asyncGenEnqueue is AsyncGeneratorEnqueue followed by a resumption when the
// generator is suspended.
func (vm *VM) asyncGenEnqueue(this Value, mode resumeMode, v Value) Value {
	p := vm.newPromise()
	o := this.asObject()
	co := coroutineOf(o)
	if co == nil || co.kind != coAsyncGen || co.gen != o {
		method := map[resumeMode]string{resumeNext: "next", resumeReturn: "return", resumeThrow: "throw"}[mode]
		vm.rejectPromise(p, vm.newTypeError("Method [AsyncGenerator].prototype.%s called on incompatible receiver %s", method, vm.describeObject(this)))
		return objectValue(p)
	}
	co.queue = append(co.queue, genRequest{mode: mode, value: v, promise: p})
	if co.status != genExecuting && co.status != genAwaiting {
		vm.asyncGenResumeNext(co)
	}
	return objectValue(p)
}

// asyncGenResumeNext runs the generator for the request at the front of its queue.
func (vm *VM) asyncGenResumeNext(co *coroutine) {
	for len(co.queue) > 0 && co.status != genExecuting && co.status != genAwaiting {
		req := co.queue[0]
		if co.status == genSuspendedStart && req.mode != resumeNext {
			co.status = genCompleted
		}
		if co.status == genCompleted {
			if req.mode == resumeThrow {
				vm.asyncGenSettle(co, false, req.value)
			} else {
				v := undefinedValue
				if req.mode == resumeReturn {
					v = req.value
				}
				vm.asyncGenSettle(co, true, vm.createIterResultObject(v, true))
			}
			continue
		}
		ex := &vm.exec
		depth := len(ex.frames)
		saveSp := ex.sp
		f := vm.unpark(co)
		f.ret = retExit
		co.status = genExecuting
		func() {
			returned := false
			ex.noPause++
			defer func() {
				ex.noPause--
				if !returned {
					ex.frames = ex.frames[:depth]
					ex.sp = saveSp
				}
			}()
			if vm.deliverResume(f, req.mode, req.value, depth) {
				vm.run(depth)
			}
			returned = true
		}()
		return
	}
}

// asyncGenSettle settles the promise of the request at the front of the queue and removes it.
func (vm *VM) asyncGenSettle(co *coroutine, ok bool, v Value) {
	if len(co.queue) == 0 {
		return
	}
	req := co.queue[0]
	co.queue = co.queue[1:]
	if ok {
		vm.resolvePromise(req.promise, v)
	} else {
		vm.rejectPromise(req.promise, v)
	}
}

// asyncGenDrain settles the requests queued behind a completed generator.
func (vm *VM) asyncGenDrain(co *coroutine) {
	vm.asyncGenResumeNext(co)
}

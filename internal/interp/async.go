package interp

import "github.com/codemode/codemode/internal/interp/bytecode"

// Coroutines: async functions, generators and async generators.
//
// A coroutine's frame runs on the shared stack like any other; when it
// suspends (await, yield) its stack segment [callee this args registers
// operands] is copied into the coroutine and the frame is popped. Resuming
// copies the segment back on top of the stack (shifting stack indices) and
// pushes the frame again. The frame and the saved segment are plain data, so
// a suspended coroutine is part of the heap like any object.

type coKind uint8

const (
	coAsync    coKind = iota // async function
	coGen                    // generator
	coAsyncGen               // async generator
)

type genStatus uint8

const (
	genSuspendedStart genStatus = iota
	genSuspendedYield
	genExecuting
	genAwaiting // async generator parked on await
	genCompleted
)

// resumeMode is how a suspended generator is resumed.
type resumeMode uint8

const (
	resumeNext resumeMode = iota
	resumeThrow
	resumeReturn
)

// genRequest is a queued next/throw/return call of an async generator.
type genRequest struct {
	mode    resumeMode
	value   Value
	promise *Object
}

// coroutine is the suspended (or running) state of one coroutine call.
type coroutine struct {
	kind    coKind
	fr      *frame  // the frame (kept while running too)
	saved   []Value // the parked stack segment, nil while running
	promise *Object // async function: the promise the call returned
	gen     *Object // generators: the generator object
	status  genStatus
	mode    resumeMode
	queue   []genRequest // async generators
	started bool         // generators: the parameters are bound and the generator object was handed out
}

// startCoroutine prepares a frame that runs an async function or a generator.
func (vm *VM) startCoroutine(f *frame) {
	code := f.code
	switch {
	case code.Async && !code.Generator:
		f.co = &coroutine{kind: coAsync, fr: f, promise: vm.newPromise(), status: genExecuting}
	default:
		kind, def := coGen, "%GeneratorPrototype%"
		if code.Async {
			kind, def = coAsyncGen, "%AsyncGeneratorPrototype%"
		}
		proto := vm.realm.Intrinsic(def)
		if p := vm.getProp(f.callee, keyPrototype); p.kind == KindObject {
			proto = p.obj()
		}
		co := &coroutine{kind: kind, fr: f, status: genExecuting}
		g := vm.newObject(proto, ClassIterator)
		g.slots = &generatorSlots{co: co}
		co.gen = g
		f.co = co
	}
}

// park suspends the running coroutine frame f: saves its stack segment and pops it.
func (vm *VM) park(f *frame) {
	ex := &vm.exec
	start := f.argsBase - 2
	f.co.saved = append(f.co.saved[:0], ex.stack[start:ex.sp]...)
	ex.frames = ex.frames[:len(ex.frames)-1]
	ex.sp = start
}

// unpark pushes a parked coroutine frame back on top of the stack.
func (vm *VM) unpark(co *coroutine) *frame {
	ex := &vm.exec
	f := co.fr
	vm.ensureStack(len(co.saved) + frameNeed(f.code))
	start := ex.sp
	delta := start - (f.argsBase - 2)
	copy(ex.stack[start:], co.saved)
	ex.sp = start + len(co.saved)
	co.saved = co.saved[:0]
	f.argsBase += delta
	f.base += delta
	for i := range f.handlers {
		f.handlers[i].sp += delta
	}
	ex.frames = append(ex.frames, f)
	return f
}

// frameReturned finishes a coroutine or reaction frame that returned v: the
// value its caller receives.
func (vm *VM) frameReturned(f *frame, v Value) Value {
	if f.isReaction {
		if f.reaction != nil {
			vm.resolvePromise(f.reaction, v)
		}
		return undefinedValue
	}
	co := f.co
	co.fr, co.saved = nil, nil // finished: the frame is garbage
	switch co.kind {
	case coAsync:
		if co.promise == vm.exec.programPromise && vm.exec.program.script {
			// A classic script's completion value is kept as it is, never adopted as a
			// thenable (that would read its then and add promise jobs).
			if promiseOf(co.promise).status == promisePending {
				vm.settle(co.promise, promiseFulfilled, v)
			}
			return objectValue(co.promise)
		}
		vm.resolvePromise(co.promise, v)
		return objectValue(co.promise)
	case coGen:
		co.status = genCompleted
		return vm.createIterResultObject(v, true)
	default:
		co.status = genCompleted
		vm.asyncGenSettle(co, true, vm.createIterResultObject(v, true))
		vm.asyncGenDrain(co)
		return undefinedValue
	}
}

// frameThrew finishes a coroutine or reaction frame left by an exception. It
// reports the value for the caller, or propagate=true when the exception goes
// on to the caller (sync generators).
func (vm *VM) frameThrew(f *frame, v Value) (Value, bool) {
	if f.isReaction {
		if f.reaction != nil {
			vm.rejectPromise(f.reaction, v)
		}
		return undefinedValue, false
	}
	co := f.co
	co.fr, co.saved = nil, nil // finished: the frame is garbage
	switch co.kind {
	case coAsync:
		vm.rejectPromise(co.promise, v)
		return objectValue(co.promise), false
	case coGen:
		co.status = genCompleted
		return undefinedValue, true
	default:
		if !co.started {
			// an error while binding the parameters throws from the call itself
			co.status = genCompleted
			return undefinedValue, true
		}
		co.status = genCompleted
		vm.asyncGenSettle(co, false, v)
		vm.asyncGenDrain(co)
		return undefinedValue, false
	}
}

// execCoroutine executes await, yield and the generator start.
func (vm *VM) execCoroutine(f *frame, in bytecode.Instr, stopDepth int) (bool, Value) {
	ex := &vm.exec
	co := f.co
	switch in.Op {
	case bytecode.OpAwait:
		if co == nil {
			vm.throwSyntaxError("await is only valid in async functions")
		}
		ex.sp--
		v := ex.stack[ex.sp]
		p := vm.promiseResolve(v)
		vm.park(f)
		vm.performThen(p, &reaction{await: co}, &reaction{await: co, reject: true})
		if co.kind == coAsyncGen {
			co.status = genAwaiting
		}
		ret := f.ret
		f.ret = retExit
		var out Value
		if co.kind == coAsync {
			out = objectValue(co.promise)
		}
		if ret == retPush {
			ex.push(out)
			return false, undefinedValue
		}
		return true, out
	case bytecode.OpInitialYield:
		vm.park(f)
		co.status = genSuspendedStart
		co.started = true
		return vm.coroutineHandOff(f, objectValue(co.gen))
	case bytecode.OpYield:
		ex.sp--
		v := ex.stack[ex.sp]
		if co.kind == coAsyncGen {
			vm.asyncGenSettle(co, true, vm.createIterResultObject(v, false))
			if len(co.queue) > 0 {
				// the next request continues the generator at once
				vm.applyResume(f, co.queue[0].mode, co.queue[0].value)
				return false, undefinedValue
			}
			vm.park(f)
			co.status = genSuspendedYield
			return vm.coroutineHandOff(f, undefinedValue)
		}
		vm.park(f)
		co.status = genSuspendedYield
		return vm.coroutineHandOff(f, vm.createIterResultObject(v, false))
	case bytecode.OpResumeMode:
		if co.mode == resumeNext {
			f.pc = int(in.A)
		}
		co.mode = resumeNext
	case bytecode.OpYieldDelegate:
		return vm.yieldDelegate(f, in)
	case bytecode.OpAsyncDelegateCall:
		vm.asyncDelegateCall(f, in)
	case bytecode.OpDelegateResult:
		r := ex.stack[ex.sp-1]
		if r.kind != KindObject {
			vm.throwTypeError("Iterator result %s is not an object", r.String())
		}
		mode := co.mode
		if ToBoolean(vm.getProp(r.obj(), strKey("done"))) {
			co.mode = resumeNext
			ex.stack[ex.sp-1] = vm.getProp(r.obj(), strKey("value"))
			if mode == resumeReturn {
				f.pc = int(in.B)
			} else {
				f.pc = int(in.A)
			}
			break
		}
		co.mode = resumeNext
		ex.stack[ex.sp-1] = vm.getProp(r.obj(), strKey("value"))
	case bytecode.OpDelegateResume:
	default:
		vm.throwTypeError("%s is not supported", in.Op)
	}
	return false, undefinedValue
}

// coroutineHandOff gives v to whoever resumed the parked frame f.
func (vm *VM) coroutineHandOff(f *frame, v Value) (bool, Value) {
	ret := f.ret
	f.ret = retExit
	if ret == retPush {
		vm.exec.push(v)
		return false, undefinedValue
	}
	return true, v
}

// applyResume delivers a resumption to the running (or just unparked) frame f:
// the sent value is pushed, or an exception is thrown at the suspension point.
func (vm *VM) applyResume(f *frame, mode resumeMode, v Value) {
	f.co.mode = mode
	if mode == resumeThrow && !forwardsThrow(f) {
		f.co.mode = resumeNext
		panic(&Exception{Value: v})
	}
	vm.exec.push(v)
}

// resumeAsync continues a parked coroutine after an awaited promise settled.
func (vm *VM) resumeAsync(co *coroutine, v Value, throw bool) {
	ex := &vm.exec
	depth := len(ex.frames)
	f := vm.unpark(co)
	f.ret = retExit
	if co.kind == coAsyncGen {
		co.status = genExecuting
	}
	if throw {
		if !vm.unwindTo(v, depth) {
			ex.asyncExit = false
			return
		}
	} else {
		ex.push(v)
	}
	vm.run(depth)
}

// getAsyncIterator is GetIterator(v, async); without Symbol.asyncIterator it
// falls back to the sync iterator (reported by sync=true: the loop awaits values).
func (vm *VM) getAsyncIterator(v Value) (it *Iterator, sync bool) {
	m := vm.getMethod(v, symKey(symAsyncIterator))
	if m.IsUndefined() {
		return vm.getIterator(v), true
	}
	return vm.getIteratorFromMethod(v, m), false
}

// generatorSlots are the internal slots of a generator object: its coroutine
// (a shared record, also referenced by the generator's frame).
type generatorSlots struct{ co *coroutine }

// coroutineOf returns the coroutine of a generator object, or nil.
func coroutineOf(o *Object) *coroutine {
	if o == nil {
		return nil
	}
	if g, ok := o.slots.(*generatorSlots); ok {
		return g.co
	}
	return nil
}

// forwardsThrow reports whether the suspension point of f hands throw
// resumptions to a delegate iterator instead of raising them.
func forwardsThrow(f *frame) bool {
	if f.pc >= len(f.code.Code) {
		return false
	}
	op := f.code.Code[f.pc].Op
	return op == bytecode.OpYieldDelegate || op == bytecode.OpDelegateResume
}

// asyncDelegateCall: [iter received] -> [inner result] for yield* in async generators.
func (vm *VM) asyncDelegateCall(f *frame, in bytecode.Instr) {
	ex := &vm.exec
	it := iteratorOf(ex.stack[ex.sp-2])
	received := ex.stack[ex.sp-1]
	ex.sp -= 2
	var r Value
	switch f.co.mode {
	case resumeThrow:
		m := vm.getMethod(it.Obj, strKey("throw"))
		if m.IsUndefined() {
			f.co.mode = resumeNext
			vm.iteratorClose(it, false)
			vm.throwTypeError("The iterator does not provide a 'throw' method.")
		}
		r = vm.Call(m, it.Obj, received)
	case resumeReturn:
		m := vm.getMethod(it.Obj, strKey("return"))
		if m.IsUndefined() {
			f.co.mode = resumeNext
			ex.push(received)
			f.pc = int(in.A)
			return
		}
		r = vm.Call(m, it.Obj, received)
	default:
		r = vm.Call(it.Next, it.Obj, received)
	}
	ex.push(r)
}

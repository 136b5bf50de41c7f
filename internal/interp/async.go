package interp

// Async functions: a frame that awaits is parked as data (its stack segment is
// copied into the asyncState) and resumed later by a promise reaction job.

// asyncState is the suspended state of an async function call.
type asyncState struct {
	promise *Object // the promise the call returned
	fr      *frame  // the parked frame (nil while running)
	saved   []Value // the parked stack segment: [callee this args... registers operands...]
}

// startCoroutine prepares a frame that runs an async function or a generator.
func (vm *VM) startCoroutine(f *frame) {
	if f.code.Generator {
		vm.exec.frames = vm.exec.frames[:len(vm.exec.frames)-1]
		vm.exec.sp = f.argsBase - 2
		vm.throwTypeError("generator functions are not supported yet")
	}
	f.async = &asyncState{promise: vm.newPromise()}
}

// coroutineReturn completes an async call with v. It reports the value to push
// for a caller still waiting for the call's result, and false when the frame
// was resumed by a job (or entered from Go).
func (vm *VM) coroutineReturn(f *frame, v Value) (Value, bool) {
	vm.resolvePromise(f.async.promise, v)
	if f.ret == retPush {
		return objectValue(f.async.promise), true
	}
	vm.exec.asyncExitValue = objectValue(f.async.promise)
	return undefinedValue, false
}

// execCoroutine executes await (and reports generator operations as unsupported).
func (vm *VM) execCoroutine(f *frame, in Instr, stopDepth int) (bool, Value) {
	ex := &vm.exec
	switch in.Op {
	case OpAwait:
		if f.async == nil {
			vm.throwSyntaxError("await is only valid in async functions")
		}
		ex.sp--
		v := ex.stack[ex.sp]
		p := vm.promiseResolve(v)
		st := f.async
		start := f.argsBase - 2
		st.saved = append(st.saved[:0], ex.stack[start:ex.sp]...)
		st.fr = f
		ex.frames = ex.frames[:len(ex.frames)-1]
		ex.sp = start
		vm.promiseThenAwait(p, st)
		ret := f.ret
		f.ret = retExit
		if ret == retPush {
			ex.stack[ex.sp] = objectValue(st.promise)
			ex.sp++
			return false, undefinedValue
		}
		return true, objectValue(st.promise)
	}
	vm.throwTypeError("generators are not supported yet")
	return false, undefinedValue
}

// resumeAsync continues a parked async call with a fulfilled value or a thrown reason.
func (vm *VM) resumeAsync(st *asyncState, v Value, throw bool) {
	ex := &vm.exec
	f := st.fr
	st.fr = nil
	vm.ensureStack(len(st.saved) + frameNeed(f.code))
	start := ex.sp
	delta := start - (f.argsBase - 2)
	copy(ex.stack[start:], st.saved)
	ex.sp = start + len(st.saved)
	f.argsBase += delta
	f.base += delta
	for i := range f.handlers {
		f.handlers[i].sp += delta
	}
	depth := len(ex.frames)
	ex.frames = append(ex.frames, f)
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

// getAsyncIterator is GetIterator(v, async), falling back to the sync iterator.
func (vm *VM) getAsyncIterator(v Value) *Iterator {
	m := vm.GetMethod(v, symKey(symAsyncIterator))
	if m.IsUndefined() {
		return vm.GetIterator(v)
	}
	return vm.GetIteratorFromMethod(v, m)
}

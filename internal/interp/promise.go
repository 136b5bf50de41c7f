package interp

import "github.com/codemode/codemode/internal/interp/bytecode"

// Promises and the microtask (job) queue. Reactions and jobs are data: a
// reaction names its handler (a function value, or an async call to resume)
// and the derived promise to settle; resolving functions are natives whose
// per-instance state lives in their nativeFunction data.

type promiseStatus uint8

const (
	promisePending promiseStatus = iota
	promiseFulfilled
	promiseRejected
)

// promiseSlots are the internal slots of a promise.
type promiseSlots struct {
	status  promiseStatus
	value   Value
	fulfill []*reaction
	reject  []*reaction
	handled bool
	hostID  uint64 // host promises: their id (0 otherwise)
	seq     uint64 // creation number (execState.promiseSeq), orders UnhandledRejections
	// uncounted: a combinator's or an adoption's then-promise, left out of the pending-promise
	// cap (saved with the promise, so that a restored VM counts as the saved one did)
	uncounted bool
}

// reaction is a PromiseReaction.
type reaction struct {
	handler Value      // callable or undefined (identity / thrower)
	derived *Object    // the promise of then(), or nil
	await   *coroutine // an awaiting coroutine to resume instead of a handler
	reject  bool       // the reaction is a reject reaction

	// A capability of another constructor (then() on a subclass): its promise
	// and resolving functions (undefined when derived is used).
	capPromise, capResolve, capReject Value
}

// job is one microtask.
type job struct {
	r        *reaction
	arg      Value
	thenable Value // PromiseResolveThenableJob: thenable and its then
	then     Value
	target   *Object
}

func (vm *VM) newPromise() *Object {
	proto := vm.realm.Intrinsic("Promise.prototype")
	if proto == nil {
		proto = vm.realm.ObjectPrototype
	}
	o := vm.newObject(proto, ClassPromise)
	vm.exec.promiseSeq++
	vm.exec.pendingPromises++
	o.slots = &promiseSlots{seq: vm.exec.promiseSeq}
	return o
}

// checkPendingPromises throws the RangeError of the pending-promise cap before a promise the
// program asked for (new Promise, then, a combinator, a tool call) is made past it. Promises
// the VM makes for itself (an async function's) are counted but never refused: the places
// that make them cannot throw.
func (vm *VM) checkPendingPromises() {
	if vm.exec.combinatorThens > 0 {
		return
	}
	// +1: the program's own promise, pending while it runs, is not one of the program's
	if vm.exec.pendingPromises >= maxPendingPromises+1 {
		// V8 has no such limit, so no message to match: this one names the cap.
		vm.throwRangeError("too many pending promises: more than %d unsettled at once (tool calls included)", maxPendingPromises)
	}
}

func promiseOf(o *Object) *promiseSlots {
	if o == nil {
		return nil
	}
	p, _ := o.slots.(*promiseSlots)
	return p
}

// resolvePromise is the promise resolve function applied to v.
func (vm *VM) resolvePromise(p *Object, v Value) {
	ps := promiseOf(p)
	if ps.status != promisePending {
		return
	}
	if v.kind == KindObject && v.obj() == p {
		vm.rejectPromise(p, vm.newTypeError("Chaining cycle detected for promise #<Promise>"))
		return
	}
	if v.kind != KindObject {
		vm.settle(p, promiseFulfilled, v)
		return
	}
	var then Value
	var thrown *Exception
	func() {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(*Exception)
				if !ok {
					panic(r)
				}
				thrown = e
			}
		}()
		then = vm.getProp(v.obj(), strKey("then"))
	}()
	if thrown != nil {
		vm.rejectPromise(p, thrown.Value)
		return
	}
	if !IsCallable(then) {
		vm.settle(p, promiseFulfilled, v)
		return
	}
	vm.exec.jobs = append(vm.exec.jobs, job{thenable: v, then: then, target: p})
}

func (vm *VM) rejectPromise(p *Object, v Value) {
	if promiseOf(p).status != promisePending {
		return
	}
	vm.settle(p, promiseRejected, v)
}

func (vm *VM) settle(p *Object, st promiseStatus, v Value) {
	ps := promiseOf(p)
	if ps.status == promisePending && !ps.uncounted && vm.exec.pendingPromises > 0 {
		vm.exec.pendingPromises--
	}
	ps.status, ps.value = st, v
	rs := ps.fulfill
	if st == promiseRejected {
		rs = ps.reject
		if !ps.handled {
			vm.exec.unhandled = append(vm.exec.unhandled, p)
		}
	}
	ps.fulfill, ps.reject = nil, nil
	for _, r := range rs {
		vm.exec.jobs = append(vm.exec.jobs, job{r: r, arg: v})
	}
}

// promiseResolve is PromiseResolve(%Promise%, v).
func (vm *VM) promiseResolve(v Value) *Object {
	if o := v.asObject(); o != nil && promiseOf(o) != nil {
		ctor := vm.getProp(o, keyConstructor)
		if pc := vm.realm.Intrinsic("Promise"); pc != nil && ctor.kind == KindObject && ctor.obj() == pc {
			return o
		}
	}
	p := vm.newPromise()
	vm.resolvePromise(p, v)
	return p
}

// performThen is PerformPromiseThen with reactions.
func (vm *VM) performThen(p *Object, onF, onR *reaction) {
	ps := promiseOf(p)
	switch ps.status {
	case promisePending:
		ps.fulfill = append(ps.fulfill, onF)
		ps.reject = append(ps.reject, onR)
	case promiseFulfilled:
		vm.exec.jobs = append(vm.exec.jobs, job{r: onF, arg: ps.value})
	case promiseRejected:
		if !ps.handled {
			vm.dropUnhandled(p)
		}
		vm.exec.jobs = append(vm.exec.jobs, job{r: onR, arg: ps.value})
	}
	ps.handled = true
}

func (vm *VM) dropUnhandled(p *Object) {
	u := vm.exec.unhandled
	for i, q := range u {
		if q == p {
			vm.exec.unhandled = append(u[:i], u[i+1:]...)
			return
		}
	}
}

// runJob runs one microtask.
func (vm *VM) runJob(j job) {
	if j.r == nil {
		// PromiseResolveThenableJob
		resolve, reject := vm.resolvingFunctions(j.target)
		func() {
			defer func() {
				if r := recover(); r != nil {
					e, ok := r.(*Exception)
					if !ok {
						panic(r)
					}
					vm.Call(objectValue(reject), undefinedValue, e.Value)
				}
			}()
			// A promise adopting a native promise subscribes to it with the intrinsic then: the
			// promise that makes is the adoption's bookkeeping, and refusing it at the
			// pending-promise cap would reject the adopting promise with a RangeError the
			// program never caused. A program's own thenable is called as any function.
			if j.thenable.kind == KindObject && promiseOf(j.thenable.obj()) != nil && j.then.kind == KindObject && j.then.obj() == vm.realm.Intrinsic("Promise.prototype.then") {
				vm.exec.combinatorThens++
				defer func() { vm.exec.combinatorThens-- }()
			}
			vm.Call(j.then, j.thenable, objectValue(resolve), objectValue(reject))
		}()
		return
	}
	r := j.r
	if r.await != nil {
		vm.resumeAsync(r.await, j.arg, r.reject)
		return
	}
	if o := r.handler.asObject(); o != nil && r.capResolve.IsUndefined() {
		if cl, ok := o.slots.(*closureSlots); ok && !cl.code.Async && !cl.code.Generator &&
			cl.code.Kind != bytecode.FuncClassCtor && cl.code.Kind != bytecode.FuncDerivedCtor {
			// Run the handler as a frame of the dispatch loop (pausable, no Go recursion).
			ex := &vm.exec
			vm.ensureStack(3)
			fnIdx := ex.sp
			ex.stack[fnIdx] = r.handler
			ex.stack[fnIdx+1] = undefinedValue
			ex.stack[fnIdx+2] = j.arg
			ex.sp += 3
			depth := len(ex.frames)
			vm.enterClosure(cl, o, undefinedValue, fnIdx, 1, nil, retExit)
			f := ex.frames[len(ex.frames)-1]
			f.reaction = r.derived
			f.isReaction = true
			vm.run(depth)
			return
		}
	}
	var result Value
	var thrown *Exception
	func() {
		defer func() {
			if rec := recover(); rec != nil {
				e, ok := rec.(*Exception)
				if !ok {
					panic(rec)
				}
				thrown = e
			}
		}()
		switch {
		case IsCallable(r.handler):
			result = vm.Call(r.handler, undefinedValue, j.arg)
		case r.reject:
			panic(&Exception{Value: j.arg})
		default:
			result = j.arg
		}
	}()
	if !r.capResolve.IsUndefined() {
		if thrown != nil {
			vm.Call(r.capReject, undefinedValue, thrown.Value)
		} else {
			vm.Call(r.capResolve, undefinedValue, result)
		}
		return
	}
	if r.derived == nil {
		return
	}
	if thrown != nil {
		vm.rejectPromise(r.derived, thrown.Value)
		return
	}
	vm.resolvePromise(r.derived, result)
}

// resolving functions: natives whose data is the promise and a shared "already resolved" flag.
type resolvingData struct {
	promise *Object
	done    *resolvedFlag
	reject  bool
}

var (
	nativeResolve = registerNative("%PromiseResolveFunction%", func(vm *VM, c NativeCall) Value {
		d := c.Callee.slots.(*nativeFunction).data.(*resolvingData)
		if !d.done.done {
			d.done.done = true
			vm.resolvePromise(d.promise, c.Arg(0))
		}
		return undefinedValue
	})
	nativeReject = registerNative("%PromiseRejectFunction%", func(vm *VM, c NativeCall) Value {
		d := c.Callee.slots.(*nativeFunction).data.(*resolvingData)
		if !d.done.done {
			d.done.done = true
			vm.rejectPromise(d.promise, c.Arg(0))
		}
		return undefinedValue
	})
)

func (vm *VM) resolvingFunctions(p *Object) (*Object, *Object) {
	done := &resolvedFlag{}
	res := vm.newNativeFunction(&nativeFunction{name: nativeResolve.name, fn: nativeResolve.fn,
		data: &resolvingData{promise: p, done: done}}, "", 1)
	rej := vm.newNativeFunction(&nativeFunction{name: nativeReject.name, fn: nativeReject.fn,
		data: &resolvingData{promise: p, done: done, reject: true}}, "", 1)
	return res, rej
}

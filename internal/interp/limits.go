package interp

// Bounds: the memory limit. The other bounds live where they are enforced:
// the step budget and the interrupt flag in the dispatch loop (vm.go), the
// call depth in pushFrame, the native re-entry depth in callObject, the string
// length cap in concat (vm_ops.go), the dense array cap in arrayAppend, and the
// pending host promise cap in NewHostPromise.

// memoryCheckInterval is how many instructions run between two looks at the
// allocation counter (it is also checked at allocating instructions).
const memoryCheckInterval = 1024

// checkMemory enforces Config.MaxMemoryBytes. Allocation paths add estimates to
// vm.allocated; once it passes the limit, the live heap is measured by a
// reachability walk, and when that is still over the limit the run ends with a
// MemoryLimitExceeded diagnostic. Otherwise the counter restarts from the
// measured live size.
func (vm *VM) checkMemory() {
	if vm.maxMemory <= 0 || vm.allocated <= vm.maxMemory {
		return
	}
	live := vm.liveHeapSize(vm.execRoots)
	if live > vm.maxMemory {
		panic(&abortSignal{err: &Diagnostic{Kind: "MemoryLimitExceeded",
			Message: "the program exceeded its memory limit of " + itoa(int(vm.maxMemory)) + " bytes"}})
	}
	vm.allocated = live
}

// execRoots reports the execution state's references to the heap walk.
func (vm *VM) execRoots(w *heapWalker) {
	ex := &vm.exec
	w.add(int64(ex.sp) * valueSize)
	for _, v := range ex.stack[:ex.sp] {
		w.value(v)
	}
	for _, f := range ex.frames {
		w.node(f)
	}
	for _, j := range ex.jobs {
		if j.r != nil {
			w.node(j.r)
		}
		w.value(j.arg)
		w.value(j.thenable)
		w.value(j.then)
		w.object(j.target)
	}
	for _, p := range ex.hostPromise {
		w.object(p)
	}
	w.object(ex.programPromise)
	for _, o := range ex.templates {
		w.object(o)
	}
	for o, pe := range ex.privMap {
		w.object(o)
		for i, pn := range pe.names {
			w.object(pn.holder)
			w.value(pe.values[i])
		}
	}
	w.value(ex.lastThrow)
}

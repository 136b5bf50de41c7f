package interp

import "runtime/debug"

// Bounds: the memory limit. The other bounds live where they are enforced:
// the step budget and the interrupt flag in the dispatch loop (vm.go), the
// call depth in pushFrame, the native re-entry depth in callObject, the string
// length cap in concat (vm_ops.go), the dense array cap in arrayAppend, and the
// pending host promise cap in NewHostPromise.

// memoryCheckInterval is how many instructions run between two looks at the
// allocation counter (it is also checked at allocating instructions).
const memoryCheckInterval = 1024

// checkMemory enforces Config.MaxMemoryBytes. Allocation paths add estimates to
// vm.allocated as they allocate, garbage included; once it passes the limit, the live heap
// is measured by a reachability walk, and when that is still over the limit the run ends
// with a MemoryLimitExceeded diagnostic. Otherwise the counter restarts from the measured
// live size, so that the next look comes after at most the limit's worth of live data and
// garbage together, and never sooner than memoryCheckSlack of the limit.
//
// The Go collector frees garbage only when the process heap has grown by GOGC percent
// (default 100) since its last cycle: a run whose live data nears its limit would let the
// process hold up to twice that before a collection. So when the live size measured is half
// the limit or more, the look also runs a collection (runtime.GC): the run's garbage is freed
// at every look, and what the process holds for it stays near the limit rather than twice
// it. Runs that stay small never force a collection.
func (vm *VM) checkMemory() { vm.checkMemoryWith(0) }

// memoryCheckSlack is the least share of the limit (1/memoryCheckSlack) a run may allocate
// between two looks at its live heap: a run whose live data sits just below its limit is
// measured (and collected) every limit/memoryCheckSlack bytes, not at every allocation.
const memoryCheckSlack = 8

// checkMemoryWith is checkMemory for a caller about to allocate pending bytes that the heap
// walk cannot see yet: they count as live.
func (vm *VM) checkMemoryWith(pending int64) {
	if vm.maxMemory <= 0 || vm.allocated <= vm.maxMemory {
		return
	}
	live := vm.liveHeapSize(vm.execRoots) + pending
	if live > vm.maxMemory {
		panic(&abortSignal{err: &Diagnostic{Kind: "MemoryLimitExceeded",
			Message: "the program exceeded its memory limit of " + itoa(int(vm.maxMemory)) + " bytes"}})
	}
	if live >= vm.maxMemory/2 {
		debug.FreeOSMemory()
	}
	vm.allocated = min(live, vm.maxMemory-vm.maxMemory/memoryCheckSlack)
}

// chargeAhead charges size bytes that the caller is about to allocate (or has made but not
// yet made reachable) and, when the counter passes the memory limit, measures the live heap
// plus those bytes at once: one big allocation must not wait for the dispatch loop's next
// look at the counter.
func (vm *VM) chargeAhead(size int64) {
	vm.allocated += size
	if vm.maxMemory > 0 && vm.allocated > vm.maxMemory {
		vm.checkMemoryWith(size)
	}
}

// chargeString charges a flat string that a native just built (not yet reachable from
// JavaScript) to the memory limit, checking the limit at once, and returns it. Ropes are
// left alone: they share their parts, which were charged when made.
func (vm *VM) chargeString(s *jsString) *jsString {
	if s.left != nil {
		return s
	}
	vm.chargeAhead(stringBaseSize + int64(len(s.ascii)) + 2*int64(len(s.flatUnits())))
	return s
}

// reserveElems makes room in o's dense storage for n more elements. Growing it allocates new
// storage (about 1.25 times what is needed for large arrays, twice for small ones, as append
// would) and leaves the old one as garbage: the new storage is charged as it is made, with a
// look at the live heap (which counts it as well as the old) when the charge passes the
// limit. Appending an element at a time then charges about five times the final size of a
// large array, which is what the process allocates for it.
func (vm *VM) reserveElems(o *Object, n int) {
	need := len(o.elems) + n
	if need <= cap(o.elems) {
		return
	}
	c := 2 * cap(o.elems)
	if cap(o.elems) >= 256 {
		c = cap(o.elems) + cap(o.elems)/4
	}
	c = max(c, need, 4)
	grown := int64(c) * valueSize
	vm.allocated += grown
	if vm.maxMemory > 0 && vm.allocated > vm.maxMemory {
		vm.checkMemoryWith(grown)
	}
	elems := make([]Value, len(o.elems), c)
	copy(elems, o.elems)
	o.elems = elems
}

// chargeProperty charges a property about to be added to o and, when o's property storage
// is full, the larger storage that adding it allocates (its keys, properties and index grow
// together, to about 1.25 to 2 times their length; the old storage becomes garbage).
func (vm *VM) chargeProperty(o *Object) {
	vm.allocated += propertySize
	if n := len(o.props.keys); n >= 64 && n == cap(o.props.keys) {
		vm.allocated += int64(n) * propertySize
	}
}

// substring is s.substring(from, to) charged to the memory limit: a new string header, and
// the copy of the code units when s is not ASCII (ASCII substrings share s's bytes).
func (vm *VM) substring(s *jsString, from, to int) *jsString {
	r := s.substring(from, to)
	if r != s && r != emptyString {
		vm.allocated += stringBaseSize
		if !r.isASCII {
			vm.allocated += 2 * int64(r.length)
		}
	}
	return r
}

// pin keeps o reachable for the heap measure while a native builds it (a result not yet
// returned to JavaScript) and returns the mark to give unpin:
//
//	defer vm.unpin(vm.pin(a))
func (vm *VM) pin(o *Object) int {
	n := len(vm.exec.pinned)
	vm.exec.pinned = append(vm.exec.pinned, o)
	return n
}

// unpin drops the objects pinned since mark.
func (vm *VM) unpin(mark int) {
	clear(vm.exec.pinned[mark:])
	vm.exec.pinned = vm.exec.pinned[:mark]
}

// execRoots reports the execution state's references to the heap walk.
func (vm *VM) execRoots(w *heapWalker) {
	ex := &vm.exec
	w.add(int64(ex.sp) * valueSize)
	w.values(ex.stack[:ex.sp])
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
	if in := ex.legacy.input; in != nil {
		w.value(stringValue(in)) // the legacy RegExp statics keep the last match's input
	}
	for _, o := range ex.pinned {
		w.object(o)
	}
}

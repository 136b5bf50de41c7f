package interp

// Snapshot codecs of the execution engine's data: closures, bound and host
// functions, environment records, frames, coroutines, promises and their
// reactions, iteration records, private names and the state of the promise
// natives. Each is a slotCodec (see snapshot_heap.go); records shared between
// several owners (environments, frames, coroutines, reactions) are written as
// nodes so that sharing and cycles survive.

func init() {
	registerSlotType("closure", func() slotCodec { return &closureSlots{} }, decodeClosure)
	registerSlotType("bound", func() slotCodec { return &boundFunction{} }, decodeBound)
	registerSlotType("host", func() slotCodec { return &hostFunction{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*hostFunction).id = r.goString()
	})
	registerSlotType("env", func() slotCodec { return &envRecord{} }, decodeEnv)
	registerSlotType("frame", func() slotCodec { return &frame{} }, decodeFrame)
	registerSlotType("co", func() slotCodec { return &coroutine{} }, decodeCoroutine)
	registerSlotType("generator", func() slotCodec { return &generatorSlots{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		co, ok := d.node(r).(*coroutine)
		if !ok || co == nil {
			r.fail("generator without its coroutine")
			co = &coroutine{status: genCompleted}
		}
		s.(*generatorSlots).co = co
	})
	registerSlotType("promise", func() slotCodec { return &promiseSlots{} }, decodePromise)
	registerSlotType("reaction", func() slotCodec { return &reaction{} }, decodeReaction)
	registerSlotType("iterRecord", func() slotCodec { return &iterRecord{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		ir := s.(*iterRecord)
		r.beginArray()
		r.more(true)
		ir.it = d.iteratorRecord(r)
		r.more(false)
		ir.syncFallback = r.bool()
		r.more(false)
	})
	registerSlotType("forIn", func() slotCodec { return &forInState{} }, decodeForIn)
	registerSlotType("private", func() slotCodec { return &privateName{} }, decodePrivate)
	registerSlotType("resolving", func() slotCodec { return &resolvingData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		rd := s.(*resolvingData)
		r.beginArray()
		r.more(true)
		rd.promise = d.object(r)
		r.more(false)
		flag, _ := d.node(r).(*resolvedFlag)
		if flag == nil {
			r.fail("resolving function without its flag")
			flag = &resolvedFlag{}
		}
		rd.done = flag
		r.more(false)
		rd.reject = r.bool()
		r.more(false)
	})
	registerSlotType("resolvedFlag", func() slotCodec { return &resolvedFlag{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*resolvedFlag).done = r.bool()
	})
	registerSlotType("combinator", func() slotCodec { return &combinatorState{} }, decodeCombinator)
	registerSlotType("element", func() slotCodec { return &elementData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		ed := s.(*elementData)
		r.beginArray()
		r.more(true)
		ed.state, _ = d.node(r).(*combinatorState)
		if ed.state == nil {
			r.fail("element function without its state")
			ed.state = &combinatorState{}
		}
		r.more(false)
		ed.index = int(r.int())
		r.more(false)
		ed.called = r.bool()
		r.more(false)
		ed.reject = r.bool()
		r.more(false)
		if ed.index < 0 || ed.index >= len(ed.state.values) && len(ed.state.values) > 0 {
			r.fail("bad element index")
		}
	})
	registerSlotType("finally", func() slotCodec { return &finallyData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		fd := s.(*finallyData)
		r.beginArray()
		r.more(true)
		fd.onFinally = d.value(r)
		r.more(false)
		fd.ctor = d.value(r)
		r.more(false)
		fd.reject = r.bool()
		r.more(false)
		fd.value = d.value(r)
		r.more(false)
		fd.thunk = r.bool()
		r.more(false)
	})
	registerSlotType("capHolder", func() slotCodec { return &capabilityHolder{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*capabilityHolder).obj = d.object(r)
	})
}

// Closures.

func (cl *closureSlots) slotTag() string { return "closure" }

func (cl *closureSlots) encodeSlot(e *heapEncoder) {
	w := e.w
	w.beginArray()
	w.int(int64(cl.code.Index))
	e.nodeOrNull(cl.env)
	e.object(cl.home)
	e.object(cl.fields)
	e.object(cl.obj)
	w.endArray()
}

func (cl *closureSlots) walkSlot(w *heapWalker) {
	if cl.env != nil {
		w.node(cl.env)
	}
	w.object(cl.home)
	w.object(cl.fields)
}

// funcCode reads a function index of the snapshot's program; nil (with the reader failed) when
// it names no function.
func (d *heapDecoder) funcCode(r *jsonReader) (*Program, *FuncCode) {
	idx := int(r.int())
	p := d.vm.exec.program
	if p == nil || idx < 0 || idx >= len(p.Funcs) {
		r.fail("bad function index %d", idx)
		return nil, nil
	}
	return p, p.Funcs[idx]
}

func decodeClosure(d *heapDecoder, r *jsonReader, s slotCodec) {
	cl := s.(*closureSlots)
	r.beginArray()
	r.more(true)
	p, code := d.funcCode(r)
	if code == nil {
		return
	}
	cl.prog, cl.code = p, code
	r.more(false)
	cl.env = d.envNode(r)
	r.more(false)
	cl.home = d.object(r)
	r.more(false)
	cl.fields = d.object(r)
	r.more(false)
	cl.obj = d.object(r)
	r.more(false)
}

// nodeOrNull writes a record reference, or null for a nil pointer.
func (e *heapEncoder) nodeOrNull(n slotCodec) {
	switch x := n.(type) {
	case *envRecord:
		if x == nil {
			e.w.null()
			return
		}
	case *frame:
		if x == nil {
			e.w.null()
			return
		}
	case *coroutine:
		if x == nil {
			e.w.null()
			return
		}
	case *reaction:
		if x == nil {
			e.w.null()
			return
		}
	}
	e.node(n)
}

func (d *heapDecoder) envNode(r *jsonReader) *envRecord {
	n := d.node(r)
	if n == nil {
		return nil
	}
	env, ok := n.(*envRecord)
	if !ok {
		r.fail("expected an environment record")
	}
	return env
}

// Bound functions.

func (b *boundFunction) slotTag() string { return "bound" }

func (b *boundFunction) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.object(b.target)
	e.value(b.this)
	e.values(b.args)
	e.object(b.self)
	e.w.endArray()
}

func (b *boundFunction) walkSlot(w *heapWalker) {
	w.object(b.target)
	w.value(b.this)
	for _, a := range b.args {
		w.value(a)
	}
}

func decodeBound(d *heapDecoder, r *jsonReader, s slotCodec) {
	b := s.(*boundFunction)
	r.beginArray()
	r.more(true)
	b.target = d.object(r)
	r.more(false)
	b.this = d.value(r)
	r.more(false)
	b.args = d.values(r)
	r.more(false)
	b.self = d.object(r)
	r.more(false)
	if b.target == nil {
		r.fail("bound function without a target")
	}
}

// values writes a list of values as an array.
func (e *heapEncoder) values(vs []Value) {
	e.w.beginArray()
	for _, v := range vs {
		e.value(v)
	}
	e.w.endArray()
}

// values reads a list written by heapEncoder.values.
func (d *heapDecoder) values(r *jsonReader) []Value { return d.readValueList(r) }

// Host functions.

func (h *hostFunction) slotTag() string           { return "host" }
func (h *hostFunction) encodeSlot(e *heapEncoder) { e.w.string(h.id) }
func (h *hostFunction) walkSlot(w *heapWalker)    {}

// Environment records.

func (env *envRecord) slotTag() string { return "env" }

func (env *envRecord) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.nodeOrNull(env.parent)
	e.values(env.slots)
	e.w.endArray()
}

func (env *envRecord) walkSlot(w *heapWalker) {
	w.add(int64(len(env.slots)) * valueSize)
	if env.parent != nil {
		w.node(env.parent)
	}
	w.values(env.slots)
}

func decodeEnv(d *heapDecoder, r *jsonReader, s slotCodec) {
	env := s.(*envRecord)
	r.beginArray()
	r.more(true)
	env.parent = d.envNode(r)
	r.more(false)
	env.slots = d.values(r)
	r.more(false)
}

// Frames.

func (f *frame) slotTag() string { return "frame" }

func (f *frame) encodeSlot(e *heapEncoder) {
	w := e.w
	w.beginArray()
	w.int(int64(f.code.Index))
	e.object(f.callee)
	e.nodeOrNull(f.env)
	e.value(f.this)
	e.object(f.newTarget)
	w.int(int64(f.pc))
	w.int(int64(f.base))
	w.int(int64(f.argsBase))
	w.int(int64(f.argc))
	w.int(int64(f.ret))
	w.bool(f.construct)
	w.beginArray()
	for _, h := range f.handlers {
		w.beginArray()
		w.int(int64(h.pc))
		w.int(int64(h.sp))
		e.nodeOrNull(h.env)
		w.endArray()
	}
	w.endArray()
	e.nodeOrNull(f.co)
	e.object(f.reaction)
	w.bool(f.isReaction)
	w.endArray()
}

func (f *frame) walkSlot(w *heapWalker) {
	w.object(f.callee)
	if f.env != nil {
		w.node(f.env)
	}
	w.value(f.this)
	if f.co != nil {
		w.node(f.co)
	}
	w.object(f.reaction)
}

func decodeFrame(d *heapDecoder, r *jsonReader, s slotCodec) {
	f := s.(*frame)
	r.beginArray()
	r.more(true)
	p, code := d.funcCode(r)
	if code == nil {
		return
	}
	f.prog, f.code = p, code
	r.more(false)
	f.callee = d.object(r)
	r.more(false)
	f.env = d.envNode(r)
	r.more(false)
	f.this = d.value(r)
	r.more(false)
	f.newTarget = d.object(r)
	r.more(false)
	f.pc = int(r.int())
	r.more(false)
	f.base = int(r.int())
	r.more(false)
	f.argsBase = int(r.int())
	r.more(false)
	f.argc = int(r.int())
	r.more(false)
	f.ret = retKind(r.int())
	r.more(false)
	f.construct = r.bool()
	r.more(false)
	r.beginArray()
	for first := true; r.more(first); first = false {
		var h handler
		r.beginArray()
		r.more(true)
		h.pc = int(r.int())
		r.more(false)
		h.sp = int(r.int())
		r.more(false)
		h.env = d.envNode(r)
		r.more(false)
		if h.pc < 0 || h.pc >= len(f.code.Code) {
			r.fail("bad handler pc")
		}
		f.handlers = append(f.handlers, h)
	}
	r.more(false)
	if n := d.node(r); n != nil {
		co, ok := n.(*coroutine)
		if !ok {
			r.fail("expected a coroutine")
		}
		f.co = co
	}
	r.more(false)
	f.reaction = d.object(r)
	r.more(false)
	f.isReaction = r.bool()
	r.more(false)
	if f.pc < 0 || f.pc > len(f.code.Code) || f.argsBase < 2 || f.base < f.argsBase || f.argc < 0 ||
		f.base-f.argsBase != f.argc || f.callee == nil {
		r.fail("inconsistent frame")
	}
}

// Coroutines.

func (co *coroutine) slotTag() string { return "co" }

func (co *coroutine) encodeSlot(e *heapEncoder) {
	w := e.w
	w.beginArray()
	w.int(int64(co.kind))
	e.nodeOrNull(co.fr)
	e.values(co.saved)
	e.object(co.promise)
	e.object(co.gen)
	w.int(int64(co.status))
	w.int(int64(co.mode))
	w.bool(co.started)
	w.beginArray()
	for _, q := range co.queue {
		w.beginArray()
		w.int(int64(q.mode))
		e.value(q.value)
		e.object(q.promise)
		w.endArray()
	}
	w.endArray()
	w.endArray()
}

func (co *coroutine) walkSlot(w *heapWalker) {
	w.add(int64(len(co.saved)) * valueSize)
	if co.fr != nil {
		w.node(co.fr)
	}
	w.values(co.saved)
	w.object(co.promise)
	w.object(co.gen)
	for _, q := range co.queue {
		w.value(q.value)
		w.object(q.promise)
	}
}

func decodeCoroutine(d *heapDecoder, r *jsonReader, s slotCodec) {
	co := s.(*coroutine)
	r.beginArray()
	r.more(true)
	co.kind = coKind(r.int())
	r.more(false)
	if n := d.node(r); n != nil {
		f, ok := n.(*frame)
		if !ok {
			r.fail("expected a frame")
		}
		co.fr = f
	}
	r.more(false)
	co.saved = d.values(r)
	r.more(false)
	co.promise = d.object(r)
	r.more(false)
	co.gen = d.object(r)
	r.more(false)
	co.status = genStatus(r.int())
	r.more(false)
	co.mode = resumeMode(r.int())
	r.more(false)
	co.started = r.bool()
	r.more(false)
	r.beginArray()
	for first := true; r.more(first); first = false {
		var q genRequest
		r.beginArray()
		r.more(true)
		q.mode = resumeMode(r.int())
		r.more(false)
		q.value = d.value(r)
		r.more(false)
		q.promise = d.object(r)
		r.more(false)
		co.queue = append(co.queue, q)
	}
	r.more(false)
	if co.kind > coAsyncGen || co.status > genCompleted || co.mode > resumeReturn ||
		(co.status != genCompleted && co.kind != coAsync && co.fr == nil) {
		r.fail("inconsistent coroutine")
	}
}

func (g *generatorSlots) slotTag() string           { return "generator" }
func (g *generatorSlots) encodeSlot(e *heapEncoder) { e.node(g.co) }
func (g *generatorSlots) walkSlot(w *heapWalker)    { w.node(g.co) }

// Promises and reactions.

func (ps *promiseSlots) slotTag() string { return "promise" }

func (ps *promiseSlots) encodeSlot(e *heapEncoder) {
	w := e.w
	w.beginArray()
	w.int(int64(ps.status))
	e.value(ps.value)
	e.reactions(ps.fulfill)
	e.reactions(ps.reject)
	w.bool(ps.handled)
	w.int(int64(ps.hostID))
	w.int(int64(ps.seq))
	if ps.uncounted {
		// Left out of the pending-promise cap (a combinator's or an adoption's bookkeeping):
		// written only then, so that other promises encode as before.
		w.bool(true)
	}
	w.endArray()
}

func (e *heapEncoder) reactions(rs []*reaction) {
	e.w.beginArray()
	for _, r := range rs {
		e.node(r)
	}
	e.w.endArray()
}

func (ps *promiseSlots) walkSlot(w *heapWalker) {
	w.value(ps.value)
	for _, r := range ps.fulfill {
		w.node(r)
	}
	for _, r := range ps.reject {
		w.node(r)
	}
}

func (d *heapDecoder) reactions(r *jsonReader) []*reaction {
	var out []*reaction
	r.beginArray()
	for first := true; r.more(first); first = false {
		rc, ok := d.node(r).(*reaction)
		if !ok || rc == nil {
			r.fail("expected a reaction")
			return out
		}
		out = append(out, rc)
	}
	return out
}

func decodePromise(d *heapDecoder, r *jsonReader, s slotCodec) {
	ps := s.(*promiseSlots)
	r.beginArray()
	r.more(true)
	ps.status = promiseStatus(r.int())
	r.more(false)
	ps.value = d.value(r)
	r.more(false)
	ps.fulfill = d.reactions(r)
	r.more(false)
	ps.reject = d.reactions(r)
	r.more(false)
	ps.handled = r.bool()
	r.more(false)
	ps.hostID = uint64(r.int())
	// The creation number was added within format 1: older snapshots end before it.
	if r.more(false) {
		ps.seq = uint64(r.int())
		// Then, only when set, that it is left out of the pending-promise cap.
		if r.more(false) {
			ps.uncounted = r.bool()
			r.more(false)
		}
	}
	if ps.status > promiseRejected {
		r.fail("bad promise state")
	}
	if ps.status == promisePending && !ps.uncounted {
		d.vm.exec.pendingPromises++
	}
}

func (rc *reaction) slotTag() string { return "reaction" }

func (rc *reaction) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(rc.handler)
	e.object(rc.derived)
	e.nodeOrNull(rc.await)
	e.w.bool(rc.reject)
	e.value(rc.capPromise)
	e.value(rc.capResolve)
	e.value(rc.capReject)
	e.w.endArray()
}

func (rc *reaction) walkSlot(w *heapWalker) {
	w.value(rc.handler)
	w.value(rc.capPromise)
	w.value(rc.capResolve)
	w.value(rc.capReject)
	w.object(rc.derived)
	if rc.await != nil {
		w.node(rc.await)
	}
}

func decodeReaction(d *heapDecoder, r *jsonReader, s slotCodec) {
	rc := s.(*reaction)
	r.beginArray()
	r.more(true)
	rc.handler = d.value(r)
	r.more(false)
	rc.derived = d.object(r)
	r.more(false)
	if n := d.node(r); n != nil {
		co, ok := n.(*coroutine)
		if !ok {
			r.fail("expected a coroutine")
		}
		rc.await = co
	}
	r.more(false)
	rc.reject = r.bool()
	r.more(false)
	rc.capPromise = d.value(r)
	r.more(false)
	rc.capResolve = d.value(r)
	r.more(false)
	rc.capReject = d.value(r)
	r.more(false)
}

// Iteration.

func (ir *iterRecord) slotTag() string { return "iterRecord" }

func (ir *iterRecord) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.iteratorRecord(ir.it)
	e.w.bool(ir.syncFallback)
	e.w.endArray()
}

func (ir *iterRecord) walkSlot(w *heapWalker) {
	if ir.it != nil {
		w.value(ir.it.Obj)
		w.value(ir.it.Next)
	}
}

func (st *forInState) slotTag() string { return "forIn" }

func (st *forInState) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.object(st.obj)
	e.w.beginArray()
	for _, k := range st.keys {
		e.propKey(k)
	}
	e.w.endArray()
	e.w.int(int64(st.i))
	e.w.endArray()
}

func (st *forInState) walkSlot(w *heapWalker) {
	w.object(st.obj)
	w.add(int64(len(st.keys)) * 16)
}

func decodeForIn(d *heapDecoder, r *jsonReader, s slotCodec) {
	st := s.(*forInState)
	r.beginArray()
	r.more(true)
	st.obj = d.object(r)
	r.more(false)
	r.beginArray()
	for first := true; r.more(first); first = false {
		v := d.value(r)
		switch v.kind {
		case KindString:
			st.keys = append(st.keys, jsStringKey(v.str()))
		case KindSymbol:
			st.keys = append(st.keys, symKey(v.sym()))
		default:
			r.fail("bad for-in key")
		}
	}
	r.more(false)
	st.i = int(r.int())
	r.more(false)
	if st.i < 0 || st.i > len(st.keys) {
		r.fail("bad for-in position")
	}
}

// Private names.

func (pn *privateName) slotTag() string { return "private" }

func (pn *privateName) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.string(pn.desc)
	e.w.int(int64(pn.kind))
	e.object(pn.method)
	e.object(pn.getter)
	e.object(pn.setter)
	e.w.endArray()
}

func (pn *privateName) walkSlot(w *heapWalker) {
	w.object(pn.method)
	w.object(pn.getter)
	w.object(pn.setter)
}

func decodePrivate(d *heapDecoder, r *jsonReader, s slotCodec) {
	pn := s.(*privateName)
	r.beginArray()
	r.more(true)
	pn.desc = r.goString()
	r.more(false)
	pn.kind = int(r.int())
	r.more(false)
	pn.method = d.object(r)
	r.more(false)
	pn.getter = d.object(r)
	r.more(false)
	pn.setter = d.object(r)
	r.more(false)
}

// Promise natives' data.

// resolvedFlag is the [[AlreadyResolved]] record shared by a pair of resolving functions.
type resolvedFlag struct{ done bool }

func (f *resolvedFlag) slotTag() string           { return "resolvedFlag" }
func (f *resolvedFlag) encodeSlot(e *heapEncoder) { e.w.bool(f.done) }
func (f *resolvedFlag) walkSlot(w *heapWalker)    {}

func (rd *resolvingData) slotTag() string { return "resolving" }

func (rd *resolvingData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.object(rd.promise)
	e.node(rd.done)
	e.w.bool(rd.reject)
	e.w.endArray()
}

func (rd *resolvingData) walkSlot(w *heapWalker) { w.object(rd.promise) }

func (st *combinatorState) slotTag() string { return "combinator" }

func (st *combinatorState) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.values(st.values)
	e.w.int(int64(st.remaining))
	e.value(st.resolve)
	e.value(st.reject)
	e.w.int(int64(st.kind))
	e.w.endArray()
}

func (st *combinatorState) walkSlot(w *heapWalker) {
	w.values(st.values)
	w.value(st.resolve)
	w.value(st.reject)
}

func decodeCombinator(d *heapDecoder, r *jsonReader, s slotCodec) {
	st := s.(*combinatorState)
	r.beginArray()
	r.more(true)
	st.values = d.values(r)
	r.more(false)
	st.remaining = int(r.int())
	r.more(false)
	st.resolve = d.value(r)
	r.more(false)
	st.reject = d.value(r)
	r.more(false)
	st.kind = combinator(r.int())
	r.more(false)
}

func (ed *elementData) slotTag() string { return "element" }

func (ed *elementData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.node(ed.state)
	e.w.int(int64(ed.index))
	e.w.bool(ed.called)
	e.w.bool(ed.reject)
	e.w.endArray()
}

func (ed *elementData) walkSlot(w *heapWalker) { w.node(ed.state) }

func (fd *finallyData) slotTag() string { return "finally" }

func (fd *finallyData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(fd.onFinally)
	e.value(fd.ctor)
	e.w.bool(fd.reject)
	e.value(fd.value)
	e.w.bool(fd.thunk)
	e.w.endArray()
}

func (fd *finallyData) walkSlot(w *heapWalker) {
	w.value(fd.onFinally)
	w.value(fd.ctor)
	w.value(fd.value)
}

// capabilityHolder is the data of a GetCapabilitiesExecutor function: the
// object receiving resolve and reject.
type capabilityHolder struct{ obj *Object }

func (c *capabilityHolder) slotTag() string           { return "capHolder" }
func (c *capabilityHolder) encodeSlot(e *heapEncoder) { e.object(c.obj) }
func (c *capabilityHolder) walkSlot(w *heapWalker)    { w.object(c.obj) }

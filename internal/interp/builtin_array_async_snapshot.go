package interp

// Snapshot codecs of Array.fromAsync's suspended state: the state is a shared record (a
// node) that the resume and abort natives of each await refer to.

func init() {
	registerSlotType("fromAsyncRef", func() slotCodec { return &fromAsyncRef{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		st, _ := d.node(r).(*fromAsyncState)
		if st == nil {
			r.fail("Array.fromAsync native without its state")
			st = &fromAsyncState{}
		}
		s.(*fromAsyncRef).st = st
	})
	registerSlotType("fromAsync", func() slotCodec { return &fromAsyncState{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		st := s.(*fromAsyncState)
		r.beginArray()
		r.more(true)
		st.promise = d.object(r)
		r.more(false)
		st.target = d.object(r)
		r.more(false)
		st.mapFn = d.value(r)
		r.more(false)
		st.thisArg = d.value(r)
		r.more(false)
		st.iter = d.iteratorRecord(r)
		r.more(false)
		st.sync = r.bool()
		r.more(false)
		st.arrayLike = d.object(r)
		r.more(false)
		st.length = r.int()
		r.more(false)
		st.k = r.int()
		r.more(false)
		st.phase = fromAsyncPhase(r.int())
		r.more(false)
		st.pending = d.value(r)
		r.more(false)
		st.settled = r.bool()
		r.more(false)
	})
}

func (ref *fromAsyncRef) slotTag() string           { return "fromAsyncRef" }
func (ref *fromAsyncRef) encodeSlot(e *heapEncoder) { e.node(ref.st) }
func (ref *fromAsyncRef) walkSlot(w *heapWalker)    { w.node(ref.st) }

func (st *fromAsyncState) slotTag() string { return "fromAsync" }

func (st *fromAsyncState) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.object(st.promise)
	e.object(st.target)
	e.value(st.mapFn)
	e.value(st.thisArg)
	e.iteratorRecord(st.iter)
	e.w.bool(st.sync)
	e.object(st.arrayLike)
	e.w.int(st.length)
	e.w.int(st.k)
	e.w.int(int64(st.phase))
	e.value(st.pending)
	e.w.bool(st.settled)
	e.w.endArray()
}

func (st *fromAsyncState) walkSlot(w *heapWalker) {
	w.object(st.promise)
	w.object(st.target)
	w.value(st.mapFn)
	w.value(st.thisArg)
	w.iteratorRecord(st.iter)
	w.object(st.arrayLike)
	w.value(st.pending)
}

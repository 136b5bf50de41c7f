package interp

// Snapshot codecs of the runtime's own internal slot types: error data, array iterators,
// iterator helpers and Iterator.from wrappers.

func init() {
	registerSlotType("error", func() slotCodec { return &errorData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		ed := s.(*errorData)
		r.beginArray()
		r.more(true)
		ed.line = int(r.int())
		r.more(false)
		ed.column = int(r.int())
		// The stack's frames came later within format 1 and 2: older snapshots end here.
		if r.more(false) {
			ed.fn = r.goString()
			for r.more(false) {
				var f stackFrame
				f.fn = r.goString()
				r.more(false)
				f.line = int(r.int())
				r.more(false)
				f.column = int(r.int())
				ed.callers = append(ed.callers, f)
			}
		}
	})
	registerSlotType("arrayIterator", func() slotCodec { return &arrayIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		it := s.(*arrayIterator)
		r.beginArray()
		r.more(true)
		it.target = d.value(r)
		if it.target.kind != KindObject && it.target.kind != KindUndefined {
			r.fail("array iterator over a non-object")
		}
		r.more(false)
		it.index = r.int()
		r.more(false)
		it.kind = arrayIterKind(r.int())
		r.more(false)
	})
	registerSlotType("iteratorHelper", func() slotCodec { return &iteratorHelper{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		h := s.(*iteratorHelper)
		r.beginArray()
		r.more(true)
		h.method = r.goString()
		r.more(false)
		h.under = d.iteratorRecord(r)
		r.more(false)
		h.fn = d.value(r)
		r.more(false)
		h.counter = r.int()
		r.more(false)
		h.limit = d.value(r).num
		r.more(false)
		h.inner = d.iteratorRecord(r)
		r.more(false)
		h.done = r.bool()
		if r.more(false) {
			r.beginArray()
			for f := true; r.more(f); f = false {
				h.items = append(h.items, d.value(r))
			}
			r.more(false)
			h.pos = int(r.int())
			r.more(false)
		}
	})
	registerSlotType("wrapIterator", func() slotCodec { return &wrapForValidIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*wrapForValidIterator).iterated = d.iteratorRecord(r)
	})
}

// iteratorRecord writes an Iterator Record as [iterator, next, done] (null for nil).
func (e *heapEncoder) iteratorRecord(it *Iterator) {
	if it == nil {
		e.w.null()
		return
	}
	e.w.beginArray()
	e.value(it.Obj)
	e.value(it.Next)
	e.w.bool(it.Done)
	e.w.endArray()
}

// iteratorRecord reads what heapEncoder.iteratorRecord wrote.
func (d *heapDecoder) iteratorRecord(r *jsonReader) *Iterator {
	if r.null() {
		return nil
	}
	it := &Iterator{}
	r.beginArray()
	r.more(true)
	it.Obj = d.value(r)
	if it.Obj.kind != KindObject {
		r.fail("iterator record without an iterator object")
	}
	r.more(false)
	it.Next = d.value(r)
	r.more(false)
	it.Done = r.bool()
	r.more(false)
	return it
}

// walkIterator reports the values of an iterator record.
func (w *heapWalker) iteratorRecord(it *Iterator) {
	if it != nil {
		w.value(it.Obj)
		w.value(it.Next)
	}
}

func (ed *errorData) slotTag() string { return "error" }
func (ed *errorData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.int(int64(ed.line))
	e.w.int(int64(ed.column))
	if ed.fn != "" || len(ed.callers) > 0 {
		// written only then, so that errors without frames encode as before
		e.w.string(ed.fn)
		for _, f := range ed.callers {
			e.w.string(f.fn)
			e.w.int(int64(f.line))
			e.w.int(int64(f.column))
		}
	}
	e.w.endArray()
}
func (ed *errorData) walkSlot(w *heapWalker) {}

func (it *arrayIterator) slotTag() string { return "arrayIterator" }
func (it *arrayIterator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(it.target)
	e.w.int(it.index)
	e.w.int(int64(it.kind))
	e.w.endArray()
}
func (it *arrayIterator) walkSlot(w *heapWalker) { w.value(it.target) }

func (h *iteratorHelper) slotTag() string { return "iteratorHelper" }
func (h *iteratorHelper) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.string(h.method)
	e.iteratorRecord(h.under)
	e.value(h.fn)
	e.w.int(h.counter)
	e.value(Number(h.limit))
	e.iteratorRecord(h.inner)
	e.w.bool(h.done)
	if len(h.items) > 0 {
		e.w.beginArray()
		for _, v := range h.items {
			e.value(v)
		}
		e.w.endArray()
		e.w.int(int64(h.pos))
	}
	e.w.endArray()
}
func (h *iteratorHelper) walkSlot(w *heapWalker) {
	w.values(h.items)
	w.iteratorRecord(h.under)
	w.iteratorRecord(h.inner)
	w.value(h.fn)
}

func (wr *wrapForValidIterator) slotTag() string { return "wrapIterator" }
func (wr *wrapForValidIterator) encodeSlot(e *heapEncoder) {
	e.iteratorRecord(wr.iterated)
}
func (wr *wrapForValidIterator) walkSlot(w *heapWalker) { w.iteratorRecord(wr.iterated) }

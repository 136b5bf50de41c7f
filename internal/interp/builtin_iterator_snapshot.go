package interp

// Snapshot codec of the Iterator.zip / Iterator.zipKeyed state (zipHelper). The chunks and
// windows helpers are iteratorHelper values and use its codec (snapshot_heap_slots.go).
//
// A zip is written as [mode, keyed, started, done, [iterator records], [padding], [keys]];
// a finished input is a null record.

func init() {
	registerSlotType("iteratorZip", func() slotCodec { return &zipHelper{} }, decodeZipHelper)
}

func (z *zipHelper) slotTag() string { return "iteratorZip" }

func (z *zipHelper) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.int(int64(z.mode))
	e.w.bool(z.keyed)
	e.w.bool(z.started)
	e.w.bool(z.done)
	e.w.beginArray()
	for _, it := range z.iters {
		e.iteratorRecord(it)
	}
	e.w.endArray()
	e.values(z.padding)
	e.values(z.keys)
	e.w.endArray()
}

func (z *zipHelper) walkSlot(w *heapWalker) {
	for _, it := range z.iters {
		w.iteratorRecord(it)
	}
	w.values(z.padding)
	w.values(z.keys)
}

// decodeZipHelper reads what zipHelper.encodeSlot wrote and checks that the lists agree.
func decodeZipHelper(d *heapDecoder, r *jsonReader, s slotCodec) {
	z := s.(*zipHelper)
	r.beginArray()
	r.more(true)
	mode := r.int()
	if mode < int64(zipShortest) || mode > int64(zipStrict) {
		r.fail("bad zip mode %d", mode)
	}
	z.mode = zipMode(mode)
	r.more(false)
	z.keyed = r.bool()
	r.more(false)
	z.started = r.bool()
	r.more(false)
	z.done = r.bool()
	r.more(false)
	r.beginArray()
	for f := true; r.more(f); f = false {
		z.iters = append(z.iters, d.iteratorRecord(r))
	}
	r.more(false)
	z.padding = d.values(r)
	r.more(false)
	z.keys = d.values(r)
	r.more(false)
	if len(z.padding) != len(z.iters) {
		r.fail("zip padding does not match its inputs")
	}
	if z.keyed && len(z.keys) != len(z.iters) || !z.keyed && len(z.keys) != 0 {
		r.fail("zip keys do not match its inputs")
	}
	for _, k := range z.keys {
		if k.kind != KindString && k.kind != KindSymbol {
			r.fail("zip key is not a property key")
		}
	}
}

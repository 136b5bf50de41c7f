package interp

import "github.com/codemode/codemode/internal/interp/jsregexp"

// Snapshot codecs of the String and RegExp slot types: a RegExp keeps its source and flags
// (the matcher is compiled again on restore), the iterators their position.

func init() {
	registerSlotType("regexp", func() slotCodec { return &regexpSlots{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		rs := s.(*regexpSlots)
		r.beginArray()
		r.more(true)
		rs.source = r.jsString()
		r.more(false)
		rs.flags = r.goString()
		r.more(false)
		fl, err := jsregexp.ParseFlags(rs.flags)
		if err != nil {
			r.fail("regexp flags: %v", err)
			return
		}
		if rs.re, err = jsregexp.Compile(rs.source.units(), fl); err != nil {
			r.fail("regexp source: %v", err)
		}
	})
	registerSlotType("stringIterator", func() slotCodec { return &stringIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		it := s.(*stringIterator)
		r.beginArray()
		r.more(true)
		it.str = d.value(r)
		if it.str.kind != KindString && it.str.kind != KindUndefined {
			r.fail("string iterator over a non-string")
		}
		r.more(false)
		it.next = r.int()
		r.more(false)
	})
	registerSlotType("regexpStringIterator", func() slotCodec { return &regexpStringIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		it := s.(*regexpStringIterator)
		r.beginArray()
		r.more(true)
		it.matcher = d.value(r)
		r.more(false)
		it.str = d.value(r)
		if it.matcher.kind != KindObject || it.str.kind != KindString {
			r.fail("malformed RegExp string iterator")
		}
		r.more(false)
		it.global = r.bool()
		r.more(false)
		it.unicode = r.bool()
		r.more(false)
		it.done = r.bool()
		r.more(false)
	})
}

func (rs *regexpSlots) slotTag() string { return "regexp" }
func (rs *regexpSlots) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.jsString(rs.source)
	e.w.string(rs.flags)
	e.w.endArray()
}
func (rs *regexpSlots) walkSlot(w *heapWalker) {
	w.string(rs.source)
	if rs.lastStr != nil {
		w.add(int64(rs.lastStr.Len()) * 8) // the prepared input: runes and offsets
	}
}

func (it *stringIterator) slotTag() string { return "stringIterator" }
func (it *stringIterator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(it.str)
	e.w.int(it.next)
	e.w.endArray()
}
func (it *stringIterator) walkSlot(w *heapWalker) { w.value(it.str) }

func (it *regexpStringIterator) slotTag() string { return "regexpStringIterator" }
func (it *regexpStringIterator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(it.matcher)
	e.value(it.str)
	e.w.bool(it.global)
	e.w.bool(it.unicode)
	e.w.bool(it.done)
	e.w.endArray()
}
func (it *regexpStringIterator) walkSlot(w *heapWalker) {
	w.value(it.matcher)
	w.value(it.str)
}

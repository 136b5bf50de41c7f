package interp

import (
	"sync"
	"unsafe"
)

// Storage of the heap decoder. Decoding a heap allocates little besides what the restored
// heap keeps: objects come from one array sized by the object count, properties, elements,
// string headers and string text from slabs that decoded values are cut from with exact
// capacity (a later append moves the data out), and the decoder's own tables are reused
// from one decode to the next.

// decoderPool keeps decoders (their tables and scratch space) between decodes.
var decoderPool = sync.Pool{New: func() any { return &heapDecoder{} }}

// newHeapDecoder prepares decoding into vm (whose realm must be fresh). Call release when
// the decoded VM no longer needs the decoder.
func (vm *VM) newHeapDecoder() *heapDecoder {
	d := decoderPool.Get().(*heapDecoder)
	d.vm = vm
	return d
}

// maxPooledKeys is the size from which the interned property names are dropped rather than
// kept for the next decode.
const maxPooledKeys = 4096

// release returns the decoder to the pool. Tables that refer to the decoded heap are
// cleared so that the pool does not keep it alive; the interned property names (immutable
// Go strings) are kept.
func (d *heapDecoder) release() {
	clear(d.nodes)
	clear(d.syms)
	clear(d.intr)
	// (nodeDecode holds the decode functions of registered types: nothing to drop)
	if d.strSetN <= len(d.strSet) { // a small heap: clear what it set
		for _, i := range d.strSet[:d.strSetN] {
			d.strCache[i] = nil
		}
	} else {
		clear(d.strCache[:])
	}
	d.strSetN = 0
	if len(d.keys) > maxPooledKeys {
		d.keys = nil
	} else {
		clear(d.keys)
	}
	// reset field by field: the caches are too large to copy through a struct literal
	d.vm = nil
	d.pool, d.objIntr, d.nObjs, d.intr, d.counted = nil, d.objIntr[:0], 0, d.intr[:0], false
	d.nodes, d.nodeDecode = d.nodes[:0], d.nodeDecode[:0]
	d.nodeReader = jsonReader{}
	d.scanning, d.lastNodeAt, d.ahead, d.aheadOK, d.aheadDone = false, 0, 0, false, false
	d.lastTag, d.lastType, d.lastEnv = nil, slotType{}, false
	d.binSlotIdx, d.binRecIdx = binSlotIdx{}, binRecIdx{} // string-table indices of this document
	d.binClasses = [len(d.binClasses)]binClassIdx{}
	d.syms = d.syms[:0]
	d.slotDepth, d.heapBytes = 0, 0
	d.props, d.vals = propSlab{}, valSlab{}
	d.strSlab, d.text, d.unitText = slab[jsString]{}, slab[byte]{}, slab[uint16]{}
	d.envSlab, d.closSlab = slab[envRecord]{}, slab[closureSlots]{}
	d.unitBuf = d.unitBuf[:0]
	d.longStrs, d.longUnits = nil, nil
	d.binProps, d.keySlab = binPropSlab{}, slab[PropertyKey]{}
	clear(d.shapeKeys[:cap(d.shapeKeys)]) // the scratch keys keep no symbols alive
	if len(d.shapes) > maxPooledShapes {
		d.shapes = nil
	} else if len(d.shapes) > 0 {
		clear(d.shapes) // its keys are the decoded heap's
	}
	clear(d.recentShapes[:])
	// The string values by table index refer to the decoded heap: cleared, so that the
	// pool does not keep it alive, and kept for the next decode when small (clearing costs
	// a write barrier per entry while the collector marks, which is less than a fresh table
	// costs the allocator and the collector). The property names are names this decoder
	// interns anyway; their table is kept and made stale by the next epoch.
	if cap(d.binStrs) > maxPooledStrValues {
		d.binStrs = nil
	} else {
		clear(d.binStrs)
		d.binStrs = d.binStrs[:0]
	}
	if cap(d.binKeys) > maxPooledStrs {
		d.binKeys = nil
	}
	d.keyEpoch++ // 0 after a wraparound: the next decode clears the table
	decoderPool.Put(d)
}

// Slab sizes (elements) of the decoder's storage.
const (
	propSlabSize = 512  // properties (keys and values)
	valSlabSize  = 1024 // array elements and value lists
	stringSlab   = 256  // string headers
	textSlab     = 4096 // bytes of ASCII string text
	unitSlab     = 2048 // code units of other strings
)

// slabSize scales a slab of at most limit elements to the heap section being read, at one
// element per perBytes bytes of it (what one element takes at least in typical snapshots;
// at least 16 elements), so that a small heap does not pay for large slabs.
func (d *heapDecoder) slabSize(limit, perBytes int) int {
	return min(limit, max(16, d.heapBytes/perBytes))
}

// restSlabSize is slabSize for the part of the snapshot still to read from r's position: a
// slab refilled near the end is small, so little of it is left unused.
func restSlabSize(r *jsonReader, limit, perBytes int) int {
	return min(limit, max(16, (len(r.data)-r.pos)/perBytes))
}

// slab is storage that values are cut from: entries [used:] free. The decoder advances
// used rather than reslicing buf, so that handing out an entry writes no pointer (a write
// barrier while the collector marks).
type slab[T any] struct {
	buf  []T
	used int
}

// propSlab is storage for properties: keys and props are parallel, entries [used:] free.
type propSlab struct {
	keys  []PropertyKey
	props []Property
	used  int
}

// valSlab is storage for values: entries [used:] free.
type valSlab struct {
	buf  []Value
	used int
}

// growProps makes room for the property being read, after the pending ones (the last
// pending entries written), moving them to the start of fresh storage. A long list gets
// storage of its exact size, from a count of the entries still to come.
func (d *heapDecoder) growProps(r *jsonReader, pending int) {
	s := &d.props
	size := d.slabSize(propSlabSize, 64)
	if pending >= size/4 {
		size = pending + 1 + r.countRest()
	}
	keys, props := make([]PropertyKey, size), make([]Property, size)
	copy(keys, s.keys[s.used-pending:s.used])
	copy(props, s.props[s.used-pending:s.used])
	s.keys, s.props, s.used = keys, props, pending
}

// growVals makes room for the value about to be read, after the pending ones. A long list
// gets storage of its exact size, from a count of the values still to come.
func (d *heapDecoder) growVals(r *jsonReader, pending int) {
	s := &d.vals
	size := restSlabSize(r, valSlabSize, 32)
	if pending >= size/4 {
		size = pending + 1 + r.countRest()
	}
	buf := make([]Value, size)
	copy(buf, s.buf[s.used-pending:s.used])
	s.buf, s.used = buf, pending
}

// setValue stores v in a zeroed slot, writing its reference only when it has one (a number
// or a boolean then costs no write barrier while the collector marks).
func setValue(dst *Value, v Value) {
	if v.ref == nil {
		dst.kind, dst.num = v.kind, v.num
		return
	}
	*dst = v
}

// readValueList reads an array of values into exactly sized storage (nil when empty).
func (d *heapDecoder) readValueList(r *jsonReader) []Value {
	if r.bin {
		return d.binValueList(r)
	}
	if !r.open('[') {
		r.expectSlow('[')
	}
	s := &d.vals
	n := 0
	for ok := r.moreSlow(true); ok; ok = r.comma() || !r.open(']') && r.moreSlow(false) {
		if s.used == len(s.buf) {
			d.growVals(r, n)
		}
		setValue(&s.buf[s.used], d.value(r))
		s.used++
		n++
	}
	if n == 0 {
		return nil
	}
	return s.buf[s.used-n : s.used : s.used]
}

// shortString is the length up to which decoded ASCII strings with equal contents share
// one string through a small cache (values repeated in many records: tags, names, states).
const shortString = 32

// internMinLength is the length from which equal decoded strings share one string: a string
// referenced from several places is written once per reference, and reading it back as one
// string keeps the restored heap (and its memory charge) the size it was.
const internMinLength = 256

// str reads a string value, charging it to the memory budget.
func (d *heapDecoder) str(r *jsonReader) *jsString {
	if r.bin {
		return d.binStr(r)
	}
	raw, plain := r.stringRaw()
	if r.err != nil {
		return emptyString
	}
	if plain {
		return d.asciiString(raw)
	}
	u := d.unitBuf
	if cap(u) < len(raw) {
		u = make([]uint16, len(raw)+len(raw)/4)
		d.unitBuf = u
	}
	n := r.decodeUnits(raw, u[:cap(u)])
	if r.err != nil {
		return emptyString
	}
	u = u[:n]
	ascii := true
	for _, c := range u {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), n) // reuse the buffer
		for i, c := range u {
			b[i] = byte(c)
		}
		return d.asciiString(b)
	}
	if n >= internMinLength {
		if s, ok := d.longUnits[string(unitsBytes(u))]; ok {
			return s
		}
	}
	text := d.unitsText(n)
	copy(text, u)
	s := d.newString() // zeroed: set only the fields that are not zero (fewer write barriers)
	s.u16, s.length = unsafe.SliceData(text), int32(n)
	d.vm.allocated += stringBaseSize + 2*int64(n)
	if n >= internMinLength {
		if d.longUnits == nil {
			d.longUnits = map[string]*jsString{}
		}
		d.longUnits[string(unitsBytes(text))] = s
	}
	return s
}

// asciiString returns the string of ASCII text b (which it copies), shared with an equal
// string already decoded when it is short or long.
func (d *heapDecoder) asciiString(b []byte) *jsString {
	if len(b) == 0 {
		return emptyString
	}
	var slot **jsString
	if len(b) <= shortString {
		i := keyCacheIndex(b)
		slot = &d.strCache[i]
		if s := *slot; s != nil && s.ascii == string(b) {
			return s
		}
		if d.strSetN < len(d.strSet) {
			d.strSet[d.strSetN] = uint8(i)
		}
		d.strSetN++
	} else if len(b) >= internMinLength {
		if s, ok := d.longStrs[string(b)]; ok {
			return s
		}
	}
	s := d.freshASCII(b)
	switch {
	case slot != nil:
		*slot = s
	case len(b) >= internMinLength:
		if d.longStrs == nil {
			d.longStrs = map[string]*jsString{}
		}
		d.longStrs[s.ascii] = s
	}
	return s
}

// freshASCII returns a new string of ASCII text b (not empty; copied), charging it to the
// memory budget.
func (d *heapDecoder) freshASCII(b []byte) *jsString {
	var text string
	if size := min(textSlab, max(64, d.heapBytes/16)); len(b) > size/4 {
		text = string(b)
	} else {
		t := &d.text
		if len(t.buf)-t.used < len(b) {
			t.buf, t.used = make([]byte, size), 0
		}
		dst := t.buf[t.used : t.used+len(b)]
		copy(dst, b)
		text = unsafe.String(unsafe.SliceData(dst), len(b))
		t.used += len(b)
	}
	s := d.newString() // zeroed: set only the fields that are not zero (fewer write barriers)
	s.ascii, s.length, s.isASCII = text, int32(len(text)), true
	d.vm.allocated += stringBaseSize + int64(len(text))
	return s
}

// unitsText returns storage for n code units, from the slab when small.
func (d *heapDecoder) unitsText(n int) []uint16 {
	size := min(unitSlab, max(64, d.heapBytes/16))
	if n > size/4 {
		return make([]uint16, n)
	}
	t := &d.unitText
	if len(t.buf)-t.used < n {
		t.buf, t.used = make([]uint16, size), 0
	}
	text := t.buf[t.used : t.used+n : t.used+n]
	t.used += n
	return text
}

// newString returns a zeroed string header from the slab.
func (d *heapDecoder) newString() *jsString {
	t := &d.strSlab
	if t.used == len(t.buf) {
		t.buf, t.used = make([]jsString, d.slabSize(stringSlab, 192)), 0
	}
	s := &t.buf[t.used]
	t.used++
	return s
}

// recordSlab is how many environment records or closure slots the decoder allocates at once
// (a restored heap often holds many closures over per-iteration environments).
const recordSlab = 128

// recordSlabSize scales the record slabs to the heap section (a record takes a few dozen
// bytes of it, and not every heap has many).
func (d *heapDecoder) recordSlabSize() int {
	return min(recordSlab, max(8, d.heapBytes/512))
}

// newEnv returns a zeroed environment record from the slab.
func (d *heapDecoder) newEnv() *envRecord {
	t := &d.envSlab
	if t.used == len(t.buf) {
		t.buf, t.used = make([]envRecord, d.recordSlabSize()), 0
	}
	e := &t.buf[t.used]
	t.used++
	return e
}

// newClosure returns zeroed closure slots from the slab.
func (d *heapDecoder) newClosure() *closureSlots {
	t := &d.closSlab
	if t.used == len(t.buf) {
		t.buf, t.used = make([]closureSlots, d.recordSlabSize()), 0
	}
	c := &t.buf[t.used]
	t.used++
	return c
}

// unitsBytes views UTF-16 code units as bytes (a map key for interning).
func unitsBytes(u []uint16) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), 2*len(u))
}

// internKey reads a property name, sharing one string per distinct ASCII name.
func (d *heapDecoder) internKey(r *jsonReader) string {
	if r.bin {
		return d.binKey(r)
	}
	raw, plain := r.stringRaw()
	if r.err != nil {
		return ""
	}
	if !plain {
		u := make([]uint16, len(raw))
		n := r.decodeUnits(raw, u)
		return newUTF16(u[:n:n]).wtf8()
	}
	return d.internASCII(raw)
}

// internASCII returns ASCII name raw as a Go string, the same string for every occurrence,
// in this decode and the next ones (the decoder keeps its names).
func (d *heapDecoder) internASCII(raw []byte) string {
	slot := &d.recentKeys[keyCacheIndex(raw)]
	if *slot == string(raw) && len(raw) > 0 {
		return *slot
	}
	s, ok := d.keys[string(raw)]
	if !ok {
		if d.keys == nil {
			d.keys = map[string]string{}
		}
		s = string(raw)
		d.keys[s] = s
	}
	*slot = s
	return s
}

// keyCacheIndex picks the entry of a 256-entry direct-mapped cache (recentKeys, strCache)
// for a name or string from its length and ends.
func keyCacheIndex(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return (len(b)*31 + int(b[0])*7 + int(b[len(b)-1])*3 + int(b[len(b)/2])) & 255
}

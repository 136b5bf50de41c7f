package interp

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// The format-2 paths of the heap decoder's values and strings (snapshot_bin.go).

// binValue reads one JavaScript value token.
func (d *heapDecoder) binValue(r *jsonReader) Value {
	if r.pos >= len(r.data) {
		r.fail("expected a value")
		return undefinedValue
	}
	c := r.data[r.pos]
	if c >= binSmall {
		r.pos++
		return Number(float64(c &^ binSmall))
	}
	switch c {
	case binString:
		return stringValue(d.binStr(r))
	case binObjRef:
		id, ok := r.binRefID(d.nObjs)
		if !ok {
			r.fail("bad object id")
			return undefinedValue
		}
		return objectValue(d.objAt(id))
	case binInt, binFloat:
		return Number(r.binFloatTok())
	case binNull:
		r.pos++
		return nullValue
	case binTrue, binFalse:
		return Bool(r.bool())
	case binUndefined:
		r.pos++
		return undefinedValue
	case binHole:
		r.pos++
		return holeValue
	case binNaN:
		r.pos++
		return nanValue
	case binInf:
		r.pos++
		return Number(math.Inf(1))
	case binNegInf:
		r.pos++
		return Number(math.Inf(-1))
	case binNegZero:
		r.pos++
		return Number(math.Copysign(0, -1))
	case binSym:
		r.pos++
		id, ok := r.binID(len(d.syms))
		if !ok {
			r.fail("bad symbol id")
			return undefinedValue
		}
		return symbolValue(d.syms[id])
	case binBigInt:
		r.pos++
		return d.bigInt(r)
	case binWellKnown:
		r.pos++
		name := r.goString()
		s := wellKnownSymbolByName(name)
		if s == nil {
			r.fail("unknown well-known symbol %q", name)
			return undefinedValue
		}
		return symbolValue(s)
	}
	r.fail("bad value token %#x", c)
	return undefinedValue
}

// binStr reads a string value. Every entry of the table becomes one string, shared by all
// the values that refer to it, and is charged to the memory budget once.
func (d *heapDecoder) binStr(r *jsonReader) *jsString {
	i := r.binStringIndex()
	if i < 0 {
		return emptyString
	}
	if len(d.binStrs) < len(r.strs) {
		d.binStrs = growStrTable(d.binStrs, len(r.strs))
	}
	if s := d.binStrs[i]; s != nil {
		return s
	}
	e := r.strs[i]
	var s *jsString
	if e.kind == binStrASCII {
		// the table holds each text once, and binStrs each entry's string: no cache needed
		if e.start == e.end {
			s = emptyString
		} else {
			s = d.freshASCII(r.data[e.start:e.end])
		}
	} else if s = d.binUnitsString(r.data[e.start:e.end], e.kind); s == nil {
		s = r.binJS(e)
		d.vm.allocated += stringBaseSize + 2*int64(s.length)
	}
	d.binStrs[i] = s
	return s
}

// maxPooledStrValues is the entry count from which the table of string values is dropped
// rather than kept for the next decode.
const maxPooledStrValues = 4096

// growStrTable returns the table of string values t (all nil: see release) with length n,
// in its storage when large enough.
func growStrTable(t []*jsString, n int) []*jsString {
	if cap(t) < n {
		return make([]*jsString, n)
	}
	return t[:n]
}

// binUnitsString is the string of a table entry of little-endian UTF-16 code units b, in
// the decoder's slabs; nil for another kind of entry, or units all ASCII (which make an
// ASCII string).
func (d *heapDecoder) binUnitsString(b []byte, kind uint8) *jsString {
	n := len(b) / 2
	if kind != binStrUTF16 || n == 0 {
		return nil
	}
	text := d.unitsText(n)
	var any uint16
	for i := range text {
		c := binary.LittleEndian.Uint16(b[2*i:])
		text[i] = c
		any |= c
	}
	if any < 0x80 {
		return nil
	}
	s := d.newString() // zeroed: set only the fields that are not zero (fewer write barriers)
	s.u16, s.length = unsafe.SliceData(text), int32(n)
	d.vm.allocated += stringBaseSize + 2*int64(n)
	return s
}

// binKey reads a property name, one Go string per entry of the table.
func (d *heapDecoder) binKey(r *jsonReader) string {
	i := r.binStringIndex()
	if i < 0 {
		return ""
	}
	return d.binKeyAt(r, i)
}

// binKeyAt is the property name of entry i of the string table.
func (d *heapDecoder) binKeyAt(r *jsonReader, i int) string {
	if len(d.binKeys) < len(r.strs) {
		d.binKeys = make([]binKey, len(r.strs))
	}
	if d.keyEpoch == 0 { // the first decode of this decoder, or the epoch wrapped around
		clear(d.binKeys[:cap(d.binKeys)])
		d.keyEpoch = 1
	}
	if e := &d.binKeys[i]; e.epoch == d.keyEpoch {
		return e.k
	}
	var k string
	if e := r.strs[i]; e.kind == binStrASCII {
		k = d.internASCII(r.data[e.start:e.end])
	} else {
		k = r.binGo(e)
	}
	d.binKeys[i] = binKey{k: k, epoch: d.keyEpoch}
	return k
}

// binValueList is readValueList in format 2: the tokens of the list read directly, without
// the JSON reader's separators and peeks.
func (d *heapDecoder) binValueList(r *jsonReader) []Value {
	if !r.binExpect(binArray) {
		return nil
	}
	s := &d.vals
	n := 0
	for {
		if r.pos >= len(r.data) {
			r.fail("unterminated list")
			return nil
		}
		c := r.data[r.pos]
		if c == binEnd {
			r.pos++
			break
		}
		if s.used == len(s.buf) {
			d.growVals(r, n)
		}
		// small integers, strings and object references without binValue's dispatch
		switch dst := &s.buf[s.used]; {
		case c >= binSmall:
			dst.kind, dst.num = KindNumber, float64(c&^binSmall)
			r.pos++
		case c == binString:
			*dst = stringValue(d.binStr(r))
		case c == binObjRef:
			id, ok := r.binRefID(d.nObjs)
			if !ok {
				r.fail("bad object id")
				return nil
			}
			*dst = objectValue(d.objAt(id))
		default:
			setValue(dst, d.binValue(r))
		}
		s.used++
		n++
	}
	if n == 0 {
		return nil
	}
	return s.buf[s.used-n : s.used : s.used]
}

// binFreshProps is readProps in format 2 for an object without properties yet (every
// object entry): [key, value] or [key, value, flags] or [key, getter, setter, flags]. The
// values and attributes go into the property slab; the keys are the object's shape's
// (binShapeKeys). The keys are collected only from the first symbol key on: a list of names
// is its string-table indices until its shape is looked up.
func (d *heapDecoder) binFreshProps(r *jsonReader, o *Object) {
	if !r.binExpect(binArray) {
		return
	}
	data := r.data
	idx, keys := d.shapeIdx[:0], d.shapeKeys[:0]
	shareable := true
	n := 0 // properties written to the slab
	for {
		if r.pos >= len(data) {
			r.fail("unterminated property list")
			return
		}
		c := data[r.pos]
		if c == binEnd {
			r.pos++
			break
		}
		if c != binArray {
			r.fail("expected a property")
			return
		}
		r.pos++
		if r.pos < len(data) && data[r.pos] == binString {
			i := r.binStringIndex()
			if i < 0 {
				return
			}
			idx = appendShapeIndex(idx, i)
			if !shareable {
				keys = append(keys, strKey(d.binKeyAt(r, i)))
			}
		} else {
			v := d.binValue(r)
			if v.kind != KindSymbol {
				r.fail("bad property key")
				return
			}
			if shareable {
				// the keys so far are names: from here on, every key is kept
				keys = d.shapeKeysOf(r, keys, idx[:4*n])
				shareable = false
			}
			keys = append(keys, symKey(v.sym()))
		}
		var a Value
		if p := r.pos; p < len(data) && data[p] >= binSmall { // a small integer: no call
			a = Number(float64(data[p] &^ binSmall))
			r.pos = p + 1
		} else {
			a = d.binValue(r)
		}
		p := Property{value: a, flags: propDefault}
		if r.pos < len(data) && data[r.pos] != binEnd {
			if c := data[r.pos]; binPeek[c] == '{' || c == binNull {
				// accessor: getter, setter, flags
				b := d.binValue(r)
				flags := propFlags(r.binIntTok())
				if a.kind != KindObject && a.kind != KindNull || b.kind != KindObject && b.kind != KindNull {
					r.fail("accessor with a getter or setter that is not an object")
				}
				if flags&propAccessor == 0 {
					r.fail("accessor without the accessor flag")
				}
				p = accessorProperty(a.asObject(), b.asObject(), flags)
			} else {
				if c >= binSmall { // the flags of most properties: one byte
					p.flags = propFlags(c &^ binSmall)
					r.pos++
				} else {
					p.flags = propFlags(r.binIntTok())
				}
				if p.flags&propAccessor != 0 {
					r.fail("accessor flag on a data property")
				}
			}
		}
		if r.pos < len(data) && data[r.pos] == binEnd {
			r.pos++
		} else if !r.binExpect(binEnd) {
			return
		}
		d.vm.allocated += propertySize
		d.putBinProp(r, &p, n)
		n++
	}
	d.shapeIdx = idx
	if n == 0 {
		return
	}
	if !shareable {
		d.shapeKeys = keys[:0]
	}
	o.props.keys = d.binShapeKeys(r, idx, keys, shareable)
	if o.props.keys != nil {
		o.props.props = d.lastBinProps(n)
	}
}

// binRefID reads the id after a reference token (at the position) as an index below limit,
// ids of one and two bytes (below 16,384) without a call.
func (r *jsonReader) binRefID(limit int) (int, bool) {
	data, p := r.data, r.pos+1
	if p+1 < len(data) {
		if c := data[p]; c < 0x80 {
			r.pos = p + 1
			return int(c), int(c) < limit
		} else if c2 := data[p+1]; c2 < 0x80 {
			r.pos = p + 2
			id := int(c&0x7f) | int(c2)<<7
			return id, id < limit
		}
	}
	r.pos = p
	return r.binID(limit)
}

// binStringIndex is binEntryIndex with a fast path for an index of one to three bytes (a
// table of up to 2,097,152 entries).
func (r *jsonReader) binStringIndex() int {
	data, p := r.data, r.pos
	if p+3 < len(data) && data[p] == binString {
		if c := data[p+1]; c < 0x80 {
			if int(c) < len(r.strs) {
				r.pos = p + 2
				return int(c)
			}
		} else if c2 := data[p+2]; c2 < 0x80 {
			if i := int(c&0x7f) | int(c2)<<7; i < len(r.strs) {
				r.pos = p + 3
				return i
			}
		} else if c3 := data[p+3]; c3 < 0x80 {
			if i := int(c&0x7f) | int(c2&0x7f)<<7 | int(c3)<<14; i < len(r.strs) {
				r.pos = p + 4
				return i
			}
		}
	}
	return r.binEntryIndex()
}

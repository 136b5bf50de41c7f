package interp

import "math"

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
		r.pos++
		id, ok := r.binID(len(d.objs))
		if !ok || d.objs[id] == nil {
			r.fail("bad object id")
			return undefinedValue
		}
		return objectValue(d.objs[id])
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
	i := r.binEntryIndex()
	if i < 0 {
		return emptyString
	}
	if len(d.binStrs) < len(r.strs) {
		d.binStrs = growClear(d.binStrs, len(r.strs))
	}
	if s := d.binStrs[i]; s != nil {
		return s
	}
	e := r.strs[i]
	var s *jsString
	if e.kind == binStrASCII {
		s = d.asciiString(r.data[e.start:e.end])
	} else {
		s = r.binJS(e)
		d.vm.allocated += stringBaseSize + 2*int64(s.length)
	}
	d.binStrs[i] = s
	return s
}

// binKey reads a property name, one Go string per entry of the table.
func (d *heapDecoder) binKey(r *jsonReader) string {
	i := r.binEntryIndex()
	if i < 0 {
		return ""
	}
	if len(d.binKeys) < len(r.strs) {
		d.binKeys = growClear(d.binKeys, len(r.strs))
	}
	if k := d.binKeys[i]; k != "" {
		return k
	}
	k := r.binGo(r.strs[i])
	d.binKeys[i] = k
	return k
}

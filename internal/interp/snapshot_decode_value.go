package interp

import "math"

// Values and references in the heap section: one JavaScript value, an object reference, a
// record reference.

// object reads a value that must be an object reference or null.
func (d *heapDecoder) object(r *jsonReader) *Object {
	v := d.value(r)
	if v.kind != KindObject && v.kind != KindNull {
		r.fail("expected an object reference")
		return nil
	}
	return v.asObject()
}

// node reads a record reference ({"@":id} or null). While the records are read, a
// reference to one not reached yet allocates the records up to it (scanTo).
func (d *heapDecoder) node(r *jsonReader) slotCodec {
	id, ok := r.tagRef('@')
	if !ok {
		if r.null() {
			return nil
		}
		r.beginObject()
		r.more(true)
		if r.key() != "@" {
			r.fail("expected a record reference")
			return nil
		}
		id = int(r.int())
		r.more(false)
	}
	if id >= len(d.nodes) && d.scanning && r.err == nil {
		d.scanTo(r, id)
	}
	if id < 0 || id >= len(d.nodes) {
		r.fail("bad record id %d", id)
		return nil
	}
	return d.nodes[id]
}

// value reads one JavaScript value.
func (d *heapDecoder) value(r *jsonReader) Value {
	if r.bin {
		return d.binValue(r)
	}
	switch c := r.peek(); {
	case c == '"':
		return stringValue(d.str(r))
	case c == 't' || c == 'f':
		return Bool(r.bool())
	case c == 'n':
		if r.null() {
			return nullValue
		}
		r.fail("bad literal")
	case c == '{':
		if v, ok := d.objectRef(r); ok {
			return v
		}
		r.pos++
		r.more(true)
		k := r.key()
		var v Value
		switch k {
		case "u":
			r.int()
		case "h":
			r.int()
			v = holeValue
		case "#":
			id := int(r.int())
			if id < 0 || id >= d.nObjs {
				r.fail("bad object id %d", id)
				return undefinedValue
			}
			v = objectValue(d.objAt(id))
		case "y":
			id := int(r.int())
			if id < 0 || id >= len(d.syms) {
				r.fail("bad symbol id %d", id)
				return undefinedValue
			}
			v = symbolValue(d.syms[id])
		case "w":
			name := r.goString()
			s := wellKnownSymbolByName(name)
			if s == nil {
				r.fail("unknown well-known symbol %q", name)
				return undefinedValue
			}
			v = symbolValue(s)
		case "bi":
			v = d.bigInt(r)
		case "n":
			switch s := r.goString(); s {
			case "NaN":
				v = nanValue
			case "Infinity":
				v = Number(math.Inf(1))
			case "-Infinity":
				v = Number(math.Inf(-1))
			case "-0":
				v = Number(math.Copysign(0, -1))
			default:
				r.fail("bad number tag %q", s)
			}
		default:
			r.fail("unknown value tag %q", k)
		}
		r.more(false)
		return v
	default:
		return Number(r.float())
	}
	return undefinedValue
}

// objectRef reads the commonest tagged value, an object reference {"#":id} written without
// spaces, in one step; ok is false (and nothing consumed) for any other text.
func (d *heapDecoder) objectRef(r *jsonReader) (Value, bool) {
	p := r.pos
	id, ok := r.tagRef('#')
	if !ok || id >= d.nObjs {
		r.pos = p
		return Value{}, false
	}
	return objectValue(d.objAt(id)), true
}

// tagRef reads {"<tag>":id}, a reference written without spaces, with an id of at most nine
// digits; ok is false (and nothing consumed) for any other text.
func (r *jsonReader) tagRef(tag byte) (int, bool) {
	data := r.data
	i := r.pos
	if r.bin {
		t := byte(binObjRef)
		if tag == '@' {
			t = binNodeRef
		}
		if i >= len(data) || data[i] != t {
			return 0, false
		}
		r.pos++
		u := r.uvarint()
		if r.err != nil || u > 1<<31 {
			r.fail("bad reference")
			return 0, false
		}
		return int(u), true
	}
	if i+5 >= len(data) || data[i] != '{' || data[i+1] != '"' || data[i+2] != tag || data[i+3] != '"' || data[i+4] != ':' {
		return 0, false
	}
	i += 5
	id := 0
	start := i
	for ; i < len(data) && i-start < 9; i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		id = id*10 + int(c)
	}
	if i == start || i >= len(data) || data[i] != '}' {
		return 0, false
	}
	r.pos = i + 1
	return id, true
}

// bigInt reads the hexadecimal text of a BigInt ({"bi": text} or binBigInt's string token).
func (d *heapDecoder) bigInt(r *jsonReader) Value {
	s := r.goString()
	b, ok := parseHexBigInt(s)
	if !ok {
		r.fail("bad BigInt %q", s)
		return undefinedValue
	}
	d.vm.allocated += bigIntBytes(b.BitLen())
	return bigIntValue(b)
}

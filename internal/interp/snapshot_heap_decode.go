package interp

import (
	"math"
	"unsafe"
)

// The decoding half of the heap codec (format described in snapshot_heap.go).

// heapDecoder rebuilds a heap section into a VM with a fresh realm.
type heapDecoder struct {
	vm      *VM
	objs    []*Object
	isIntr  []bool
	counted bool // the object count was read and every object allocated
	nodes   []slotCodec
	nodePos []int
	syms    []*Symbol

	slotDepth  int               // nesting of slot decoding (bounded)
	keys       map[string]string // interned property names
	recentKeys [256]string       // a direct-mapped cache in front of keys
	scratchK   []PropertyKey
	scratchP   []Property
	scratchV   []Value
	heapBytes  int           // size of the heap section (sizes the slabs)
	keySlab    []PropertyKey // storage for the properties of decoded objects
	propSlab   []Property
	valSlab    []Value              // storage for the elements of decoded arrays
	strSlab    []jsString           // string headers not handed out yet
	longStrs   map[string]*jsString // long ASCII strings by contents (see internMinLength)
	longUnits  map[string]*jsString // other long strings by the bytes of their code units
}

// newHeapDecoder prepares decoding into vm (whose realm must be fresh).
func (vm *VM) newHeapDecoder() *heapDecoder { return &heapDecoder{vm: vm} }

// readHeap reads the heap section at r's position.
func (d *heapDecoder) readHeap(r *jsonReader) error {
	d.heapBytes = len(r.data) - r.pos
	realm := d.vm.realm
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch k := r.key(); k {
		case "syms":
			r.beginArray()
			for f := true; r.more(f); f = false {
				r.beginArray()
				var desc *jsString
				if !r.null() {
					desc = r.jsString()
				}
				r.more(false)
				registered := r.bool()
				r.more(false)
				s := &Symbol{description: desc, registered: registered}
				if registered && desc != nil {
					key := desc.wtf8()
					if existing, ok := realm.symbolRegistry[key]; ok {
						s = existing
					} else {
						realm.symbolRegistry[key] = s
					}
				}
				d.syms = append(d.syms, s)
			}
		case "intr":
			r.beginArray()
			for f := true; r.more(f); f = false {
				r.beginArray()
				id := int(r.int())
				r.more(false)
				name := r.goString()
				r.more(false)
				o := realm.Intrinsic(name)
				if o == nil {
					r.fail("unknown intrinsic %q", name)
					break
				}
				if id < 0 || id > len(r.data) {
					r.fail("bad object id %d", id)
					break
				}
				for len(d.objs) <= id {
					d.objs = append(d.objs, nil)
					d.isIntr = append(d.isIntr, false)
				}
				d.objs[id] = o
				d.isIntr[id] = true
			}
		case "n":
			n := int(r.int())
			if n < len(d.objs) || n > len(r.data) {
				r.fail("bad object count %d", n)
				break
			}
			intr := 0
			for _, isIntr := range d.isIntr {
				if isIntr {
					intr++
				}
			}
			for len(d.objs) < n {
				d.objs = append(d.objs, nil)
				d.isIntr = append(d.isIntr, false)
			}
			pool := make([]Object, n-intr)
			for id := range d.objs {
				if !d.isIntr[id] {
					d.objs[id] = &pool[0]
					pool = pool[1:]
				}
			}
			d.counted = true
		case "nodes":
			r.beginArray()
			for f := true; r.more(f); f = false {
				d.nodePos = append(d.nodePos, r.pos)
				r.beginObject()
				r.more(true)
				if r.key() != "t" {
					r.fail("node without tag")
					break
				}
				tag := r.goString()
				st, ok := lookupSlotType(tag)
				if !ok {
					r.fail("unknown record type %q", tag)
					break
				}
				d.nodes = append(d.nodes, st.alloc())
				r.more(false)
				r.key()
				r.skip()
				r.more(false)
			}
			if !d.counted {
				r.fail("records before the object count")
			}
			if r.err != nil {
				return r.err
			}
			// every record and object exists now: fill the records
			for i, pos := range d.nodePos {
				nr := &jsonReader{data: r.data, pos: pos}
				nr.beginObject()
				nr.more(true)
				st, _ := lookupSlotType(nr.key2())
				nr.more(false)
				nr.key()
				st.decode(d, nr, d.nodes[i])
				if nr.err != nil {
					return nr.err
				}
			}
		case "objs":
			if !d.counted {
				r.fail("objects before the object count")
				break
			}
			r.beginArray()
			id := 0
			for f := true; r.more(f); f = false {
				if id >= len(d.objs) {
					r.fail("more objects than counted")
					break
				}
				if d.isIntr[id] {
					d.readIntrinsicDiff(r, d.objs[id])
				} else {
					d.readObject(r, d.objs[id])
				}
				id++
			}
			if id != len(d.objs) && r.err == nil {
				r.fail("fewer objects than counted")
			}
		default:
			r.skip()
		}
	}
	return r.err
}

// key2 reads the "t" member's string value (the key was already consumed by the caller's
// structure: {"t": tag, ...}).
func (r *jsonReader) key2() string {
	if r.key() != "t" {
		r.fail("expected tag")
	}
	return r.goString()
}

// classByName maps encoded class names back.
var classByName = func() map[string]Class {
	m := map[string]Class{}
	for c := len(classNames) - 1; c >= 0; c-- {
		m[classNames[c]] = Class(c)
	}
	return m
}()

// className reads a class name.
func (d *heapDecoder) className(r *jsonReader) (Class, bool) {
	u, isASCII := r.units()
	if r.err != nil || !isASCII {
		_ = u
		return ClassObject, false
	}
	name := r.data[r.asciiStart:r.asciiEnd]
	switch string(name) {
	case "Array":
		return ClassArray, true
	case "Function":
		return ClassFunction, true
	}
	if string(name) == "Object" {
		// an object of class Object has no "c": the name is written for ClassOther, which
		// shares it
		return ClassOther, true
	}
	c, ok := classByName[string(name)]
	return c, ok
}

// readObject fills a non-intrinsic object from its entry.
func (d *heapDecoder) readObject(r *jsonReader, o *Object) {
	o.class = ClassObject
	o.flags = objExtensible
	hasProto, hasLen := false, false
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "c":
			c, ok := d.className(r)
			if !ok {
				r.fail("unknown class")
			}
			o.class = c
		case "p":
			o.proto = d.object(r)
			hasProto = true
		case "f":
			o.flags = objFlags(r.int())
		case "pr":
			d.readProps(r, o, false)
		case "el":
			o.elems = d.readElements(r)
		case "len":
			o.length = uint32(r.int())
			hasLen = true
		case "s":
			o.slots = d.slot(r)
		default:
			r.skip()
		}
	}
	if !hasProto {
		o.proto = d.vm.realm.defaultProto(o.class)
		if o.proto == nil {
			r.fail("%s object without a prototype entry", o.class)
		}
	}
	if !hasLen {
		o.length = uint32(len(o.elems))
	}
	d.validateObject(r, o)
	d.vm.allocated += objectBaseSize
}

// validateObject rejects objects whose class and internal slots disagree, so that a corrupt
// snapshot fails to decode instead of failing later inside the interpreter.
func (d *heapDecoder) validateObject(r *jsonReader, o *Object) {
	k, isWrapper := KindUndefined, true
	switch o.class {
	case ClassBoolean:
		k = KindBool
	case ClassNumber:
		k = KindNumber
	case ClassString:
		k = KindString
	case ClassSymbol:
		k = KindSymbol
	default:
		isWrapper = false
	}
	if isWrapper {
		if v, ok := o.slots.(Value); !ok || v.kind != k {
			r.fail("%s object without its primitive value", o.class)
		}
	} else if _, ok := o.slots.(Value); ok {
		r.fail("primitive slot on a %s object", o.class)
	}
	if o.class == ClassArray && int64(len(o.elems)) > int64(o.length) {
		r.fail("array length below its elements")
	}
	if o.class != ClassArray && len(o.elems) > 0 {
		r.fail("elements on a non-array")
	}
	if _, isNative := o.slots.(*nativeFunction); isNative && o.flags&objCallable == 0 {
		r.fail("native function that is not callable")
	}
	if o.flags&objCallable != 0 && o.slots == nil {
		r.fail("callable object without code")
	}
}

// readIntrinsicDiff applies an intrinsic's changes (0 = unchanged).
func (d *heapDecoder) readIntrinsicDiff(r *jsonReader, o *Object) {
	if r.peek() != '{' {
		r.int()
		return
	}
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "p":
			o.proto = d.object(r)
		case "f":
			o.flags = objFlags(r.int())
		case "set", "add":
			d.readProps(r, o, true)
		case "pr":
			o.props = propertyMap{}
			d.readProps(r, o, false)
		case "el":
			o.elems = d.readElements(r)
			o.length = uint32(len(o.elems))
		case "len":
			o.length = uint32(r.int())
		case "c":
			r.goString()
		case "s":
			o.slots = d.slot(r)
		default:
			r.skip()
		}
	}
	if o.class == ClassArray && int64(len(o.elems)) > int64(o.length) {
		r.fail("array length below its elements")
	}
}

// readProps reads a property list; with overwrite, existing keys are replaced in place.
// The properties of a fresh object go into exactly sized storage.
func (d *heapDecoder) readProps(r *jsonReader, o *Object, overwrite bool) {
	fresh := !overwrite && o.props.len() == 0
	d.scratchK, d.scratchP = d.scratchK[:0], d.scratchP[:0]
	defer func() {
		d.vm.allocated += int64(len(d.scratchK)) * propertySize
		if fresh && len(d.scratchK) > 0 {
			n := len(d.scratchK)
			o.props.keys = slabSlice(&d.keySlab, n, d.slabSize(keySlabSize))
			copy(o.props.keys, d.scratchK)
			o.props.props = slabSlice(&d.propSlab, n, d.slabSize(propSlabSize))
			copy(o.props.props, d.scratchP)
			if len(o.props.keys) > mapIndexThreshold {
				o.props.buildIndex()
				if len(o.props.index) != len(o.props.keys) {
					r.fail("duplicate property names")
				}
			}
		}
	}()
	r.beginArray()
	for first := true; r.more(first); first = false {
		r.beginArray()
		var key PropertyKey
		if r.peek() == '{' {
			v := d.value(r)
			if v.kind != KindSymbol {
				r.fail("bad property key")
				return
			}
			key = symKey(v.sym())
		} else {
			key = strKey(d.internKey(r))
		}
		r.more(false)
		a := d.value(r)
		p := Property{value: a, flags: propDefault}
		if r.more(false) {
			if r.peek() == '{' || r.peek() == 'n' {
				// accessor: getter, setter, flags
				b := d.value(r)
				r.more(false)
				p = Property{getter: a.asObject(), setter: b.asObject(), flags: propFlags(r.int())}
				if a.kind != KindObject && a.kind != KindNull {
					r.fail("accessor with a non-object getter")
				}
			} else {
				p.flags = propFlags(r.int())
			}
			r.more(false)
		}
		if p.flags&propAccessor != 0 && p.value.kind != KindUndefined {
			r.fail("accessor flag on a data property")
		}
		if fresh {
			if len(d.scratchK) < mapIndexThreshold {
				for _, k := range d.scratchK {
					if k == key {
						r.fail("duplicate property %s", key)
						return
					}
				}
			}
			d.scratchK = append(d.scratchK, key)
			d.scratchP = append(d.scratchP, p)
			continue
		}
		if cur := o.props.get(key); cur != nil {
			if !overwrite {
				r.fail("duplicate property %s", key)
				return
			}
			*cur = p
			continue
		}
		o.props.add(key, p)
	}
}

// readElements reads the dense elements of an array into exactly sized storage.
func (d *heapDecoder) readElements(r *jsonReader) []Value {
	vals := d.scratchV[:0]
	r.beginArray()
	for first := true; r.more(first); first = false {
		vals = append(vals, d.value(r))
	}
	d.scratchV = vals[:0]
	if len(vals) == 0 {
		return nil
	}
	d.vm.allocated += int64(len(vals)) * valueSize
	out := slabSlice(&d.valSlab, len(vals), d.slabSize(valSlabSize))
	copy(out, vals)
	return out
}

// Slab sizes (elements) of the decoder's storage for properties and array elements.
const (
	keySlabSize  = 512
	propSlabSize = 256
	valSlabSize  = 512
)

// slabSize scales a slab to the heap section being read (one element per 64 bytes, at
// least 16), so that a small heap does not pay for large slabs.
func (d *heapDecoder) slabSize(limit int) int {
	return min(limit, max(16, d.heapBytes/64))
}

// slabSlice returns n elements of zeroed storage cut from *slab (refilled with size elements
// when short), with capacity n so that a later append moves the data out. Large requests get
// their own allocation.
func slabSlice[T any](slab *[]T, n, size int) []T {
	if n > size/8 {
		return make([]T, n)
	}
	if len(*slab) < n {
		*slab = make([]T, size)
	}
	out := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return out
}

// stringSlab is how many string headers the decoder allocates at once.
const stringSlab = 128

// internMinLength is the length from which equal decoded strings share one string: a string
// referenced from several places is written once per reference, and reading it back as one
// string keeps the restored heap (and its memory charge) the size it was.
const internMinLength = 256

// str reads a string value, charging it to the memory budget. Headers come from a slab; long
// strings with equal contents are shared.
func (d *heapDecoder) str(r *jsonReader) *jsString {
	u, isASCII := r.units()
	if r.err != nil {
		return emptyString
	}
	var ascii string
	if isASCII {
		b := r.data[r.asciiStart:r.asciiEnd]
		if len(b) == 0 {
			return emptyString
		}
		if len(b) >= internMinLength {
			if s, ok := d.longStrs[string(b)]; ok {
				return s
			}
		}
		ascii = string(b)
	} else if len(u) >= internMinLength {
		if s, ok := d.longUnits[string(unitsBytes(u))]; ok {
			return s
		}
	}
	if len(d.strSlab) == 0 {
		d.strSlab = make([]jsString, d.slabSize(stringSlab))
	}
	s := &d.strSlab[0]
	d.strSlab = d.strSlab[1:]
	if isASCII {
		*s = jsString{ascii: ascii, length: len(ascii), isASCII: true}
		d.vm.allocated += stringBaseSize + int64(len(ascii))
	} else {
		*s = *newUTF16(u)
		d.vm.allocated += stringBaseSize + 2*int64(len(u))
	}
	if s.length >= internMinLength {
		if isASCII {
			if d.longStrs == nil {
				d.longStrs = map[string]*jsString{}
			}
			d.longStrs[ascii] = s
		} else {
			if d.longUnits == nil {
				d.longUnits = map[string]*jsString{}
			}
			d.longUnits[string(unitsBytes(u))] = s
		}
	}
	return s
}

// unitsBytes views UTF-16 code units as bytes (a map key for interning).
func unitsBytes(u []uint16) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), 2*len(u))
}

// internKey reads a property name, sharing one string per distinct ASCII name.
func (d *heapDecoder) internKey(r *jsonReader) string {
	u, isASCII := r.units()
	if r.err != nil {
		return ""
	}
	if !isASCII {
		return newUTF16(u).wtf8()
	}
	b := r.data[r.asciiStart:r.asciiEnd]
	slot := &d.recentKeys[keyCacheIndex(b)]
	if *slot == string(b) && len(b) > 0 {
		return *slot
	}
	s, ok := d.keys[string(b)]
	if !ok {
		if d.keys == nil {
			d.keys = map[string]string{}
		}
		s = string(b)
		d.keys[s] = s
	}
	*slot = s
	return s
}

// keyCacheIndex picks the recentKeys entry of a property name from its length and ends.
func keyCacheIndex(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return (len(b)*31 + int(b[0])*7 + int(b[len(b)-1])) & (len(heapDecoder{}.recentKeys) - 1)
}

// slot reads an internal slot {"t": tag, "d": data}.
func (d *heapDecoder) slot(r *jsonReader) any {
	d.slotDepth++
	defer func() { d.slotDepth-- }()
	if d.slotDepth > maxSkipDepth {
		r.fail("slots nested too deep")
		return nil
	}
	r.beginObject()
	r.more(true)
	tag := r.key2()
	r.more(false)
	r.key()
	var out any
	switch tag {
	case "prim":
		out = d.value(r)
	case "native":
		r.beginArray()
		r.more(true)
		name := r.goString()
		nf := d.vm.realm.nativeByName(name)
		if nf == nil {
			r.fail("unknown native %q", name)
			return nil
		}
		if r.more(false) {
			cp := *nf
			cp.data = d.slot(r)
			nf = &cp
			r.more(false)
		}
		out = nf
	default:
		st, ok := lookupSlotType(tag)
		if !ok {
			r.fail("unknown slot type %q", tag)
			return nil
		}
		s := st.alloc()
		st.decode(d, r, s)
		out = s
	}
	r.more(false)
	return out
}

// nativeByName finds a native by stable name: a run-time native, or an intrinsic function.
func (r *Realm) nativeByName(name string) *nativeFunction {
	if n := lookupNative(name); n != nil {
		return n
	}
	if o := r.Intrinsic(name); o != nil {
		if n, ok := o.slots.(*nativeFunction); ok {
			return n
		}
	}
	return nil
}

// object reads a value that must be an object reference or null.
func (d *heapDecoder) object(r *jsonReader) *Object {
	v := d.value(r)
	if v.kind != KindObject && v.kind != KindNull {
		r.fail("expected an object reference")
		return nil
	}
	return v.asObject()
}

// node reads a record reference ({"@":id} or null).
func (d *heapDecoder) node(r *jsonReader) slotCodec {
	if r.null() {
		return nil
	}
	r.beginObject()
	r.more(true)
	if r.key() != "@" {
		r.fail("expected a record reference")
		return nil
	}
	id := int(r.int())
	r.more(false)
	if id < 0 || id >= len(d.nodes) {
		r.fail("bad record id %d", id)
		return nil
	}
	return d.nodes[id]
}

// value reads one JavaScript value.
func (d *heapDecoder) value(r *jsonReader) Value {
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
			if id < 0 || id >= len(d.objs) || d.objs[id] == nil {
				r.fail("bad object id %d", id)
				return undefinedValue
			}
			v = objectValue(d.objs[id])
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

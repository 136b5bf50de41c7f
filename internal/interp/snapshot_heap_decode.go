package interp

import (
	"math"
	"slices"
	"unsafe"
)

// The decoding half of the heap codec (format described in snapshot_heap.go).

// heapDecoder rebuilds a heap section into a VM with a fresh realm.
type heapDecoder struct {
	vm         *VM
	pool       []Object       // the objects by id (the entries of intrinsics' ids stay unused)
	objIntr    []uint32       // by id: 0, or 1 + the position in intr of the intrinsic of that id
	nObjs      int            // the object count (0 until it is read)
	intr       []intrinsicRef // the "intr" entries, applied when the count is read
	counted    bool           // the object count was read and every object allocated
	nodes      []slotCodec
	nodeDecode []func(d *heapDecoder, r *jsonReader, s slotCodec)
	nodeReader jsonReader // scans ahead for records referred to before they are reached
	scanning   bool       // the records are being read: a reference may allocate ahead
	lastNodeAt int        // where the data of the last record allocated starts
	ahead      int        // after the entry of the last record allocated (when aheadOK)
	aheadOK    bool       // ahead is known (the last record allocated has been passed over)
	aheadDone  bool       // the scan ahead reached the end of the list
	lastTag    []byte     // the tag of the last record allocated, and its type:
	lastType   slotType   // consecutive records of one type look it up once
	lastEnv    bool       // lastTag is "env" (allocated from envSlab)
	// the tag and type of the last internal slot decoded (kept from one decode to the
	// next: the types are registered once)
	lastSlotTag  []byte
	lastSlotType slotType
	binSlotIdx   binSlotIdx     // format 2: the last slot's names and tag (binSlot)
	binRecIdx    binRecIdx      // format 2: the names and the last tags of records (binNodeHead)
	binClasses   [8]binClassIdx // format 2: the class names met last, by string-table index
	syms         []*Symbol

	slotDepth  int                  // nesting of slot decoding (bounded)
	keys       map[string]string    // interned property names
	recentKeys [256]string          // a direct-mapped cache in front of keys
	strCache   [256]*jsString       // short strings decoded so far (direct-mapped)
	strSet     [64]uint8            // the first entries of strCache this decode set
	strSetN    int                  // entries of strCache this decode set
	heapBytes  int                  // size of the heap section (sizes the slabs)
	props      propSlab             // storage for the properties of decoded objects
	vals       valSlab              // storage for the elements of decoded arrays, value lists
	strSlab    slab[jsString]       // string headers not handed out yet
	envSlab    slab[envRecord]      // environment records not handed out yet
	closSlab   slab[closureSlots]   // closure slots not handed out yet
	text       slab[byte]           // string text not handed out yet
	unitText   slab[uint16]         // code units not handed out yet
	unitBuf    []uint16             // scratch for decoding escaped and non-ASCII strings
	longStrs   map[string]*jsString // long ASCII strings by contents (see internMinLength)
	longUnits  map[string]*jsString // other long strings by the bytes of their code units

	binStrs  []*jsString           // format 2: the string values decoded, by table index
	binKeys  []binKey              // format 2: the property names decoded, by table index
	keyEpoch uint32                // format 2: the decode whose names binKeys holds (0: none)
	binProps binPropSlab           // format 2: storage for the properties of decoded objects
	keySlab  slab[PropertyKey]     // format 2: keys of new shapes not handed out yet
	shapes   map[string]shapeEntry // format 2: the shapes recentShapes does not hold, by name indices
	// format 2: the shapes met last (a direct-mapped cache in front of shapes)
	recentShapes [recentShapes]shapeEntry
	shapeIdx     []byte        // scratch: the name indices of the property list read
	shapeKeys    []PropertyKey // scratch: the keys of the property list read
	addKeys      []PropertyKey // scratch: the keys of an intrinsic's added properties
	addProps     []Property    // scratch: the added properties (see readAddedProps)
}

// binKey is the property name of a string-table entry, decoded by the decode of epoch
// (entries of other epochs are stale: the pooled table is not cleared between decodes).
type binKey struct {
	k     string
	epoch uint32
}

// intrinsicRef is an entry of the "intr" list: an object id naming an intrinsic.
type intrinsicRef struct {
	id  int
	iid uint16
	o   *Object
}

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
			if d.counted {
				r.fail("intrinsics after the object count")
				break
			}
			r.beginArray()
			var iids []uint16
			for f := true; r.more(f); f = false {
				r.beginArray()
				id := int(r.int())
				r.more(false)
				name := r.goStringView() // looked up only
				r.more(false)
				iid, ok := realm.names.find(name)
				if !ok {
					r.fail("unknown intrinsic %q", name)
					break
				}
				if id < 0 || id > len(r.data) {
					r.fail("bad object id %d", id)
					break
				}
				d.intr = append(d.intr, intrinsicRef{id: id, iid: iid})
				iids = append(iids, iid)
			}
			// the intrinsics this heap names are created together
			realm.materializeList(iids)
			for i := range d.intr {
				d.intr[i].o = realm.objs.at(int(d.intr[i].iid))
			}
		case "n":
			d.allocObjects(r, int(r.int()))
		case "nodes":
			d.readNodes(r)
			if r.err != nil {
				return r.err
			}
		case "objs":
			if !d.counted {
				r.fail("objects before the object count")
				break
			}
			r.beginArray()
			id := 0
			for ok := r.more(true); ok; ok = r.comma() || r.moreSlow(false) {
				if id >= d.nObjs {
					r.fail("more objects than counted")
					break
				}
				if d.objIntr[id] != 0 {
					d.readIntrinsicDiff(r, d.objAt(id))
				} else {
					d.readObject(r, &d.pool[id])
				}
				id++
			}
			if id != d.nObjs && r.err == nil {
				r.fail("fewer objects than counted")
			}
		default:
			r.skip()
		}
	}
	return r.err
}

// allocObjects makes the table of n object ids: the intrinsics listed before, and one
// array of fresh objects for the rest. The table holds no pointers (objIntr), so that making
// and clearing it costs the collector nothing.
func (d *heapDecoder) allocObjects(r *jsonReader, n int) {
	if d.counted {
		r.fail("a second object count")
		return
	}
	maxID := -1
	for _, e := range d.intr {
		maxID = max(maxID, e.id)
	}
	if n <= maxID || n > len(r.data) || n < 0 {
		r.fail("bad object count %d", n)
		return
	}
	if uint64(len(d.intr)) >= math.MaxUint32 {
		r.fail("too many intrinsics")
		return
	}
	d.objIntr = growClear(d.objIntr, n)
	for i, e := range d.intr {
		d.objIntr[e.id] = uint32(i + 1)
	}
	d.pool = make([]Object, n)
	d.nObjs = n
	d.counted = true
}

// objAt returns the object of id (below nObjs).
func (d *heapDecoder) objAt(id int) *Object {
	if i := d.objIntr[id]; i != 0 {
		return d.intr[i-1].o
	}
	return &d.pool[id]
}

// growClear returns s with length n, all zero, reusing its storage when large enough.
func growClear[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// readNodes reads the records, in one pass. A record is allocated (from its tag) when the
// reading reaches it, or earlier when a record before it refers to it: scanTo then passes
// over the records in between, allocating each; the reading decodes them when it gets there.
func (d *heapDecoder) readNodes(r *jsonReader) {
	if !d.counted {
		r.fail("records before the object count")
		return
	}
	r.beginArray()
	d.scanning, d.aheadOK, d.aheadDone = true, false, false
	defer func() { d.scanning = false }()
	for i, ok := 0, r.moreSlow(true); ok; i, ok = i+1, r.comma() || !r.open(']') && r.moreSlow(false) {
		fresh := i == len(d.nodes)
		d.nodeHead(r, fresh)
		if r.err != nil {
			return
		}
		if fresh {
			d.aheadOK = false // the entry after this one is not known until it is decoded
		}
		d.nodeDecode[i](d, r, d.nodes[i])
		if !r.open('}') {
			r.more(false)
		}
		if r.err != nil {
			return
		}
		if i == len(d.nodes)-1 {
			d.ahead, d.aheadOK = r.pos, true // no record after this one is allocated yet
		}
	}
}

// nodeHead reads the start of a record entry, {"t": tag, "d": , and with alloc allocates
// the record (the next id) and notes where its data starts.
func (d *heapDecoder) nodeHead(r *jsonReader, alloc bool) {
	if r.bin && d.binNodeHead(r, alloc) {
		return
	}
	r.beginObject()
	r.more(true)
	if r.key() != "t" {
		r.fail("node without tag")
		return
	}
	tag, plain := r.stringRaw()
	if r.err != nil {
		return
	}
	if alloc {
		if !plain {
			tag = []byte(r.decodeString(tag))
		}
		if d.lastTag == nil || string(tag) != string(d.lastTag) {
			st, ok := lookupSlotTypeBytes(tag)
			if !ok {
				r.fail("unknown record type %q", tag)
				return
			}
			d.lastTag, d.lastType, d.lastEnv = tag, st, string(tag) == "env"
		}
		if d.lastEnv {
			d.nodes = append(d.nodes, d.newEnv())
		} else {
			d.nodes = append(d.nodes, d.lastType.alloc())
		}
		d.nodeDecode = append(d.nodeDecode, d.lastType.decode)
	}
	r.more(false)
	r.key()
	if alloc {
		d.lastNodeAt = r.pos
	}
}

// binNodeHead is nodeHead in format 2: binObject and the name "t", the tag and the name "d"
// as string tokens, read by their string-table indices. The indices of the names, and the
// types of the tags met last by index, are remembered (binRecIdx), so that most records are
// read without comparing text or looking a type up. False, with the position unchanged, for
// anything else, which nodeHead then reads (and reports).
func (d *heapDecoder) binNodeHead(r *jsonReader, alloc bool) bool {
	start := r.pos
	if start >= len(r.data) || r.data[start] != binObject {
		return false
	}
	r.pos++
	c := &d.binRecIdx
	t, tag, dd, ok := r.binHeadIndices()
	if !ok {
		r.pos, r.err = start, nil
		return false
	}
	if c.t != t+1 || c.d != dd+1 {
		if r.binText(t) != "t" || r.binText(dd) != "d" {
			r.pos = start
			return false
		}
		c.t, c.d = t+1, dd+1
	}
	if !alloc {
		return true
	}
	e := &c.tags[tag%len(c.tags)]
	if e.idx != tag+1 {
		name := r.binText(tag)
		st, ok := lookupSlotType(name)
		if !ok || name == "" {
			r.pos = start
			return false
		}
		*e = binRecTag{idx: tag + 1, typ: st, env: name == "env"}
	}
	if e.env {
		d.nodes = append(d.nodes, d.newEnv())
	} else {
		d.nodes = append(d.nodes, e.typ.alloc())
	}
	d.nodeDecode = append(d.nodeDecode, e.typ.decode)
	d.lastNodeAt = r.pos
	return true
}

// binRecIdx is what binNodeHead remembers: the string-table indices (plus one; 0 for none)
// of the names "t" and "d", and the types of the tags met last, by tag index.
type binRecIdx struct {
	t, d int
	tags [4]binRecTag
}

// binRecTag is a record tag's string-table index (plus one) and type.
type binRecTag struct {
	idx int
	typ slotType
	env bool // allocated from the decoder's slab of environment records
}

// scanTo allocates the records up to id (a forward reference met while decoding records),
// passing over the entries between the last one allocated and it. Failures go to r.
func (d *heapDecoder) scanTo(r *jsonReader, id int) {
	ar := &d.nodeReader
	if d.aheadOK {
		*ar = jsonReader{data: r.data, pos: d.ahead, bin: r.bin, strs: r.strs, goStrs: r.goStrs}
	} else {
		// the last record allocated is the one being decoded: pass over its data
		*ar = jsonReader{data: r.data, pos: d.lastNodeAt, bin: r.bin, strs: r.strs, goStrs: r.goStrs}
		ar.skip()
		if !ar.open('}') {
			ar.more(false)
		}
	}
	for len(d.nodes) <= id && !d.aheadDone && ar.err == nil {
		if !ar.more(false) {
			d.aheadDone = true // the end of the list
			break
		}
		d.nodeHead(ar, true)
		ar.skip()
		if !ar.open('}') {
			ar.more(false)
		}
	}
	d.ahead, d.aheadOK = ar.pos, true
	if ar.err != nil && r.err == nil {
		r.err, r.pos = ar.err, len(r.data)
	}
}

// lookupSlotTypeBytes is lookupSlotType for a tag read from a snapshot.
func lookupSlotTypeBytes(tag []byte) (slotType, bool) {
	slotTypesMu.RLock()
	defer slotTypesMu.RUnlock()
	t, ok := slotTypes[string(tag)]
	return t, ok
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
	if r.bin {
		// format 2: a name met before in this document, by its string-table index (below 128)
		p := r.pos
		if p+1 >= len(r.data) || r.data[p] != binString || r.data[p+1] >= 0x80 {
			return d.classNameText(r)
		}
		i := int(r.data[p+1])
		e := &d.binClasses[i%len(d.binClasses)]
		if e.idx != i+1 {
			c, ok := d.classNameText(r)
			if !ok || r.err != nil {
				return c, ok
			}
			*e = binClassIdx{idx: i + 1, class: c}
		}
		r.pos = p + 2
		return e.class, true
	}
	return d.classNameText(r)
}

// binClassIdx is a class name of a format-2 document met before: its string-table index
// (plus one; 0 for none) and its class.
type binClassIdx struct {
	idx   int
	class Class
}

// classNameText is className from the name's text.
func (d *heapDecoder) classNameText(r *jsonReader) (Class, bool) {
	// the classes of most objects, compared as they are written
	if data, p := r.data, r.pos; p+7 <= len(data) && string(data[p:p+7]) == `"Array"` {
		r.pos = p + 7
		return ClassArray, true
	} else if p+10 <= len(data) && string(data[p:p+10]) == `"Function"` {
		r.pos = p + 10
		return ClassFunction, true
	}
	u, isASCII := r.units()
	if r.err != nil || !isASCII {
		_ = u
		return ClassObject, false
	}
	name := r.data[r.asciiStart:r.asciiEnd]
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
	if r.bin && r.pos < len(r.data) && (r.data[r.pos] == binArrayObj || r.data[r.pos] == binPlainObj) {
		if r.data[r.pos] == binArrayObj {
			o.class = ClassArray
			r.pos++
			o.elems = d.readElements(r)
			o.length = uint32(len(o.elems))
		} else {
			r.pos++
			d.readProps(r, o, false)
		}
		// an array of its elements or a plain object of its properties: nothing for
		// validateObject to reject (no slots, no other flags, the length the elements')
		o.proto = d.vm.realm.defaultProto(o.class)
		d.vm.allocated += objectBaseSize
		return
	}
	if !r.open('{') {
		r.expectSlow('{')
	}
	for ok := r.moreSlow(true); ok; ok = r.comma() || !r.open('}') && r.moreSlow(false) {
		switch r.objMember() {
		case memberClass:
			c, ok := d.className(r)
			if !ok {
				r.fail("unknown class")
			}
			o.class = c
		case memberProto:
			o.proto = d.object(r)
			hasProto = true
		case memberFlags:
			o.flags = d.objectFlags(r)
		case memberProps:
			d.readProps(r, o, false)
		case memberElems:
			o.elems = d.readElements(r)
		case memberLen:
			o.length = uint32(r.int())
			hasLen = true
		case memberSlots:
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

// The members of an object entry, as objMember reports them.
const (
	memberOther = iota
	memberClass // "c"
	memberProto // "p"
	memberFlags // "f"
	memberProps // "pr"
	memberElems // "el"
	memberLen   // "len"
	memberSlots // "s"
)

// objMember reads the name of a member of an object entry, and its colon.
func (r *jsonReader) objMember() int {
	data, p := r.data, r.pos
	if r.bin {
		s, ok := r.binEntry()
		if !ok {
			return memberOther
		}
		return memberOf(string(data[s.start:s.end]))
	}
	if p+5 < len(data) && data[p] == '"' {
		switch {
		case data[p+2] == '"' && data[p+3] == ':':
			m := memberOther
			switch data[p+1] {
			case 'c':
				m = memberClass
			case 'p':
				m = memberProto
			case 'f':
				m = memberFlags
			case 's':
				m = memberSlots
			}
			if m != memberOther {
				r.pos = p + 4
				return m
			}
		case data[p+3] == '"' && data[p+4] == ':':
			switch {
			case data[p+1] == 'p' && data[p+2] == 'r':
				r.pos = p + 5
				return memberProps
			case data[p+1] == 'e' && data[p+2] == 'l':
				r.pos = p + 5
				return memberElems
			}
		case data[p+4] == '"' && data[p+5] == ':':
			if data[p+1] == 'l' && data[p+2] == 'e' && data[p+3] == 'n' {
				r.pos = p + 6
				return memberLen
			}
		}
	}
	return memberOf(r.key())
}

// memberOf is the member code of an object entry's member name.
func memberOf(name string) int {
	switch name {
	case "c":
		return memberClass
	case "p":
		return memberProto
	case "f":
		return memberFlags
	case "pr":
		return memberProps
	case "el":
		return memberElems
	case "len":
		return memberLen
	case "s":
		return memberSlots
	}
	return memberOther
}

// validateObject rejects objects whose class and internal slots disagree, so that a corrupt
// snapshot fails to decode instead of failing later inside the interpreter.
func (d *heapDecoder) validateObject(r *jsonReader, o *Object) {
	if o.class == ClassArray && int64(len(o.elems)) > int64(o.length) {
		r.fail("array length below its elements")
	}
	if o.class != ClassArray && len(o.elems) > 0 {
		r.fail("elements on a non-array")
	}
	isWrapper := o.class >= ClassBoolean && o.class <= ClassSymbol || o.class == ClassBigInt
	d.validateBinaryData(r, o)
	switch s := o.slots.(type) {
	case nil: // most objects: plain ones and arrays
		if isWrapper {
			r.fail("%s object without its primitive value", o.class)
		}
		if o.flags&objCallable != 0 {
			r.fail("callable object without code")
		}
	case Value:
		if !isWrapper {
			r.fail("primitive slot on a %s object", o.class)
		} else if o.class == ClassBigInt && s.kind != KindBigInt ||
			o.class != ClassBigInt && s.kind != wrapperKinds[o.class-ClassBoolean] {
			r.fail("%s object without its primitive value", o.class)
		}
	default:
		if isWrapper {
			r.fail("%s object without its primitive value", o.class)
		}
		if _, native := s.(*nativeFunction); native && o.flags&objCallable == 0 {
			r.fail("native function that is not callable")
		}
	}
}

// wrapperKinds are the kinds of the primitive values that the wrapper classes (ClassBoolean
// to ClassSymbol, in order) hold.
var wrapperKinds = [...]Kind{KindBool, KindNumber, KindString, KindSymbol}

// objectFlags reads an object's flags: only those a program can observe.
func (d *heapDecoder) objectFlags(r *jsonReader) objFlags {
	f := r.int()
	if f&^int64(objProgramFlags) != 0 {
		r.fail("bad object flags %d", f)
		return objExtensible
	}
	return objFlags(f)
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
			o.flags = d.objectFlags(r) | o.flags&objPlaceholders
		case "set":
			d.readProps(r, o, true)
		case "add":
			d.readAddedProps(r, o)
		case "pr":
			o.props = propertyMap{}
			d.readProps(r, o, false)
		case "el":
			if o.class != ClassArray { // a lazy realm's built-ins keep their own state there
				r.fail("elements of a built-in that is not an array")
				break
			}
			o.elems = d.readElements(r)
			o.length = uint32(len(o.elems))
		case "len":
			if o.class != ClassArray {
				r.fail("length of a built-in that is not an array")
				break
			}
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
	if fresh && r.bin {
		d.binFreshProps(r, o)
		return
	}
	n := 0 // properties of a fresh object written to the slab
	if !r.open('[') {
		r.expectSlow('[')
	}
	for ok := r.moreSlow(true); ok; ok = r.comma() || !r.open(']') && r.moreSlow(false) {
		key, p, ok := d.readProp(r)
		if !ok {
			return
		}
		d.vm.allocated += propertySize
		if fresh {
			if !d.putFreshProp(r, key, &p, n) {
				return
			}
			n++
			continue
		}
		d.setProp(r, o, key, p, overwrite)
	}
	d.endFreshProps(r, o, n)
}

// readProp reads an entry of a property list: [key, value] or [key, value, flags] or
// [key, getter, setter, flags]. False when the key is not a string or a symbol (reported to
// r), the list's reading then ends.
func (d *heapDecoder) readProp(r *jsonReader) (PropertyKey, Property, bool) {
	if !r.open('[') {
		r.expectSlow('[')
	}
	var key PropertyKey
	if r.peek() == '{' {
		v := d.value(r)
		if v.kind != KindSymbol {
			r.fail("bad property key")
			return key, Property{}, false
		}
		key = symKey(v.sym())
	} else {
		key = strKey(d.internKey(r))
	}
	if !r.comma() {
		r.moreSlow(false)
	}
	a := d.value(r)
	p := Property{value: a, flags: propDefault}
	if r.comma() || !r.open(']') && r.moreSlow(false) {
		if c := r.peek(); c == '{' || c == 'n' {
			// accessor: getter, setter, flags
			b := d.value(r)
			r.more(false)
			flags := propFlags(r.int())
			if a.kind != KindObject && a.kind != KindNull || b.kind != KindObject && b.kind != KindNull {
				r.fail("accessor with a getter or setter that is not an object")
			}
			if flags&propAccessor == 0 {
				r.fail("accessor without the accessor flag")
			}
			p = accessorProperty(a.asObject(), b.asObject(), flags)
		} else {
			p.flags = propFlags(r.int())
			if p.flags&propAccessor != 0 {
				r.fail("accessor flag on a data property")
			}
		}
		if !r.open(']') {
			r.more(false)
		}
	}
	return key, p, true
}

// maxAddedAtOnce is the length up to which readAddedProps adds a list of properties at once.
const maxAddedAtOnce = 64

// readAddedProps reads the "add" list of an intrinsic's changes: properties that follow the
// pristine ones (the globals a host or a program defined, on the global object). They are
// added at once: the object's storage is made at its final size, which copies the pristine
// properties once (they are shared with the template realm until then), and the keys of an
// intrinsic that still shares the template's come from sharedAddedKeys: every restore that
// adds the same names to it shares one slice. A key that the object has already, or that
// the list repeats, replaces the property in place, as "set" does.
func (d *heapDecoder) readAddedProps(r *jsonReader, o *Object) {
	keys, props := d.addKeys[:0], d.addProps[:0]
	if !r.open('[') {
		r.expectSlow('[')
	}
	for ok := r.moreSlow(true); ok; ok = r.comma() || !r.open(']') && r.moreSlow(false) {
		key, p, ok := d.readProp(r)
		if !ok {
			break
		}
		d.vm.allocated += propertySize
		keys, props = append(keys, key), append(props, p)
	}
	if r.err == nil {
		m := &o.props
		single := len(keys) > maxAddedAtOnce
		for i := 0; i < len(keys) && !single; i++ {
			single = m.find(keys[i]) >= 0 || slices.Contains(keys[:i], keys[i])
		}
		if single {
			for i := range keys {
				d.setProp(r, o, keys[i], props[i], true)
			}
		} else {
			m.appendNew(keys, props)
		}
	}
	clear(keys) // the scratch space of a pooled decoder keeps nothing alive
	clear(props)
	d.addKeys, d.addProps = keys[:0], props[:0]
}

// putFreshProp adds a property of a fresh object to the property slab, after the n already
// read; false when it fails (a duplicate key).
func (d *heapDecoder) putFreshProp(r *jsonReader, key PropertyKey, p *Property, n int) bool {
	s := &d.props
	if n < mapIndexThreshold {
		for _, k := range s.keys[s.used-n : s.used] {
			if k == key {
				r.fail("duplicate property %s", key)
				return false
			}
		}
	}
	if s.used == len(s.keys) {
		d.growProps(r, n)
	}
	// the slab is zeroed: set only the fields that are not zero (fewer write barriers)
	if key.sym != nil {
		s.keys[s.used].sym = key.sym
	} else {
		s.keys[s.used].name = key.name
	}
	dst := &s.props[s.used]
	setValue(&dst.value, p.value)
	dst.flags = p.flags
	s.used++
	return true
}

// endFreshProps gives a fresh object the n properties last put into the slab.
func (d *heapDecoder) endFreshProps(r *jsonReader, o *Object, n int) {
	if n == 0 {
		return
	}
	s := &d.props
	o.props.keys = s.keys[s.used-n : s.used : s.used]
	o.props.props = s.props[s.used-n : s.used : s.used]
	if n > mapIndexThreshold {
		if !o.props.buildIndex() {
			r.fail("duplicate property names")
		}
	}
}

// linearPropLimit is the property count up to which setProp looks a key up by a scan
// rather than building the object's hash index (a fresh realm's objects have none).
const linearPropLimit = 96

// setProp adds a property to an object that has some already, or with overwrite replaces
// the property of the same key. Objects of the fresh realm keep their lazily built index
// unbuilt when small enough.
func (d *heapDecoder) setProp(r *jsonReader, o *Object, key PropertyKey, p Property, overwrite bool) {
	m := &o.props
	if m.index != nil || len(m.keys) > linearPropLimit {
		if cur := m.get(key); cur != nil {
			if !overwrite {
				r.fail("duplicate property %s", key)
				return
			}
			*cur = p
			return
		}
		m.add(key, p)
		return
	}
	for i := range m.keys {
		if m.keys[i] == key {
			if !overwrite {
				r.fail("duplicate property %s", key)
				return
			}
			*m.get(key) = p // get copies storage shared with other realms before the write
			return
		}
	}
	if len(m.keys) < mapIndexThreshold {
		m.add(key, p)
		return
	}
	m.keys = append(m.keys, key)
	m.props = append(m.props, p)
}

// readElements reads the dense elements of an array into exactly sized storage.
func (d *heapDecoder) readElements(r *jsonReader) []Value {
	vals := d.readValueList(r)
	d.vm.allocated += int64(len(vals)) * valueSize
	return vals
}

// slot reads an internal slot {"t": tag, "d": data}.
func (d *heapDecoder) slot(r *jsonReader) any {
	if r.bin {
		if s, ok := d.binSlot(r); ok {
			return s
		}
	}
	d.slotDepth++
	defer func() { d.slotDepth-- }()
	if d.slotDepth > maxSkipDepth {
		r.fail("slots nested too deep")
		return nil
	}
	r.beginObject()
	r.more(true)
	if r.key() != "t" {
		r.fail("expected tag")
		return nil
	}
	tag, plain := r.stringRaw()
	if !plain && r.err == nil {
		tag = []byte(r.decodeString(tag))
	}
	r.more(false)
	r.key()
	var out any
	switch string(tag) {
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
		st, ok := d.lastSlotType, true
		if string(tag) != string(d.lastSlotTag) || len(d.lastSlotTag) == 0 {
			// most slots in a row are of one type (the closures of the functions)
			if st, ok = lookupSlotTypeBytes(tag); !ok {
				r.fail("unknown slot type %q", tag)
				return nil
			}
			d.lastSlotTag, d.lastSlotType = append(d.lastSlotTag[:0], tag...), st
		}
		var s slotCodec
		if string(tag) == "closure" {
			s = d.newClosure()
		} else {
			s = st.alloc()
		}
		st.decode(d, r, s)
		out = s
	}
	r.more(false)
	return out
}

// binHeadIndices reads the three string tokens a record's or a slot's head starts with after
// binObject (the name "t", the tag and the name "d"; the callers check them), by their
// string-table indices. False when one is not a string token of the table: the caller then
// rewinds and reads the entry the general way.
func (r *jsonReader) binHeadIndices() (first, second, third int, ok bool) {
	first, second, third = r.binStringIndex(), -1, -1
	if first >= 0 {
		second = r.binStringIndex()
	}
	if second >= 0 {
		third = r.binStringIndex()
	}
	return first, second, third, third >= 0 && r.err == nil
}

// binSlot is slot in format 2 for a slot of a registered type (not "prim" or "native"):
// binObject, the names "t" and "d" and the tag as string tokens, the data, binEnd. The
// string-table indices of the names and of the last tag are remembered (binSlotIdx), so
// that most slots are read without comparing text. False, with the position unchanged,
// for any other entry, which slot then reads.
func (d *heapDecoder) binSlot(r *jsonReader) (slotCodec, bool) {
	start := r.pos
	if start >= len(r.data) || r.data[start] != binObject || d.slotDepth >= maxSkipDepth {
		return nil, false
	}
	r.pos++
	c := &d.binSlotIdx
	t, tag, dd, ok := r.binHeadIndices()
	if !ok {
		r.pos, r.err = start, nil // slot reads the entry and reports what is wrong
		return nil, false
	}
	if c.t != t+1 || c.d != dd+1 || c.tag != tag+1 {
		if r.binText(t) != "t" || r.binText(dd) != "d" {
			r.pos = start
			return nil, false
		}
		name := r.binText(tag)
		if name == "prim" || name == "native" || name == "" {
			r.pos = start
			return nil, false
		}
		st, ok := lookupSlotType(name)
		if !ok {
			r.pos = start
			return nil, false
		}
		*c = binSlotIdx{t: t + 1, d: dd + 1, tag: tag + 1, typ: st, closure: name == "closure"}
	}
	st := c.typ
	var out slotCodec
	if c.closure {
		out = d.newClosure()
	} else {
		out = st.alloc()
	}
	d.slotDepth++
	st.decode(d, r, out)
	d.slotDepth--
	r.more(false)
	return out, true
}

// binText is the text of ASCII entry i of the string table ("" for another kind).
func (r *jsonReader) binText(i int) string {
	e := r.strs[i]
	if e.kind != binStrASCII {
		return ""
	}
	return unsafe.String(unsafe.SliceData(r.data[e.start:e.end]), int(e.end-e.start))
}

// binSlotIdx is what binSlot remembers of the last slot it read: the string-table indices
// (plus one; 0 for none) of the names "t" and "d" and of the tag, and the tag's type.
type binSlotIdx struct {
	t, d, tag int
	typ       slotType
	closure   bool
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

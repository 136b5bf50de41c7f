package interp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"
)

// The heap half of the snapshot codec.
//
// Encoding walks from the values the execution half writes (frames, queues, results): each
// object gets an id the first time it is written ({"#":id}) and is queued; finish() drains
// the queue, writing every reachable object once, in id order, so the walk never recurses in
// Go. Built-in objects (intrinsics) are written by name, with only their changes relative to
// a fresh realm: an unchanged intrinsic costs one number. Every intrinsic is checked for
// changes at each snapshot, so a change to a built-in that nothing else references survives.
//
// The heap section is one JSON object:
//
//	{"syms":  [[description|null, registered], ...],   // symbol ids
//	 "intr":  [[id, "Array.prototype"], ...],           // ids of intrinsic objects
//	 "n":     count,                                    // number of object ids
//	 "nodes": [{"t": tag, "d": data}, ...],             // shared records (environments, ...)
//	 "objs":  [entry, ...]}                             // one entry per object id
//
// An object entry is {"c": class, "p": proto, "f": flags, "pr": props, "el": elements,
// "len": array length, "s": {"t": slot tag, "d": slot data}}, where defaults are left out:
// class Object, the class's usual prototype (Object/Array/Function.prototype), flags
// "extensible", len = number of elements. An intrinsic's entry is 0 when unchanged, or
// {"set": [...], "add": [...]} (or a full "pr") with "p"/"f"/"el"/"len"/"s" when those
// changed. A property is [key, value] (writable, enumerable, configurable), [key, value,
// flags] or, for accessors, [key, getter, setter, flags]; a key is a string or a symbol.
//
// Values are JSON: finite numbers (except -0) as numbers, strings as strings (lone surrogates
// as \u escapes), booleans, null, and tagged objects for the rest: {"u":1} undefined,
// {"n":"NaN"|"Infinity"|"-Infinity"|"-0"}, {"#":id} object, {"y":id} symbol, {"w":"iterator"}
// well-known symbol, {"h":1} array hole, and {"@":id} for a shared record (node).
//
// Decoding allocates every object up front (from the count "n") and every record (a quick
// first pass over "nodes"), then fills them in, so references may point forwards and form
// cycles; the members must come in the order above. Values that
// the execution half reads afterwards resolve ids against those tables.
//
// Internal slots: every type stored in Object.slots (and every shared record a slot refers
// to) implements slotCodec and registers a decoder with registerSlotType. Natives are
// restored by their stable name; primitive wrappers' slots (a Value) are built in.

// Snapshot decoding errors.
var (
	// ErrSnapshotCorrupt means the snapshot bytes are not a valid encoding.
	ErrSnapshotCorrupt = errors.New("interp: corrupt snapshot")
	// ErrSnapshotUnsupported means the heap holds something that cannot be encoded (an
	// internal slot type without a codec, a native without a stable name).
	ErrSnapshotUnsupported = errors.New("interp: heap value cannot be snapshotted")
)

// slotCodec is implemented by internal slot types (the values of Object.slots) and by shared
// records referenced from them (environment records, ...).
type slotCodec interface {
	// slotTag is the stable name of the type in snapshots ("mapData"). Never change it.
	slotTag() string
	// encodeSlot writes exactly one JSON value describing the slot, using the encoder's
	// writer methods; references go through e.value (JS values) and e.node (records).
	encodeSlot(e *heapEncoder)
	// walkSlot reports every value and record the slot refers to (memory accounting), and
	// may add its own size with w.add.
	walkSlot(w *heapWalker)
}

// slotType is the registration of a slotCodec: alloc makes an empty instance, decode fills it
// from the JSON value encodeSlot wrote. During decode, objects and records that decode
// returns through d.value/d.node may not be filled in yet: store them, do not read them.
type slotType struct {
	alloc  func() slotCodec
	decode func(d *heapDecoder, r *jsonReader, s slotCodec)
}

var (
	slotTypesMu sync.RWMutex
	slotTypes   = map[string]slotType{}
)

// registerSlotType registers the decoder of a slot type; call it from an init function.
func registerSlotType(tag string, alloc func() slotCodec, decode func(d *heapDecoder, r *jsonReader, s slotCodec)) {
	slotTypesMu.Lock()
	defer slotTypesMu.Unlock()
	if _, dup := slotTypes[tag]; dup {
		panic("interp: duplicate slot type " + tag)
	}
	slotTypes[tag] = slotType{alloc: alloc, decode: decode}
}

func lookupSlotType(tag string) (slotType, bool) {
	slotTypesMu.RLock()
	defer slotTypesMu.RUnlock()
	t, ok := slotTypes[tag]
	return t, ok
}

// heapEncoder writes values and, at finish, the heap section.
type heapEncoder struct {
	vm *VM
	// w is where value() writes; the execution half points it at its own writer.
	w *jsonWriter

	objIDs    map[*Object]int
	objQueue  []*Object
	nodeIDs   map[slotCodec]int
	nodeQueue []slotCodec
	symIDs    map[*Symbol]int
	syms      []*Symbol
	err       error

	objBuf, nodeBuf []byte // storage for the heap section's parts (reused, see release)
}

// newHeapEncoder starts an encoding of vm's heap.
// The previous encoding's sizes pre-size the next one's tables (snapshots of one run tend to
// be alike), which saves most map growth and buffer copying.
func (vm *VM) newHeapEncoder() *heapEncoder {
	if sc, ok := encoderScratchPool.Get().(*encoderScratch); ok {
		return &heapEncoder{vm: vm, w: &jsonWriter{}, objIDs: sc.objIDs, objQueue: sc.objQueue,
			nodeIDs: sc.nodeIDs, nodeQueue: sc.nodeQueue, symIDs: map[*Symbol]int{},
			objBuf: sc.objBuf, nodeBuf: sc.nodeBuf}
	}
	h := vm.snapshotHint
	return &heapEncoder{vm: vm, w: &jsonWriter{}, objIDs: make(map[*Object]int, h.objects),
		objQueue: make([]*Object, 0, h.objects), nodeIDs: make(map[slotCodec]int, h.nodes),
		symIDs: map[*Symbol]int{}}
}

// encoderScratch is the reusable storage of a finished encoding: id tables, queues and the
// buffers of the heap section's parts.
type encoderScratch struct {
	objIDs          map[*Object]int
	objQueue        []*Object
	nodeIDs         map[slotCodec]int
	nodeQueue       []slotCodec
	objBuf, nodeBuf []byte
}

// encoderScratchPool keeps the storage of finished encodings for the next ones.
var encoderScratchPool sync.Pool

// release hands the encoder's storage to the next encoding, emptied so that it keeps nothing
// of the heap alive. e must not be used afterwards.
func (e *heapEncoder) release() {
	clear(e.objIDs)
	clear(e.objQueue)
	clear(e.nodeIDs)
	clear(e.nodeQueue)
	encoderScratchPool.Put(&encoderScratch{objIDs: e.objIDs, objQueue: e.objQueue[:0],
		nodeIDs: e.nodeIDs, nodeQueue: e.nodeQueue[:0], objBuf: e.objBuf[:0], nodeBuf: e.nodeBuf[:0]})
	*e = heapEncoder{}
}

// snapshotHint remembers the sizes of the last heap encoding.
type snapshotHint struct {
	objects, nodes, objBytes, nodeBytes int
	docBytes                            int // the whole document
}

// fail records the first encoding error.
func (e *heapEncoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// objectID returns the id of o, queueing it on first sight.
func (e *heapEncoder) objectID(o *Object) int {
	if id, ok := e.objIDs[o]; ok {
		return id
	}
	id := len(e.objQueue)
	e.objIDs[o] = id
	e.objQueue = append(e.objQueue, o)
	return id
}

// symbolRef writes a symbol reference.
func (e *heapEncoder) symbolRef(s *Symbol) {
	w := e.w
	w.beginObject()
	if s.wellKnown != "" {
		w.key("w")
		w.string(s.wellKnown)
	} else {
		id, ok := e.symIDs[s]
		if !ok {
			id = len(e.syms)
			e.symIDs[s] = id
			e.syms = append(e.syms, s)
		}
		w.key("y")
		w.int(int64(id))
	}
	w.endObject()
}

// tagged writes {"k": v} with a string payload.
func (e *heapEncoder) tagged(k, v string) {
	e.w.beginObject()
	e.w.key(k)
	e.w.string(v)
	e.w.endObject()
}

// value writes one JavaScript value.
func (e *heapEncoder) value(v Value) {
	w := e.w
	switch v.kind {
	case KindUndefined:
		w.comma()
		w.buf = append(w.buf, `{"u":1}`...)
		w.needComma = true
	case KindNull:
		w.null()
	case KindBool:
		w.bool(v.num != 0)
	case KindNumber:
		f := v.num
		switch {
		case f != f:
			e.tagged("n", "NaN")
		case math.IsInf(f, 1):
			e.tagged("n", "Infinity")
		case math.IsInf(f, -1):
			e.tagged("n", "-Infinity")
		case f == 0 && math.Signbit(f):
			e.tagged("n", "-0")
		default:
			w.float(f)
		}
	case KindString:
		w.jsString(v.str())
	case KindSymbol:
		e.symbolRef(v.sym())
	case KindObject:
		w.ref(`{"#":`, e.objectID(v.obj()))
	case kindHole:
		w.comma()
		w.buf = append(w.buf, `{"h":1}`...)
		w.needComma = true
	}
}

// object writes an object reference, or null for nil.
func (e *heapEncoder) object(o *Object) { e.value(objectValue(o)) }

// node writes a reference to a shared record, queueing it on first sight.
func (e *heapEncoder) node(n slotCodec) {
	if n == nil {
		e.w.null()
		return
	}
	id, ok := e.nodeIDs[n]
	if !ok {
		id = len(e.nodeQueue)
		e.nodeIDs[n] = id
		e.nodeQueue = append(e.nodeQueue, n)
	}
	e.w.ref(`{"@":`, id)
}

// key writes a property key (string, or symbol reference).
func (e *heapEncoder) propKey(k PropertyKey) {
	if k.sym != nil {
		e.symbolRef(k.sym)
		return
	}
	e.w.string(k.name)
}

// property writes one property as [key, value, flags] or [key, getter, setter, flags].
func (e *heapEncoder) property(k PropertyKey, p *Property) {
	w := e.w
	w.beginArray()
	e.propKey(k)
	if p.isAccessor() {
		e.object(p.getter)
		e.object(p.setter)
		w.int(int64(p.flags))
	} else {
		e.value(p.value)
		if p.flags != propDefault {
			w.int(int64(p.flags))
		}
	}
	w.endArray()
}

// defaultProto is the prototype an object entry without "p" gets: the realm's
// Object.prototype, Array.prototype or Function.prototype by class; nil means "p" is always
// written for that class.
func (r *Realm) defaultProto(c Class) *Object {
	switch c {
	case ClassObject:
		return r.ObjectPrototype
	case ClassArray:
		return r.ArrayPrototype
	case ClassFunction:
		return r.FunctionPrototype
	}
	return nil
}

// slot writes an internal slot as {"t": tag, "d": data}.
func (e *heapEncoder) slot(s any) {
	w := e.w
	w.beginObject()
	switch s := s.(type) {
	case Value:
		w.key("t")
		w.string("prim")
		w.key("d")
		e.value(s)
	case *nativeFunction:
		w.key("t")
		w.string("native")
		w.key("d")
		w.beginArray()
		w.string(s.name)
		if s.data != nil {
			e.slot(s.data)
		}
		w.endArray()
		if lookupNative(s.name) == nil && s.data != nil {
			e.fail(fmt.Errorf("native %q with data is not registered: %w", s.name, ErrSnapshotUnsupported))
		}
	case slotCodec:
		w.key("t")
		w.string(s.slotTag())
		w.key("d")
		s.encodeSlot(e)
	default:
		e.fail(fmt.Errorf("internal slot %T: %w", s, ErrSnapshotUnsupported))
		w.key("t")
		w.null()
	}
	w.endObject()
}

// finish drains the queues and returns the heap section. e.w must not be used afterwards.
func (e *heapEncoder) finish() ([]byte, error) {
	out := &jsonWriter{}
	if err := e.finishTo(out, 0); err != nil {
		return nil, err
	}
	return out.buf, nil
}

// finishTo drains the queues and writes the heap section to out as one value, leaving room
// for extra more bytes after it. e.w must not be used afterwards.
func (e *heapEncoder) finishTo(out *jsonWriter, extra int) error {
	r := e.vm.realm
	ref := referenceRealm()
	// every changed intrinsic is reachable through its name
	changed := map[*Object]bool{}
	for iid := 1; iid < len(r.objs); iid++ {
		o := r.objs[iid]
		if refObj := ref.counterpart(r, o); refObj == nil || !intrinsicUnchanged(r, o, ref, refObj) {
			changed[o] = true
			e.objectID(o)
		}
	}
	objW := &jsonWriter{buf: slices.Grow(e.objBuf[:0], e.vm.snapshotHint.objBytes+64)}
	nodeW := &jsonWriter{buf: slices.Grow(e.nodeBuf[:0], e.vm.snapshotHint.nodeBytes+64)}
	defer func() { e.objBuf, e.nodeBuf = objW.buf, nodeW.buf }()
	objW.beginArray()
	nodeW.beginArray()
	var intr []int
	for oi, ni := 0, 0; oi < len(e.objQueue) || ni < len(e.nodeQueue); {
		for ; oi < len(e.objQueue); oi++ {
			o := e.objQueue[oi]
			e.w = objW
			if r.isIntrinsic(o) {
				intr = append(intr, oi)
				if !changed[o] {
					objW.int(0)
					continue
				}
				e.intrinsicDiff(o, ref.counterpart(r, o))
				continue
			}
			e.objectEntry(o)
		}
		for ; ni < len(e.nodeQueue); ni++ {
			e.w = nodeW
			n := e.nodeQueue[ni]
			nodeW.beginObject()
			nodeW.key("t")
			nodeW.string(n.slotTag())
			nodeW.key("d")
			n.encodeSlot(e)
			nodeW.endObject()
		}
	}
	objW.endArray()
	nodeW.endArray()
	if e.err != nil {
		return e.err
	}
	out.buf = slices.Grow(out.buf, len(objW.buf)+len(nodeW.buf)+32*len(e.syms)+64*len(intr)+64+extra)
	out.beginObject()
	out.key("syms")
	out.beginArray()
	for _, s := range e.syms {
		out.beginArray()
		if s.description == nil {
			out.null()
		} else {
			out.jsString(s.description)
		}
		out.bool(s.registered)
		out.endArray()
	}
	out.endArray()
	out.key("intr")
	out.beginArray()
	for _, id := range intr {
		out.beginArray()
		out.int(int64(id))
		out.string(r.nameOf(e.objQueue[id]))
		out.endArray()
	}
	out.endArray()
	out.key("n")
	out.int(int64(len(e.objQueue)))
	out.key("nodes")
	out.raw(nodeW.buf)
	out.key("objs")
	out.raw(objW.buf)
	out.endObject()
	e.vm.snapshotHint = snapshotHint{objects: len(e.objQueue), nodes: len(e.nodeQueue), objBytes: len(objW.buf),
		nodeBytes: len(nodeW.buf)}
	return nil
}

// objectEntry writes the full entry of a non-intrinsic object.
func (e *heapEncoder) objectEntry(o *Object) {
	w := e.w
	w.beginObject()
	if o.class != ClassObject {
		w.key("c")
		w.string(o.class.String())
	}
	if def := e.vm.realm.defaultProto(o.class); def == nil || o.proto != def {
		w.key("p")
		e.object(o.proto)
	}
	if o.flags != objExtensible {
		w.key("f")
		w.int(int64(o.flags))
	}
	if o.props.len() > 0 {
		w.key("pr")
		w.beginArray()
		for i, k := range o.props.keys {
			e.property(k, &o.props.props[i])
		}
		w.endArray()
	}
	if o.class == ClassArray {
		e.elements(o)
	}
	if o.slots != nil {
		w.key("s")
		e.slot(o.slots)
	}
	w.endObject()
}

// elements writes "el" and "len" of an array.
func (e *heapEncoder) elements(o *Object) {
	w := e.w
	w.key("el")
	w.beginArray()
	for _, v := range o.elems {
		e.value(v)
	}
	w.endArray()
	if int(o.length) != len(o.elems) {
		w.key("len")
		w.int(int64(o.length))
	}
}

// intrinsicDiff writes the changes of intrinsic o relative to refObj (nil: new intrinsic,
// written in full).
func (e *heapEncoder) intrinsicDiff(o, refObj *Object) {
	w := e.w
	if refObj == nil {
		e.objectEntry(o)
		return
	}
	r, ref := e.vm.realm, referenceRealm()
	w.beginObject()
	if !sameIntrinsicRef(r, o.proto, ref, refObj.proto) {
		w.key("p")
		e.object(o.proto)
	}
	if o.flags != refObj.flags {
		w.key("f")
		w.int(int64(o.flags))
	}
	n := refObj.props.len()
	prefix := o.props.len() >= n
	for i := 0; prefix && i < n; i++ {
		prefix = o.props.keys[i] == refObj.props.keys[i]
	}
	if prefix {
		first := true
		for i := 0; i < n; i++ {
			if samePropertyAcross(r, &o.props.props[i], ref, &refObj.props.props[i]) {
				continue
			}
			if first {
				w.key("set")
				w.beginArray()
				first = false
			}
			e.property(o.props.keys[i], &o.props.props[i])
		}
		if !first {
			w.endArray()
		}
		if o.props.len() > n {
			w.key("add")
			w.beginArray()
			for i := n; i < o.props.len(); i++ {
				e.property(o.props.keys[i], &o.props.props[i])
			}
			w.endArray()
		}
	} else {
		w.key("pr")
		w.beginArray()
		for i, k := range o.props.keys {
			e.property(k, &o.props.props[i])
		}
		w.endArray()
	}
	if o.class == ClassArray && !sameElements(r, o, ref, refObj) {
		e.elements(o)
	}
	if sc, stateful := o.slots.(slotCodec); stateful {
		w.key("s")
		e.slot(sc)
	}
	w.endObject()
}

// counterpart returns the object of realm t that is the same intrinsic as o of realm r, or nil.
func (t *Realm) counterpart(r *Realm, o *Object) *Object {
	if !r.isIntrinsic(o) || int(o.iid) >= len(t.objs) {
		return nil
	}
	if t.names != r.names && t.names.names[o.iid] != r.names.names[o.iid] {
		return nil
	}
	return t.objs[o.iid]
}

// intrinsicUnchanged compares an intrinsic with its pristine counterpart. Intrinsics with
// stateful internal slots (Math's random state, ...) always count as changed.
func intrinsicUnchanged(r *Realm, o *Object, ref *Realm, refObj *Object) bool {
	if o.flags != refObj.flags || o.props.len() != refObj.props.len() {
		return false
	}
	if _, stateful := o.slots.(slotCodec); stateful {
		return false
	}
	if !sameIntrinsicRef(r, o.proto, ref, refObj.proto) {
		return false
	}
	for i, k := range o.props.keys {
		if refObj.props.keys[i] != k || !samePropertyAcross(r, &o.props.props[i], ref, &refObj.props.props[i]) {
			return false
		}
	}
	return o.class != ClassArray || sameElements(r, o, ref, refObj)
}

func sameElements(r *Realm, o *Object, ref *Realm, refObj *Object) bool {
	if o.length != refObj.length || len(o.elems) != len(refObj.elems) {
		return false
	}
	for i, v := range o.elems {
		if !sameValueAcross(r, v, ref, refObj.elems[i]) {
			return false
		}
	}
	return true
}

// sameIntrinsicRef reports whether a (in realm r) and b (in realm ref) are the same
// intrinsic by name (or both nil).
func sameIntrinsicRef(r *Realm, a *Object, ref *Realm, b *Object) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return r.isIntrinsic(a) && ref.counterpart(r, a) == b
}

func samePropertyAcross(r *Realm, p *Property, ref *Realm, q *Property) bool {
	if p.flags != q.flags {
		return false
	}
	if p.isAccessor() {
		return sameIntrinsicRef(r, p.getter, ref, q.getter) && sameIntrinsicRef(r, p.setter, ref, q.setter)
	}
	return sameValueAcross(r, p.value, ref, q.value)
}

func sameValueAcross(r *Realm, a Value, ref *Realm, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindObject:
		return sameIntrinsicRef(r, a.obj(), ref, b.obj())
	case KindNumber:
		return SameValue(a, b)
	}
	return strictEqualNonNumber(a, b)
}

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

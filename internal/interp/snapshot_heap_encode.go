package interp

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"
)

// The encoding half of the heap codec (format described in snapshot_heap.go).

// heapEncoder writes values and, at finish, the heap section.
type heapEncoder struct {
	vm *VM
	// w is where value() writes; the execution half points it at its own writer.
	w *jsonWriter

	objIDs    objectIDTable // ids of the objects in objQueue
	objQueue  []*Object     // objects by id
	nodeIDs   nodeIDTable   // ids of the records in nodeQueue
	nodeQueue []slotCodec
	symIDs    map[*Symbol]int // made on the first symbol
	syms      []*Symbol
	err       error

	objW, nodeW jsonWriter // the heap section's parts: object entries and records
	changed     []bool     // changed intrinsics by id (see changedIntrinsics)
	intr        []int      // ids of the intrinsics written
	tab         binTable   // format 2: the string table (the writers' tab when in use)
}

// heapEncoderPool keeps finished encoders (emptied, with their tables and buffers) for the
// next encodings.
var heapEncoderPool sync.Pool

// newHeapEncoder starts an encoding of vm's heap. Encoders are reused: the tables and buffers
// of a finished encoding serve the next one. A new encoder is sized from the previous
// encoding of vm (snapshots of one run tend to be alike), which saves most map growth and
// buffer copying; so is the writer of the execution half.
func (vm *VM) newHeapEncoder() *heapEncoder {
	h := vm.snapshotHint
	e, _ := heapEncoderPool.Get().(*heapEncoder)
	if e == nil {
		e = &heapEncoder{objQueue: make([]*Object, 0, h.objects), nodeQueue: make([]slotCodec, 0, h.nodes)}
		e.objIDs.reserve(h.idChunks)
	}
	e.vm = vm
	e.w = &jsonWriter{buf: make([]byte, 0, h.execBytes+64)}
	e.objIDs.reset()
	e.nodeIDs.reset()
	e.tab.reset()
	e.tab.reserve(h.strings, h.tabBytes)
	return e
}

// release hands the encoder's storage to the next encoding, emptied so that it keeps nothing
// of the heap alive. e must not be used afterwards; the buffer of e.w (which the caller may
// still hold) is not reused.
func (e *heapEncoder) release() {
	clear(e.objQueue)
	clear(e.nodeQueue)
	clear(e.nodeIDs.others)
	clear(e.symIDs)
	clear(e.syms)
	e.vm, e.w, e.err = nil, nil, nil
	e.objQueue, e.nodeQueue, e.syms, e.intr = e.objQueue[:0], e.nodeQueue[:0], e.syms[:0], e.intr[:0]
	e.objW = jsonWriter{buf: e.objW.buf[:0]}
	e.nodeW = jsonWriter{buf: e.nodeW.buf[:0]}
	e.tab.reset() // keeps its storage (no pointers), and none of the heap's strings
	heapEncoderPool.Put(e)
}

// snapshotHint remembers the sizes of the last heap encoding.
type snapshotHint struct {
	objects, nodes, objBytes, nodeBytes int
	execBytes                           int // the execution half
	idChunks                            int // chunks of the object id table
	docBytes                            int // the whole document
	strings, tabBytes                   int // format 2: entries and bytes of the string table
}

// fail records the first encoding error.
func (e *heapEncoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// objectID returns the id of o, queueing it on first sight.
func (e *heapEncoder) objectID(o *Object) int {
	id, added := e.objIDs.lookupOrAdd(o, len(e.objQueue))
	if added {
		e.objQueue = append(e.objQueue, o)
	}
	return id
}

// symbolRef writes a symbol reference.
func (e *heapEncoder) symbolRef(s *Symbol) {
	w := e.w
	if s.wellKnown != "" {
		if w.tab != nil {
			w.buf = append(w.buf, binWellKnown)
			w.string(s.wellKnown)
			return
		}
		w.beginObject()
		w.key("w")
		w.string(s.wellKnown)
		w.endObject()
		return
	}
	if e.symIDs == nil {
		e.symIDs = map[*Symbol]int{}
	}
	id, ok := e.symIDs[s]
	if !ok {
		id = len(e.syms)
		e.symIDs[s] = id
		e.syms = append(e.syms, s)
	}
	w.ref(`{"y":`, id)
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
	if w.tab != nil {
		e.binValue(v)
		return
	}
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
		if i := int64(f); float64(i) == f && i > -1e6 && i < 1e6 && (i != 0 || !math.Signbit(f)) {
			w.int(i) // the most common numbers, as appendJSONFloat writes them
			return
		}
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
	case KindBigInt:
		e.tagged("bi", v.bigint().Text(16))
	}
}

// binValue is value in format 2.
func (e *heapEncoder) binValue(v Value) {
	w := e.w
	switch v.kind {
	case KindUndefined:
		w.buf = append(w.buf, binUndefined)
	case KindNull:
		w.buf = append(w.buf, binNull)
	case KindBool:
		w.bool(v.num != 0)
	case KindNumber:
		f := v.num
		switch {
		case f != f:
			w.buf = append(w.buf, binNaN)
		case math.IsInf(f, 1):
			w.buf = append(w.buf, binInf)
		case math.IsInf(f, -1):
			w.buf = append(w.buf, binNegInf)
		case f == 0 && math.Signbit(f):
			w.buf = append(w.buf, binNegZero)
		default:
			w.binFloat(f)
		}
	case KindString:
		w.jsString(v.str())
	case KindSymbol:
		e.symbolRef(v.sym())
	case KindObject:
		w.binUint(binObjRef, uint64(e.objectID(v.obj())))
	case kindHole:
		w.buf = append(w.buf, binHole)
	case KindBigInt:
		w.buf = append(w.buf, binBigInt)
		w.string(v.bigint().Text(16))
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
	e.w.ref(`{"@":`, e.nodeIDs.lookupOrAdd(n, &e.nodeQueue))
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
		e.object(p.getter())
		e.object(p.setter())
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
	if err := e.drain(); err != nil {
		return err
	}
	out.buf = slices.Grow(out.buf, len(e.objW.buf)+len(e.nodeW.buf)+e.headBytes()+extra)
	e.heapHead(out)
	out.raw(e.nodeW.buf)
	out.key("objs")
	out.raw(e.objW.buf)
	out.endObject()
	return nil
}

// drain writes the entries of the queued objects and records, and of every changed
// intrinsic, to e.objW and e.nodeW (each a list), and notes their sizes for the next
// encoding. e.w must not be used afterwards.
func (e *heapEncoder) drain() error {
	r := e.vm.realm
	ref := referenceRealm()
	// every changed intrinsic is reachable through its name
	changed := changedIntrinsics(r, ref, e.changed)
	e.changed = changed
	for iid, c := range changed {
		if c {
			e.objectID(r.objs.at(iid))
		}
	}
	execBytes := len(e.w.buf) // what the execution half wrote
	objW, nodeW := &e.objW, &e.nodeW
	objW.tab, nodeW.tab = e.w.tab, e.w.tab
	objW.buf = slices.Grow(objW.buf[:0], e.vm.snapshotHint.objBytes+64)
	nodeW.buf = slices.Grow(nodeW.buf[:0], e.vm.snapshotHint.nodeBytes+64)
	objW.beginArray()
	nodeW.beginArray()
	e.intr = e.intr[:0]
	for oi, ni := 0, 0; oi < len(e.objQueue) || ni < len(e.nodeQueue); {
		// e.w is set only when it changes (a pointer store pays a GC write barrier)
		if oi < len(e.objQueue) {
			e.w = objW
		}
		for ; oi < len(e.objQueue); oi++ {
			o := e.objQueue[oi]
			if j := oi + objPrefetchAhead; j < len(e.objQueue) {
				prefetchObject(e.objQueue[j])
			}
			if j := oi + objPrefetchAhead/2; j < len(e.objQueue) {
				prefetchStorage(e.objQueue[j])
			}
			if r.isIntrinsic(o) {
				e.intr = append(e.intr, oi)
				if !changed[o.iid] {
					objW.int(0)
					continue
				}
				e.intrinsicDiff(o, ref.counterpart(r, o))
				continue
			}
			if e.w.tab == nil || !e.compactEntry(o) {
				e.objectEntry(o)
			}
		}
		if ni < len(e.nodeQueue) {
			e.w = nodeW
		}
		for ; ni < len(e.nodeQueue); ni++ {
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
	e.vm.snapshotHint = snapshotHint{objects: len(e.objQueue), nodes: len(e.nodeQueue), objBytes: len(objW.buf),
		nodeBytes: len(nodeW.buf), execBytes: execBytes, idChunks: e.objIDs.chunks}
	return nil
}

// headBytes bounds what heapHead writes.
func (e *heapEncoder) headBytes() int { return 32*len(e.syms) + 64*len(e.intr) + 64 }

// heapHead writes the heap section up to its records (after drain): the opening of the
// object, the symbols, the intrinsics, the object count and the key "nodes". The records
// (e.nodeW), the key "objs", the objects (e.objW) and the closing of the object follow.
func (e *heapEncoder) heapHead(out *jsonWriter) {
	r := e.vm.realm
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
	for _, id := range e.intr {
		out.beginArray()
		out.int(int64(id))
		out.string(r.nameOf(e.objQueue[id]))
		out.endArray()
	}
	out.endArray()
	out.key("n")
	out.int(int64(len(e.objQueue)))
	out.key("nodes")
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
	if f := o.programFlags(); f != objExtensible {
		w.key("f")
		w.int(int64(f))
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

// compactEntry writes the entry of a non-intrinsic object of a common shape in format 2 as
// one token and a list: an array of the default prototype and flags with its elements only
// (binArrayObj and the elements), an ordinary object of the default prototype and flags with
// properties only (binPlainObj and the properties). It reports false for other objects.
func (e *heapEncoder) compactEntry(o *Object) bool {
	if o.slots != nil || o.programFlags() != objExtensible || o.proto != e.vm.realm.defaultProto(o.class) {
		return false
	}
	w := e.w
	switch {
	case o.class == ClassArray && o.props.len() == 0 && int(o.length) == len(o.elems):
		w.buf = append(w.buf, binArrayObj)
		w.beginArray()
		for _, v := range o.elems {
			e.value(v)
		}
		w.endArray()
	case o.class == ClassObject && o.props.len() > 0 && len(o.elems) == 0:
		w.buf = append(w.buf, binPlainObj)
		w.beginArray()
		for i, k := range o.props.keys {
			e.property(k, &o.props.props[i])
		}
		w.endArray()
	default:
		return false
	}
	return true
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
	if f := o.programFlags(); f != refObj.programFlags() {
		w.key("f")
		w.int(int64(f))
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
	if !r.isIntrinsic(o) || int(o.iid) >= t.objs.len() {
		return nil
	}
	if t.names != r.names && t.names.names[o.iid] != r.names.names[o.iid] {
		return nil
	}
	return t.objs.at(int(o.iid))
}

// intrinsicUnchanged compares an intrinsic with its pristine counterpart. Intrinsics with
// stateful internal slots (Math's random state, ...) always count as changed.
func intrinsicUnchanged(r *Realm, o *Object, ref *Realm, refObj *Object) bool {
	if o.programFlags() != refObj.programFlags() || o.props.len() != refObj.props.len() {
		return false
	}
	if hasOwnState(o) {
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
	return a == b || (r.isIntrinsic(a) && ref.counterpart(r, a) == b) // a == b: a placeholder (realm_lazy.go)
}

func samePropertyAcross(r *Realm, p *Property, ref *Realm, q *Property) bool {
	if p.flags != q.flags {
		return false
	}
	if p.isAccessor() {
		return sameIntrinsicRef(r, p.getter(), ref, q.getter()) && sameIntrinsicRef(r, p.setter(), ref, q.setter())
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

// objPrefetchAhead is how many objects ahead of the one it writes drain starts loading the
// next objects into the caches (and half as many ahead, their properties and elements): on
// a heap larger than the caches, the walk would otherwise wait for memory at every object.
const objPrefetchAhead = 8

// prefetchObject starts loading the cache lines of o.
func prefetchObject(o *Object) {
	p := unsafe.Pointer(o)
	prefetch(p)
	prefetch(unsafe.Add(p, 64))
	prefetch(unsafe.Add(p, unsafe.Sizeof(Object{})-1))
}

// prefetchStorage starts loading the first cache lines of o's properties and elements.
func prefetchStorage(o *Object) {
	if len(o.props.keys) > 0 {
		prefetch(unsafe.Pointer(unsafe.SliceData(o.props.keys)))
		prefetch(unsafe.Pointer(unsafe.SliceData(o.props.props)))
	}
	if len(o.elems) > 0 {
		prefetch(unsafe.Pointer(unsafe.SliceData(o.elems)))
	}
}

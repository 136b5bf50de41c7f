package interp

import (
	"sort"
	"sync"
	"unsafe"
)

// Lazy intrinsics: a realm cloned from the template creates at first only the intrinsics
// that the VM and native code reach through the Realm's fields (the core prototypes, the
// global object) and what these reach through prototypes, accessors, elements and slots.
// Every other intrinsic is created on first use, with what it reaches in the same ways.
//
// Data properties are the exception: in every intrinsic (a holder) a data property whose
// value is an intrinsic holds a placeholder, the template's object itself (which carries the
// intrinsic id), and a holder without accessors shares the template's property slice as it
// is (copy-on-write, see propertyMap). Every path that reads a property's value replaces a
// placeholder with the realm's intrinsic, created if need be (dataValue: getOwn, [[Get]]
// through getFrom and getMember, the global variable operations); a path that changes a
// property's attributes writes the intrinsic back first (defineOwn), and delete,
// SetIntegrityLevel and SetPrototypeOf write back every placeholder of the object. So no
// code ever holds a template object, and a created intrinsic never refers to an intrinsic
// that does not exist except through a placeholder.
//
// A holder that may hold placeholders is marked by the objPlaceholders flag, which programs
// do not see and snapshots do not write. Its realm is found through the slab it was created
// in, whose element 0 is a header object whose slots hold the realm: the holder's position in
// the slab is its length field (unused by objects other than arrays), and Array.prototype,
// the only array among the holders, is created first in its slab. The snapshot encoder
// counts a placeholder as its pristine value (snapshot_encode_intrinsics.go,
// sameIntrinsicRef) and the memory walk stands the template's object in for an intrinsic not
// created yet, so snapshots and measured sizes are those of a realm with every intrinsic
// created; the snapshot decoder refuses a length on a built-in that is not an array.
//
// Entry points that create intrinsics: Realm.Intrinsic (natives, the snapshot decoder's
// intrinsic references), reading a placeholder, and Realm.snapshotIntrinsic (intrinsics
// with state of their own, which every snapshot writes).

// lazyPlan is what lazy clones of the template need, computed once.
type lazyPlan struct {
	start    []int32  // the references of intrinsic iid are edges[start[iid]:start[iid+1]]
	edges    []uint16 // intrinsic ids, excluding the placeholders of holders
	eager    []uint16 // the intrinsics every clone creates (Array.prototype, then by id)
	stateful []bool   // by iid: the intrinsic's slots carry state that every snapshot writes
	holder   []bool   // by iid: its data properties refer to intrinsics through placeholders
	copy     []bool   // by iid: a lazy clone copies its properties (some refer to objects)
	pairs    []uint16 // by iid: the number of accessor properties of one it copies
}

// newLazyPlan computes the plan of template t, or returns nil when its intrinsics cannot be
// cloned lazily (some reference leads outside the intrinsics, or some slot cannot be
// copied).
func newLazyPlan(t *Realm) *lazyPlan {
	n := t.objs.len()
	if len(t.shared) != n || t.Global == nil || t.clone(&VM{}) == nil {
		return nil
	}
	p := &lazyPlan{start: make([]int32, n+1), stateful: make([]bool, n), holder: make([]bool, n),
		copy: make([]bool, n), pairs: make([]uint16, n)}
	ok := true
	var cur []uint16
	record := func(o *Object) *Object {
		if o == nil {
			return nil
		}
		if !t.isIntrinsic(o) {
			ok = false
			return nil
		}
		cur = append(cur, o.iid)
		return o
	}
	for iid := 1; iid < n; iid++ {
		p.start[iid] = int32(len(p.edges))
		o := t.objs.at(iid)
		refs := !holdsNoObject(o.props.props)
		holder := refs && (o.class != ClassArray || o == t.ArrayPrototype)
		accessors := false
		cur = cur[:0]
		record(o.proto)
		for i := range o.props.props {
			q := &o.props.props[i]
			if q.isAccessor() {
				accessors = true
				record(q.getter())
				record(q.setter())
			} else if v := q.value.asObject(); v != nil {
				if holder {
					record(v) // checked, not an edge
					cur = cur[:len(cur)-1]
				} else {
					record(v)
				}
			}
		}
		p.holder[iid] = holder
		p.copy[iid] = refs && (!holder || accessors)
		if p.copy[iid] {
			for i := range o.props.props {
				if o.props.props[i].isAccessor() {
					p.pairs[iid]++
				}
			}
		}
		for _, v := range o.elems {
			record(v.asObject())
		}
		switch s := o.slots.(type) {
		case Value:
			record(s.asObject())
		case slotCloner:
			s.cloneSlot(record)
		}
		if _, st := o.slots.(slotCodec); st {
			p.stateful[iid] = true
		}
		sort.Slice(cur, func(i, j int) bool { return cur[i] < cur[j] })
		for i, id := range cur {
			if i == 0 || id != cur[i-1] {
				p.edges = append(p.edges, id)
			}
		}
	}
	p.start[n] = int32(len(p.edges))
	p.start[0] = p.start[1]
	if !ok {
		return nil
	}
	seen := make([]bool, n)
	var queue []uint16
	// the Realm fields the VM reads directly; the others are created on first use
	// (Realm.errorPrototype and its siblings)
	for _, o := range []*Object{t.ObjectPrototype, t.FunctionPrototype, t.ArrayPrototype, t.Global} {
		if o != nil && !seen[o.iid] {
			seen[o.iid] = true
			queue = append(queue, o.iid)
		}
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		p.eager = append(p.eager, id)
		for _, e := range p.edges[p.start[id]:p.start[id+1]] {
			if !seen[e] {
				seen[e] = true
				queue = append(queue, e)
			}
		}
	}
	sort.Slice(p.eager, func(i, j int) bool { return p.eager[i] < p.eager[j] })
	// Array.prototype goes first in the eager slab (see lazyRealm)
	for i, id := range p.eager {
		if id == t.ArrayPrototype.iid {
			copy(p.eager[1:i+1], p.eager[:i])
			p.eager[0] = id
			break
		}
	}
	return p
}

// cloneLazy makes a realm that shares the template t's names and creates only the
// eager intrinsics (see the top of this file).
func (t *Realm) cloneLazy() *Realm {
	p := t.plan
	// no vm: only setups use it, and every created built-in refers to the realm (through its
	// slab's header), which must not keep the VM's heap alive
	r := &Realm{names: t.names, objs: makeIntrinsicObjs(t.objs.len(), len(p.eager)+16), tmpl: t,
		symbolRegistry: t.cloneSymbolRegistry()}
	r.create(p.eager)
	if g := r.Global.props.props; len(g) > 0 && !frozenProps(g) {
		// room for the host's globals
		r.Global.props.props = append(make([]Property, 0, len(g)+frozenSpare), g...)
	}
	r.ObjectPrototype = r.objs.at(int(t.ObjectPrototype.iid))
	r.FunctionPrototype = r.objs.at(int(t.FunctionPrototype.iid))
	r.ArrayPrototype = r.objs.at(int(t.ArrayPrototype.iid))
	return r
}

// The intrinsics below are Realm fields of the template that lazy clones create on first
// use: read them through these methods (the fields are nil until then).

// errorPrototype returns %Error.prototype%.
func (r *Realm) errorPrototype() *Object {
	return r.lazyField(&r.ErrorPrototype, func(t *Realm) *Object { return t.ErrorPrototype })
}

// iteratorPrototype returns %Iterator.prototype%.
func (r *Realm) iteratorPrototype() *Object {
	return r.lazyField(&r.IteratorPrototype, func(t *Realm) *Object { return t.IteratorPrototype })
}

// arrayIteratorPrototype returns %ArrayIteratorPrototype%.
func (r *Realm) arrayIteratorPrototype() *Object {
	return r.lazyField(&r.ArrayIteratorPrototype, func(t *Realm) *Object { return t.ArrayIteratorPrototype })
}

// arrayConstructor returns %Array%.
func (r *Realm) arrayConstructor() *Object {
	return r.lazyField(&r.ArrayConstructor, func(t *Realm) *Object { return t.ArrayConstructor })
}

// lazyField returns *field, first set to r's counterpart of the template's field (which
// of selects) when nil.
func (r *Realm) lazyField(field **Object, of func(t *Realm) *Object) *Object {
	if *field == nil {
		*field = r.materialize(of(r.tmpl).iid)
	}
	return *field
}

// create creates the intrinsics ids (none created yet; with them, everything they reach
// but through placeholders must be created or listed) in one slab after a header.
func (r *Realm) create(ids []uint16) {
	t := r.tmpl
	p := t.plan
	slab := make([]Object, len(ids)+1)
	slab[0].slots = r // the header: see lazyRealm
	nProps, nPairs := 0, 0
	for i, id := range ids {
		r.objs.set(int(id), &slab[i+1])
		if p.copy[id] {
			nProps += len(t.shared[id].keys)
			nPairs += int(p.pairs[id])
		}
	}
	r.Global = r.objs.at(int(t.Global.iid))
	s := copyStorage{props: make([]Property, nProps), pairs: make([]accessorPair, nPairs)}
	for i, id := range ids {
		r.fill(int(id), &slab[i+1], &s, uint32(i+1))
	}
}

// copyStorage is where the intrinsics that create makes cut the properties and accessor
// pairs they copy from.
type copyStorage struct {
	props []Property
	pairs []accessorPair
}

// fill makes dst r's copy of the template's intrinsic iid, at position pos of its slab; the
// properties and accessor pairs it copies are cut from s.
func (r *Realm) fill(iid int, dst *Object, s *copyStorage, pos uint32) {
	t := r.tmpl
	p := t.plan
	src, sh := t.objs.at(iid), &t.shared[iid]
	dst.proto = r.created(src.proto)
	dst.class, dst.flags, dst.length, dst.iid = src.class, src.flags, src.length, src.iid
	dst.props.keys, dst.props.index = sh.keys, sh.index
	switch {
	case sh.props != nil || len(sh.keys) == 0:
		dst.props.props = sh.props
	case !p.copy[iid]:
		dst.props.props = src.props.props // frozen: placeholders only
	default:
		k := len(sh.keys)
		dst.props.props = s.props[:k:k]
		s.props = s.props[k:]
		for j := range src.props.props {
			from, q := &src.props.props[j], &dst.props.props[j]
			*q = *from
			if from.isAccessor() {
				pair := &s.pairs[0]
				s.pairs = s.pairs[1:]
				*pair = accessorPair{get: r.created(from.getter()), set: r.created(from.setter())}
				q.value.ref = unsafe.Pointer(pair)
			} else if from.value.kind == KindObject && !p.holder[iid] {
				q.value = objectValue(r.created(from.value.obj()))
			}
		}
	}
	if p.holder[iid] {
		dst.flags |= objPlaceholders
		if src.class == ClassArray {
			if pos != 1 {
				panic("interp: Array.prototype is not first in its slab")
			}
		} else {
			dst.length = pos
		}
	}
	if len(src.elems) > 0 {
		dst.elems = make([]Value, len(src.elems))
		for j, v := range src.elems {
			if v.kind == KindObject {
				v = objectValue(r.created(v.obj()))
			}
			dst.elems[j] = v
		}
	}
	switch s := src.slots.(type) {
	case nil:
	case Value:
		if s.kind == KindObject {
			s = objectValue(r.created(s.obj()))
		}
		dst.slots = s
	case *nativeFunction:
		dst.slots = s // newLazyPlan checked that it has no data
	case slotCloner:
		dst.slots = s.cloneSlot(r.created)
	default:
		c, _ := copyPlainSlot(s) // checked by newLazyPlan
		dst.slots = c
	}
}

// created translates a template intrinsic to r's, which must exist.
func (r *Realm) created(o *Object) *Object {
	if o == nil {
		return nil
	}
	c := r.objs.at(int(o.iid))
	if c == nil {
		panic("interp: a reference to a built-in object that is not created")
	}
	return c
}

// materialize returns r's intrinsic iid, creating it first with every intrinsic it reaches
// but through placeholders that does not exist yet.
func (r *Realm) materialize(iid uint16) *Object {
	if o := r.objs.at(int(iid)); o != nil || r.tmpl == nil {
		return o
	}
	r.materializeList([]uint16{iid})
	return r.objs.at(int(iid))
}

// materializeList creates the intrinsics ids that do not exist yet, with everything they
// reach but through placeholders, in one slab.
func (r *Realm) materializeList(ids []uint16) {
	if r.tmpl == nil {
		return
	}
	p := r.tmpl.plan
	sc := lazyScratchPool.Get().(*lazyScratch)
	if len(sc.marks) < r.objs.len() {
		sc.marks = make([]bool, r.objs.len())
	}
	marks := sc.marks
	list := sc.todo[:0]
	for _, iid := range ids {
		if r.objs.at(int(iid)) == nil && !marks[iid] {
			marks[iid] = true
			list = append(list, iid)
		}
	}
	for i := 0; i < len(list); i++ {
		id := list[i]
		for _, e := range p.edges[p.start[id]:p.start[id+1]] {
			if r.objs.at(int(e)) == nil && !marks[e] {
				marks[e] = true
				list = append(list, e)
			}
		}
	}
	for _, id := range list {
		marks[id] = false
	}
	if len(list) > 0 {
		r.create(list)
	}
	sc.todo = list[:0]
	lazyScratchPool.Put(sc)
}

// lazyScratch is materializeList's scratch space: marks by intrinsic id (all false between
// uses) and the list of the intrinsics to create. Realms share it through lazyScratchPool
// rather than each making its own (a restore, which creates intrinsics once, paid for both).
type lazyScratch struct {
	marks []bool
	todo  []uint16
}

var lazyScratchPool = sync.Pool{New: func() any { return &lazyScratch{todo: make([]uint16, 0, 64)} }}

// isPlaceholder reports whether o, found in r's heap, is a placeholder: the template's
// intrinsic standing for r's.
func (r *Realm) isPlaceholder(o *Object) bool {
	return o.iid != 0 && r.tmpl != nil && int(o.iid) < r.tmpl.objs.len() && r.tmpl.objs.at(int(o.iid)) == o
}

// lazyMarked reports whether o is an intrinsic that may hold placeholders.
func (o *Object) lazyMarked() bool { return o.flags&objPlaceholders != 0 }

// lazyRealm returns the realm of o, which must be lazyMarked: o is at position o.length in
// its slab (position 1 for Array.prototype), whose first element holds the realm.
func (o *Object) lazyRealm() *Realm {
	pos := int(o.length)
	if o.class == ClassArray {
		pos = 1
	}
	head := (*Object)(unsafe.Add(unsafe.Pointer(o), -pos*int(unsafe.Sizeof(Object{}))))
	return head.slots.(*Realm)
}

// dataValue returns v, the value of a data property of o, for reading: a placeholder is
// replaced by the realm's intrinsic, created if need be (and not written back).
func (o *Object) dataValue(v Value) Value {
	if v.kind == KindObject && o.lazyMarked() {
		return o.resolve(v)
	}
	return v
}

// resolve is dataValue for a lazyMarked o and an object v.
func (o *Object) resolve(v Value) Value {
	if r := o.lazyRealm(); r.isPlaceholder(v.obj()) {
		return objectValue(r.materialize(v.obj().iid))
	}
	return v
}

// resolveKey writes back the intrinsic for a placeholder in o's data property key.
func (o *Object) resolveKey(key PropertyKey) {
	if !o.lazyMarked() {
		return
	}
	if i := o.props.find(key); i >= 0 {
		if v := o.props.props[i].value; v.kind == KindObject && o.lazyRealm().isPlaceholder(v.obj()) {
			o.props.at(i).value = o.resolve(v)
		}
	}
}

// resolveAll writes back the intrinsics for every placeholder of o, which then holds none.
func (o *Object) resolveAll() {
	if !o.lazyMarked() {
		return
	}
	r := o.lazyRealm()
	for i := range o.props.props {
		if v := o.props.props[i].value; v.kind == KindObject && r.isPlaceholder(v.obj()) {
			o.props.at(i).value = o.resolve(v)
		}
	}
	o.flags &^= objPlaceholders
	if o.class != ClassArray {
		o.length = 0
	}
}

// globalProp returns a copy of the global object's own property key, its value resolved,
// or nil.
func (r *Realm) globalProp(key PropertyKey) *Property {
	p := r.Global.props.peek(key)
	if p == nil {
		return nil
	}
	q := *p
	q.value = r.Global.dataValue(q.value)
	return &q
}

// materializeAll creates every intrinsic and writes back every placeholder: the realm is
// then as a full clone of the template.
func (r *Realm) materializeAll() {
	for iid := 1; iid < r.objs.len(); iid++ {
		if r.objs.at(iid) == nil {
			r.materialize(uint16(iid))
		}
	}
	for iid := 1; iid < r.objs.len(); iid++ {
		r.objs.at(iid).resolveAll()
	}
}

// snapshotIntrinsic returns r's intrinsic iid for the snapshot encoder: nil when it is not
// created (it is then unchanged by definition), except for intrinsics with state of their
// own, which every snapshot writes and which are created for it.
func (r *Realm) snapshotIntrinsic(iid int) *Object {
	if o := r.objs.at(iid); o != nil || r.tmpl == nil {
		return o
	}
	if r.tmpl.plan.stateful[iid] {
		return r.materialize(uint16(iid))
	}
	return nil
}

// standIn returns the object that the memory walk visits for intrinsic o: r's own, or, for
// one not created yet, the template's (whose size is the same).
func (r *Realm) standIn(o *Object) *Object {
	if int(o.iid) < r.objs.len() {
		if c := r.objs.at(int(o.iid)); c != nil {
			return c
		}
	}
	return o
}

// createdCount returns the number of intrinsics r has created (the global object included).
func (r *Realm) createdCount() int {
	n := 0
	for iid := 1; iid < r.objs.len(); iid++ {
		if r.objs.at(iid) != nil {
			n++
		}
	}
	return n
}

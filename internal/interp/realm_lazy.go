package interp

import "sort"

// Lazy intrinsics: a realm cloned from the template creates at first only the intrinsics
// that the VM and native code reach through the Realm's fields (the core prototypes and
// everything they reach: Object, Function, Array, Error, the iterator prototypes), plus the
// global object. Every other intrinsic is created on first use, together with everything it
// reaches that does not exist yet, so that the set of created intrinsics is always closed
// under references: a created object never points to one that is not created, nor to a
// template object.
//
// The one exception is the global object, whose bindings refer to most intrinsics. Until a
// binding is first read, its value is a placeholder: the template's object itself (which
// carries the intrinsic id). The global object then holds a *lazyGlobal in its slots, and
// every path that reads a property of an object resolves it first for such an object:
// getOwn, [[Get]] (getFrom, getMember), the global variable operations, [[DefineOwnProperty]]
// (which may change a binding's attributes); delete and SetIntegrityLevel resolve every
// binding. Writes that replace a binding's value need no resolution. The snapshot encoder
// counts a placeholder as its pristine value (snapshot_encode_intrinsics.go,
// sameIntrinsicRef) and the memory walk stands the template's object in for an intrinsic not
// created yet, so snapshots and measured sizes are what they would be with every intrinsic
// created.
//
// Entry points that create intrinsics: Realm.Intrinsic (natives, the snapshot decoder's
// intrinsic references), Realm.globalProp, resolving a global binding, and
// Realm.snapshotIntrinsic (intrinsics with state of their own, which every snapshot writes).

// lazyPlan is what lazy clones of the template need, computed once.
type lazyPlan struct {
	start    []int32  // the references of intrinsic iid are edges[start[iid]:start[iid+1]]
	edges    []uint16 // intrinsic ids
	eager    []uint16 // the intrinsics every clone creates (sorted), the global object excluded
	stateful []bool   // by iid: the intrinsic's slots carry state that every snapshot writes
	global   uint16   // the global object's id
}

// lazyGlobal marks a global object some of whose bindings may still be placeholders.
type lazyGlobal struct {
	r       *Realm
	pending int // placeholders not yet resolved (an upper bound: a write may replace one)
}

// newLazyPlan computes the plan of template t, or returns nil when its intrinsics cannot be
// cloned lazily (some reference leads outside the intrinsics, some slot cannot be copied, or
// the global object has slots or elements of its own).
func newLazyPlan(t *Realm) *lazyPlan {
	n := len(t.objs)
	if len(t.shared) != n || t.Global == nil || t.Global.slots != nil || len(t.Global.elems) > 0 {
		return nil
	}
	if t.clone(&VM{}) == nil {
		return nil
	}
	p := &lazyPlan{start: make([]int32, n+1), stateful: make([]bool, n), global: t.Global.iid}
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
		o := t.objs[iid]
		cur = cur[:0]
		record(o.proto)
		for i := range o.props.props {
			q := &o.props.props[i]
			record(q.value.asObject())
			record(q.getter)
			record(q.setter)
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
	// the eager set: what the Realm's fields reach, and what the global object's accessors
	// reach (placeholders stand only for data values)
	roots := []*Object{t.ObjectPrototype, t.FunctionPrototype, t.ArrayPrototype, t.ErrorPrototype,
		t.IteratorPrototype, t.AsyncIteratorPrototype, t.ArrayIteratorPrototype,
		t.ObjectConstructor, t.ArrayConstructor}
	for i := range t.Global.props.props {
		q := &t.Global.props.props[i]
		if q.isAccessor() {
			roots = append(roots, q.getter, q.setter)
		}
	}
	seen := make([]bool, n)
	seen[p.global] = true // created by every clone, never expanded
	var queue []uint16
	for _, o := range roots {
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
	return p
}

// cloneLazy makes a realm for vm that shares the template t's names and creates only the
// eager intrinsics and the global object (see the top of this file).
func (t *Realm) cloneLazy(vm *VM) *Realm {
	p := t.plan
	n := len(t.objs)
	r := &Realm{vm: vm, names: t.names, objs: make([]*Object, n), tmpl: t}
	if len(t.symbolRegistry) > 0 {
		r.symbolRegistry = make(map[string]*Symbol, len(t.symbolRegistry))
		for k, v := range t.symbolRegistry {
			r.symbolRegistry[k] = v
		}
	} else {
		r.symbolRegistry = map[string]*Symbol{}
	}
	slab := make([]Object, len(p.eager)+1)
	nProps := len(t.Global.props.props) + frozenSpare // room for the host's globals
	for i, id := range p.eager {
		r.objs[id] = &slab[i]
		if t.shared[id].props == nil {
			nProps += len(t.shared[id].keys)
		}
	}
	r.Global = &slab[len(p.eager)]
	r.objs[p.global] = r.Global
	props := make([]Property, nProps)
	remap := r.created
	for _, id := range p.eager {
		r.copyFromTemplate(int(id), r.objs[id], &props, remap)
	}
	// the global object: bindings to intrinsics not created yet hold placeholders
	pending := 0
	placeholder := func(o *Object) *Object {
		if o == nil {
			return nil
		}
		if c := r.objs[o.iid]; c != nil {
			return c
		}
		pending++
		return o
	}
	rest := props
	if !t.copyIntrinsic(int(p.global), r.Global, &props, placeholder) {
		panic("interp: the global object cannot be cloned")
	}
	if g := r.Global.props.props; len(g) > 0 && len(props) == frozenSpare && &g[0] == &rest[0] {
		// the global object's properties were cut last: adding a few globals needs no copy
		r.Global.props.props = rest[: len(g) : len(g)+frozenSpare]
	}
	if pending > 0 {
		r.Global.slots = &lazyGlobal{r: r, pending: pending}
	}
	r.ObjectPrototype = r.objs[t.ObjectPrototype.iid]
	r.FunctionPrototype = r.objs[t.FunctionPrototype.iid]
	r.ArrayPrototype = r.objs[t.ArrayPrototype.iid]
	r.ErrorPrototype = r.objs[t.ErrorPrototype.iid]
	r.IteratorPrototype = r.objs[t.IteratorPrototype.iid]
	r.AsyncIteratorPrototype = r.objs[t.AsyncIteratorPrototype.iid]
	r.ArrayIteratorPrototype = r.objs[t.ArrayIteratorPrototype.iid]
	r.ObjectConstructor = r.objs[t.ObjectConstructor.iid]
	r.ArrayConstructor = r.objs[t.ArrayConstructor.iid]
	return r
}

// copyFromTemplate fills dst with the template's intrinsic iid; everything it refers to must
// be created already (remap is r.created).
func (r *Realm) copyFromTemplate(iid int, dst *Object, props *[]Property, remap func(*Object) *Object) {
	if !r.tmpl.copyIntrinsic(iid, dst, props, remap) {
		panic("interp: a built-in object cannot be cloned") // newLazyPlan checked every slot
	}
}

// created translates a template intrinsic to r's, which must exist.
func (r *Realm) created(o *Object) *Object {
	if o == nil {
		return nil
	}
	c := r.objs[o.iid]
	if c == nil {
		panic("interp: a reference to a built-in object that is not created")
	}
	return c
}

// materialize returns r's intrinsic iid, creating it first with every intrinsic it reaches
// that does not exist yet.
func (r *Realm) materialize(iid uint16) *Object {
	if o := r.objs[iid]; o != nil || r.tmpl == nil {
		return o
	}
	p := r.tmpl.plan
	if cap(r.marks) == 0 {
		r.marks = make([]bool, len(r.objs))
	}
	list := append(r.todo[:0], iid)
	r.marks[iid] = true
	nProps := 0
	for i := 0; i < len(list); i++ {
		id := list[i]
		if r.tmpl.shared[id].props == nil {
			nProps += len(r.tmpl.shared[id].keys)
		}
		for _, e := range p.edges[p.start[id]:p.start[id+1]] {
			if r.objs[e] == nil && !r.marks[e] {
				r.marks[e] = true
				list = append(list, e)
			}
		}
	}
	slab := make([]Object, len(list))
	for i, id := range list {
		r.objs[id] = &slab[i]
		r.marks[id] = false
	}
	props := make([]Property, nProps)
	remap := r.created
	for _, id := range list {
		r.copyFromTemplate(int(id), r.objs[id], &props, remap)
	}
	r.todo = list[:0]
	return r.objs[iid]
}

// isPlaceholder reports whether o, found in r's heap, is a placeholder: the template's
// intrinsic standing for r's, which is not created yet (or was created after o was stored).
func (r *Realm) isPlaceholder(o *Object) bool {
	return o.iid != 0 && r.tmpl != nil && int(o.iid) < len(r.tmpl.objs) && r.tmpl.objs[o.iid] == o &&
		r.objs[o.iid] != o
}

// resolveKey replaces a placeholder held by the global binding key with the intrinsic,
// created if need be. The global object's slots hold lg.
func (lg *lazyGlobal) resolveKey(key PropertyKey) {
	g := lg.r.Global
	i := g.props.find(key)
	if i < 0 {
		return
	}
	if v := g.props.props[i].value; v.kind == KindObject && lg.r.isPlaceholder(v.obj()) {
		lg.resolveAt(i, v.obj())
	}
}

// resolveAll resolves every binding of the global object.
func (lg *lazyGlobal) resolveAll() {
	g := lg.r.Global
	for i := 0; i < len(g.props.props) && lg.pending > 0; i++ {
		if v := g.props.props[i].value; v.kind == KindObject && lg.r.isPlaceholder(v.obj()) {
			lg.resolveAt(i, v.obj())
		}
	}
	if g.slots == lg {
		g.slots = nil
	}
}

// resolveAt stores the intrinsic for placeholder ph in the global binding at position i.
func (lg *lazyGlobal) resolveAt(i int, ph *Object) {
	g := lg.r.Global
	g.props.at(i).value = objectValue(lg.r.materialize(ph.iid))
	lg.pending--
	if lg.pending <= 0 && g.slots == lg {
		g.slots = nil
	}
}

// resolveLazyKey resolves the binding key when o is a global object with placeholders.
func (o *Object) resolveLazyKey(key PropertyKey) {
	if lg, ok := o.slots.(*lazyGlobal); ok {
		lg.resolveKey(key)
	}
}

// resolveLazyAll resolves every binding when o is a global object with placeholders.
func (o *Object) resolveLazyAll() {
	if lg, ok := o.slots.(*lazyGlobal); ok {
		lg.resolveAll()
	}
}

// globalProp returns the global object's own property key (nil if absent), resolved.
func (r *Realm) globalProp(key PropertyKey) *Property {
	r.Global.resolveLazyKey(key)
	return r.Global.props.get(key)
}

// materializeAll creates every intrinsic and resolves every global binding: the realm is
// then as a full clone of the template.
func (r *Realm) materializeAll() {
	r.Global.resolveLazyAll()
	for iid := 1; iid < len(r.objs); iid++ {
		if r.objs[iid] == nil {
			r.materialize(uint16(iid))
		}
	}
}

// snapshotIntrinsic returns r's intrinsic iid for the snapshot encoder: nil when it is not
// created (it is then unchanged by definition), except for intrinsics with state of their
// own, which every snapshot writes and which are created for it.
func (r *Realm) snapshotIntrinsic(iid int) *Object {
	if o := r.objs[iid]; o != nil || r.tmpl == nil {
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
	if int(o.iid) < len(r.objs) {
		if c := r.objs[o.iid]; c != nil {
			return c
		}
	}
	return o
}

// createdCount returns the number of intrinsics r has created (the global object included).
func (r *Realm) createdCount() int {
	n := 0
	for _, o := range r.objs[1:] {
		if o != nil {
			n++
		}
	}
	return n
}

package interp

import "unsafe"

// Reachability walk for memory accounting (MaxMemoryBytes).
//
// Allocation paths add an estimate to vm.allocated (objects, array storage, properties,
// strings): vm.newObject, vm.newArray, vm.String, property creation through vm.setOn,
// CreateDataProperty and DefineOwnProperty. Code that grows storage by other means (array
// appends, string building) adds its own estimate. When that counter passes the budget, the execution engine measures the live heap
// with liveHeapSize: a walk from the realm and the execution roots that visits each object,
// record and string once, without Go recursion, and sums estimated sizes. The walk uses the
// same slot interface as the snapshot encoder (slotCodec.walkSlot), so every internal slot
// type that can be snapshotted can also be measured. Built-in objects are traversed but not
// counted: the budget is for what the program allocates.

// Accounted sizes (bytes).
const (
	propertySize    = 72 // one own property: key + Property, and the slack of their growing slices
	indexEntrySize  = 8  // one word of a property map's hash index (2 to 4 slots per key)
	stringBaseSize  = 48 // a jsString header
	recordBaseSize  = 48 // a shared record (environment, ...) before its own additions
	smallStringSize = 32 // strings shorter than this are not de-duplicated by the walk
)

// heapWalker visits reachable heap data once and sums its estimated size.
type heapWalker struct {
	realm *Realm
	objs  addrSet // objects seen
	nodes map[slotCodec]struct{}
	strs  addrSet // long strings and rope nodes seen
	stack []*Object
	todo  []slotCodec
	bytes int64
}

// newHeapWalker prepares a walk over vm's heap.
func (vm *VM) newHeapWalker() *heapWalker {
	return &heapWalker{realm: vm.realm, objs: newAddrSet(vm.walkHint.objs), nodes: map[slotCodec]struct{}{},
		strs: newAddrSet(vm.walkHint.strs)}
}

// add counts n more bytes (slots use it for their own storage).
func (w *heapWalker) add(n int64) { w.bytes += n }

// value visits a value.
func (w *heapWalker) value(v Value) {
	switch v.kind {
	case KindObject:
		w.object(v.obj())
	case KindString:
		w.string(v.str())
	case KindSymbol:
		if d := v.sym().description; d != nil {
			w.string(d)
		}
	case KindBigInt:
		// shared values count once (the set of strings holds their addresses too)
		if b := v.bigint(); b.BitLen() <= 64 || w.strs.add(v.ref) {
			w.bytes += bigIntBytes(b.BitLen())
		}
	}
}

// values visits each value of a list.
func (w *heapWalker) values(vs []Value) {
	for _, v := range vs {
		w.value(v)
	}
}

// object visits an object (nil is ignored).
func (w *heapWalker) object(o *Object) {
	if o == nil {
		return
	}
	if o.iid != 0 {
		o = w.realm.standIn(o) // an intrinsic not created yet is measured as the template's
	}
	if !w.objs.add(unsafe.Pointer(o)) {
		return
	}
	w.stack = append(w.stack, o)
}

// node visits a shared record.
func (w *heapWalker) node(n slotCodec) {
	if n == nil {
		return
	}
	if _, seen := w.nodes[n]; seen {
		return
	}
	w.nodes[n] = struct{}{}
	w.bytes += recordBaseSize
	w.todo = append(w.todo, n)
}

// string counts a string, following rope structure so that shared parts count once.
func (w *heapWalker) string(s *jsString) {
	var stack []*jsString
	for {
		if s.length >= smallStringSize || s.left != nil {
			if !w.strs.add(unsafe.Pointer(s)) {
				s = nil
			}
		}
		if s != nil {
			w.bytes += stringBaseSize
			if s.left != nil {
				stack = append(stack, s.left, s.right)
			} else if s.isASCII {
				w.bytes += int64(len(s.ascii))
			} else {
				w.bytes += 2 * int64(len(s.flatUnits()))
			}
		}
		if len(stack) == 0 {
			return
		}
		s = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
	}
}

// drain processes everything queued.
func (w *heapWalker) drain() {
	for len(w.stack) > 0 || len(w.todo) > 0 {
		for len(w.stack) > 0 {
			o := w.stack[len(w.stack)-1]
			w.stack = w.stack[:len(w.stack)-1]
			w.walkObject(o)
		}
		for len(w.todo) > 0 {
			n := w.todo[len(w.todo)-1]
			w.todo = w.todo[:len(w.todo)-1]
			n.walkSlot(w)
		}
	}
}

func (w *heapWalker) walkObject(o *Object) {
	builtin := w.realm.isIntrinsic(o) || w.realm.isPlaceholder(o)
	w.object(o.proto)
	for i := range o.props.props {
		p := &o.props.props[i]
		if k := o.props.keys[i]; k.sym != nil {
			w.value(symbolValue(k.sym))
		} else if len(k.name) >= smallStringSize {
			w.bytes += int64(len(k.name))
		}
		if p.isAccessor() {
			w.object(p.getter())
			w.object(p.setter())
		} else {
			w.value(p.value)
		}
	}
	w.values(o.elems)
	switch s := o.slots.(type) {
	case Value:
		w.value(s)
	case *nativeFunction:
		if c, ok := s.data.(slotCodec); ok {
			c.walkSlot(w)
		}
	case slotCodec:
		s.walkSlot(w)
	}
	if builtin {
		return // values reachable from built-ins count, the built-in itself does not
	}
	w.bytes += objectBaseSize + int64(len(o.props.keys))*propertySize + int64(cap(o.elems))*valueSize
	if o.props.index != nil {
		w.bytes += int64(len(o.props.index.words())) * indexEntrySize
	}
}

// liveHeapSize measures the bytes reachable from the realm and from the roots that the
// execution engine reports through its callback (frames, queues, host promises...).
func (vm *VM) liveHeapSize(roots func(w *heapWalker)) int64 {
	w := vm.newHeapWalker()
	w.object(vm.realm.Global)
	for iid := 1; iid < vm.realm.objs.len(); iid++ {
		o := vm.realm.objs.at(iid)
		if o == nil {
			o = vm.realm.tmpl.objs.at(iid) // not created: measured as the template's
		}
		w.object(o)
	}
	if roots != nil {
		roots(w)
	}
	w.drain()
	vm.walkHint.objs, vm.walkHint.strs = w.objs.len(), w.strs.len()
	return w.bytes
}

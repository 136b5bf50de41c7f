package interp

import (
	"math"
	"sync"
	"unsafe"
)

// Finding the changed intrinsics: every snapshot compares each intrinsic of the VM's realm
// with its pristine counterpart in the reference realm, so that a change to a built-in that
// nothing else references survives. A realm cloned from the reference shares its name table,
// so an intrinsic and its counterpart have the same id (Object.iid). The reference realm is
// compared through an image of it made once (intrinsicImage): its properties in one compact
// array, references as ids, so that checking that a reference is unchanged is comparing a
// pointer with the realm's table entry for the id, without reading either object. Realms
// built otherwise, and values that differ bit for bit, fall back to the generic helpers
// (intrinsicUnchanged, sameValueAcross).

// changedIntrinsics reports, by intrinsic id, which intrinsics of r differ from their
// counterparts in ref (or have none). It reuses buf's storage.
func changedIntrinsics(r, ref *Realm, buf []bool) []bool {
	n := r.objs.len()
	if cap(buf) < n {
		buf = make([]bool, n)
	}
	changed := buf[:n]
	clear(changed)
	shared := r.names == ref.names
	var img *intrinsicImage
	if shared && ref == referenceRealm() {
		img = referenceImage()
	}
	for iid := 1; iid < n; iid++ {
		o := r.snapshotIntrinsic(iid)
		if o == nil {
			continue // not created: unchanged
		}
		switch {
		case !shared || iid >= ref.objs.len():
			refObj := ref.counterpart(r, o)
			changed[iid] = refObj == nil || !intrinsicUnchanged(r, o, ref, refObj)
		case img != nil && iid < len(img.objs) && n >= len(img.objs) && !img.objs[iid].generic:
			changed[iid] = !img.unchanged(r, ref, iid, o)
		default:
			changed[iid] = !sameIntrinsicByID(r, ref, o, ref.objs.at(iid))
		}
	}
	return changed
}

// intrinsicImage is what changedIntrinsics compares a cloned realm's intrinsics with: the
// reference realm's, with references to intrinsics as ids.
type intrinsicImage struct {
	objs  []imageObject   // by intrinsic id
	props []imageProperty // every intrinsic's properties, one after another
}

// imageObject is one intrinsic of the image: its properties are props[start:start+n].
type imageObject struct {
	start, n int32
	proto    uint16 // intrinsic id; 0 for null
	flags    objFlags
	// generic marks the intrinsics compared with the generic helpers: those with elements,
	// stateful slots or references to objects that are not intrinsics.
	generic bool
}

// imageProperty is one property: its key (the addresses of its name's bytes and of its
// symbol, the name's length), flags, and for an accessor the ids of its getter and setter (0
// for undefined); for a data property whose value is an object, the object's id in get; for
// any other value, the value's bits. Addresses are kept as integers, so that the collector
// need not scan the image: the reference realm keeps what they point to alive.
type imageProperty struct {
	keyData  uintptr
	keySym   uintptr
	keyLen   int
	num      uint64
	ref      uintptr
	get, set uint16
	kind     Kind
	flags    propFlags
}

// referenceImage is the image of the reference realm, made on first use.
var referenceImage = sync.OnceValue(func() *intrinsicImage { return newIntrinsicImage(referenceRealm()) })

// newIntrinsicImage makes the image of realm ref.
func newIntrinsicImage(ref *Realm) *intrinsicImage {
	img := &intrinsicImage{objs: make([]imageObject, ref.objs.len())}
	id := func(o *Object) (uint16, bool) {
		if o == nil {
			return 0, true
		}
		return o.iid, ref.isIntrinsic(o)
	}
	for iid := 1; iid < ref.objs.len(); iid++ {
		o := ref.objs.at(iid)
		io := &img.objs[iid]
		io.start, io.n, io.flags = int32(len(img.props)), int32(o.props.len()), o.programFlags()
		var ok bool
		io.proto, ok = id(o.proto)
		io.generic = !ok || len(o.elems) > 0 || o.length != 0 || len(o.props.props) != len(o.props.keys) ||
			hasOwnState(o)
		for i, k := range o.props.keys {
			p := &o.props.props[i]
			ip := imageProperty{keyData: uintptr(unsafe.Pointer(unsafe.StringData(k.name))),
				keySym: uintptr(unsafe.Pointer(k.sym)), keyLen: len(k.name), kind: p.value.kind, flags: p.flags}
			switch {
			case p.isAccessor():
				g, gok := id(p.getter())
				st, sok := id(p.setter())
				ip.get, ip.set = g, st
				io.generic = io.generic || !gok || !sok
			case p.value.kind == KindObject:
				ip.get, ok = id(p.value.obj())
				io.generic = io.generic || !ok
			default:
				ip.num, ip.ref = math.Float64bits(p.value.num), uintptr(p.value.ref)
			}
			img.props = append(img.props, ip)
		}
	}
	return img
}

// unchanged reports whether intrinsic o of r (id iid) is as in the image of ref; the image
// must not mark it generic, and r must have at least the image's intrinsics.
func (img *intrinsicImage) unchanged(r, ref *Realm, iid int, o *Object) bool {
	io := &img.objs[iid]
	n := int(io.n)
	if o.programFlags() != io.flags || len(o.props.keys) != n || len(o.props.props) != n {
		return false
	}
	if hasOwnState(o) {
		return false
	}
	objs := &r.objs // id 0 is nil: it stands for null or undefined
	if o.proto != objs.at(int(io.proto)) {
		return false
	}
	if o.class == ClassArray && (len(o.elems) != 0 || o.length != 0) {
		return false
	}
	keys, props := o.props.keys[:n], o.props.props[:n]
	refKeys := ref.objs.at(iid).props.keys
	for i := range img.props[io.start : io.start+io.n] {
		q, k, p := &img.props[int(io.start)+i], &keys[i], &props[i]
		if uintptr(unsafe.Pointer(k.sym)) != q.keySym || len(k.name) != q.keyLen {
			return false
		}
		if uintptr(unsafe.Pointer(unsafe.StringData(k.name))) != q.keyData && k.name != refKeys[i].name {
			return false
		}
		if p.flags != q.flags {
			return false
		}
		switch {
		case p.flags&propAccessor != 0:
			if p.getter() != objs.at(int(q.get)) || p.setter() != objs.at(int(q.set)) {
				return false
			}
		case q.kind == KindObject:
			// a placeholder for an intrinsic not created yet is the reference's object
			if p.value.kind != KindObject || (p.value.ref != unsafe.Pointer(objs.at(int(q.get))) && p.value.ref != unsafe.Pointer(ref.objs.at(int(q.get)))) {
				return false
			}
		case p.value.kind == q.kind && uintptr(p.value.ref) == q.ref && math.Float64bits(p.value.num) == q.num:
		// not the same bits: maybe the same value all the same (another NaN, an equal string)
		case !sameValueAcross(r, p.value, ref, ref.objs.at(iid).props.props[i].value):
			return false
		}
	}
	return true
}

// hasOwnState reports whether intrinsic o's slots hold state of its own (Math's generator,
// console's counters), which every snapshot writes: it then never counts as unchanged.
func hasOwnState(o *Object) bool {
	switch o.slots.(type) {
	case nil, *nativeFunction, Value: // the common slots, none with state
		return false
	}
	_, stateful := o.slots.(slotCodec)
	return stateful
}

// sameIntrinsicByID is intrinsicUnchanged for realms that share their name table, with o
// an intrinsic of r and refObj the intrinsic of ref with the same id.
func sameIntrinsicByID(r, ref *Realm, o, refObj *Object) bool {
	if o.programFlags() != refObj.programFlags() || len(o.props.keys) != len(refObj.props.keys) {
		return false
	}
	if hasOwnState(o) {
		return false
	}
	if !sameRefByID(r, ref, o.proto, refObj.proto) {
		return false
	}
	ok, qk := o.props.keys, refObj.props.keys
	op, qp := o.props.props, refObj.props.props
	if len(op) != len(ok) || len(qp) != len(qk) {
		return intrinsicUnchanged(r, o, ref, refObj)
	}
	for i := range ok {
		if !sameKey(ok[i], qk[i]) {
			return false
		}
		p, q := &op[i], &qp[i]
		if p.flags != q.flags {
			return false
		}
		if p.flags&propAccessor != 0 {
			if !sameRefByID(r, ref, p.getter(), q.getter()) || !sameRefByID(r, ref, p.setter(), q.setter()) {
				return false
			}
			continue
		}
		if !sameValueByID(r, ref, p.value, q.value) {
			return false
		}
	}
	if o.class != ClassArray {
		return true
	}
	if o.length != refObj.length || len(o.elems) != len(refObj.elems) {
		return false
	}
	for i, v := range o.elems {
		if !sameValueByID(r, ref, v, refObj.elems[i]) {
			return false
		}
	}
	return true
}

// sameValueByID is sameValueAcross for realms that share their name table.
func sameValueByID(r, ref *Realm, a, b Value) bool {
	if a.kind == KindObject {
		return b.kind == KindObject && sameRefByID(r, ref, a.obj(), b.obj())
	}
	if a.kind == b.kind && a.ref == b.ref && math.Float64bits(a.num) == math.Float64bits(b.num) {
		// the same bits are the same value (numbers, booleans, the same string or symbol)
		return true
	}
	return sameValueAcross(r, a, ref, b)
}

// sameRefByID is sameIntrinsicRef for realms that share their name table: a (of r) and b (of
// ref) are both nil, or a is an intrinsic of r and b the intrinsic of ref with its id.
func sameRefByID(r, ref *Realm, a, b *Object) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	id := int(a.iid)
	return id != 0 && id < r.objs.len() && id < ref.objs.len() && (r.objs.at(id) == a || a == b) && ref.objs.at(id) == b
}

// sameKey is a == b, quick when the names share their bytes (as a clone's keys do).
func sameKey(a, b PropertyKey) bool {
	if a.sym != b.sym || len(a.name) != len(b.name) {
		return false
	}
	return unsafe.StringData(a.name) == unsafe.StringData(b.name) || a.name == b.name
}

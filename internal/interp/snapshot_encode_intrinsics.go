package interp

import (
	"math"
	"unsafe"
)

// Finding the changed intrinsics: every snapshot compares each intrinsic of the VM's realm
// with its pristine counterpart in the reference realm, so that a change to a built-in that
// nothing else references survives. A realm cloned from the reference shares its name table,
// so an intrinsic and its counterpart have the same id (Object.iid): the comparison below
// matches references by id with a few loads and falls back to the generic helpers
// (intrinsicUnchanged, sameValueAcross) only for realms built otherwise and for values that
// differ bit for bit.

// changedIntrinsics reports, by intrinsic id, which intrinsics of r differ from their
// counterparts in ref (or have none). It reuses buf's storage.
func changedIntrinsics(r, ref *Realm, buf []bool) []bool {
	n := len(r.objs)
	if cap(buf) < n {
		buf = make([]bool, n)
	}
	changed := buf[:n]
	clear(changed)
	shared := r.names == ref.names
	for iid := 1; iid < n; iid++ {
		o := r.objs[iid]
		if !shared || iid >= len(ref.objs) {
			refObj := ref.counterpart(r, o)
			changed[iid] = refObj == nil || !intrinsicUnchanged(r, o, ref, refObj)
			continue
		}
		changed[iid] = !sameIntrinsicByID(r, ref, o, ref.objs[iid])
	}
	return changed
}

// sameIntrinsicByID is intrinsicUnchanged for realms that share their name table, with o
// an intrinsic of r and refObj the intrinsic of ref with the same id.
func sameIntrinsicByID(r, ref *Realm, o, refObj *Object) bool {
	if o.flags != refObj.flags || len(o.props.keys) != len(refObj.props.keys) {
		return false
	}
	switch o.slots.(type) {
	case nil, *nativeFunction, Value:
		// no state of its own
	default:
		if _, stateful := o.slots.(slotCodec); stateful {
			return false
		}
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
			if !sameRefByID(r, ref, p.getter, q.getter) || !sameRefByID(r, ref, p.setter, q.setter) {
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
	return id != 0 && id < len(r.objs) && id < len(ref.objs) && r.objs[id] == a && ref.objs[id] == b
}

// sameKey is a == b, quick when the names share their bytes (as a clone's keys do).
func sameKey(a, b PropertyKey) bool {
	if a.sym != b.sym || len(a.name) != len(b.name) {
		return false
	}
	return unsafe.StringData(a.name) == unsafe.StringData(b.name) || a.name == b.name
}

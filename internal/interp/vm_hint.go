package interp

import "sync/atomic"

// Property lookup hints.
//
// Objects have no shapes: each keeps its keys in the order they were added. The objects a
// program makes the same way (by one constructor, one literal) have their keys in the same
// order, so an instruction that reads or writes a constant key mostly finds it at the same
// position in the objects it meets. Each such instruction keeps the position it last found its
// key at in an ordinary object (FuncCode.hints, by pc); a lookup tries that position first and
// searches only when the key is not there. A hint is only a guess: a wrong or stale one (the
// code is shared by VMs, which may write it concurrently) costs a search, never a wrong result.

// getMemberHint is getMemberHashed for the property instruction in at pc of code.
func (vm *VM) getMemberHint(obj Value, code *FuncCode, in Instr, pc int) Value {
	key, h := code.keys[in.A], code.keyHashes[in.A]
	if obj.kind == KindObject && pc < len(code.hints) {
		if o := obj.obj(); o.class == ClassObject {
			keys := o.props.keys
			hint := &code.hints[pc]
			i := int(atomic.LoadUint32(hint))
			if i >= len(keys) || keys[i] != key {
				if i, h = o.props.findHashed(key, h); i < 0 {
					// an ordinary object without the key: the walk goes on from its prototype
					return vm.getFromHashed(o.proto, key, h, obj)
				}
				atomic.StoreUint32(hint, uint32(i))
			}
			if p := &o.props.props[i]; p.flags&propAccessor == 0 {
				return o.dataValue(p.value)
			}
		}
	}
	return vm.getMemberHashed(obj, key, h)
}

// putMemberHint is putMemberHashed for the property instruction in at pc of code. Without the
// key at the hinted position it does what putMemberHashed does, whose search also finds where
// an added key goes: that position becomes the hint (the next object made the same way has the
// key there when it is written again).
func (vm *VM) putMemberHint(obj Value, code *FuncCode, in Instr, pc int, v Value) {
	key, h := code.keys[in.A], code.keyHashes[in.A]
	if obj.kind == KindObject && pc < len(code.hints) {
		if o := obj.obj(); o.class == ClassObject {
			hint := &code.hints[pc]
			if i := int(atomic.LoadUint32(hint)); i < len(o.props.keys) && o.props.keys[i] == key {
				// an own writable data property
				if p := o.props.at(i); p.flags&(propAccessor|propWritable) == propWritable {
					p.value = v
					return
				}
			}
			vm.putMemberHashed(obj, key, h, v)
			if n := len(o.props.keys); n > 0 && o.props.keys[n-1] == key {
				atomic.StoreUint32(hint, uint32(n-1))
			}
			return
		}
	}
	vm.putMemberHashed(obj, key, h, v)
}

package interp

import (
	"sync/atomic"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

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
//
// Functions keep their properties as ordinary objects do, and are looked at alike. A key an
// ordinary object does not have itself, such as a method, is mostly found on its prototype: the hint then holds the key's position there, marked by protoHint, and a lookup
// that finds the object without the key tries that position of its prototype first. A read
// of null or undefined on the way to a static callee path (operand B) goes to nullishCallee
// before it throws.
func (vm *VM) getMemberHint(obj Value, code *FuncCode, in bytecode.Instr, pc int) Value {
	key, h := code.keys[in.A], code.keyHashes[in.A]
	if obj.kind == KindObject && pc < len(code.hints) {
		o := obj.obj()
		if o.class == ClassObject || o.class == ClassFunction {
			keys := o.props.keys
			hint := &code.hints[pc]
			u := atomic.LoadUint32(hint)
			i := int(u & (protoHint - 1))
			if u >= uint32(len(keys)) || keys[i] != key {
				if i, h = o.props.findHashed(key, h); i < 0 {
					// an ordinary object without the key: the walk goes on from its prototype
					return vm.getInheritedHint(o.proto, key, h, obj, hint, u)
				}
				atomic.StoreUint32(hint, uint32(i))
			}
			if p := &o.props.props[i]; p.flags&propAccessor == 0 {
				return o.dataValue(p.value)
			}
		} else if o.class == ClassArray && key == keyLength {
			return Number(float64(o.length))
		}
	} else if obj.kind == KindString && key == keyLength {
		return intValue(obj.str().Len())
	} else if obj.kind <= KindNull && in.B > 0 {
		vm.nullishCallee(code, in)
	}
	return vm.getMemberHashed(obj, key, h)
}

// protoHint marks a hint that is a position in the prototype of the object looked at.
const protoHint uint32 = 1 << 31

// getInheritedHint is getFromHashed(proto, key, h, receiver) for getMemberHint, whose hint
// (read as u) may hold the position of key in proto (see protoHint). A data property found
// on an ordinary prototype updates the hint.
func (vm *VM) getInheritedHint(proto *Object, key PropertyKey, h uint64, receiver Value, hint *uint32, u uint32) Value {
	if proto == nil || proto.class != ClassObject && proto.class != ClassFunction {
		return vm.getFromHashed(proto, key, h, receiver)
	}
	keys := proto.props.keys
	i := int(u &^ protoHint)
	if u < protoHint || u-protoHint >= uint32(len(keys)) || keys[i] != key {
		if i, h = proto.props.findHashed(key, h); i < 0 {
			return vm.getFromHashed(proto.proto, key, h, receiver)
		}
		atomic.StoreUint32(hint, uint32(i)|protoHint)
	}
	if p := &proto.props.props[i]; p.flags&propAccessor == 0 {
		return proto.dataValue(p.value)
	}
	return vm.getFromHashed(proto, key, h, receiver)
}

// putMemberHint is putMemberHashed for the property instruction in at pc of code. Without the
// key at the hinted position it does what putMemberHashed does, whose search also finds where
// an added key goes: that position becomes the hint (the next object made the same way has the
// key there when it is written again).
func (vm *VM) putMemberHint(obj Value, code *FuncCode, in bytecode.Instr, pc int, v Value) {
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

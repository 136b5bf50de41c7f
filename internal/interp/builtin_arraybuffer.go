package interp

// The ArrayBuffer global: fixed-length and resizable buffers of bytes (new ArrayBuffer(n,
// {maxByteLength})), slice, resize, transfer/transferToFixedLength (which detach the buffer)
// and ArrayBuffer.isView. The bytes live in the buffer object's slot, an *arrayBuffer; typed
// arrays and DataViews refer to the buffer object, so views of one buffer share its bytes,
// in the heap as in snapshots.
//
// Memory: a buffer's bytes are charged to the memory limit before they are allocated
// (allocBufferBytes), and the live-heap walk counts them, so an allocation past the limit
// ends the run with the memory-limit error rather than exhausting the process. A resizable
// buffer holds only its current length; growing it allocates (and charges) the new bytes.

import "math"

func init() { registerBuiltin("ArrayBuffer", 30, setupArrayBuffer) }

// arrayBuffer is the slot of an ArrayBuffer object ([[ArrayBufferData]] and friends).
type arrayBuffer struct {
	data     []byte // the bytes; nil when detached
	max      int    // [[ArrayBufferMaxByteLength]]; -1 for a fixed-length buffer
	detached bool
}

// maxBufferBytes bounds one buffer's length (the limit of a run without a memory limit):
// longer ones fail as V8's do when it cannot allocate ("Array buffer allocation failed").
const maxBufferBytes = 1 << 32

// resizable reports whether the buffer was made with a maxByteLength.
func (b *arrayBuffer) resizable() bool { return b.max >= 0 }

func setupArrayBuffer(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("ArrayBuffer", 1, arrayBufferConstructor, proto)
	r.method(ctor, "isView", 1, func(vm *VM, c NativeCall) Value {
		o := c.Arg(0).asObject()
		return Bool(o != nil && (o.class == ClassTypedArray || o.class == ClassDataView))
	})
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.getter(proto, strKey("byteLength"), func(vm *VM, c NativeCall) Value {
		return intValue(len(thisArrayBuffer(vm, c.This, "ArrayBuffer.prototype.byteLength").data))
	})
	r.getter(proto, strKey("maxByteLength"), func(vm *VM, c NativeCall) Value {
		b := thisArrayBuffer(vm, c.This, "ArrayBuffer.prototype.maxByteLength")
		if b.detached {
			return intValue(0)
		}
		if b.resizable() {
			return intValue(b.max)
		}
		return intValue(len(b.data))
	})
	r.getter(proto, strKey("resizable"), func(vm *VM, c NativeCall) Value {
		return Bool(thisArrayBuffer(vm, c.This, "ArrayBuffer.prototype.resizable").resizable())
	})
	r.getter(proto, strKey("detached"), func(vm *VM, c NativeCall) Value {
		return Bool(thisArrayBuffer(vm, c.This, "ArrayBuffer.prototype.detached").detached)
	})
	r.method(proto, "slice", 2, arrayBufferSlice)
	r.method(proto, "resize", 1, arrayBufferResize)
	r.method(proto, "transfer", 0, func(vm *VM, c NativeCall) Value {
		return vm.arrayBufferCopyAndDetach(c, "ArrayBuffer.prototype.transfer", true)
	})
	r.method(proto, "transferToFixedLength", 0, func(vm *VM, c NativeCall) Value {
		return vm.arrayBufferCopyAndDetach(c, "ArrayBuffer.prototype.transferToFixedLength", false)
	})
	r.value(proto, symKey(symToStringTag), asciiValue("ArrayBuffer"), propConfigurable)
	r.defineGlobal("ArrayBuffer", objectValue(ctor))
}

// thisArrayBuffer checks that v is an ArrayBuffer (method names the caller in the message).
func thisArrayBuffer(vm *VM, v Value, method string) *arrayBuffer {
	if o := v.asObject(); o != nil && o.class == ClassArrayBuffer {
		return o.slots.(*arrayBuffer)
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.receiverText(v))
	return nil
}

// receiverText describes a bad receiver as V8's "incompatible receiver" messages do.
func (vm *VM) receiverText(v Value) string {
	return vm.describeReceiver(v)
}

// allocBufferBytes makes n zero bytes for a buffer, charging them to the memory limit first.
// A length no machine could hold fails at once, as V8's does (a RangeError); a length within
// reach counts against the memory limit first, so that a run with a limit ends with the
// memory-limit error rather than a RangeError it could catch and retry.
func (vm *VM) allocBufferBytes(n int64) []byte {
	if n > 1<<48 {
		vm.throwRangeError("Array buffer allocation failed")
	}
	vm.chargeAhead(n)
	if n > maxBufferBytes {
		vm.throwRangeError("Array buffer allocation failed")
	}
	return make([]byte, n)
}

// newArrayBuffer allocates an ArrayBuffer object of n bytes (max < 0: fixed length) with the
// given prototype.
func (vm *VM) newArrayBuffer(proto *Object, n int64, max int64) *Object {
	o := vm.newObject(proto, ClassArrayBuffer)
	o.slots = &arrayBuffer{data: vm.allocBufferBytes(n), max: int(max)}
	return o
}

// NewArrayBufferOf returns a new ArrayBuffer holding a copy of b (embedding API).
func (vm *VM) newArrayBufferOf(b []byte) *Object {
	o := vm.newArrayBuffer(vm.realm.Intrinsic("ArrayBuffer.prototype"), int64(len(b)), -1)
	copy(o.slots.(*arrayBuffer).data, b)
	return o
}

// arrayBufferConstructor is new ArrayBuffer(length, options).
func arrayBufferConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor ArrayBuffer requires 'new'")
	}
	n := vm.toIndexMsg(c.Arg(0), "Invalid array buffer length")
	max := int64(-1)
	if opts := c.Arg(1).asObject(); opts != nil {
		if m := vm.getProp(opts, strKey("maxByteLength")); !m.IsUndefined() {
			max = vm.toIndexMsg(m, "Invalid array buffer max length")
			if n > max {
				vm.throwRangeError("Invalid array buffer max length")
			}
			if max > maxBufferBytes {
				vm.throwRangeError("Invalid array buffer max length")
			}
		}
	}
	proto := vm.getPrototypeFromConstructor(c.NewTarget, "ArrayBuffer.prototype")
	return objectValue(vm.newArrayBuffer(proto, n, max))
}

// toIndexMsg is ToIndex with the RangeError message of the caller.
func (vm *VM) toIndexMsg(v Value, msg string) int64 {
	if v.IsUndefined() {
		return 0
	}
	f := vm.toIntegerOrInfinity(v)
	if f < 0 || f > maxSafeInteger {
		vm.throwRangeError("%s", msg)
	}
	return int64(f)
}

// relIndex resolves a relative start or end argument against length n (negative counts
// from the end), clamped to [0, n]; undefined gives def.
func (vm *VM) relIndex(v Value, n int, def int) int {
	if v.IsUndefined() {
		return def
	}
	f := vm.toIntegerOrInfinity(v)
	if f < 0 {
		return int(math.Max(float64(n)+f, 0))
	}
	return int(math.Min(f, float64(n)))
}

// arrayBufferSlice is ArrayBuffer.prototype.slice(start, end).
func arrayBufferSlice(vm *VM, c NativeCall) Value {
	const name = "ArrayBuffer.prototype.slice"
	b := thisArrayBuffer(vm, c.This, name)
	if b.detached {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	n := len(b.data)
	first := vm.relIndex(c.Arg(0), n, 0)
	final := vm.relIndex(c.Arg(1), n, n)
	count := max(final-first, 0)
	ctor := vm.speciesConstructor(c.This.obj(), objectValue(vm.realm.Intrinsic("ArrayBuffer")))
	nv := vm.construct(ctor, nil, intValue(count))
	no := nv.asObject()
	if no == nil || no.class != ClassArrayBuffer {
		vm.throwTypeError("Method %s called on incompatible receiver %s", name, vm.receiverText(nv))
	}
	nb := no.slots.(*arrayBuffer)
	if nb.detached {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	if no == c.This.obj() {
		vm.throwTypeError("ArrayBuffer subclass returned this from species constructor")
	}
	if len(nb.data) < count {
		vm.throwTypeError("Species constructor returned a too-small ArrayBuffer")
	}
	if b.detached {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	if cur := len(b.data); first < cur {
		copy(nb.data, b.data[first:min(first+count, cur)])
	}
	return nv
}

// arrayBufferResize is ArrayBuffer.prototype.resize(newLength).
func arrayBufferResize(vm *VM, c NativeCall) Value {
	const name = "ArrayBuffer.prototype.resize"
	b := thisArrayBuffer(vm, c.This, name)
	if !b.resizable() {
		vm.throwTypeError("Method %s called on incompatible receiver %s", name, vm.receiverText(c.This))
	}
	n := vm.toIndexMsg(c.Arg(0), name+": Invalid length parameter")
	if b.detached {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	if n > int64(b.max) {
		vm.throwRangeError("%s: Invalid length parameter", name)
	}
	b.resize(vm, int(n))
	return undefinedValue
}

// resize sets the buffer's length to n bytes: a shrink zeroes what is cut off (so a later
// growth reads zeros), a growth beyond the storage allocates new storage.
func (b *arrayBuffer) resize(vm *VM, n int) {
	if n <= len(b.data) {
		clear(b.data[n:])
		b.data = b.data[:n]
		return
	}
	if n <= cap(b.data) {
		b.data = b.data[:n]
		return
	}
	grown := vm.allocBufferBytes(int64(n))
	copy(grown, b.data)
	b.data = grown
}

// arrayBufferCopyAndDetach is ArrayBufferCopyAndDetach: transfer (keeping resizability when
// preserve) and transferToFixedLength.
func (vm *VM) arrayBufferCopyAndDetach(c NativeCall, name string, preserve bool) Value {
	b := thisArrayBuffer(vm, c.This, name)
	var n int64
	if c.Arg(0).IsUndefined() {
		n = int64(len(b.data))
	} else {
		n = vm.toIndexMsg(c.Arg(0), name+": Invalid length parameter")
	}
	if b.detached {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
	}
	max := int64(-1)
	if preserve && b.resizable() {
		max = int64(b.max)
		if n > max {
			vm.throwRangeError("%s: Invalid length parameter", name)
		}
	}
	nb := vm.newArrayBuffer(vm.realm.Intrinsic("ArrayBuffer.prototype"), n, max)
	copy(nb.slots.(*arrayBuffer).data, b.data)
	b.detach()
	return objectValue(nb)
}

// detach is DetachArrayBuffer.
func (b *arrayBuffer) detach() {
	b.data = nil
	b.detached = true
}

// DetachArrayBuffer detaches an ArrayBuffer (the host hook of test harnesses, $262.detachArrayBuffer).
func (vm *VM) DetachArrayBuffer(v Value) (err error) {
	defer vm.catchException(&err)
	thisArrayBuffer(vm, v, "DetachArrayBuffer").detach()
	return nil
}

// Snapshot codec: [bytes, max, detached].

func init() {
	registerSlotType("arrayBuffer", func() slotCodec { return &arrayBuffer{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		b := s.(*arrayBuffer)
		r.beginArray()
		r.more(true)
		b.data = append([]byte{}, r.base64()...)
		r.more(false)
		b.max = int(r.int())
		r.more(false)
		b.detached = r.bool()
		r.more(false)
		if b.detached {
			b.data = nil
		}
		if b.max < -1 || (b.max >= 0 && len(b.data) > b.max) {
			r.fail("bad array buffer")
		}
	})
}

func (b *arrayBuffer) slotTag() string { return "arrayBuffer" }
func (b *arrayBuffer) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.bytes(b.data)
	e.w.int(int64(b.max))
	e.w.bool(b.detached)
	e.w.endArray()
}
func (b *arrayBuffer) walkSlot(w *heapWalker) { w.add(int64(cap(b.data))) }

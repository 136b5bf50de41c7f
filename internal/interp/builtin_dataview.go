package interp

// The DataView global: reads and writes of the number types at any byte offset of a
// buffer, in either byte order, through the element type table of typed arrays (the BigInt
// methods join once the table has the BigInt types). A view made without a length over a
// resizable buffer tracks the buffer's length.

import "encoding/binary"

func init() { registerBuiltin("DataView", 32, setupDataView) }

// dataView is the slot of a DataView.
type dataView struct {
	buffer *Object // [[ViewedArrayBuffer]]
	offset int     // [[ByteOffset]]
	fixed  int     // [[ByteLength]]; -1 when it tracks the buffer's length
}

func (v *dataView) buf() *arrayBuffer { return bufferOf(v.buffer) }

// byteLength is GetViewByteLength; ok is false when the view is out of bounds (or its
// buffer detached).
func (v *dataView) byteLength() (int, bool) {
	b := v.buf()
	if b.detached || v.offset > len(b.data) {
		return 0, false
	}
	if v.fixed < 0 {
		return len(b.data) - v.offset, true
	}
	if v.offset+v.fixed > len(b.data) {
		return 0, false
	}
	return v.fixed, true
}

// bytes returns the view's bytes (nil when out of bounds).
func (v *dataView) bytes() []byte {
	n, ok := v.byteLength()
	if !ok {
		return nil
	}
	return v.buf().data[v.offset : v.offset+n]
}

// dataViewTypes are the element types with get/set methods, in the order they are installed.
var dataViewTypes = []struct {
	name string
	kind elemKind
}{
	{"Int8", elemInt8}, {"Uint8", elemUint8}, {"Int16", elemInt16}, {"Uint16", elemUint16},
	{"Int32", elemInt32}, {"Uint32", elemUint32}, {"Float32", elemFloat32}, {"Float64", elemFloat64},
	{"BigInt64", elemBigInt64}, {"BigUint64", elemBigUint64},
}

func setupDataView(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("DataView", 1, dataViewConstructor, proto)
	r.getter(proto, strKey("buffer"), func(vm *VM, c NativeCall) Value {
		return objectValue(thisDataView(vm, c.This, "get DataView.prototype.buffer").buffer)
	})
	r.getter(proto, strKey("byteLength"), func(vm *VM, c NativeCall) Value {
		const name = "DataView.prototype.byteLength"
		n, ok := thisDataView(vm, c.This, "get DataView.prototype.byte_length").byteLength()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		return intValue(n)
	})
	r.getter(proto, strKey("byteOffset"), func(vm *VM, c NativeCall) Value {
		const name = "DataView.prototype.byteOffset"
		v := thisDataView(vm, c.This, "get DataView.prototype.byte_offset")
		if _, ok := v.byteLength(); !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		return intValue(v.offset)
	})
	for _, dt := range dataViewTypes {
		kind := dt.kind
		get, set := "get"+dt.name, "set"+dt.name
		r.method(proto, get, 1, func(vm *VM, c NativeCall) Value {
			return vm.dataViewGet(c, "DataView.prototype."+get, kind)
		})
		r.method(proto, set, 2, func(vm *VM, c NativeCall) Value {
			return vm.dataViewSet(c, "DataView.prototype."+set, kind)
		})
	}
	r.value(proto, symKey(symToStringTag), asciiValue("DataView"), propConfigurable)
	r.defineGlobal("DataView", objectValue(ctor))
}

// thisDataView checks that v is a DataView. V8's message names every receiver "undefined" and
// the byteLength and byteOffset getters by their internal names (byte_length, byte_offset).
func thisDataView(vm *VM, v Value, method string) *dataView {
	if o := v.asObject(); o != nil && o.class == ClassDataView {
		return o.slots.(*dataView)
	}
	vm.throwTypeError("Method %s called on incompatible receiver undefined", method)
	return nil
}

// dataViewConstructor is new DataView(buffer, byteOffset, byteLength).
func dataViewConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor DataView requires 'new'")
	}
	bo := c.Arg(0).asObject()
	if bo == nil || bo.class != ClassArrayBuffer {
		vm.throwTypeError("First argument to DataView constructor must be an ArrayBuffer")
	}
	b := bo.slots.(*arrayBuffer)
	offArg := c.Arg(1)
	offset := vm.toIndexMsg(offArg, "Start offset "+vm.ToGoString(offArg)+" is outside the bounds of the buffer")
	if b.detached {
		vm.throwTypeError("Cannot perform DataView constructor on a detached ArrayBuffer")
	}
	if offset > int64(len(b.data)) {
		vm.throwRangeError("Start offset %d is outside the bounds of the buffer", offset)
	}
	viewLen := int64(-1)
	lenArg := c.Arg(2)
	if lenArg.IsUndefined() {
		if !b.resizable() {
			viewLen = int64(len(b.data)) - offset
		}
	} else {
		viewLen = vm.toIndexMsg(lenArg, "Invalid DataView length "+vm.ToGoString(lenArg))
		if offset+viewLen > int64(len(b.data)) {
			vm.throwRangeError("Invalid DataView length %d", viewLen)
		}
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "DataView.prototype", ClassDataView)
	if b.detached {
		vm.throwTypeError("Cannot perform DataView constructor on a detached ArrayBuffer")
	}
	if offset > int64(len(b.data)) {
		vm.throwRangeError("Start offset %d is outside the bounds of the buffer", offset)
	}
	if !lenArg.IsUndefined() && offset+viewLen > int64(len(b.data)) {
		vm.throwRangeError("Invalid DataView length %d", viewLen)
	}
	o.slots = &dataView{buffer: bo, offset: int(offset), fixed: int(viewLen)}
	return objectValue(o)
}

// dataViewAt checks a get or set of an element of type kind at the request index and
// returns the bytes it covers.
func (vm *VM) dataViewAt(v *dataView, index int64, kind elemKind, method string) []byte {
	n, ok := v.byteLength()
	if !ok {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", method)
	}
	size := int64(elemTypes[kind].size)
	if index+size > int64(n) {
		vm.throwRangeError("Offset is outside the bounds of the DataView")
	}
	p := int64(v.offset) + index
	return v.buf().data[p : p+size]
}

// byteOrder is the order a DataView method's littleEndian argument selects.
func byteOrder(little bool) binary.ByteOrder {
	if little {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// dataViewGet is GetViewValue.
func (vm *VM) dataViewGet(c NativeCall, method string, kind elemKind) Value {
	v := thisDataView(vm, c.This, method)
	index := vm.toIndexMsg(c.Arg(0), "Offset is outside the bounds of the DataView")
	little := ToBoolean(c.Arg(1))
	b := vm.dataViewAt(v, index, kind, method)
	return elemTypes[kind].load(b, byteOrder(little))
}

// dataViewSet is SetViewValue.
func (vm *VM) dataViewSet(c NativeCall, method string, kind elemKind) Value {
	v := thisDataView(vm, c.This, method)
	index := vm.toIndexMsg(c.Arg(0), "Offset is outside the bounds of the DataView")
	val := vm.toElemValue(&elemTypes[kind], c.Arg(1))
	little := ToBoolean(c.Arg(2))
	b := vm.dataViewAt(v, index, kind, method)
	elemTypes[kind].store(b, byteOrder(little), val)
	return undefinedValue
}

// Snapshot codec: [buffer, offset, fixed].

func init() {
	registerSlotType("dataView", func() slotCodec { return &dataView{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		v := s.(*dataView)
		r.beginArray()
		r.more(true)
		v.buffer = d.value(r).asObject()
		r.more(false)
		v.offset = int(r.int())
		r.more(false)
		v.fixed = int(r.int())
		r.more(false)
		if v.buffer == nil || v.offset < 0 || v.fixed < -1 {
			r.fail("bad data view")
		}
	})
}

func (v *dataView) slotTag() string { return "dataView" }
func (v *dataView) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(objectValue(v.buffer))
	e.w.int(int64(v.offset))
	e.w.int(int64(v.fixed))
	e.w.endArray()
}
func (v *dataView) walkSlot(w *heapWalker) { w.object(v.buffer) }

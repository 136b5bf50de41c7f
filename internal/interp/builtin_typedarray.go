package interp

// Typed arrays: the element types, the slot of a typed array, and its integer-indexed exotic
// behaviour (the hooks object.go and operations_object.go call for ClassTypedArray).
//
// A typed array is a view of an ArrayBuffer: [[ViewedArrayBuffer]] is the buffer object,
// [[ByteOffset]] its start, and its length either fixed or tracking the buffer (a view made
// without a length over a resizable buffer). Its elements are read from and written to the
// buffer's bytes, little-endian, each time: nothing is cached, so every view of a buffer sees
// every write and a resize or detach at once. A view whose bytes are no longer all inside its
// buffer is out of bounds and has length 0.
//
// The element types are one table (elemTypes), the BigInt types (BigInt64Array,
// BigUint64Array) at its end with bigint set; conversion of stored values goes through
// toElemValue: ToNumber, or ToBigInt for the BigInt types.

import (
	"encoding/binary"
	"math"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// elemKind indexes elemTypes.
type elemKind uint8

// The element types, in the order of elemTypes.
const (
	elemInt8 elemKind = iota
	elemUint8
	elemUint8Clamped
	elemInt16
	elemUint16
	elemInt32
	elemUint32
	elemFloat32
	elemFloat64
	elemBigInt64
	elemBigUint64
)

// elemType describes one element type: its constructor's name, its size in bytes, whether
// its content type is BigInt, and how a value is read from and written to its bytes.
type elemType struct {
	name   string
	size   int
	bigint bool
	// load reads an element from b (len(b) >= size) in the given byte order.
	load func(b []byte, order binary.ByteOrder) Value
	// store writes an element (a value toElemValue converted) to b.
	store func(b []byte, order binary.ByteOrder, v Value)
}

var elemTypes = [...]elemType{
	elemInt8: {name: "Int8Array", size: 1,
		load:  func(b []byte, _ binary.ByteOrder) Value { return Number(float64(int8(b[0]))) },
		store: func(b []byte, _ binary.ByteOrder, v Value) { b[0] = byte(toInt32(v.num)) }},
	elemUint8: {name: "Uint8Array", size: 1,
		load:  func(b []byte, _ binary.ByteOrder) Value { return Number(float64(b[0])) },
		store: func(b []byte, _ binary.ByteOrder, v Value) { b[0] = byte(toInt32(v.num)) }},
	elemUint8Clamped: {name: "Uint8ClampedArray", size: 1,
		load:  func(b []byte, _ binary.ByteOrder) Value { return Number(float64(b[0])) },
		store: func(b []byte, _ binary.ByteOrder, v Value) { b[0] = clampUint8(v.num) }},
	elemInt16: {name: "Int16Array", size: 2,
		load: func(b []byte, o binary.ByteOrder) Value { return Number(float64(int16(o.Uint16(b)))) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint16(b, uint16(toInt32(v.num)))
		}},
	elemUint16: {name: "Uint16Array", size: 2,
		load: func(b []byte, o binary.ByteOrder) Value { return Number(float64(o.Uint16(b))) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint16(b, uint16(toInt32(v.num)))
		}},
	elemInt32: {name: "Int32Array", size: 4,
		load: func(b []byte, o binary.ByteOrder) Value { return Number(float64(int32(o.Uint32(b)))) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint32(b, uint32(toInt32(v.num)))
		}},
	elemUint32: {name: "Uint32Array", size: 4,
		load: func(b []byte, o binary.ByteOrder) Value { return Number(float64(o.Uint32(b))) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint32(b, uint32(toInt32(v.num)))
		}},
	elemFloat32: {name: "Float32Array", size: 4,
		load: func(b []byte, o binary.ByteOrder) Value {
			return Number(float64(math.Float32frombits(o.Uint32(b))))
		},
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint32(b, math.Float32bits(float32(v.num)))
		}},
	elemFloat64: {name: "Float64Array", size: 8,
		load: func(b []byte, o binary.ByteOrder) Value {
			return Number(math.Float64frombits(o.Uint64(b)))
		},
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint64(b, math.Float64bits(v.num))
		}},
	elemBigInt64: {name: "BigInt64Array", size: 8, bigint: true,
		load: func(b []byte, o binary.ByteOrder) Value { return bigIntFromInt64(int64(o.Uint64(b))) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint64(b, bigIntLow64(v.bigint()))
		}},
	elemBigUint64: {name: "BigUint64Array", size: 8, bigint: true,
		load: func(b []byte, o binary.ByteOrder) Value { return BigIntFromUint64(o.Uint64(b)) },
		store: func(b []byte, o binary.ByteOrder, v Value) {
			o.PutUint64(b, bigIntLow64(v.bigint()))
		}},
}

// clampUint8 is ToUint8Clamp: NaN → 0, clamped to [0, 255], rounded half to even.
func clampUint8(f float64) byte {
	if !(f > 0) {
		return 0
	}
	if f >= 255 {
		return 255
	}
	return byte(math.RoundToEven(f))
}

// toElemValue converts v for storing in an element of type t (ToNumber, or ToBigInt for the
// BigInt types).
func (vm *VM) toElemValue(t *elemType, v Value) Value {
	if t.bigint {
		return vm.toBigInt(v)
	}
	if v.kind == KindNumber {
		return v
	}
	return Number(vm.toNumber(v))
}

// typedArray is the slot of a typed array.
type typedArray struct {
	buffer *Object // [[ViewedArrayBuffer]], an ArrayBuffer
	kind   elemKind
	offset int // [[ByteOffset]]
	fixed  int // [[ArrayLength]]; -1 when it tracks the buffer's length
}

// buf returns the viewed buffer's slot.
func (t *typedArray) buf() *arrayBuffer { return bufferOf(t.buffer) }

// bufferOf returns the slot of a view's buffer object. A snapshot cannot name anything else
// there without failing to decode, but the buffer's own entry may come later than the view's,
// so the check is made here: anything else reads as a detached buffer.
func bufferOf(o *Object) *arrayBuffer {
	if b, ok := o.slots.(*arrayBuffer); ok && o.class == ClassArrayBuffer {
		return b
	}
	return detachedBuffer
}

// detachedBuffer stands for a view's buffer that is not an ArrayBuffer (see bufferOf).
var detachedBuffer = &arrayBuffer{max: -1, detached: true}

// validateBinaryData rejects an ArrayBuffer, typed array or DataView whose slot is of another
// type, and such a slot on an object of another class.
func (d *heapDecoder) validateBinaryData(r *jsonReader, o *Object) {
	var want Class
	switch o.slots.(type) {
	case *arrayBuffer:
		want = ClassArrayBuffer
	case *typedArray:
		want = ClassTypedArray
	case *dataView:
		want = ClassDataView
	default:
		if o.class == ClassArrayBuffer || o.class == ClassTypedArray || o.class == ClassDataView {
			r.fail("%s object without its data", o.class)
		}
		return
	}
	if o.class != want {
		r.fail("%s data on a %s object", want, o.class)
	}
}

// elem returns the element type.
func (t *typedArray) elem() *elemType { return &elemTypes[t.kind] }

// length returns the current length in elements (TypedArrayLength) and whether the view is
// inside its buffer (false when detached or out of bounds; the length is then 0).
func (t *typedArray) length() (int, bool) {
	b := t.buf()
	if b.detached {
		return 0, false
	}
	n := len(b.data)
	if t.offset > n {
		return 0, false
	}
	if t.fixed < 0 {
		return (n - t.offset) / elemTypes[t.kind].size, true
	}
	if t.offset+t.fixed*elemTypes[t.kind].size > n {
		return 0, false
	}
	return t.fixed, true
}

// byteLength is the view's current length in bytes (0 when out of bounds).
func (t *typedArray) byteLength() int {
	n, _ := t.length()
	return n * t.elem().size
}

// validIndex is IsValidIntegerIndex for a numeric key.
func (t *typedArray) validIndex(f float64) bool {
	if f != math.Trunc(f) || (f == 0 && math.Signbit(f)) || f < 0 {
		return false
	}
	n, _ := t.length()
	return f < float64(n)
}

// at returns element i (which must be a valid index).
func (t *typedArray) at(i int) Value {
	e := t.elem()
	p := t.offset + i*e.size
	return e.load(t.buf().data[p:p+e.size], binary.LittleEndian)
}

// put writes a converted value to element i (which must be a valid index).
func (t *typedArray) put(i int, v Value) {
	e := t.elem()
	p := t.offset + i*e.size
	e.store(t.buf().data[p:p+e.size], binary.LittleEndian, v)
}

// bytes returns the view's bytes (nil when out of bounds).
func (t *typedArray) bytes() []byte {
	n, ok := t.length()
	if !ok {
		return nil
	}
	return t.buf().data[t.offset : t.offset+n*t.elem().size]
}

// canonicalNumericKey is CanonicalNumericIndexString: the number a string key stands for
// when the key is that number's canonical text ("1", "-0", "1.5", "NaN", "-Infinity").
func canonicalNumericKey(key PropertyKey) (float64, bool) {
	if key.sym != nil || key.name == "" {
		return 0, false
	}
	c := key.name[0]
	if !(c >= '0' && c <= '9') && c != '-' && c != 'I' && c != 'N' {
		return 0, false
	}
	if i, ok := parseArrayIndex(key.name); ok {
		return float64(i), true
	}
	if key.name == "-0" {
		return math.Copysign(0, -1), true
	}
	f := numconv.ParseNumber(key.name)
	if numberToString(f) != key.name {
		return 0, false
	}
	return f, true
}

// typedArrayOwn is [[GetOwnProperty]] of a numeric key.
func typedArrayOwn(o *Object, idx float64) (Property, bool) {
	t := o.slots.(*typedArray)
	if !t.validIndex(idx) {
		return Property{}, false
	}
	return Property{value: t.at(int(idx)), flags: propDefault}, true
}

// typedArrayGet is TypedArrayGetElement: the element, or undefined for an invalid index.
func typedArrayGet(o *Object, idx float64) Value {
	t := o.slots.(*typedArray)
	if !t.validIndex(idx) {
		return undefinedValue
	}
	return t.at(int(idx))
}

// typedArraySetElement is TypedArraySetElement: convert, then write when the index is
// (still) valid.
func (vm *VM) typedArraySetElement(o *Object, idx float64, v Value) {
	t := o.slots.(*typedArray)
	v = vm.toElemValue(t.elem(), v)
	if t.validIndex(idx) {
		t.put(int(idx), v)
	}
}

// typedArraySetStops handles a numeric key of [[Set]] when the walk up the prototype chain
// reaches typed array q: it reports true when the assignment is done (and succeeded).
func (vm *VM) typedArraySetStops(q *Object, key PropertyKey, v Value, receiver Value) bool {
	idx, ok := canonicalNumericKey(key)
	if !ok {
		return false
	}
	if receiver.kind == KindObject && receiver.obj() == q {
		vm.typedArraySetElement(q, idx, v)
		return true
	}
	return !q.slots.(*typedArray).validIndex(idx)
}

// typedArrayDescriptorOK checks the attributes of a definition of an element.
func typedArrayDescriptorOK(d PropertyDescriptor) bool {
	return !(d.HasConfigurable && !d.Configurable) && !(d.HasEnumerable && !d.Enumerable) &&
		!d.isAccessor() && !(d.HasWritable && !d.Writable)
}

// typedArrayDefine is [[DefineOwnProperty]] of a numeric key.
func (vm *VM) typedArrayDefine(o *Object, idx float64, d PropertyDescriptor) bool {
	t := o.slots.(*typedArray)
	if !t.validIndex(idx) || !typedArrayDescriptorOK(d) {
		return false
	}
	if d.HasValue {
		vm.typedArraySetElement(o, idx, d.Value)
	}
	return true
}

// typedArrayDefineOwn is [[DefineOwnProperty]] of a numeric key for callers without a VM
// (Object.defineOwn): a value that is not a primitive cannot be converted there and is
// refused.
func typedArrayDefineOwn(o *Object, idx float64, d PropertyDescriptor) bool {
	t := o.slots.(*typedArray)
	if !t.validIndex(idx) || !typedArrayDescriptorOK(d) {
		return false
	}
	if d.HasValue && t.elem().bigint {
		// ToBigInt of a primitive: a BigInt, a boolean or a string of an integer
		var b Value
		switch v := d.Value; v.kind {
		case KindBigInt:
			b = v
		case KindBool:
			b = bigIntFromInt64(int64(v.num))
		case KindString:
			n, ok := stringToBigInt(v.str())
			if !ok {
				return false
			}
			b = bigIntValue(n)
		default:
			return false
		}
		t.put(int(idx), b)
		return true
	}
	if d.HasValue {
		var f float64
		switch v := d.Value; v.kind {
		case KindNumber, KindBool:
			f = v.num
		case KindNull:
			f = 0
		case KindUndefined:
			f = math.NaN()
		case KindString:
			f = stringToNumber(v.str())
		default:
			return false
		}
		t.put(int(idx), Number(f))
	}
	return true
}

// Snapshot codec: [buffer, kind, offset, fixed].

func init() {
	registerSlotType("typedArray", func() slotCodec { return &typedArray{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		t := s.(*typedArray)
		r.beginArray()
		r.more(true)
		t.buffer = d.value(r).asObject()
		r.more(false)
		k := r.int()
		r.more(false)
		t.offset = int(r.int())
		r.more(false)
		t.fixed = int(r.int())
		r.more(false)
		if t.buffer == nil || k < 0 || k >= int64(len(elemTypes)) || t.offset < 0 || t.fixed < -1 {
			r.fail("bad typed array")
		}
		t.kind = elemKind(k)
	})
}

func (t *typedArray) slotTag() string { return "typedArray" }
func (t *typedArray) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(objectValue(t.buffer))
	e.w.int(int64(t.kind))
	e.w.int(int64(t.offset))
	e.w.int(int64(t.fixed))
	e.w.endArray()
}
func (t *typedArray) walkSlot(w *heapWalker) { w.object(t.buffer) }

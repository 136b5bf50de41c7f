package interp

import (
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// The TextEncoder and TextDecoder globals, UTF-8 only.
//
// The language has no typed arrays, so bytes are plain arrays of numbers 0-255: encode
// returns a new Array (indexing, length, spreading, join and JSON work as on node's
// Uint8Array, except that JSON.stringify gives [104,105] rather than {"0":104,"1":105}),
// encodeInto writes into any array-like object, and decode accepts any array-like of byte
// numbers (each converted with ToNumber and taken modulo 256).

func init() {
	registerBuiltin("TextEncoder", 50, setupTextEncoder)
	registerBuiltin("TextDecoder", 50, setupTextDecoder)
}

// textEncoderData marks a TextEncoder object (it has no state).
type textEncoderData struct{}

// textDecoderData is the state of a TextDecoder: its options and, while streaming, the bytes
// of an incomplete sequence.
type textDecoderData struct {
	fatal     bool
	ignoreBOM bool
	bomSeen   bool   // the start of the stream has been handled
	pending   string // bytes of an unfinished sequence carried to the next decode
}

// setupTextEncoder installs TextEncoder.
func setupTextEncoder(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("TextEncoder", 0, textEncoderConstructor, proto)
	r.method(proto, "encode", 0, textEncoderEncode)
	r.method(proto, "encodeInto", 2, textEncoderEncodeInto)
	r.getter(proto, strKey("encoding"), func(vm *VM, c NativeCall) Value {
		thisTextEncoder(vm, c.This, "get TextEncoder.prototype.encoding")
		return asciiValue("utf-8")
	})
	r.value(proto, symKey(symToStringTag), asciiValue("TextEncoder"), propConfigurable)
	r.defineGlobal("TextEncoder", objectValue(ctor))
}

// setupTextDecoder installs TextDecoder.
func setupTextDecoder(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("TextDecoder", 0, textDecoderConstructor, proto)
	r.method(proto, "decode", 0, textDecoderDecode)
	r.getter(proto, strKey("encoding"), func(vm *VM, c NativeCall) Value {
		thisTextDecoder(vm, c.This, "get TextDecoder.prototype.encoding")
		return asciiValue("utf-8")
	})
	r.getter(proto, strKey("fatal"), func(vm *VM, c NativeCall) Value {
		return Bool(thisTextDecoder(vm, c.This, "get TextDecoder.prototype.fatal").fatal)
	})
	r.getter(proto, strKey("ignoreBOM"), func(vm *VM, c NativeCall) Value {
		return Bool(thisTextDecoder(vm, c.This, "get TextDecoder.prototype.ignoreBOM").ignoreBOM)
	})
	r.value(proto, symKey(symToStringTag), asciiValue("TextDecoder"), propConfigurable)
	r.defineGlobal("TextDecoder", objectValue(ctor))
}

// thisTextEncoder checks that this is a TextEncoder.
func thisTextEncoder(vm *VM, this Value, method string) {
	if o := this.asObject(); o != nil {
		if _, ok := o.slots.(*textEncoderData); ok {
			return
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
}

// thisTextDecoder returns the state of this TextDecoder.
func thisTextDecoder(vm *VM, this Value, method string) *textDecoderData {
	if o := this.asObject(); o != nil {
		if d, ok := o.slots.(*textDecoderData); ok {
			return d
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return nil
}

// textEncoderConstructor is new TextEncoder().
func textEncoderConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Class constructor TextEncoder cannot be invoked without 'new'")
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "TextEncoder.prototype", ClassOther)
	o.slots = &textEncoderData{}
	return objectValue(o)
}

// usvString converts a string to UTF-8 with lone surrogates replaced by U+FFFD.
func usvString(s *jsString) string { return s.String() }

// textEncoderEncode is TextEncoder.prototype.encode(input = "").
func textEncoderEncode(vm *VM, c NativeCall) Value {
	thisTextEncoder(vm, c.This, "TextEncoder.prototype.encode")
	s := ""
	if in := c.Arg(0); !in.IsUndefined() {
		s = usvString(vm.toString(in))
	}
	return vm.NewUint8Array([]byte(s))
}

// textEncoderEncodeInto is TextEncoder.prototype.encodeInto(source, destination): writes
// whole characters while they fit and returns {read (UTF-16 units), written (bytes)}.
func textEncoderEncodeInto(vm *VM, c NativeCall) Value {
	thisTextEncoder(vm, c.This, "TextEncoder.prototype.encodeInto")
	src := vm.toString(c.Arg(0))
	dst := c.Arg(1).asObject()
	if dst == nil || dst.class != ClassTypedArray || dst.slots.(*typedArray).kind != elemUint8 {
		vm.throwTypeError("The \"dest\" argument must be an instance of Uint8Array.%s", receivedText(c.Arg(1)))
	}
	out := dst.slots.(*typedArray).bytes()
	space := int64(len(out))
	var read, written int64
	var buf [4]byte
	for i := 0; i < src.Len(); {
		r, n := src.codePointAt(i)
		if r >= 0xD800 && r <= 0xDFFF {
			r = utf8.RuneError
		}
		k := utf8.EncodeRune(buf[:], r)
		if written+int64(k) > space {
			break
		}
		copy(out[written:], buf[:k])
		written += int64(k)
		read += int64(n)
		i += n
	}
	o := vm.newPlainObject()
	vm.createDataProperty(o, strKey("read"), Number(float64(read)))
	vm.createDataProperty(o, strKey("written"), Number(float64(written)))
	return objectValue(o)
}

// textDecoderConstructor is new TextDecoder(label = "utf-8", {fatal, ignoreBOM}).
func textDecoderConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Class constructor TextDecoder cannot be invoked without 'new'")
	}
	label := "utf-8"
	if l := c.Arg(0); !l.IsUndefined() {
		label = vm.ToGoString(l)
	}
	switch strings.ToLower(strings.Trim(label, " \t\n\f\r")) {
	case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
	default:
		vm.throwRangeError("The \"%s\" encoding is not supported", label)
	}
	d := &textDecoderData{}
	if opts := c.Arg(1); !opts.IsNullish() {
		o := opts.asObject()
		if o == nil {
			vm.throwTypeError("The \"options\" argument must be of type object.")
		}
		d.fatal = ToBoolean(vm.getProp(o, strKey("fatal")))
		d.ignoreBOM = ToBoolean(vm.getProp(o, strKey("ignoreBOM")))
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "TextDecoder.prototype", ClassOther)
	o.slots = d
	return objectValue(o)
}

// bytesOfBufferSource reads the bytes of an ArrayBuffer or a view of one (a copy).
func (vm *VM) bytesOfBufferSource(v Value) []byte {
	b, ok := viewBytes(v)
	if !ok {
		vm.throwTypeError("The \"list\" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.")
	}
	return append([]byte{}, b...)
}

// receivedText is the end of node's ERR_INVALID_ARG_TYPE messages: " Received an instance
// of Array", " Received type number (1)", " Received undefined".
func receivedText(v Value) string {
	switch v.kind {
	case KindUndefined, KindNull:
		return " Received " + v.kind.String()
	case KindObject:
		if v.obj().isCallable() {
			if n := lookupDataProperty(v.obj(), keyName); n.kind == KindString && n.str().Len() > 0 {
				return " Received function " + n.str().String()
			}
			return " Received function "
		}
		name := "Object"
		if c := lookupDataProperty(v.obj(), keyConstructor).asObject(); c != nil {
			if n := lookupDataProperty(c, keyName); n.kind == KindString && n.str().Len() > 0 {
				name = n.str().String()
			}
		}
		return " Received an instance of " + name
	case KindString:
		s := v.str().String()
		if len(s) > 28 {
			s = s[:25] + "..."
		}
		return " Received type string ('" + s + "')"
	case KindSymbol:
		return " Received type symbol (" + v.sym().descriptiveString() + ")"
	}
	return " Received type " + v.kind.String() + " (" + v.String() + ")"
}

// textDecoderDecode is TextDecoder.prototype.decode(input, {stream}).
func textDecoderDecode(vm *VM, c NativeCall) Value {
	d := thisTextDecoder(vm, c.This, "TextDecoder.prototype.decode")
	var in []byte
	if v := c.Arg(0); !v.IsUndefined() {
		in = vm.bytesOfBufferSource(v)
	}
	stream := false
	if opts := c.Arg(1); !opts.IsNullish() {
		o := opts.asObject()
		if o == nil {
			vm.throwTypeError("The \"options\" argument must be of type object.")
		}
		stream = ToBoolean(vm.getProp(o, strKey("stream")))
	}
	data := append([]byte(d.pending), in...)
	d.pending = ""
	var b stringBuilder
	if !d.bomSeen && !d.ignoreBOM {
		if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
			data = data[3:]
		} else if stream && len(data) < 3 && isBOMPrefix(data) {
			d.pending = string(data)
			return stringValue(b.string())
		}
	}
	if len(data) > 0 {
		d.bomSeen = true
	}
	rest, bad := decodeUTF8Into(&b, data, stream)
	if bad && d.fatal {
		d.bomSeen = false
		vm.throwTypeError("The encoded data was not valid for encoding utf-8")
	}
	d.pending = string(rest)
	if !stream {
		d.bomSeen = false
		d.pending = ""
	}
	if b.len() > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// isBOMPrefix reports whether b is a proper prefix of the UTF-8 byte order mark.
func isBOMPrefix(b []byte) bool {
	bom := []byte{0xEF, 0xBB, 0xBF}
	for i, x := range b {
		if x != bom[i] {
			return false
		}
	}
	return true
}

// decodeUTF8Into decodes data with the WHATWG UTF-8 decoder: each maximal invalid
// subsequence becomes one U+FFFD. When stream is set, an incomplete sequence at the end is
// returned as rest instead of being replaced. bad reports whether anything was replaced.
func decodeUTF8Into(b *stringBuilder, data []byte, stream bool) (rest []byte, bad bool) {
	i := 0
	for i < len(data) {
		c := data[i]
		if c < 0x80 {
			b.writeUnit(uint16(c))
			i++
			continue
		}
		var need int
		var cp rune
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need, cp = 1, rune(c&0x1F)
		case c >= 0xE0 && c <= 0xEF:
			need, cp = 2, rune(c&0x0F)
			if c == 0xE0 {
				lower = 0xA0
			} else if c == 0xED {
				upper = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need, cp = 3, rune(c&0x07)
			if c == 0xF0 {
				lower = 0x90
			} else if c == 0xF4 {
				upper = 0x8F
			}
		default:
			b.writeRune(utf8.RuneError)
			bad = true
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(data) {
				if stream {
					return data[i:], bad
				}
				ok = false
				break
			}
			x := data[j]
			if x < lower || x > upper {
				ok = false
				break
			}
			lower, upper = 0x80, 0xBF
			cp = cp<<6 | rune(x&0x3F)
			j++
		}
		if !ok {
			b.writeRune(utf8.RuneError)
			bad = true
			i = j
			continue
		}
		b.writeRune(cp)
		i = j
	}
	return nil, bad
}

func init() {
	registerSlotType("textEncoder", func() slotCodec { return &textEncoderData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		r.null()
	})
	registerSlotType("textDecoder", func() slotCodec { return &textDecoderData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		td := s.(*textDecoderData)
		r.beginArray()
		r.more(true)
		td.fatal = r.bool()
		r.more(false)
		td.ignoreBOM = r.bool()
		r.more(false)
		td.bomSeen = r.bool()
		r.more(false)
		p, err := hex.DecodeString(r.goString())
		if err != nil {
			r.fail("bad pending bytes")
		}
		td.pending = string(p)
		r.more(false)
	})
}

func (*textEncoderData) slotTag() string           { return "textEncoder" }
func (*textEncoderData) encodeSlot(e *heapEncoder) { e.w.null() }
func (*textEncoderData) walkSlot(w *heapWalker)    {}

func (td *textDecoderData) slotTag() string { return "textDecoder" }
func (td *textDecoderData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.bool(td.fatal)
	e.w.bool(td.ignoreBOM)
	e.w.bool(td.bomSeen)
	e.w.string(hex.EncodeToString([]byte(td.pending)))
	e.w.endArray()
}
func (td *textDecoderData) walkSlot(w *heapWalker) { w.add(int64(len(td.pending))) }

// consoleInspect prints a TextEncoder as node does: "{ encoding: 'utf-8' }".
func (*textEncoderData) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	return "", nil, "{ encoding: 'utf-8' }"
}

// consoleInspect prints a TextDecoder as node does, with its options.
func (td *textDecoderData) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	return "TextDecoder", []string{"encoding: 'utf-8'", "fatal: " + format(Bool(td.fatal)), "ignoreBOM: " + format(Bool(td.ignoreBOM))}, ""
}

package interp

// Uint8Array to and from base64 and hex (the ECMAScript proposal "Uint8Array to/from
// base64"): Uint8Array.fromBase64, Uint8Array.fromHex, and on Uint8Array.prototype toBase64,
// toHex, setFromBase64 and setFromHex. The decoders follow the specification's FromBase64
// and FromHex step by step, because the set* methods write what was decoded before an error
// and report how much of the input they read.

import "encoding/base64"

// setupUint8ArrayBase64 installs the base64 and hex methods of Uint8Array.
func setupUint8ArrayBase64(r *Realm, ctor, proto *Object) {
	r.method(ctor, "fromBase64", 1, func(vm *VM, c NativeCall) Value {
		s := base64Input(vm, c.Arg(0))
		alphabet, last := base64Options(vm, c.Arg(1), true)
		res := fromBase64(s, alphabet, last, maxSafeInteger)
		if res.err != "" {
			vm.throwError("SyntaxError", "%s", res.err)
		}
		return objectValue(vm.newUint8Array(res.bytes))
	})
	r.method(ctor, "fromHex", 1, func(vm *VM, c NativeCall) Value {
		s := base64Input(vm, c.Arg(0))
		res := fromHex(s, maxSafeInteger)
		if res.err != "" {
			vm.throwError("SyntaxError", "%s", res.err)
		}
		return objectValue(vm.newUint8Array(res.bytes))
	})
	r.method(proto, "toBase64", 0, func(vm *VM, c NativeCall) Value {
		t := thisUint8Array(vm, c.This, "Uint8Array.prototype.toBase64")
		alphabet, _ := base64Options(vm, c.Arg(0), false)
		omit := false
		if o := c.Arg(0).asObject(); o != nil {
			omit = ToBoolean(vm.getProp(o, strKey("omitPadding")))
		}
		b := uint8ArrayBytes(vm, t, "Uint8Array.prototype.toBase64")
		enc := base64.StdEncoding
		if alphabet == "base64url" {
			enc = base64.URLEncoding
		}
		if omit {
			enc = enc.WithPadding(base64.NoPadding)
		}
		out := enc.EncodeToString(b)
		vm.chargeAhead(int64(len(out)))
		return asciiValue(out)
	})
	r.method(proto, "toHex", 0, func(vm *VM, c NativeCall) Value {
		t := thisUint8Array(vm, c.This, "Uint8Array.prototype.toHex")
		b := uint8ArrayBytes(vm, t, "Uint8Array.prototype.toHex")
		const digits = "0123456789abcdef"
		vm.chargeAhead(2 * int64(len(b)))
		out := make([]byte, 2*len(b))
		for i, x := range b {
			out[2*i], out[2*i+1] = digits[x>>4], digits[x&15]
		}
		return asciiValue(string(out))
	})
	r.method(proto, "setFromBase64", 1, func(vm *VM, c NativeCall) Value {
		const name = "Uint8Array.prototype.setFromBase64"
		o, t := thisUint8ArrayObject(vm, c.This, name)
		s := base64Input(vm, c.Arg(0))
		alphabet, last := base64Options(vm, c.Arg(1), true)
		n, ok := t.length()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		res := fromBase64(s, alphabet, last, int64(n))
		return vm.setFromResult(o, t, res)
	})
	r.method(proto, "setFromHex", 1, func(vm *VM, c NativeCall) Value {
		const name = "Uint8Array.prototype.setFromHex"
		o, t := thisUint8ArrayObject(vm, c.This, name)
		s := base64Input(vm, c.Arg(0))
		n, ok := t.length()
		if !ok {
			vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", name)
		}
		return vm.setFromResult(o, t, fromHex(s, int64(n)))
	})
}

// decodeResult is what FromBase64 and FromHex return: the bytes decoded, how many code
// units of the input were read, and the SyntaxError's message when the input is bad.
type decodeResult struct {
	bytes []byte
	read  int
	err   string
}

// setFromResult writes a decode result into a Uint8Array and returns {read, written}, or
// throws its error after writing.
func (vm *VM) setFromResult(o *Object, t *typedArray, res decodeResult) Value {
	_ = o
	copy(t.bytes(), res.bytes)
	if res.err != "" {
		vm.throwError("SyntaxError", "%s", res.err)
	}
	out := vm.newPlainObject()
	vm.createDataProperty(out, strKey("read"), intValue(res.read))
	vm.createDataProperty(out, strKey("written"), intValue(len(res.bytes)))
	return objectValue(out)
}

// base64Input checks that the input is a string.
func base64Input(vm *VM, v Value) *jsString {
	if v.kind != KindString {
		vm.throwTypeError("The input must be a string")
	}
	return v.str()
}

// base64Options reads the alphabet and, when decoding, lastChunkHandling options.
func base64Options(vm *VM, v Value, decoding bool) (alphabet, last string) {
	alphabet, last = "base64", "loose"
	if v.IsUndefined() {
		return
	}
	o := v.asObject()
	if o == nil {
		vm.throwTypeError("The options argument must be an object")
	}
	if a := vm.getProp(o, strKey("alphabet")); !a.IsUndefined() {
		if a.kind != KindString || (a.str().String() != "base64" && a.str().String() != "base64url") {
			vm.throwTypeError("The alphabet option must be \"base64\" or \"base64url\"")
		}
		alphabet = a.str().String()
	}
	if !decoding {
		return
	}
	if l := vm.getProp(o, strKey("lastChunkHandling")); !l.IsUndefined() {
		s := ""
		if l.kind == KindString {
			s = l.str().String()
		}
		if s != "loose" && s != "strict" && s != "stop-before-partial" {
			vm.throwTypeError("The lastChunkHandling option must be \"loose\", \"strict\" or \"stop-before-partial\"")
		}
		last = s
	}
	return
}

// thisUint8ArrayObject is ValidateUint8Array.
func thisUint8ArrayObject(vm *VM, v Value, method string) (*Object, *typedArray) {
	if o := v.asObject(); o != nil && o.class == ClassTypedArray {
		if t := o.slots.(*typedArray); t.kind == elemUint8 {
			return o, t
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.receiverText(v))
	return nil, nil
}

func thisUint8Array(vm *VM, v Value, method string) *typedArray {
	_, t := thisUint8ArrayObject(vm, v, method)
	return t
}

// uint8ArrayBytes is GetUint8ArrayBytes: the array's bytes, a TypeError when out of bounds.
func uint8ArrayBytes(vm *VM, t *typedArray, method string) []byte {
	if _, ok := t.length(); !ok {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", method)
	}
	return t.bytes()
}

// isASCIIWhitespace is the proposal's ASCII whitespace (tab, LF, FF, CR, space).
func isASCIIWhitespace(u uint16) bool {
	return u == 0x09 || u == 0x0A || u == 0x0C || u == 0x0D || u == 0x20
}

// base64Value returns the value of a base64 digit of the standard alphabet, or -1.
func base64Value(u uint16) int {
	switch {
	case u >= 'A' && u <= 'Z':
		return int(u - 'A')
	case u >= 'a' && u <= 'z':
		return int(u-'a') + 26
	case u >= '0' && u <= '9':
		return int(u-'0') + 52
	case u == '+':
		return 62
	case u == '/':
		return 63
	}
	return -1
}

// decodeChunk is DecodeBase64Chunk over 2 to 4 digit values; ok is false when strict and
// the padding bits are not zero.
func decodeChunk(chunk []int, strict bool) ([]byte, bool) {
	n := len(chunk)
	var v uint32
	for i := 0; i < 4; i++ {
		d := 0
		if i < n {
			d = chunk[i]
		}
		v = v<<6 | uint32(d)
	}
	b := []byte{byte(v >> 16), byte(v >> 8), byte(v)}
	switch n {
	case 2:
		if strict && b[1] != 0 {
			return nil, false
		}
		return b[:1], true
	case 3:
		if strict && b[2] != 0 {
			return nil, false
		}
		return b[:2], true
	}
	return b, true
}

// fromBase64 is FromBase64(string, alphabet, lastChunkHandling, maxLength).
func fromBase64(s *jsString, alphabet, last string, maxLength int64) decodeResult {
	var res decodeResult
	if maxLength == 0 {
		return res
	}
	const bad = "Invalid base64 string"
	var chunk []int
	index, length := 0, s.Len()
	skip := func(i int) int {
		for i < length && isASCIIWhitespace(s.At(i)) {
			i++
		}
		return i
	}
	for {
		index = skip(index)
		if index == length {
			if len(chunk) > 0 {
				switch last {
				case "stop-before-partial":
					return res
				case "loose":
					if len(chunk) == 1 {
						res.err = bad
						return res
					}
					b, _ := decodeChunk(chunk, false)
					res.bytes = append(res.bytes, b...)
				default:
					res.err = bad
					return res
				}
			}
			res.read = length
			return res
		}
		ch := s.At(index)
		index++
		if ch == '=' {
			if len(chunk) < 2 {
				res.err = bad
				return res
			}
			index = skip(index)
			if len(chunk) == 2 {
				if index == length {
					if last == "stop-before-partial" {
						return res
					}
					res.err = bad
					return res
				}
				if s.At(index) == '=' {
					index = skip(index + 1)
				}
			}
			if index < length {
				res.err = bad
				return res
			}
			b, ok := decodeChunk(chunk, last == "strict")
			if !ok {
				res.err = bad
				return res
			}
			res.bytes = append(res.bytes, b...)
			res.read = length
			return res
		}
		if alphabet == "base64url" {
			switch ch {
			case '+', '/':
				res.err = bad
				return res
			case '-':
				ch = '+'
			case '_':
				ch = '/'
			}
		}
		d := base64Value(ch)
		if d < 0 {
			res.err = bad
			return res
		}
		remaining := maxLength - int64(len(res.bytes))
		if (remaining == 1 && len(chunk) == 2) || (remaining == 2 && len(chunk) == 3) {
			return res
		}
		chunk = append(chunk, d)
		if len(chunk) == 4 {
			b, _ := decodeChunk(chunk, false)
			res.bytes = append(res.bytes, b...)
			chunk = chunk[:0]
			res.read = index
			if int64(len(res.bytes)) == maxLength {
				return res
			}
		}
	}
}

// hexValue returns the value of a hex digit, or -1.
func hexValue(u uint16) int {
	switch {
	case u >= '0' && u <= '9':
		return int(u - '0')
	case u >= 'a' && u <= 'f':
		return int(u-'a') + 10
	case u >= 'A' && u <= 'F':
		return int(u-'A') + 10
	}
	return -1
}

// fromHex is FromHex(string, maxLength).
func fromHex(s *jsString, maxLength int64) decodeResult {
	var res decodeResult
	length := s.Len()
	if length%2 != 0 {
		res.err = "Input string must contain hex characters in even length"
		return res
	}
	for res.read < length && int64(len(res.bytes)) < maxLength {
		hi, lo := hexValue(s.At(res.read)), hexValue(s.At(res.read+1))
		if hi < 0 || lo < 0 {
			res.err = "Input string must contain hex characters in even length"
			return res
		}
		res.read += 2
		res.bytes = append(res.bytes, byte(hi<<4|lo))
	}
	return res
}

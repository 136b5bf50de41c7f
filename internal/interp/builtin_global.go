package interp

import (
	"math"
	"strings"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// The value properties and functions of the global object: NaN, Infinity, undefined,
// isNaN, isFinite, parseInt, parseFloat, the URI functions (encodeURIComponent, ...) and
// eval, which cannot evaluate code.
//
// Number.parseInt and Number.parseFloat must be the same function objects as the globals:
// the Number setup (which runs later) copies them from the global object.

func init() { registerBuiltin("global", 1, setupGlobal) }

func setupGlobal(r *Realm) {
	g := r.Global
	r.value(g, strKey("NaN"), Number(math.NaN()), 0)
	r.value(g, strKey("Infinity"), Number(math.Inf(1)), 0)
	r.value(g, strKey("undefined"), undefinedValue, 0)
	r.method(g, "isNaN", 1, globalIsNaN)
	r.method(g, "isFinite", 1, globalIsFinite)
	r.method(g, "parseInt", 2, globalParseInt)
	r.method(g, "parseFloat", 1, globalParseFloat)
	r.method(g, "encodeURIComponent", 1, globalEncodeURIComponent)
	r.method(g, "encodeURI", 1, globalEncodeURI)
	r.method(g, "decodeURIComponent", 1, globalDecodeURIComponent)
	r.method(g, "decodeURI", 1, globalDecodeURI)
	r.method(g, "eval", 1, globalEval)
}

// globalEval is eval reached as a value, an indirect eval ((0, eval)(src), globalThis.eval,
// a copy of it): programs cannot evaluate code at run time, so calling it throws an
// EvalError when the call happens, as V8 does where code generation from strings is
// disallowed. A direct eval(...) never gets here: the front end refuses it before the program
// runs, since it would need the caller's scope.
func globalEval(vm *VM, c NativeCall) Value {
	vm.throwError("EvalError", "eval is not supported: programs cannot evaluate code at run time")
	return undefinedValue
}

func globalIsNaN(vm *VM, c NativeCall) Value {
	f := vm.toNumber(c.Arg(0))
	return Bool(f != f)
}

func globalIsFinite(vm *VM, c NativeCall) Value {
	f := vm.toNumber(c.Arg(0))
	return Bool(!math.IsNaN(f) && !math.IsInf(f, 0))
}

func globalParseInt(vm *VM, c NativeCall) Value {
	s := vm.toString(c.Arg(0))
	radix := vm.toInt32(c.Arg(1))
	return Number(numconv.ParseIntRadix(s.String(), int(radix)))
}

func globalParseFloat(vm *VM, c NativeCall) Value {
	return Number(numconv.ParseFloatPrefix(vm.toString(c.Arg(0)).String()))
}

// URI reserved and unescaped sets (ECMA-262 19.2.6).
const (
	uriAlnumMark  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
	uriReserved   = ";/?:@&=+$,"
	uriReservedHs = ";/?:@&=+$,#"
)

func globalEncodeURIComponent(vm *VM, c NativeCall) Value {
	return stringValue(vm.uriEncode(vm.toString(c.Arg(0)), uriAlnumMark))
}

func globalEncodeURI(vm *VM, c NativeCall) Value {
	return stringValue(vm.uriEncode(vm.toString(c.Arg(0)), uriAlnumMark+uriReservedHs))
}

func globalDecodeURIComponent(vm *VM, c NativeCall) Value {
	return stringValue(vm.uriDecode(vm.toString(c.Arg(0)), ""))
}

func globalDecodeURI(vm *VM, c NativeCall) Value {
	return stringValue(vm.uriDecode(vm.toString(c.Arg(0)), uriReservedHs))
}

// uriEncode is Encode(string, extraUnescaped): UTF-8 percent-encoding; lone surrogates throw
// URIError.
func (vm *VM) uriEncode(s *jsString, unescaped string) *jsString {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < s.Len(); {
		cu := s.At(i)
		if cu < 0x80 && strings.IndexByte(unescaped, byte(cu)) >= 0 {
			b.WriteByte(byte(cu))
			i++
			continue
		}
		r, n := s.codePointAt(i)
		if r >= 0xD800 && r <= 0xDFFF {
			vm.throwError("URIError", "URI malformed")
		}
		i += n
		var buf [4]byte
		m := encodeRuneUTF8(buf[:], r)
		for _, x := range buf[:m] {
			b.WriteByte('%')
			b.WriteByte(hex[x>>4])
			b.WriteByte(hex[x&15])
		}
	}
	return newASCII(b.String())
}

// encodeRuneUTF8 writes r as UTF-8 (r is not a surrogate).
func encodeRuneUTF8(p []byte, r rune) int {
	switch {
	case r < 0x80:
		p[0] = byte(r)
		return 1
	case r < 0x800:
		p[0], p[1] = 0xC0|byte(r>>6), 0x80|byte(r)&0x3F
		return 2
	case r < 0x10000:
		p[0], p[1], p[2] = 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
		return 3
	}
	p[0], p[1], p[2], p[3] = 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
	return 4
}

// uriDecode is Decode(string, preserveEscapeSet): malformed sequences throw URIError.
func (vm *VM) uriDecode(s *jsString, reserved string) *jsString {
	var b stringBuilder
	n := s.Len()
	hexByte := func(i int) int {
		if i+2 >= n {
			vm.throwError("URIError", "URI malformed")
		}
		if s.At(i) != '%' {
			vm.throwError("URIError", "URI malformed")
		}
		h, l := digitVal(rune(s.At(i+1))), digitVal(rune(s.At(i+2)))
		if h < 0 || h > 15 || l < 0 || l > 15 {
			vm.throwError("URIError", "URI malformed")
		}
		return h<<4 | l
	}
	for k := 0; k < n; k++ {
		cu := s.At(k)
		if cu != '%' {
			b.writeUnit(cu)
			continue
		}
		start := k
		x := hexByte(k)
		k += 2
		if x < 0x80 {
			if strings.IndexByte(reserved, byte(x)) >= 0 {
				for j := start; j <= k; j++ {
					b.writeUnit(s.At(j))
				}
			} else {
				b.writeUnit(uint16(x))
			}
			continue
		}
		var size int
		switch {
		case x&0xE0 == 0xC0:
			size = 2
		case x&0xF0 == 0xE0:
			size = 3
		case x&0xF8 == 0xF0:
			size = 4
		default:
			vm.throwError("URIError", "URI malformed")
		}
		r := rune(x & (0xFF >> (size + 1)))
		for j := 1; j < size; j++ {
			k++
			y := hexByte(k)
			if y&0xC0 != 0x80 {
				vm.throwError("URIError", "URI malformed")
			}
			k += 2
			r = r<<6 | rune(y&0x3F)
		}
		minimum := [...]rune{0, 0, 0x80, 0x800, 0x10000}[size]
		if r < minimum || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF) {
			vm.throwError("URIError", "URI malformed")
		}
		b.writeRune(r)
	}
	return b.string()
}

// digitVal returns the value of an ASCII digit or letter (0-35), or -1.
func digitVal(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}

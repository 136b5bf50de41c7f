package interp

import (
	"encoding/base64"
	"strings"
)

// The atob and btoa globals (WHATWG forgiving-base64 over "binary strings" whose code units
// are bytes), and the DOMException-like errors that web APIs throw: there is no DOMException
// global, so they are Error objects whose own name is the DOMException name
// ("InvalidCharacterError", "DataCloneError") with the matching legacy code.

func init() {
	registerBuiltin("atob", 50, func(r *Realm) {
		r.defineGlobal("atob", objectValue(r.newFunction("atob", "atob", 1, globalAtob)))
		r.defineGlobal("btoa", objectValue(r.newFunction("btoa", "btoa", 1, globalBtoa)))
	})
}

// domExceptionCodes are the legacy code values of the DOMException names used here.
var domExceptionCodes = map[string]int{"InvalidCharacterError": 5, "DataCloneError": 25}

// newDOMException creates an Error whose own name is a DOMException name.
func (vm *VM) newDOMException(name, message string) Value {
	e := vm.NewError("Error", message)
	o := e.obj()
	o.props.add(keyName, Property{value: asciiValue(name), flags: propHidden})
	o.props.add(strKey("code"), Property{value: intValue(domExceptionCodes[name]), flags: propHidden})
	return e
}

// globalBtoa is btoa(data): base64 of a string whose code units are all below 256.
func globalBtoa(vm *VM, c NativeCall) Value {
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"data\" argument must be specified")
	}
	s := vm.toString(c.Arg(0))
	n := s.Len()
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		u := s.At(i)
		if u > 0xFF {
			vm.throw(vm.newDOMException("InvalidCharacterError", "Invalid character"))
		}
		b[i] = byte(u)
	}
	out := base64.StdEncoding.EncodeToString(b)
	vm.allocated += int64(len(out))
	return asciiValue(out)
}

// globalAtob is atob(data): forgiving-base64 decode into a string of byte code units.
func globalAtob(vm *VM, c NativeCall) Value {
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"data\" argument must be specified")
	}
	s := vm.toString(c.Arg(0))
	b, msg := forgivingBase64Decode(s)
	if msg != "" {
		vm.throw(vm.newDOMException("InvalidCharacterError", msg))
	}
	units := make([]uint16, len(b))
	for i, x := range b {
		units[i] = uint16(x)
	}
	vm.allocated += int64(len(b))
	return stringValue(newUTF16(units))
}

// forgivingBase64Decode is the WHATWG forgiving-base64 decode: ASCII whitespace is ignored,
// padding is optional, and anything else outside the alphabet is an error. It returns the
// bytes, or node's message for the failure.
func forgivingBase64Decode(s *jsString) ([]byte, string) {
	const badLength = "The string to be decoded is not correctly encoded."
	var sb strings.Builder
	for i := 0; i < s.Len(); i++ {
		u := s.At(i)
		switch {
		case u == ' ' || u == '\t' || u == '\n' || u == '\f' || u == '\r':
			continue
		case u >= 'A' && u <= 'Z', u >= 'a' && u <= 'z', u >= '0' && u <= '9', u == '+', u == '/', u == '=':
			sb.WriteByte(byte(u))
		default:
			return nil, "Invalid character"
		}
	}
	d := sb.String()
	if len(d)%4 == 0 {
		if strings.HasSuffix(d, "==") {
			d = d[:len(d)-2]
		} else if strings.HasSuffix(d, "=") {
			d = d[:len(d)-1]
		}
	}
	if len(d)%4 == 1 || strings.Contains(d, "=") {
		return nil, badLength
	}
	// the forgiving decode discards non-zero trailing bits, which RawStdEncoding's strict
	// mode would reject: clear them first
	if r := len(d) % 4; r != 0 {
		last := strings.IndexByte(b64Alphabet, d[len(d)-1])
		mask := 0x0F // 2 chars: 12 bits, 8 used, 4 dropped
		if r == 3 {
			mask = 0x03 // 3 chars: 18 bits, 16 used, 2 dropped
		}
		d = d[:len(d)-1] + string(b64Alphabet[last&^mask])
	}
	b, err := base64.RawStdEncoding.DecodeString(d)
	if err != nil {
		return nil, badLength
	}
	return b, ""
}

// b64Alphabet is the standard base64 alphabet.
const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

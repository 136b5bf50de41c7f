package interp

// escape and unescape, the legacy percent-encoding of Annex B (B.2.1) that older libraries
// still call: code units below 256 become %XX, the others %uXXXX, and unescape reverses both
// forms, leaving any other "%" as it is.

func init() { registerBuiltin("escape", 1, setupEscape) }

func setupEscape(r *Realm) {
	r.method(r.Global, "escape", 1, globalEscape)
	r.method(r.Global, "unescape", 1, globalUnescape)
}

// escapeKeeps reports whether escape leaves the code unit c as it is.
func escapeKeeps(c uint16) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '@' || c == '*' || c == '_' || c == '+' || c == '-' || c == '.' || c == '/'
}

func globalEscape(vm *VM, c NativeCall) Value {
	s := vm.toString(c.Arg(0))
	const hex = "0123456789ABCDEF"
	units := s.units()
	out := make([]byte, 0, len(units))
	for _, u := range units {
		switch {
		case escapeKeeps(u):
			out = append(out, byte(u))
		case u < 256:
			out = append(out, '%', hex[u>>4], hex[u&15])
		default:
			out = append(out, '%', 'u', hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
		}
	}
	if len(out) > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
	return stringValue(vm.chargeString(newASCII(string(out))))
}

func globalUnescape(vm *VM, c NativeCall) Value {
	units := vm.toString(c.Arg(0)).units()
	out := make([]uint16, 0, len(units))
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u == '%' {
			if i+6 <= len(units) && units[i+1] == 'u' {
				if v, ok := hexUnits(units[i+2 : i+6]); ok {
					out = append(out, v)
					i += 5
					continue
				}
			}
			if i+3 <= len(units) {
				if v, ok := hexUnits(units[i+1 : i+3]); ok {
					out = append(out, v)
					i += 2
					continue
				}
			}
		}
		out = append(out, u)
	}
	return stringValue(vm.chargeString(newUTF16(out)))
}

// hexUnits reads hexadecimal digits.
func hexUnits(digits []uint16) (uint16, bool) {
	var v uint16
	for _, d := range digits {
		switch {
		case d >= '0' && d <= '9':
			v = v<<4 | (d - '0')
		case d >= 'a' && d <= 'f':
			v = v<<4 | (d - 'a' + 10)
		case d >= 'A' && d <= 'F':
			v = v<<4 | (d - 'A' + 10)
		default:
			return 0, false
		}
	}
	return v, true
}

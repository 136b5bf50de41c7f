package numconv

import (
	"math"
)

const radixDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// FormatRadix returns Number.prototype.toString(radix) of f.
//
// Precondition: 2 <= radix <= 36 (other values are clamped into that range). Radix 10 is
// FormatNumber. For other radixes the digits are those V8 prints: the fraction is generated only
// up to the precision of the input double and rounded half to even, the integer part beyond
// 2^53 is filled with zeros.
func FormatRadix(f float64, radix int) string {
	radix = clamp(radix, 2, 36)
	if radix == 10 {
		return FormatNumber(f)
	}
	if s, ok := nonFinite(f); ok {
		return s
	}
	if f == 0 {
		return "0"
	}
	negative := f < 0
	if negative {
		f = -f
	}
	r := float64(radix)
	integer := math.Floor(f)
	fraction := f - integer
	// Fraction digits are only computed up to the precision of the input.
	delta := 0.5 * (math.Nextafter(f, math.Inf(1)) - f)
	delta = math.Max(math.Nextafter(0, 1), delta)
	var frac []byte
	if fraction >= delta {
		for {
			fraction *= r
			delta *= r
			digit := int(fraction)
			frac = append(frac, radixDigits[digit])
			fraction -= float64(digit)
			if fraction > 0.5 || (fraction == 0.5 && digit&1 == 1) {
				if fraction+delta > 1 {
					// Round up, propagating the carry through written digits.
					for {
						if len(frac) == 0 {
							integer++
							break
						}
						last := digitValue(frac[len(frac)-1])
						frac = frac[:len(frac)-1]
						if last+1 < radix {
							frac = append(frac, radixDigits[last+1])
							break
						}
					}
					break
				}
			}
			if fraction < delta {
				break
			}
		}
	}
	// Integer digits; those below the precision of the double are zeros.
	var intRev []byte
	for integer/r >= 1<<53 {
		integer /= r
		intRev = append(intRev, '0')
	}
	for {
		rem := math.Mod(integer, r)
		intRev = append(intRev, radixDigits[int(rem)])
		integer = (integer - rem) / r
		if integer <= 0 {
			break
		}
	}
	out := make([]byte, 0, len(intRev)+len(frac)+2)
	if negative {
		out = append(out, '-')
	}
	for i := len(intRev) - 1; i >= 0; i-- {
		out = append(out, intRev[i])
	}
	if len(frac) > 0 {
		out = append(out, '.')
		out = append(out, frac...)
	}
	return string(out)
}

// digitValue returns the value of a lowercase radix digit.
func digitValue(c byte) int {
	if c <= '9' {
		return int(c - '0')
	}
	return int(c-'a') + 10
}

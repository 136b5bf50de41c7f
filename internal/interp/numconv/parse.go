package numconv

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// isStrWhiteSpace reports whether r is a WhiteSpace or LineTerminator code point, the characters
// StringToNumber, parseFloat and parseInt skip.
func isStrWhiteSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// trimLeft removes leading StrWhiteSpaceChar code points.
func trimLeft(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if !isStrWhiteSpace(r) {
			break
		}
		s = s[size:]
	}
	return s
}

// trimRight removes trailing StrWhiteSpaceChar code points.
func trimRight(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !isStrWhiteSpace(r) {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}

// ParseNumber implements StringToNumber (Number(s), unary +): surrounding white space and line
// terminators are ignored, the empty string is 0, "0x"/"0o"/"0b" prefixes (unsigned, any case)
// select radix 16/8/2, "Infinity" may be signed, decimal literals follow StrDecimalLiteral
// (no numeric separators, no "inf"/"nan" spellings, no hex floats). Anything else is NaN.
// Values are rounded to nearest, ties to even.
func ParseNumber(s string) float64 {
	s = trimRight(trimLeft(s))
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		radix := 0
		switch s[1] {
		case 'x', 'X':
			radix = 16
		case 'o', 'O':
			radix = 8
		case 'b', 'B':
			radix = 2
		}
		if radix != 0 {
			digits := s[2:]
			if radixPrefixLen(digits, radix) != len(digits) {
				return math.NaN()
			}
			return exactInteger(digits, radix)
		}
	}
	n := decimalPrefixLen(s)
	if n != len(s) {
		return math.NaN()
	}
	return parseDecimal(s)
}

// ParseFloatPrefix implements the global parseFloat: leading white space is skipped and the
// longest prefix that is a StrDecimalLiteral (optionally signed, "Infinity" included, no hex)
// is converted; NaN when there is none.
func ParseFloatPrefix(s string) float64 {
	s = trimLeft(s)
	n := decimalPrefixLen(s)
	if n == 0 {
		return math.NaN()
	}
	return parseDecimal(s[:n])
}

// parseDecimal converts a string already known to be a StrDecimalLiteral.
func parseDecimal(s string) float64 {
	neg := false
	body := s
	switch s[0] {
	case '-':
		neg = true
		body = s[1:]
	case '+':
		body = s[1:]
	}
	var f float64
	if body == "Infinity" {
		f = math.Inf(1)
	} else {
		// The grammar was checked, so the only possible error is a range error, whose value
		// (±Inf or 0) is the right one.
		f, _ = strconv.ParseFloat(body, 64)
	}
	if neg {
		return -f
	}
	return f
}

// decimalPrefixLen returns the length of the longest prefix of s that is a StrDecimalLiteral,
// 0 when none.
func decimalPrefixLen(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "Infinity") {
		return i + len("Infinity")
	}
	intDigits := countDigits(s[i:])
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		fracDigits = countDigits(s[i+1:])
		if intDigits > 0 || fracDigits > 0 {
			i += 1 + fracDigits
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if d := countDigits(s[j:]); d > 0 {
			i = j + d
		}
	}
	return i
}

// countDigits returns the number of leading ASCII decimal digits of s.
func countDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// digitIn returns the value of c as a digit in radix, or -1.
func digitIn(c byte, radix int) int {
	d := -1
	switch {
	case c >= '0' && c <= '9':
		d = int(c - '0')
	case c >= 'a' && c <= 'z':
		d = int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		d = int(c-'A') + 10
	}
	if d >= radix {
		return -1
	}
	return d
}

// radixPrefixLen returns the number of leading bytes of s that are digits in radix.
func radixPrefixLen(s string, radix int) int {
	i := 0
	for i < len(s) && digitIn(s[i], radix) >= 0 {
		i++
	}
	return i
}

// exactInteger converts radix digits (all valid, non-empty) to the nearest float64, ties to even.
func exactInteger(digits string, radix int) float64 {
	if v, err := strconv.ParseUint(digits, radix, 64); err == nil && v <= 1<<53 {
		return float64(v) // exact: no rounding needed
	}
	n, ok := new(big.Int).SetString(digits, radix)
	if !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

// ParseIntRadix implements the global parseInt(s, radix) after the caller has applied ToInt32 to
// the radix: leading white space is skipped, an optional sign is read, radix 0 means 10 unless
// the digits start with "0x"/"0X" (then 16), radix 16 also skips that prefix, any other radix
// outside 2..36 gives NaN, and the longest run of valid digits is converted (NaN when empty).
// Radix 10 and powers of two are rounded exactly; other radixes accumulate the way V8 does
// (the specification allows an approximation there), so results match V8 digit for digit.
func ParseIntRadix(s string, radix int) float64 {
	s = trimLeft(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	stripPrefix := true
	switch {
	case radix == 0:
		radix = 10
	case radix < 2 || radix > 36:
		return math.NaN()
	case radix != 16:
		stripPrefix = false
	}
	if stripPrefix && len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
		radix = 16
	}
	digits := s[:radixPrefixLen(s, radix)]
	if digits == "" {
		return math.NaN()
	}
	var f float64
	switch radix {
	case 10:
		f, _ = strconv.ParseFloat(digits, 64)
	case 2, 4, 8, 16, 32:
		f = exactInteger(digits, radix)
	default:
		f = approxInteger(digits, radix)
	}
	if neg {
		return -f
	}
	return f
}

// approxInteger accumulates digits in chunks whose multiplier fits in 32 bits, exactly as V8's
// generic parseInt path does, so rounding of values above 2^53 matches V8.
func approxInteger(digits string, radix int) float64 {
	const maxMultiplier = 0xFFFFFFFF / 36
	result := 0.0
	// V8 skips leading zeros before chunking; the chunk boundaries decide the rounding.
	i := 0
	for i < len(digits) && digits[i] == '0' {
		i++
	}
	for i < len(digits) {
		part, multiplier := uint32(0), uint32(1)
		for i < len(digits) {
			m := multiplier * uint32(radix)
			if m > maxMultiplier {
				break
			}
			part = part*uint32(radix) + uint32(digitIn(digits[i], radix))
			multiplier = m
			i++
		}
		result = result*float64(multiplier) + float64(part)
	}
	return result
}

package compiler

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// The conversions of literals the compiler needs, which the VM has too (the compiler does not
// import it).

// numberToString is Number::toString(10) (numconv.FormatNumber, with a fast path for
// integers).
func numberToString(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		if f == 0 {
			return "0"
		}
		return strconv.FormatInt(int64(f), 10)
	}
	return numconv.FormatNumber(f)
}

// decodeWTF8 converts (as the VM's decodeWTF8) UTF-8 (with WTF-8 surrogates allowed) to UTF-16 code units.
func decodeWTF8(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			out = append(out, uint16(c))
			i++
			continue
		}
		// WTF-8 surrogate: ED A0..BF 80..BF
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			out = append(out, uint16(0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F)))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			out = append(out, uint16(r1), uint16(r2))
		} else {
			out = append(out, uint16(r))
		}
		i += size
	}
	return out
}

// parseBigIntLiteral parses the text of a BigInt literal (123n, 0x1fn, 0o7n, 0b1n, with
// separators) into its decimal digits.
func parseBigIntLiteral(raw []byte) (string, bool) {
	s := strings.ReplaceAll(strings.TrimSuffix(string(raw), "n"), "_", "")
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		default:
			return "", false // legacy octal and leading zeros are not BigInt literals
		}
		s = s[2:]
	}
	if base == 10 {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", false
			}
		}
		return s, s != ""
	}
	b, ok := new(big.Int).SetString(s, base)
	if !ok {
		return "", false
	}
	return b.String(), true
}

// encodeWTF8 converts UTF-16 code units to WTF-8 (as the VM's jsString.wtf8): UTF-8, with a
// lone surrogate as its three-byte form.
func encodeWTF8(u []uint16) string {
	var b strings.Builder
	b.Grow(len(u) + 8)
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < 0x80:
			b.WriteByte(byte(c))
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF:
			b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			b.WriteByte(0xED)
			b.WriteByte(byte(0x80 | (c>>6)&0x3F))
			b.WriteByte(byte(0x80 | c&0x3F))
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

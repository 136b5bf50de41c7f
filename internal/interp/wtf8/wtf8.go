// Package wtf8 converts between UTF-16 code units, the representation of JavaScript strings,
// and WTF-8: UTF-8 in which a lone surrogate is written as its three-byte form, a lossless
// encoding of any UTF-16 string (the form property keys and compiled constants use). The
// compiler and the VM both convert literals and keys with it.
package wtf8

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode converts UTF-8 (with WTF-8 surrogates allowed) to UTF-16 code units.
func Decode(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			out = append(out, uint16(c))
			i++
			continue
		}
		// A WTF-8 surrogate: ED A0..BF 80..BF.
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

// Encode converts UTF-16 code units to WTF-8: surrogate pairs become their code point, lone
// surrogates their three-byte form.
func Encode(u []uint16) string {
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

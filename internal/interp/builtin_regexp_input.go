package interp

import (
	"unsafe"

	"github.com/codemode/codemode/internal/interp/jsregexp"
)

// A lexer written in JavaScript matches its patterns at the start of what is left of its
// source and cuts what it matched off: src = src.substring(n). Each substring is a new string,
// and preparing a matching input converts the whole string, so such a lexer would convert
// its source once per token: quadratic in the source's length. An ASCII substring shares the
// bytes of the string it was cut from (Go substrings do), so the VM keeps the input of the
// last ASCII string it prepared and matches any string lying inside that one's bytes on a
// slice of its input: one conversion per source, whatever the number of tokens.

// A long substring of a non-ASCII string shares its code units in the same way (see
// jsString.substring), and the VM keeps the input of the last long UTF-16 string it prepared
// for expressions without the u or v flag, where one code unit is one character: the inputs of
// its substrings are slices of it. (With u or v the positions of characters and code units
// differ, and such inputs are prepared whole.)

// asciiInputCache is the input of the last ASCII string prepared for matching, and of the last
// UTF-16 string prepared for an expression without code point semantics.
type asciiInputCache struct {
	base string
	in   *jsregexp.Input
	// wide is the code units of the last UTF-16 string prepared, wideIn its input.
	wide   []uint16
	wideIn *jsregexp.Input
	// short is the last ASCII string shorter than asciiInputMinLength prepared, shortIn its
	// input: one string matched against several expressions in turn is converted once.
	short   string
	shortIn *jsregexp.Input
	// converted counts the characters converted, for tests.
	converted int64
}

// asciiInputMinLength is the length from which an ASCII input is kept for its substrings:
// shorter strings cost less to convert than to keep.
const asciiInputMinLength = 256

// input returns the prepared input of the ASCII string s.
func (c *asciiInputCache) input(s string) (*jsregexp.Input, error) {
	if c.in != nil && len(s) > 0 {
		base, p := uintptr(unsafe.Pointer(unsafe.StringData(c.base))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
		if p >= base && p-base+uintptr(len(s)) <= uintptr(len(c.base)) {
			from := int(p - base)
			return c.in.SliceASCII(from, from+len(s)), nil
		}
	}
	if c.holdsShort(s) {
		return c.shortIn, nil
	}
	if c.shortIn != nil && len(s) > 0 && len(s) < asciiInputMinLength {
		// one input serves every short string in turn: a RegExp that kept it for another
		// string sees that it changed (holdsShort) and prepares that string again
		if err := c.shortIn.ResetASCII(s); err != nil {
			return nil, err
		}
		c.converted += int64(len(s))
		c.short = s
		return c.shortIn, nil
	}
	in, err := jsregexp.NewInputASCII(s)
	if err != nil {
		return nil, err
	}
	c.converted += int64(len(s))
	if len(s) >= asciiInputMinLength {
		c.base, c.in = s, in
	} else if len(s) > 0 {
		c.short, c.shortIn = s, in
	}
	return in, nil
}

// holdsShort reports whether shortIn is now the input of the ASCII string s.
func (c *asciiInputCache) holdsShort(s string) bool {
	return c.shortIn != nil && len(s) == len(c.short) && unsafe.StringData(s) == unsafe.StringData(c.short)
}

// stale reports whether in, kept by a RegExp as the input of the string s, no longer is: the
// short input was reused for another string since.
func (c *asciiInputCache) stale(in *jsregexp.Input, s *jsString) bool {
	if in != c.shortIn || in == nil {
		return false
	}
	f := s.flat()
	return !f.isASCII || !c.holdsShort(f.ascii)
}

// inputUTF16 returns the prepared input of the UTF-16 string u for an expression with
// (unicode) or without code point semantics.
func (c *asciiInputCache) inputUTF16(u []uint16, unicode bool) (*jsregexp.Input, error) {
	if !unicode && c.wideIn != nil && len(u) > 0 {
		base, p := uintptr(unsafe.Pointer(unsafe.SliceData(c.wide))), uintptr(unsafe.Pointer(unsafe.SliceData(u)))
		const unit = unsafe.Sizeof(uint16(0))
		if p >= base && (p-base)%unit == 0 && int((p-base)/unit)+len(u) <= len(c.wide) {
			from := int((p - base) / unit)
			return c.wideIn.SliceUnits(from, from+len(u)), nil
		}
	}
	in, err := jsregexp.NewInput(u, unicode)
	if err != nil {
		return nil, err
	}
	c.converted += int64(len(u))
	if !unicode && len(u) >= asciiInputMinLength {
		c.wide, c.wideIn = u, in
	}
	return in, nil
}

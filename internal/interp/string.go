package interp

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/codemode/codemode/internal/interp/wtf8"
)

// jsString is an immutable JavaScript string: a sequence of UTF-16 code units, lone surrogates
// allowed. It has three forms:
//
//   - flat ASCII: every code unit is below 0x80 and ascii holds them as bytes (the common case:
//     indexing is a byte load and conversion to Go text is free);
//   - flat UTF-16: utf16 holds the code units;
//   - rope: left+right, built by concatenation of long strings so that `s += x` in a loop is
//     linear; the rope is flattened (iteratively, never by Go recursion) the first time its
//     code units are needed, and the flat result replaces the rope in place.
//
// The length in code units is always known without flattening.
type jsString struct {
	ascii       string
	u16         *uint16 // the flat UTF-16 form: length code units (see units)
	left, right *jsString
	length      int32 // code units; strings are at most maxStringLength long
	isASCII     bool  // the flat form is ascii (or, for a rope, both halves are ASCII)
}

// flatUnits returns the code units of a flat string that is not ASCII; nil for the other
// forms.
func (s *jsString) flatUnits() []uint16 {
	if s.u16 == nil {
		return nil
	}
	return unsafe.Slice(s.u16, s.length)
}

// newFlatUTF16 returns the flat string of the code units u (which it keeps).
func newFlatUTF16(u []uint16) *jsString {
	return &jsString{u16: unsafe.SliceData(u), length: int32(len(u))}
}

// ropeMinLength is the combined length from which a concatenation builds a rope node instead
// of copying both halves (code units).
const ropeMinLength = 64

var emptyString = &jsString{isASCII: true}

// commonly used strings
var (
	strUndefined = newASCII("undefined")
	strNull      = newASCII("null")
	strTrue      = newASCII("true")
	strFalse     = newASCII("false")
	strEmpty     = emptyString
)

// newASCII makes a string from Go text known to be ASCII.
func newASCII(s string) *jsString {
	return &jsString{ascii: s, length: int32(len(s)), isASCII: true}
}

// newStringFromGo makes a string from UTF-8 Go text. Invalid UTF-8 bytes become U+FFFD, except
// that WTF-8 encoded surrogates (ED A0..BF xx) decode to the lone surrogate code unit, so that
// keys made by propertyKeyString round-trip.
func newStringFromGo(s string) *jsString {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return newUTF16(decodeWTF8(s))
		}
	}
	return &jsString{ascii: s, length: int32(len(s)), isASCII: true}
}

// newUTF16 makes a string from code units; it takes ownership of u. An all-ASCII slice is
// stored in the ASCII form.
func newUTF16(u []uint16) *jsString {
	for _, c := range u {
		if c >= 0x80 {
			return newFlatUTF16(u)
		}
	}
	b := make([]byte, len(u))
	for i, c := range u {
		b[i] = byte(c)
	}
	return &jsString{ascii: string(b), length: int32(len(u)), isASCII: true}
}

// decodeWTF8 converts UTF-8 (with WTF-8 surrogates allowed) to UTF-16 code units.
func decodeWTF8(s string) []uint16 { return wtf8.Decode(s) }

// Len returns the length in UTF-16 code units.
func (s *jsString) Len() int { return int(s.length) }

// flat makes sure s is in a flat form and returns it.
func (s *jsString) flat() *jsString {
	if s.left == nil {
		return s
	}
	if s.isASCII {
		var b strings.Builder
		b.Grow(s.Len())
		s.walkLeaves(func(leaf *jsString) { b.WriteString(leaf.ascii) })
		s.ascii = b.String()
	} else {
		u := make([]uint16, 0, s.length)
		s.walkLeaves(func(leaf *jsString) {
			if leaf.isASCII {
				for i := 0; i < len(leaf.ascii); i++ {
					u = append(u, uint16(leaf.ascii[i]))
				}
			} else {
				u = append(u, leaf.flatUnits()...)
			}
		})
		s.u16 = unsafe.SliceData(u)
	}
	s.left, s.right = nil, nil
	return s
}

// walkLeaves visits the flat leaves of a rope left to right with an explicit stack.
func (s *jsString) walkLeaves(fn func(*jsString)) {
	stack := []*jsString{s}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.left != nil {
			stack = append(stack, n.right, n.left)
			continue
		}
		fn(n)
	}
}

// At returns the code unit at index i (0 <= i < Len()).
func (s *jsString) At(i int) uint16 {
	s = s.flat()
	if s.isASCII {
		return uint16(s.ascii[i])
	}
	return s.flatUnits()[i]
}

// units returns the code units as a fresh or shared slice; callers must not modify it.
func (s *jsString) units() []uint16 {
	s = s.flat()
	if !s.isASCII {
		return s.flatUnits()
	}
	u := make([]uint16, len(s.ascii))
	for i := 0; i < len(s.ascii); i++ {
		u[i] = uint16(s.ascii[i])
	}
	return u
}

// String converts to UTF-8 Go text; lone surrogates become U+FFFD.
func (s *jsString) String() string {
	s = s.flat()
	if s.isASCII {
		return s.ascii
	}
	var b strings.Builder
	b.Grow(len(s.flatUnits()))
	u := s.flatUnits()
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < 0x80:
			b.WriteByte(byte(c))
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF:
			b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

// wtf8 converts to WTF-8: UTF-8 where lone surrogates are encoded as 3-byte sequences. It is a
// lossless encoding of any UTF-16 string and is the form property keys use.
func (s *jsString) wtf8() string {
	s = s.flat()
	if s.isASCII {
		return s.ascii
	}
	return wtf8.Encode(s.flatUnits())
}

// Equals compares code units.
func (s *jsString) Equals(t *jsString) bool {
	if s == t {
		return true
	}
	if s.length != t.length {
		return false
	}
	s, t = s.flat(), t.flat()
	if s.isASCII && t.isASCII {
		return s.ascii == t.ascii
	}
	if s.isASCII != t.isASCII {
		return false // a non-ASCII flat string always has a unit >= 0x80
	}
	for i, c := range s.flatUnits() {
		if t.flatUnits()[i] != c {
			return false
		}
	}
	return true
}

// Compare orders by code units (the < operator on strings): -1, 0 or 1.
func (s *jsString) Compare(t *jsString) int {
	s, t = s.flat(), t.flat()
	if s.isASCII && t.isASCII {
		return strings.Compare(s.ascii, t.ascii)
	}
	n := min(s.Len(), t.Len())
	for i := 0; i < n; i++ {
		a, b := s.At(i), t.At(i)
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	switch {
	case s.length < t.length:
		return -1
	case s.length > t.length:
		return 1
	}
	return 0
}

// concatStrings returns a+b, as a rope when long. The caller checks the length cap.
func concatStrings(a, b *jsString) *jsString {
	if a.length == 0 {
		return b
	}
	if b.length == 0 {
		return a
	}
	n := a.length + b.length
	if n >= ropeMinLength {
		return &jsString{left: a, right: b, length: n, isASCII: a.isASCII && b.isASCII}
	}
	a, b = a.flat(), b.flat()
	if a.isASCII && b.isASCII {
		return concatASCII(a.ascii, b.ascii)
	}
	u := make([]uint16, 0, n)
	u = append(u, a.units()...)
	u = append(u, b.units()...)
	return newFlatUTF16(u)
}

// Short ASCII strings with their bytes: a concatenation below ropeMinLength is one
// allocation.
type (
	asciiRoom16 struct {
		s jsString
		b [16]byte
	}
	asciiRoom32 struct {
		s jsString
		b [32]byte
	}
	asciiRoom64 struct {
		s jsString
		b [ropeMinLength]byte
	}
)

// concatASCII returns the flat ASCII string a+b, whose length is below ropeMinLength, made in
// one allocation with its bytes.
func concatASCII(a, b string) *jsString {
	n := len(a) + len(b)
	var s *jsString
	var buf []byte
	switch {
	case n <= 16:
		r := &asciiRoom16{}
		s, buf = &r.s, r.b[:n]
	case n <= 32:
		r := &asciiRoom32{}
		s, buf = &r.s, r.b[:n]
	case n <= ropeMinLength:
		r := &asciiRoom64{}
		s, buf = &r.s, r.b[:n]
	default:
		return newASCII(a + b)
	}
	copy(buf[copy(buf, a):], b)
	s.ascii, s.length, s.isASCII = unsafe.String(&buf[0], n), int32(n), true
	return s
}

// substring returns code units [from, to).
func (s *jsString) substring(from, to int) *jsString {
	if from == 0 && to == s.Len() {
		return s
	}
	if from >= to {
		return emptyString
	}
	s = s.flat()
	if s.isASCII {
		if to-from == 1 {
			return asciiChars[s.ascii[from]]
		}
		return newASCII(s.ascii[from:to])
	}
	if to-from == 1 {
		return codeUnitString(s.flatUnits()[from])
	}
	if to-from >= substringShareMinLength {
		// A long substring shares the code units of its string, as an ASCII substring shares
		// its bytes: a lexer cutting what it matched off its source (src = src.substring(n))
		// then copies nothing, and its RegExp matches on a slice of the source's prepared input
		// (builtin_regexp_input.go).
		if u := s.flatUnits()[from:to]; !allASCII(u) {
			return newFlatUTF16(u[:len(u):len(u)])
		}
	}
	u := s.flatUnits()[from:to]
	if allASCII(u) {
		// an ASCII run of a UTF-16 string (an identifier cut out of a source text with
		// non-ASCII characters elsewhere) becomes an ASCII string without a UTF-16 copy
		b := make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		return &jsString{ascii: unsafe.String(unsafe.SliceData(b), len(b)), length: int32(len(b)), isASCII: true}
	}
	return newFlatUTF16(slices.Clone(u))
}

// asciiChars are the strings of one ASCII character, shared (strings are immutable): indexing
// a string and charAt make no string for them.
var asciiChars = func() (t [0x80]*jsString) {
	var b [0x80]byte
	for i := range b {
		b[i] = byte(i)
	}
	chars := string(b[:])
	for i := range t {
		t[i] = newASCII(chars[i : i+1])
	}
	return t
}()

// codeUnitString returns the string of the one code unit c: a shared one for ASCII.
func codeUnitString(c uint16) *jsString {
	if c < 0x80 {
		return asciiChars[c]
	}
	return newFlatUTF16([]uint16{c})
}

// substringShareMinLength is the length from which a substring of a non-ASCII string shares
// its code units instead of copying them: a short one copies, so that it does not keep a long
// string alive.
const substringShareMinLength = 256

// allASCII reports whether every code unit of u is below 0x80.
func allASCII(u []uint16) bool {
	for _, c := range u {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// indexOf returns the first index >= from where t occurs in s, or -1.
func (s *jsString) indexOf(t *jsString, from int) int {
	if from < 0 {
		from = 0
	}
	if t.Len() == 0 {
		if from > s.Len() {
			return s.Len()
		}
		return from
	}
	if from+t.Len() > s.Len() {
		return -1
	}
	s, t = s.flat(), t.flat()
	if s.isASCII && t.isASCII {
		i := strings.Index(s.ascii[from:], t.ascii)
		if i < 0 {
			return -1
		}
		return i + from
	}
	// Compare code unit slices rather than calling At per unit, which flattens and
	// dispatches on the form of each string for every unit compared.
	if s.isASCII {
		// t is wide here: it can only occur if all its units are ASCII.
		tu := t.flatUnits()
		if !allASCII(tu) {
			return -1
		}
		b := make([]byte, len(tu))
		for i, c := range tu {
			b[i] = byte(c)
		}
		i := strings.Index(s.ascii[from:], string(b))
		if i < 0 {
			return -1
		}
		return i + from
	}
	if t.isASCII {
		return indexUnitsASCII(s.flatUnits(), t.ascii, from)
	}
	return indexUnits(s.flatUnits(), t.flatUnits(), from)
}

// indexUnits returns the first index >= from where t (not empty) occurs in s, or -1.
func indexUnits(s, t []uint16, from int) int {
	first, rest := t[0], t[1:]
	for i := from; i+len(t) <= len(s); i++ {
		if s[i] == first && slices.Equal(s[i+1:i+len(t)], rest) {
			return i
		}
	}
	return -1
}

// indexUnitsASCII is indexUnits for an ASCII t.
func indexUnitsASCII(s []uint16, t string, from int) int {
	first := uint16(t[0])
outer:
	for i := from; i+len(t) <= len(s); i++ {
		if s[i] != first {
			continue
		}
		for j := 1; j < len(t); j++ {
			if s[i+j] != uint16(t[j]) {
				continue outer
			}
		}
		return i
	}
	return -1
}

// lastIndexOf returns the last index <= from where t occurs in s, or -1.
func (s *jsString) lastIndexOf(t *jsString, from int) int {
	if from > s.Len()-t.Len() {
		from = s.Len() - t.Len()
	}
outer:
	for i := from; i >= 0; i-- {
		for j := 0; j < t.Len(); j++ {
			if s.At(i+j) != t.At(j) {
				continue outer
			}
		}
		return i
	}
	return -1
}

// codePointAt returns the code point starting at index i and the number of code units it uses.
func (s *jsString) codePointAt(i int) (rune, int) {
	c := s.At(i)
	if c >= 0xD800 && c <= 0xDBFF && i+1 < s.Len() {
		d := s.At(i + 1)
		if d >= 0xDC00 && d <= 0xDFFF {
			return utf16.DecodeRune(rune(c), rune(d)), 2
		}
	}
	return rune(c), 1
}

// stringBuilder accumulates code units, staying in the ASCII form while it can.
type stringBuilder struct {
	ascii  []byte
	utf16  []uint16
	isWide bool
}

// grow makes room for n more code units in the current form.
func (b *stringBuilder) grow(n int) {
	if b.isWide {
		b.utf16 = slices.Grow(b.utf16, n)
	} else {
		b.ascii = slices.Grow(b.ascii, n)
	}
}

// writeUnit appends one code unit.
func (b *stringBuilder) writeUnit(c uint16) {
	if !b.isWide && c < 0x80 {
		b.ascii = append(b.ascii, byte(c))
		return
	}
	b.widen()
	b.utf16 = append(b.utf16, c)
}

// writeRune appends a code point (two units when astral).
func (b *stringBuilder) writeRune(r rune) {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		b.writeUnit(uint16(r1))
		b.writeUnit(uint16(r2))
		return
	}
	b.writeUnit(uint16(r))
}

// writeGo appends UTF-8 Go text.
func (b *stringBuilder) writeGo(s string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, c := range decodeWTF8(s[i:]) {
				b.writeUnit(c)
			}
			return
		}
		b.writeUnit(uint16(s[i]))
	}
}

// writeString appends a JS string.
func (b *stringBuilder) writeString(s *jsString) {
	s = s.flat()
	if s.isASCII && !b.isWide {
		b.ascii = append(b.ascii, s.ascii...)
		return
	}
	b.widen()
	if s.isASCII {
		for i := 0; i < len(s.ascii); i++ {
			b.utf16 = append(b.utf16, uint16(s.ascii[i]))
		}
		return
	}
	b.utf16 = append(b.utf16, s.flatUnits()...)
}

func (b *stringBuilder) widen() {
	if b.isWide {
		return
	}
	b.isWide = true
	b.utf16 = make([]uint16, len(b.ascii), len(b.ascii)+16)
	for i, c := range b.ascii {
		b.utf16[i] = uint16(c)
	}
	b.ascii = nil
}

// len returns the number of code units written.
func (b *stringBuilder) len() int {
	if b.isWide {
		return len(b.utf16)
	}
	return len(b.ascii)
}

// string returns the built string.
func (b *stringBuilder) string() *jsString {
	if b.isWide {
		return newUTF16(b.utf16)
	}
	return newASCII(string(b.ascii))
}

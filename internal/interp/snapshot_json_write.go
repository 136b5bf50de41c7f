package interp

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A small JSON writer and reader for snapshots (the reader is in snapshot_json_read.go).
// They are hand-written rather than encoding/json for two reasons: speed (no reflection, no
// intermediate maps) and strings: JavaScript strings may hold lone surrogates, which this
// writer emits as \uXXXX escapes and the reader decodes back to the same code units
// (encoding/json would replace them).

// jsonWriter appends JSON text to a buffer, inserting commas automatically: every value,
// key or container start writes a comma when one is due.
type jsonWriter struct {
	buf       []byte
	needComma bool
	tab       *binTable // set: the writer writes format 2's tokens (snapshot_bin.go)
}

// setBuf stores b, the result of appending to w.buf, in w.buf. When b is w.buf grown in place
// only the length changes: storing just the length spares the pointer store and its GC write
// barrier (every write of a token would otherwise pay it while the collector marks).
func (w *jsonWriter) setBuf(b []byte) {
	if unsafe.SliceData(b) == unsafe.SliceData(w.buf) {
		w.buf = w.buf[:len(b)]
	} else {
		w.buf = b
	}
}

func (w *jsonWriter) comma() {
	if w.needComma && w.tab == nil {
		w.buf = append(w.buf, ',')
	}
}

func (w *jsonWriter) beginObject() { w.token('{', binObject) }
func (w *jsonWriter) endObject()   { w.end('}') }
func (w *jsonWriter) beginArray()  { w.token('[', binArray) }
func (w *jsonWriter) endArray()    { w.end(']') }

// token opens a container: c in JSON, t in format 2.
func (w *jsonWriter) token(c, t byte) {
	if w.tab != nil {
		w.buf = append(w.buf, t)
		return
	}
	w.comma()
	w.buf = append(w.buf, c)
	w.needComma = false
}

// end closes a container.
func (w *jsonWriter) end(c byte) {
	if w.tab != nil {
		c = binEnd
	}
	w.buf = append(w.buf, c)
	w.needComma = true
}

// key writes an object key; the next value follows without a comma.
func (w *jsonWriter) key(k string) {
	if w.tab != nil {
		w.binUint(binString, uint64(w.tab.goString(k)))
		return
	}
	if !w.shortString(k, true) {
		w.comma()
		w.setBuf(appendJSONGoString(w.buf, k))
		w.buf = append(w.buf, ':')
	}
	w.needComma = false
}

// maxShortString is the longest string shortString writes.
const maxShortString = 24

// shortString writes, after the comma due, s quoted (and a colon if colon is set) when s is
// at most maxShortString plain bytes (no escape, ASCII) and the buffer has room for it, the
// common case of keys and many values, byte by byte in place; it reports whether it did.
func (w *jsonWriter) shortString(s string, colon bool) bool {
	n := len(w.buf)
	if len(s) > maxShortString || cap(w.buf)-n < maxShortString+4 {
		return false
	}
	b := w.buf[n : n+maxShortString+4]
	i := 0
	if w.needComma {
		b[0] = ','
		i = 1
	}
	b[i] = '"'
	i++
	for j := 0; j < len(s); j++ {
		c := s[j]
		if !plainJSON[c] {
			return false
		}
		b[i] = c
		i++
	}
	b[i] = '"'
	i++
	if colon {
		b[i] = ':'
		i++
	}
	w.buf = w.buf[:n+i]
	return true
}

// ref writes a tagged reference {"#":id}; prefix is the text up to the id, as `{"#":`.
func (w *jsonWriter) ref(prefix string, id int) {
	if w.tab != nil {
		t := byte(binObjRef)
		switch prefix[2] {
		case '@':
			t = binNodeRef
		case 'y':
			t = binSym
		}
		w.binUint(t, uint64(id))
		return
	}
	if n := len(w.buf); len(prefix) <= 8 && cap(w.buf)-n >= 32 && id >= 0 {
		// in place: a comma, the prefix, the id (at most 20 digits), the brace
		b := w.buf[n : n+32]
		i := 0
		if w.needComma {
			b[0] = ','
			i = 1
		}
		i += copy(b[i:], prefix)
		w.buf = w.buf[:n+i]
		w.setBuf(appendDecimal(w.buf, int64(id)))
		w.buf = append(w.buf, '}')
		w.needComma = true
		return
	}
	w.comma()
	w.buf = append(w.buf, prefix...)
	w.setBuf(appendDecimal(w.buf, int64(id)))
	w.buf = append(w.buf, '}')
	w.needComma = true
}

// int writes an integer.
func (w *jsonWriter) int(i int64) {
	if w.tab != nil {
		w.binInt(i)
		return
	}
	w.comma()
	w.setBuf(appendDecimal(w.buf, i))
	w.needComma = true
}

// decimalPairs holds the two digits of every number below 100.
const decimalPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendDecimal appends i in decimal, as strconv.AppendInt(b, i, 10) does, writing the
// digits in place (ids and small integers are most of what a snapshot holds).
func appendDecimal(b []byte, i int64) []byte {
	if i < 0 {
		if i == math.MinInt64 {
			return strconv.AppendInt(b, i, 10)
		}
		b = append(b, '-')
		i = -i
	}
	u := uint64(i)
	if u < 10 {
		return append(b, byte('0'+u))
	}
	n := decimalDigits(u)
	start := len(b)
	if cap(b)-start < n {
		b = slices.Grow(b, n)
	}
	b = b[:start+n]
	d := b[start:]
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		d[n-1], d[n-2] = decimalPairs[r+1], decimalPairs[r]
		n -= 2
		u = q
	}
	if u >= 10 {
		d[1], d[0] = decimalPairs[2*u+1], decimalPairs[2*u]
	} else {
		d[0] = byte('0' + u)
	}
	return b
}

// decimalDigits is the number of decimal digits of u.
func decimalDigits(u uint64) int {
	switch {
	case u < 10:
		return 1
	case u < 100:
		return 2
	case u < 1000:
		return 3
	case u < 10000:
		return 4
	case u < 100000:
		return 5
	}
	n := 6
	for u /= 100000; u >= 10; u /= 10 {
		n++
	}
	return n
}

// float writes a finite float64 in the shortest form that reads back exactly, spelled as
// strconv.AppendFloat(f, 'g', -1) spells it (integers from 1e21 up and below -1e21 use an
// exponent, and so do integers from 1e6 up: 1234567 is 1.234567e+06).
func (w *jsonWriter) float(f float64) {
	if w.tab != nil {
		w.binFloat(f)
		return
	}
	w.comma()
	w.setBuf(appendJSONFloat(w.buf, f))
	w.needComma = true
}

// maxExactInt is 2^53: every integer of smaller magnitude is a float64, and its shortest
// decimal form is its own digits.
const maxExactInt = 1 << 53

// appendJSONFloat appends f as strconv.AppendFloat(b, f, 'g', -1, 64) does, with a fast path
// for integers, the most common numbers in a heap.
func appendJSONFloat(b []byte, f float64) []byte {
	if f > -maxExactInt && f < maxExactInt {
		if i := int64(f); float64(i) == f && (i != 0 || !math.Signbit(f)) {
			if i > -1e6 && i < 1e6 {
				return appendDecimal(b, i)
			}
			return appendIntExponent(b, i)
		}
	}
	if out, ok := appendShortDecimal(b, f); ok {
		return out
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// maxShortDecimals is the most fraction digits appendShortDecimal writes.
const maxShortDecimals = 6

// pow10s holds 10^0 to 10^maxShortDecimals, as floats (exact) and integers.
var (
	pow10f = [maxShortDecimals + 1]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}
	pow10u = [maxShortDecimals + 1]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}
)

// appendShortDecimal appends f, not an integer, as strconv's shortest 'g' form spells it when
// that form is a plain decimal with at most maxShortDecimals fraction digits (12.25, 0.5,
// -0.0125) whose value is known to be the only one of its length that reads back as f. It
// reports false, having appended nothing, for every other number.
//
// With |f| in [1e-4, 1e6) the 'g' form has no exponent. For d = 1, 2, ... fraction digits,
// the decimals of d digits that read back as f are the integers c with c/10^d rounding to f,
// all near r = round(|f|*10^d): within 2e-4, the product's rounding error plus half an ulp of
// f times 10^d (a quick test rejects the other d). A division by 10^d rounds exactly as
// reading the decimal does, so c reads back as f if and only if c/10^d == |f|. The first d
// with such a c gives the shortest form; it is written if r is the only one (two or more
// would need the one closest to f, left to strconv).
func appendShortDecimal(b []byte, f float64) ([]byte, bool) {
	a := math.Abs(f)
	if !(a >= 1e-4 && a < 1e6) {
		return b, false
	}
	for d := 1; d <= maxShortDecimals; d++ {
		p := pow10f[d]
		x := a * p
		r := math.Round(x)
		if x-r > 1e-3 || r-x > 1e-3 {
			continue // no decimal of d digits is close enough to read back as f
		}
		lo, mid, hi := (r-1)/p == a, r/p == a, (r+1)/p == a
		if !lo && !mid && !hi {
			continue
		}
		m := uint64(r)
		if lo || hi || !mid || m%10 == 0 {
			return b, false
		}
		if f < 0 {
			b = append(b, '-')
		}
		b = appendDecimal(b, int64(m/pow10u[d]))
		b = append(b, '.')
		frac := m % pow10u[d]
		for k := d - 1; k >= 0; k-- {
			b = append(b, byte('0'+frac/pow10u[k]%10))
		}
		return b, true
	}
	return b, false
}

// appendIntExponent writes an integer of magnitude from 1e6 up to 2^53 in %e form with the
// fewest digits: 1234567 as 1.234567e+06, 5000000 as 5e+06.
func appendIntExponent(b []byte, i int64) []byte {
	if i < 0 {
		b = append(b, '-')
		i = -i
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], i, 10)
	exp := len(d) - 1
	for len(d) > 1 && d[len(d)-1] == '0' {
		d = d[:len(d)-1]
	}
	b = append(b, d[0])
	if len(d) > 1 {
		b = append(b, '.')
		b = append(b, d[1:]...)
	}
	b = append(b, 'e', '+')
	if exp < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

// bool writes true or false.
func (w *jsonWriter) bool(b bool) {
	if w.tab != nil {
		t := byte(binFalse)
		if b {
			t = binTrue
		}
		w.buf = append(w.buf, t)
		return
	}
	w.comma()
	if b {
		w.buf = append(w.buf, "true"...)
	} else {
		w.buf = append(w.buf, "false"...)
	}
	w.needComma = true
}

// null writes null.
func (w *jsonWriter) null() {
	if w.tab != nil {
		w.buf = append(w.buf, binNull)
		return
	}
	w.comma()
	w.buf = append(w.buf, "null"...)
	w.needComma = true
}

// string writes Go text (UTF-8; WTF-8 surrogates are written as \u escapes).
func (w *jsonWriter) string(s string) {
	if w.tab != nil {
		w.binUint(binString, uint64(w.tab.goString(s)))
		return
	}
	if !w.shortString(s, false) {
		w.comma()
		w.setBuf(appendJSONGoString(w.buf, s))
	}
	w.needComma = true
}

// jsString writes a JavaScript string; lone surrogates become \uXXXX escapes.
func (w *jsonWriter) jsString(s *jsString) {
	s = s.flat()
	if w.tab != nil {
		if s.isASCII {
			w.binUint(binString, uint64(w.tab.ascii(s.ascii)))
		} else {
			w.binUint(binString, uint64(w.tab.units(s.flatUnits())))
		}
		return
	}
	if s.isASCII {
		if !w.shortString(s.ascii, false) {
			w.comma()
			w.setBuf(appendJSONGoString(w.buf, s.ascii))
		}
	} else {
		w.comma()
		w.setBuf(appendJSONUTF16(w.buf, s.flatUnits()))
	}
	w.needComma = true
}

// raw writes pre-encoded JSON as one value.
func (w *jsonWriter) raw(b []byte) { w.comma(); w.buf = append(w.buf, b...); w.needComma = true }

const hexDigits = "0123456789abcdef"

func appendEscapedASCII(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	if c < 0x20 || c == 0x7F {
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
	}
	return append(b, c)
}

func appendUnicodeEscape(b []byte, u uint16) []byte {
	return append(b, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&15], hexDigits[u>>4&15], hexDigits[u&15])
}

// plainJSON marks the ASCII bytes a JSON string holds as they are (no escape).
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONGoString quotes Go text (valid UTF-8 passes through; WTF-8 surrogates and
// invalid bytes are escaped as \u code units, the latter as U+FFFD).
func appendJSONGoString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if plainJSON[c] {
			// copy the whole run of bytes that need no escape at once
			j := i + 1
			for j < len(s) && plainJSON[s[j]] {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			b = appendEscapedASCII(b, c)
			i++
			continue
		}
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			u := uint16(0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F))
			b = appendUnicodeEscape(b, u)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = appendUnicodeEscape(b, 0xFFFD)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// appendJSONUTF16 quotes UTF-16 code units.
func appendJSONUTF16(b []byte, u []uint16) []byte {
	b = append(b, '"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < 0x80 && plainJSON[c]:
			b = append(b, byte(c))
		case c < 0x80:
			b = appendEscapedASCII(b, byte(c))
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF:
			b = utf8.AppendRune(b, utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			b = appendUnicodeEscape(b, c)
		default:
			b = utf8.AppendRune(b, rune(c))
		}
	}
	return append(b, '"')
}

// jsonReader reads JSON from a byte slice. The first error sticks: later reads return zero

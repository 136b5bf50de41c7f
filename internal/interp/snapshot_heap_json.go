package interp

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON writer and reader for snapshots. They are hand-written rather than
// encoding/json for two reasons: speed (no reflection, no intermediate maps) and strings:
// JavaScript strings may hold lone surrogates, which this writer emits as \uXXXX escapes and
// this reader decodes back to the same code units (encoding/json would replace them).

// jsonWriter appends JSON text to a buffer, inserting commas automatically: every value,
// key or container start writes a comma when one is due.
type jsonWriter struct {
	buf       []byte
	needComma bool
}

func (w *jsonWriter) comma() {
	if w.needComma {
		w.buf = append(w.buf, ',')
	}
}

func (w *jsonWriter) beginObject() { w.comma(); w.buf = append(w.buf, '{'); w.needComma = false }
func (w *jsonWriter) endObject()   { w.buf = append(w.buf, '}'); w.needComma = true }
func (w *jsonWriter) beginArray()  { w.comma(); w.buf = append(w.buf, '['); w.needComma = false }
func (w *jsonWriter) endArray()    { w.buf = append(w.buf, ']'); w.needComma = true }

// key writes an object key; the next value follows without a comma.
func (w *jsonWriter) key(k string) {
	w.comma()
	w.buf = appendJSONGoString(w.buf, k)
	w.buf = append(w.buf, ':')
	w.needComma = false
}

// int writes an integer.
func (w *jsonWriter) int(i int64) {
	w.comma()
	w.buf = strconv.AppendInt(w.buf, i, 10)
	w.needComma = true
}

// float writes a finite float64 (shortest round-trip form).
func (w *jsonWriter) float(f float64) {
	w.comma()
	w.buf = strconv.AppendFloat(w.buf, f, 'g', -1, 64)
	w.needComma = true
}

// bool writes true or false.
func (w *jsonWriter) bool(b bool) {
	w.comma()
	w.buf = strconv.AppendBool(w.buf, b)
	w.needComma = true
}

// null writes null.
func (w *jsonWriter) null() { w.comma(); w.buf = append(w.buf, "null"...); w.needComma = true }

// string writes Go text (UTF-8; WTF-8 surrogates are written as \u escapes).
func (w *jsonWriter) string(s string) {
	w.comma()
	w.buf = appendJSONGoString(w.buf, s)
	w.needComma = true
}

// jsString writes a JavaScript string; lone surrogates become \uXXXX escapes.
func (w *jsonWriter) jsString(s *jsString) {
	w.comma()
	s = s.flat()
	if s.isASCII {
		w.buf = appendJSONGoString(w.buf, s.ascii)
	} else {
		w.buf = appendJSONUTF16(w.buf, s.utf16)
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

// appendJSONGoString quotes Go text (valid UTF-8 passes through; WTF-8 surrogates and
// invalid bytes are escaped as \u code units, the latter as U+FFFD).
func appendJSONGoString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
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
// values, and err reports it, so decoders can check once at the end.
type jsonReader struct {
	data []byte
	pos  int
	err  error

	asciiStart, asciiEnd int // the last string read by units when it was plain ASCII
}

// fail records a syntax error (the first one wins).
func (r *jsonReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("snapshot json at byte %d: %s: %w", r.pos, fmt.Sprintf(format, args...), ErrSnapshotCorrupt)
	}
	r.pos = len(r.data)
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (r *jsonReader) peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// expect consumes byte c.
func (r *jsonReader) expect(c byte) {
	if r.peek() != c {
		r.fail("expected %q", c)
		return
	}
	r.pos++
}

// beginObject consumes '{'.
func (r *jsonReader) beginObject() { r.expect('{') }

// beginArray consumes '['.
func (r *jsonReader) beginArray() { r.expect('[') }

// more reports whether another element or member follows in the current container,
// consuming the separating comma, or consumes the closing bracket and returns false.
// first must be true for the first call after begin.
func (r *jsonReader) more(first bool) bool {
	c := r.peek()
	if c == ']' || c == '}' {
		r.pos++
		return false
	}
	if r.err != nil {
		return false
	}
	if !first {
		if c != ',' {
			r.fail("expected ',' or closing bracket")
			return false
		}
		r.pos++
	}
	return true
}

// key reads an object member name and its colon.
func (r *jsonReader) key() string {
	k := r.goString()
	r.expect(':')
	return k
}

// null consumes null if it is next and reports whether it did.
func (r *jsonReader) null() bool {
	if r.peek() == 'n' && r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return true
	}
	return false
}

// bool reads true or false.
func (r *jsonReader) bool() bool {
	switch r.peek() {
	case 't':
		if r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "true" {
			r.pos += 4
			return true
		}
	case 'f':
		if r.pos+5 <= len(r.data) && string(r.data[r.pos:r.pos+5]) == "false" {
			r.pos += 5
			return false
		}
	}
	r.fail("expected a boolean")
	return false
}

// numberText returns the text of the next number.
func (r *jsonReader) numberText() []byte {
	r.skipSpace()
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			r.pos++
			continue
		}
		break
	}
	if start == r.pos {
		r.fail("expected a number")
	}
	return r.data[start:r.pos]
}

// float reads a number.
func (r *jsonReader) float() float64 {
	t := r.numberText()
	if r.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil {
		r.fail("bad number %q", t)
	}
	return f
}

// int reads an integer.
func (r *jsonReader) int() int64 {
	t := r.numberText()
	if r.err != nil {
		return 0
	}
	var v int64
	neg := false
	for i, c := range t {
		if i == 0 && c == '-' {
			neg = true
			continue
		}
		if c < '0' || c > '9' || v > math.MaxInt64/10-10 {
			r.fail("bad integer %q", t)
			return 0
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v
}

// units reads a string as UTF-16 code units (lone surrogate escapes kept).
func (r *jsonReader) units() ([]uint16, bool) {
	if r.peek() != '"' {
		r.fail("expected a string")
		return nil, true
	}
	r.pos++
	start := r.pos
	ascii := true
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c == '"' {
			break
		}
		if c == '\\' || c >= 0x80 {
			ascii = false
			break
		}
		r.pos++
	}
	if ascii && r.pos < len(r.data) {
		// fast path: plain ASCII without escapes; returned via asciiRun
		r.asciiStart, r.asciiEnd = start, r.pos
		r.pos++
		return nil, true
	}
	r.pos = start
	var out []uint16
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			r.pos++
			return out, false
		case c == '\\':
			if r.pos+1 >= len(r.data) {
				r.fail("bad escape")
				return nil, false
			}
			e := r.data[r.pos+1]
			r.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, uint16(e))
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'u':
				if r.pos+4 > len(r.data) {
					r.fail("bad \\u escape")
					return nil, false
				}
				v, err := strconv.ParseUint(string(r.data[r.pos:r.pos+4]), 16, 16)
				if err != nil {
					r.fail("bad \\u escape")
					return nil, false
				}
				out = append(out, uint16(v))
				r.pos += 4
			default:
				r.fail("bad escape")
				return nil, false
			}
		case c < 0x20:
			r.fail("control character in string")
			return nil, false
		case c < 0x80:
			out = append(out, uint16(c))
			r.pos++
		default:
			ru, size := utf8.DecodeRune(r.data[r.pos:])
			if ru >= 0x10000 {
				a, b := utf16.EncodeRune(ru)
				out = append(out, uint16(a), uint16(b))
			} else {
				out = append(out, uint16(ru))
			}
			r.pos += size
		}
	}
	r.fail("unterminated string")
	return nil, false
}

// jsString reads a string as a JavaScript string.
func (r *jsonReader) jsString() *jsString {
	u, isASCII := r.units()
	if r.err != nil {
		return emptyString
	}
	if isASCII {
		return newASCII(string(r.data[r.asciiStart:r.asciiEnd]))
	}
	return newUTF16(u)
}

// goString reads a string as Go text (lone surrogates kept as WTF-8).
func (r *jsonReader) goString() string {
	u, isASCII := r.units()
	if r.err != nil {
		return ""
	}
	if isASCII {
		return string(r.data[r.asciiStart:r.asciiEnd])
	}
	return newUTF16(u).wtf8()
}

// maxSkipDepth bounds the nesting skip follows, so corrupt input cannot exhaust the stack.
const maxSkipDepth = 512

// skip skips one value of any type.
func (r *jsonReader) skip() { r.skipDepth(0) }

func (r *jsonReader) skipDepth(depth int) {
	if depth > maxSkipDepth {
		r.fail("nesting too deep")
		return
	}
	switch c := r.peek(); c {
	case '{':
		r.pos++
		for first := true; r.more(first); first = false {
			r.key()
			r.skipDepth(depth + 1)
		}
	case '[':
		r.pos++
		for first := true; r.more(first); first = false {
			r.skipDepth(depth + 1)
		}
	case '"':
		r.units()
	case 't', 'f':
		r.bool()
	case 'n':
		if !r.null() {
			r.fail("bad literal")
		}
	default:
		r.numberText()
	}
}

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

// ref writes a tagged reference {"#":id}; prefix is the text up to the id, as `{"#":`.
func (w *jsonWriter) ref(prefix string, id int) {
	w.comma()
	w.buf = append(w.buf, prefix...)
	w.buf = strconv.AppendInt(w.buf, int64(id), 10)
	w.buf = append(w.buf, '}')
	w.needComma = true
}

// int writes an integer.
func (w *jsonWriter) int(i int64) {
	w.comma()
	w.buf = strconv.AppendInt(w.buf, i, 10)
	w.needComma = true
}

// float writes a finite float64 in the shortest form that reads back exactly, spelled as
// strconv.AppendFloat(f, 'g', -1) spells it (integers from 1e21 up and below -1e21 use an
// exponent, and so do integers from 1e6 up: 1234567 is 1.234567e+06).
func (w *jsonWriter) float(f float64) {
	w.comma()
	w.buf = appendJSONFloat(w.buf, f)
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
				return strconv.AppendInt(b, i, 10)
			}
			return appendIntExponent(b, i)
		}
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
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
	if r.pos < len(r.data) && r.data[r.pos] > ' ' {
		return r.data[r.pos] // snapshots have no whitespace
	}
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

// key reads an object member name and its colon. The member names of the snapshot format
// come back without an allocation.
func (r *jsonReader) key() string {
	if r.peek() == '"' {
		// fast path: a short plain name followed directly by its colon
		end := r.pos + 1
		for end < len(r.data) && end-r.pos <= maxKnownKey && plainJSON[r.data[end]] {
			end++
		}
		if end+1 < len(r.data) && r.data[end] == '"' && r.data[end+1] == ':' {
			if k, ok := knownKey(r.data[r.pos+1 : end]); ok {
				r.pos = end + 2
				return k
			}
		}
	}
	k := r.goString()
	r.expect(':')
	return k
}

// maxKnownKey is the length of the longest name knownKey knows.
const maxKnownKey = 10

// knownKey returns the member names snapshots use as constants, so that reading one does not
// allocate.
func knownKey(b []byte) (string, bool) {
	switch string(b) {
	case "format":
		return "format", true
	case "source":
		return "source", true
	case "script":
		return "script", true
	case "heap":
		return "heap", true
	case "exec":
		return "exec", true
	case "syms":
		return "syms", true
	case "intr":
		return "intr", true
	case "n":
		return "n", true
	case "nodes":
		return "nodes", true
	case "objs":
		return "objs", true
	case "c":
		return "c", true
	case "p":
		return "p", true
	case "f":
		return "f", true
	case "pr":
		return "pr", true
	case "el":
		return "el", true
	case "len":
		return "len", true
	case "s":
		return "s", true
	case "t":
		return "t", true
	case "d":
		return "d", true
	case "set":
		return "set", true
	case "add":
		return "add", true
	case "u":
		return "u", true
	case "h":
		return "h", true
	case "#":
		return "#", true
	case "y":
		return "y", true
	case "w":
		return "w", true
	case "@":
		return "@", true
	case "stack":
		return "stack", true
	case "frames":
		return "frames", true
	case "jobs":
		return "jobs", true
	case "host":
		return "host", true
	case "next":
		return "next", true
	case "program":
		return "program", true
	case "started":
		return "started", true
	case "unhandled":
		return "unhandled", true
	case "steps":
		return "steps", true
	case "promiseSeq":
		return "promiseSeq", true
	case "templates":
		return "templates", true
	case "priv":
		return "priv", true
	case "random":
		return "random", true
	case "throw":
		return "throw", true
	}
	return "", false
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
	r.peek()
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
	if f, ok := smallInt(t); ok {
		return f
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil {
		r.fail("bad number %q", t)
	}
	return f
}

// smallInt converts the text of an integer of at most 15 digits (exact as a float64), without
// a leading zero; ok is false for any other number text.
func smallInt(t []byte) (float64, bool) {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	if len(t) == 0 || len(t) > 15 || (t[0] == '0' && len(t) > 1) {
		return 0, false
	}
	var v int64
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		if v == 0 {
			return math.Copysign(0, -1), true
		}
		v = -v
	}
	return float64(v), true
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

// skip skips one value of any type. Strings and containers are passed over by a byte scan
// that matches brackets and quotes without checking the rest of the grammar: the skipped
// text is either read properly later (records are scanned once, then decoded) or ignored.
func (r *jsonReader) skip() {
	switch r.peek() {
	case '{', '[':
		r.skipContainer()
	case '"':
		r.skipString()
	default:
		r.skipDepth(0)
	}
}

// skipString passes over a string (its escapes are not checked).
func (r *jsonReader) skipString() {
	for i := r.pos + 1; i < len(r.data); i++ {
		switch r.data[i] {
		case '\\':
			i++
		case '"':
			r.pos = i + 1
			return
		}
	}
	r.fail("unterminated string")
}

// skipContainer passes over an object or array, counting brackets outside strings.
func (r *jsonReader) skipContainer() {
	var open [maxSkipDepth + 1]byte
	depth := 0
	data := r.data
	for i := r.pos; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			if depth == len(open) {
				r.fail("nesting too deep")
				return
			}
			open[depth] = c
			depth++
		case '}', ']':
			if depth == 0 || open[depth-1] != c-2 {
				r.pos = i
				r.fail("mismatched %q", c)
				return
			}
			depth--
			if depth == 0 {
				r.pos = i + 1
				return
			}
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		}
	}
	r.pos = len(data)
	r.fail("unterminated container")
}

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

package interp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jsonReader reads JSON from a byte slice. The first error sticks: later reads return zero
// values, and err reports it, so decoders can check once at the end.
type jsonReader struct {
	data []byte
	pos  int
	err  error

	asciiStart, asciiEnd int // the last string read by units when it was plain ASCII

	bin    bool           // the data is a format-2 document (snapshot_bin.go)
	strs   []binStr       // its string table
	goStrs map[int]string // its entries read as Go text (other than knownKey's), by index,
	// past the first few, which goFew holds (most documents read few entries as Go text: a
	// map for them cost a restore several allocations)
	goFew  [goFewSize]goStrEntry
	goFewN int
}

// goStrEntry is an entry of the string table read as Go text.
type goStrEntry struct {
	i int
	s string
}

// goFewSize is how many entries read as Go text a jsonReader finds without its map.
const goFewSize = 8

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
	if r.bin {
		return binPeek[r.binTok()]
	}
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
	if !r.open(c) {
		r.expectSlow(c)
	}
}

// at reports whether byte c is at the position.
func (r *jsonReader) at(c byte) bool {
	p := r.pos
	if r.bin {
		return p < len(r.data) && c != 0 && r.data[p] == binTokenOf(c)
	}
	return p < len(r.data) && r.data[p] == c
}

// expectSlow is expect after spaces, or the failure when c is not next.
func (r *jsonReader) expectSlow(c byte) {
	if r.bin {
		r.binExpect(binTokenOf(c))
		return
	}
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
	if !first && r.comma() {
		return true
	}
	return r.moreSlow(first)
}

// comma consumes a comma right at the position (no spaces) and reports whether it did:
// the fast path of more(false), small enough to inline in the decoder's loops. A failed
// reader is at the end, so it finds none.
func (r *jsonReader) comma() bool {
	p := r.pos
	if uint(p) >= uint(len(r.data)) {
		return false
	}
	c := r.data[p]
	if r.bin {
		return c != binEnd
	}
	if c == ',' {
		r.pos = p + 1
		return true
	}
	return false
}

// open consumes byte c right at the position and reports whether it did: the fast path of
// expect.
func (r *jsonReader) open(c byte) bool {
	if r.at(c) {
		r.pos++
		return true
	}
	return false
}

// moreSlow is more without its fast path: spaces, the first element, the closing bracket,
// and the failures.
func (r *jsonReader) moreSlow(first bool) bool {
	if r.bin {
		if r.err != nil {
			return false
		}
		if r.pos >= len(r.data) {
			r.fail("unterminated container")
			return false
		}
		if r.data[r.pos] == binEnd {
			r.pos++
			return false
		}
		return true
	}
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
	if r.bin {
		return r.goString()
	}
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
	case "minor":
		return "minor", true
	case "source":
		return "source", true
	case "script":
		return "script", true
	case "code":
		return "code", true
	case "compiled":
		return "compiled", true
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
	case "bi":
		return "bi", true
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
	case "legacy":
		return "legacy", true
	}
	return "", false
}

// null consumes null if it is next and reports whether it did.
func (r *jsonReader) null() bool {
	if r.bin {
		if r.binTok() == binNull {
			r.pos++
			return true
		}
		return false
	}
	if r.peek() == 'n' && r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return true
	}
	return false
}

// bool reads true or false.
func (r *jsonReader) bool() bool {
	if r.bin {
		switch r.binTok() {
		case binTrue:
			r.pos++
			return true
		case binFalse:
			r.pos++
			return false
		}
		r.fail("expected a boolean")
		return false
	}
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

// plainString marks the bytes a JSON string holds as they are: printable ASCII other than
// the quote and the backslash.
var plainString = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// stringRaw consumes a string and returns the bytes between its quotes, and whether they
// are plain (printable ASCII without escapes: the string's text as it is). Escapes and
// UTF-8 are left for decodeUnits.
func (r *jsonReader) stringRaw() (raw []byte, plain bool) {
	if r.bin {
		// the bytes of the entry; only ASCII entries are plain (the callers that read other
		// text in format 2 go through units, goString or jsString)
		s, ok := r.binEntry()
		if !ok {
			return nil, true
		}
		if s.kind != binStrASCII {
			r.fail("expected an ASCII string")
			return nil, true
		}
		return r.data[s.start:s.end], true
	}
	if r.peek() != '"' {
		r.fail("expected a string")
		return nil, true
	}
	data := r.data
	start := r.pos + 1
	i := start
	for i+8 <= len(data) && !hasSpecialByte(binary.LittleEndian.Uint64(data[i:])) {
		i += 8 // eight plain bytes at once
	}
	for i < len(data) && plainString[data[i]] {
		i++
	}
	if i < len(data) && data[i] == '"' {
		r.pos = i + 1
		return data[start:i], true
	}
	for i < len(data) {
		switch c := data[i]; {
		case c == '"':
			r.pos = i + 1
			return data[start:i], false
		case c == '\\':
			i += 2
		case c < 0x20:
			r.pos = i
			r.fail("control character in string")
			return nil, false
		default:
			i++
		}
	}
	r.fail("unterminated string")
	return nil, false
}

// Byte-parallel tests on eight bytes in a uint64.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// hasSpecialByte reports whether any of the eight bytes in x is not plain in a string: a
// quote, a backslash, a control character or a non-ASCII byte.
func hasSpecialByte(x uint64) bool {
	q := x ^ (lowBits * '"')
	b := x ^ (lowBits * '\\')
	return ((q-lowBits)&^q|(b-lowBits)&^b|(x-lowBits*0x20)&^x|x)&highBits != 0
}

// decodeUnits converts the raw text of a string (see stringRaw) to UTF-16 code units in
// dst, which must hold len(raw) units (a string has at most one unit per byte of its text),
// and returns their number. Lone surrogate escapes are kept; bytes that are not UTF-8
// become U+FFFD.
func (r *jsonReader) decodeUnits(raw []byte, dst []uint16) int {
	n := 0
	dst = dst[:len(raw)]
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 >= len(raw) {
				r.fail("bad escape")
				return 0
			}
			e := raw[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				dst[n] = uint16(e)
			case 'n':
				dst[n] = '\n'
			case 'r':
				dst[n] = '\r'
			case 't':
				dst[n] = '\t'
			case 'b':
				dst[n] = '\b'
			case 'f':
				dst[n] = '\f'
			case 'u':
				if i+4 > len(raw) {
					r.fail("bad \\u escape")
					return 0
				}
				v := 0
				for _, h := range raw[i : i+4] {
					switch {
					case h >= '0' && h <= '9':
						v = v<<4 | int(h-'0')
					case h >= 'a' && h <= 'f':
						v = v<<4 | int(h-'a'+10)
					case h >= 'A' && h <= 'F':
						v = v<<4 | int(h-'A'+10)
					default:
						r.fail("bad \\u escape")
						return 0
					}
				}
				dst[n] = uint16(v)
				i += 4
			default:
				r.fail("bad escape")
				return 0
			}
			n++
		case c < 0x80:
			dst[n] = uint16(c)
			n++
			i++
		default:
			ru, size := utf8.DecodeRune(raw[i:])
			if ru >= 0x10000 {
				a, b := utf16.EncodeRune(ru)
				dst[n], dst[n+1] = uint16(a), uint16(b)
				n += 2
			} else {
				dst[n] = uint16(ru)
				n++
			}
			i += size
		}
	}
	return n
}

// decodeString converts the raw text of a string that is not plain (see stringRaw) to Go
// text (lone surrogates kept as WTF-8).
func (r *jsonReader) decodeString(raw []byte) string {
	u := make([]uint16, len(raw))
	n := r.decodeUnits(raw, u)
	u = u[:n:n]
	for _, c := range u {
		if c >= 0x80 {
			return newUTF16(u).wtf8()
		}
	}
	b := make([]byte, n) // ASCII with escapes (a program's source): one copy
	for i, c := range u {
		b[i] = byte(c)
	}
	return unsafe.String(unsafe.SliceData(b), n)
}

// units reads a string as UTF-16 code units (lone surrogate escapes kept). A plain string
// comes back as (nil, true) with its bytes at data[asciiStart:asciiEnd].
func (r *jsonReader) units() ([]uint16, bool) {
	if r.bin {
		s, ok := r.binEntry()
		switch {
		case !ok:
			return nil, true
		case s.kind == binStrASCII:
			r.asciiStart, r.asciiEnd = int(s.start), int(s.end)
			return nil, true
		case s.kind == binStrGo:
			return decodeWTF8(string(r.data[s.start:s.end])), false
		}
		return binUnits(r.data[s.start:s.end]), false
	}
	raw, plain := r.stringRaw()
	if r.err != nil {
		return nil, true
	}
	if plain {
		r.asciiEnd = r.pos - 1
		r.asciiStart = r.asciiEnd - len(raw)
		return nil, true
	}
	out := make([]uint16, len(raw))
	n := r.decodeUnits(raw, out)
	return out[:n:n], false
}

// jsString reads a string as a JavaScript string.
func (r *jsonReader) jsString() *jsString {
	if r.bin {
		s, ok := r.binEntry()
		if !ok {
			return emptyString
		}
		return r.binJS(s)
	}
	u, isASCII := r.units()
	if r.err != nil {
		return emptyString
	}
	if isASCII {
		return newASCII(string(r.data[r.asciiStart:r.asciiEnd]))
	}
	return newUTF16(u)
}

// goStringView is goString for text the caller only looks at: in a format-2 document an
// entry of Go text comes back as a view of the document's bytes, without a copy, that must
// not be kept past the call that reads it.
func (r *jsonReader) goStringView() string {
	if !r.bin {
		return r.goString()
	}
	save := r.pos
	i := r.binEntryIndex()
	if i < 0 {
		return ""
	}
	if e := r.strs[i]; e.kind != binStrUTF16 {
		return unsafe.String(unsafe.SliceData(r.data[e.start:e.end]), e.end-e.start)
	}
	r.pos = save
	return r.goString()
}

// goString reads a string as Go text (lone surrogates kept as WTF-8).
func (r *jsonReader) goString() string {
	if r.bin {
		i := r.binEntryIndex()
		if i < 0 {
			return ""
		}
		e := r.strs[i]
		if e.kind == binStrASCII {
			if k, ok := knownKey(r.data[e.start:e.end]); ok {
				return k // the format's member names, without a table of every entry
			}
		}
		for j := range r.goFew[:r.goFewN] {
			if r.goFew[j].i == i {
				return r.goFew[j].s
			}
		}
		if s, ok := r.goStrs[i]; ok {
			return s
		}
		s := r.binGo(e)
		if r.goFewN < len(r.goFew) {
			r.goFew[r.goFewN] = goStrEntry{i: i, s: s}
			r.goFewN++
			return s
		}
		if r.goStrs == nil {
			r.goStrs = map[int]string{}
		}
		r.goStrs[i] = s
		return s
	}
	raw, plain := r.stringRaw()
	if r.err != nil {
		return ""
	}
	if plain {
		return string(raw)
	}
	return r.decodeString(raw)
}

// maxSkipDepth bounds the nesting skip follows, so corrupt input cannot exhaust the stack.
const maxSkipDepth = 512

// skip skips one value of any type. Strings and containers are passed over by a byte scan
// that matches brackets and quotes without checking the rest of the grammar: the skipped
// text is either read properly later (records are scanned once, then decoded) or ignored.
func (r *jsonReader) skip() {
	if r.bin {
		r.binSkip()
		return
	}
	switch r.peek() {
	case '{', '[':
		r.skipContainer()
	case '"':
		r.skipString()
	default:
		r.skipDepth(0)
	}
}

// countRest counts the elements of the current array or members of the current object
// that follow the one at (or just before) the position: the commas before its closing
// bracket, found by a scan like skipContainer's. The position does not move; on malformed
// text the count may be anything (the reading that follows reports the error).
func (r *jsonReader) countRest() int {
	if r.bin {
		return r.binCountRest()
	}
	data := r.data
	depth, n := 0, 0
	for i := r.pos; i < len(data); i++ {
		c := data[i]
		if !structural[c] {
			continue
		}
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case '"':
			i = stringEnd(data, i+1)
		}
	}
	return n
}

// structural marks the bytes countRest looks at.
var structural = func() (t [256]bool) {
	for _, c := range []byte(`{}[],"`) {
		t[c] = true
	}
	return t
}()

// stringEnd returns the position of the quote that ends the string whose text starts at
// i, or len(data).
func stringEnd(data []byte, i int) int {
	for {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			return len(data)
		}
		k += i
		bs := 0
		for j := k - 1; j >= i && data[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return k
		}
		i = k + 1
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
	var arrays [(maxSkipDepth + 64) / 64]uint64 // bit set: the open bracket at that depth is '['
	depth := 0
	data := r.data
	for i := r.pos; i < len(data); i++ {
		c := data[i]
		if !structural[c] {
			continue
		}
		switch c {
		case '{', '[':
			if depth > maxSkipDepth {
				r.fail("nesting too deep")
				return
			}
			bit := uint64(1) << (depth % 64)
			if c == '[' {
				arrays[depth/64] |= bit
			} else {
				arrays[depth/64] &^= bit
			}
			depth++
		case '}', ']':
			if depth == 0 || (arrays[(depth-1)/64]>>((depth-1)%64)&1 == 1) != (c == ']') {
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
			i = stringEnd(data, i+1)
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

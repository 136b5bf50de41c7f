package interp

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// Snapshot format 2: the binary form of the snapshot document.
//
// Format 2 writes the same document as format 1 (the members, records and object entries of
// snapshot_codec.go and snapshot_heap.go), as a stream of one-byte tokens instead of JSON
// text, with every string stored once in a table in front of the stream:
//
//	binMarker, count (uvarint), count string entries, tokens of the document
//
// A string entry is a uvarint header, length<<2 | kind, and the string's bytes: kind
// binStrASCII (length ASCII bytes), binStrGo (length bytes of Go text, WTF-8 surrogates
// allowed) or binStrUTF16 (length UTF-16 code units, little-endian). Keys and string values
// refer to an entry by index (binString), so a property name or a value that occurs in many
// objects costs a byte or two after its first occurrence.
//
// The tokens mirror JSON's: binObject/binArray open a container and binEnd closes either;
// binNull, binFalse, binTrue; numbers as a small integer (one byte, binSmall|n for n < 128), a
// zigzag varint (binInt) or eight bytes (binFloat); and for the tagged values of the heap
// codec one token each instead of a small object: binObjRef {"#":id}, binNodeRef {"@":id},
// binSym {"y":id} (an id as a uvarint), binUndefined, binHole, binNaN, binInf, binNegInf,
// binNegZero, binWellKnown (followed by the name as a string token), binBigInt (followed by
// the value's hexadecimal text, "-" first when negative, as a string token). binBytes is a uvarint
// length and raw bytes: the program's source (as its quoted JSON text) and the compiled code
// (itself a format-2 document, of snapshot_code.go's members, base64 strings as binBytes).
//
// The codec's writer and reader (jsonWriter, jsonReader) switch to these tokens when they
// carry a table (jsonWriter.tab) or were opened on binary data (jsonReader.bin), so every slot
// codec writes and reads format 2 through the same calls as format 1. A snapshot's format is
// its first byte: '{' is format 1, binMarker format 2.
const binMarker = 0xB2

// Tokens of format 2. None is a byte that starts a JSON value or separates JSON tokens (the
// fast paths of the JSON reader compare bytes at the position and must not match a token).
const (
	binObject    = 0x01
	binArray     = 0x02
	binEnd       = 0x03
	binNull      = 0x04
	binFalse     = 0x05
	binTrue      = 0x06
	binInt       = 0x07 // zigzag varint
	binFloat     = 0x08 // float64, little-endian
	binString    = 0x09 // uvarint index into the string table
	binObjRef    = 0x0a // uvarint object id
	binNodeRef   = 0x0b // uvarint record id
	binSym       = 0x0c // uvarint symbol id
	binUndefined = 0x0d
	binHole      = 0x0e
	binNaN       = 0x0f
	binInf       = 0x10
	binNegInf    = 0x11
	binNegZero   = 0x12
	binWellKnown = 0x13 // a string token follows: the symbol's name
	binBytes     = 0x14 // uvarint length, bytes
	// Minor version 1 (snapshot_bin_program.go): object entries of the common shapes.
	binArrayObj = 0x15 // an array value follows: {"c":"Array","el":[...]}
	binPlainObj = 0x16 // an array value follows: {"pr":[...]}
	binBigInt   = 0x17 // a string token follows: the BigInt in hexadecimal ({"bi":"-1f"})
	binSmall    = 0x80 // binSmall|n: the integer n, 0 <= n < 128
)

// Kinds of string table entries.
const (
	binStrASCII = 0
	binStrGo    = 1
	binStrUTF16 = 2
)

// binPeek maps a token to the JSON byte that starts the value it stands for (what
// jsonReader.peek returns), 0 for bytes that start no value.
var binPeek = func() (t [256]byte) {
	t[binObject] = '{'
	t[binArray] = '['
	t[binEnd] = '}'
	t[binNull] = 'n'
	t[binFalse] = 'f'
	t[binTrue] = 't'
	t[binInt] = '0'
	t[binFloat] = '0'
	t[binString] = '"'
	t[binBytes] = '"'
	for _, c := range []byte{binObjRef, binNodeRef, binSym, binUndefined, binHole, binNaN, binInf, binNegInf, binNegZero, binWellKnown, binArrayObj, binPlainObj, binBigInt} {
		t[c] = '{' // tagged values are small objects in format 1
	}
	for c := binSmall; c < 256; c++ {
		t[c] = '0'
	}
	return t
}()

// appendDoc appends the document: marker, table, then the tokens.
func (t *binTable) appendDoc(dst, tokens []byte) []byte {
	dst = append(dst, binMarker)
	dst = binary.AppendUvarint(dst, uint64(t.n))
	dst = append(dst, t.buf...)
	return append(dst, tokens...)
}

// The writer's tokens.

func (w *jsonWriter) binUint(tag byte, u uint64) {
	w.buf = append(w.buf, tag)
	w.buf = binary.AppendUvarint(w.buf, u)
}

func (w *jsonWriter) binInt(i int64) {
	if i >= 0 && i < 128 {
		w.buf = append(w.buf, binSmall|byte(i))
		return
	}
	w.buf = append(w.buf, binInt)
	w.buf = binary.AppendVarint(w.buf, i)
}

func (w *jsonWriter) binFloat(f float64) {
	if i := int64(f); float64(i) == f && i > -1<<53 && i < 1<<53 && (i != 0 || !math.Signbit(f)) {
		w.binInt(i)
		return
	}
	w.buf = append(w.buf, binFloat)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(f))
}

// utf16 writes a string of code units (any).
func (w *jsonWriter) utf16(u []uint16) {
	if w.tab != nil {
		for _, c := range u {
			if c >= 0x80 {
				w.binUint(binString, uint64(w.tab.units(u)))
				return
			}
		}
		b := make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		w.binUint(binString, uint64(w.tab.goString(unsafe.String(unsafe.SliceData(b), len(b)))))
		return
	}
	w.comma()
	w.setBuf(appendJSONUTF16(w.buf, u))
	w.needComma = true
}

// bytes writes raw bytes: base64 text in format 1, binBytes in format 2.
func (w *jsonWriter) bytes(b []byte) {
	if w.tab != nil {
		w.binUint(binBytes, uint64(len(b)))
		w.buf = append(w.buf, b...)
		return
	}
	w.string(base64.StdEncoding.EncodeToString(b))
}

// The reader's tokens.

// binStr is an entry of the string table of the document a reader reads: its bytes are
// data[start:end]. (Offsets of 32 bits: the table of a large snapshot is a third the size.)
type binStr struct {
	start, end uint32
	kind       uint8
}

// binStrPool keeps string tables between restores (a table of n entries is 12n bytes that
// would otherwise be allocated and zeroed for every restore).
var binStrPool = sync.Pool{New: func() any { return new([]binStr) }}

// maxPooledStrs is the entry count from which a string table is dropped rather than pooled.
const maxPooledStrs = 1 << 20

// releaseStrs returns the reader's string table to the pool; the reader must not be used
// after.
func (r *jsonReader) releaseStrs() {
	if r.strs == nil || cap(r.strs) > maxPooledStrs {
		return
	}
	s := r.strs[:0]
	r.strs = nil
	binStrPool.Put(&s)
}

// openBin starts reading the format-2 document data (which starts with binMarker): it reads
// the string table and leaves the reader at the first token. Entries are bounded by the
// input: a count or length past its end fails.
func openBin(data []byte) *jsonReader {
	r := &jsonReader{data: data, bin: true, pos: 1}
	if uint64(len(data)) > math.MaxUint32 {
		r.fail("snapshot of %d bytes", len(data))
		return r
	}
	n := r.uvarint()
	if n > uint64(len(data)-r.pos) {
		r.fail("string table of %d entries", n)
		return r
	}
	pooled := binStrPool.Get().(*[]binStr)
	strs := *pooled
	if uint64(cap(strs)) < n {
		strs = make([]binStr, n)
	}
	strs = strs[:n]
	p := r.pos // kept in a register: the loop writes r.pos only for a long header
	for i := range strs {
		var h uint64
		if p < len(data) && data[p] < 0x80 { // most entries: a one-byte header
			h = uint64(data[p])
			p++
		} else {
			r.pos = p
			h = r.uvarint()
			p = r.pos
		}
		kind, size := uint8(h&3), h>>2
		if kind == binStrUTF16 {
			size *= 2
		}
		if kind > binStrUTF16 || h>>2 > uint64(len(data)) || size > uint64(len(data)-p) {
			r.pos = p
			r.fail("bad string table entry %d", i)
			return r
		}
		s := binStr{start: uint32(p), end: uint32(p + int(size)), kind: kind}
		if kind == binStrASCII && !shortASCII(data, s) && !isASCII(data[s.start:s.end]) {
			r.pos = p
			r.fail("string table entry %d is not ASCII", i)
			return r
		}
		strs[i] = s
		p = int(s.end)
	}
	r.pos = p
	r.strs = strs
	return r
}

// shortASCII reports whether entry s of data is shorter than 8 bytes and ASCII, by one load
// of the 8 bytes from its start when data has them (false: not known).
func shortASCII(data []byte, s binStr) bool {
	n := s.end - s.start
	if n >= 8 || int(s.start)+8 > len(data) {
		return false
	}
	return binary.LittleEndian.Uint64(data[s.start:])&(1<<(8*n)-1)&highBits == 0
}

// isASCII reports whether b is all ASCII.
func isASCII(b []byte) bool {
	if len(b) < 8 {
		var or byte
		for _, c := range b {
			or |= c
		}
		return or < 0x80
	}
	// the words OR-ed together, the last one overlapping the one before: one test at the end
	or := binary.LittleEndian.Uint64(b[len(b)-8:])
	for i := 0; i+8 <= len(b); i += 8 {
		or |= binary.LittleEndian.Uint64(b[i:])
	}
	return or&highBits == 0
}

// uvarint reads a uvarint. Those of one to three bytes (object ids and string indices below
// 2,097,152) are read without the general loop.
func (r *jsonReader) uvarint() uint64 {
	data, p := r.data, r.pos
	if p+2 < len(data) {
		if c := data[p]; c < 0x80 {
			r.pos = p + 1
			return uint64(c)
		} else if c2 := data[p+1]; c2 < 0x80 {
			r.pos = p + 2
			return uint64(c&0x7f) | uint64(c2)<<7
		} else if c3 := data[p+2]; c3 < 0x80 {
			r.pos = p + 3
			return uint64(c&0x7f) | uint64(c2&0x7f)<<7 | uint64(c3)<<14
		}
	} else if p < len(data) && data[p] < 0x80 {
		r.pos = p + 1
		return uint64(data[p])
	}
	u, n := binary.Uvarint(r.data[min(r.pos, len(r.data)):])
	if n <= 0 {
		r.fail("truncated or overlong varint")
		return 0
	}
	r.pos += n
	return u
}

// binTok returns the token at the position (0 at the end, which no token is).
func (r *jsonReader) binTok() byte {
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// binExpect consumes the token t.
func (r *jsonReader) binExpect(t byte) bool {
	if r.pos < len(r.data) && r.data[r.pos] == t {
		r.pos++
		return true
	}
	r.fail("expected token %#x, found %#x", t, r.binTok())
	return false
}

// binTokenOf maps the JSON bytes the reader's callers expect to tokens.
func binTokenOf(c byte) byte {
	switch c {
	case '{':
		return binObject
	case '[':
		return binArray
	case '}', ']':
		return binEnd
	}
	return 0
}

// binID reads the uvarint after a reference token as an index below limit.
func (r *jsonReader) binID(limit int) (int, bool) {
	u := r.uvarint()
	if r.err != nil || u >= uint64(limit) {
		return 0, false
	}
	return int(u), true
}

// binEntry reads a string token and returns its table entry.
func (r *jsonReader) binEntry() (binStr, bool) {
	if !r.binExpect(binString) {
		return binStr{}, false
	}
	i, ok := r.binID(len(r.strs))
	if !ok {
		r.fail("bad string index")
		return binStr{}, false
	}
	return r.strs[i], true
}

// binEntryIndex reads a string token and returns its index in the table (-1 on failure).
func (r *jsonReader) binEntryIndex() int {
	if !r.binExpect(binString) {
		return -1
	}
	i, ok := r.binID(len(r.strs))
	if !ok {
		r.fail("bad string index")
		return -1
	}
	return i
}

// binGo returns the entry as Go text (lone surrogates as WTF-8).
func (r *jsonReader) binGo(s binStr) string {
	b := r.data[s.start:s.end]
	if s.kind != binStrUTF16 {
		return string(b)
	}
	return newFlatUTF16(binUnits(b)).wtf8()
}

// binUnits decodes little-endian code units.
func binUnits(b []byte) []uint16 {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return u
}

// binJS returns the entry as a JavaScript string.
func (r *jsonReader) binJS(s binStr) *jsString {
	b := r.data[s.start:s.end]
	switch s.kind {
	case binStrASCII:
		return newASCII(string(b))
	case binStrGo:
		return newStringFromGo(string(b))
	}
	return newUTF16(binUnits(b))
}

// binInt reads an integer token.
func (r *jsonReader) binIntTok() int64 {
	c := r.binTok()
	switch {
	case c >= binSmall:
		r.pos++
		return int64(c &^ binSmall)
	case c == binInt:
		r.pos++
		u := r.uvarint() // zigzag: the fast paths of short uvarints serve short ints too
		if r.err != nil {
			return 0
		}
		i := int64(u >> 1)
		if u&1 != 0 {
			i = ^i
		}
		return i
	case c == binFloat:
		f := r.binFloatTok()
		if i := int64(f); float64(i) == f {
			return i
		}
	}
	r.fail("expected an integer")
	return 0
}

// binFloatTok reads a number token.
func (r *jsonReader) binFloatTok() float64 {
	if r.binTok() == binFloat {
		if r.pos+9 > len(r.data) {
			r.fail("truncated number")
			return 0
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(r.data[r.pos+1:]))
		r.pos += 9
		return f
	}
	return float64(r.binIntTok())
}

// binBytesTok reads a binBytes token.
func (r *jsonReader) binBytesTok() []byte {
	if !r.binExpect(binBytes) {
		return nil
	}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.data)-r.pos) {
		r.fail("bytes past the end")
		return nil
	}
	b := r.data[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b
}

// binSkip passes over one value, bounding the nesting.
func (r *jsonReader) binSkip() {
	depth := 0
	for r.err == nil {
		if r.pos >= len(r.data) {
			r.fail("unterminated value")
			return
		}
		c := r.data[r.pos]
		r.pos++
		switch {
		case c >= binSmall:
		case c == binObject || c == binArray:
			if depth >= maxSkipDepth {
				r.fail("nesting too deep")
				return
			}
			depth++
			continue
		case c == binEnd:
			if depth == 0 {
				r.pos--
				r.fail("unexpected end of container")
				return
			}
			depth--
		case c == binInt:
			r.binSkipVarint()
		case c == binFloat:
			if r.pos+8 > len(r.data) {
				r.fail("truncated number")
				return
			}
			r.pos += 8
		case c == binString || c == binObjRef || c == binNodeRef || c == binSym:
			r.uvarint()
		case c == binBytes:
			r.pos--
			r.binBytesTok()
		case c == binWellKnown || c == binBigInt:
			continue // its name or digits follow
		case c == binArrayObj || c == binPlainObj:
			continue // its elements or properties follow
		case c >= binNull && c <= binTrue, c >= binUndefined && c <= binNegZero:
		default:
			r.pos--
			r.fail("bad token %#x", c)
			return
		}
		if depth == 0 {
			return
		}
	}
}

func (r *jsonReader) binSkipVarint() {
	_, n := binary.Varint(r.data[r.pos:])
	if n <= 0 {
		r.fail("truncated or overlong varint")
		return
	}
	r.pos += n
}

// binCountRest is countRest for tokens: the values after the one at the position in the
// current container. The position does not move.
func (r *jsonReader) binCountRest() int {
	save, saveErr := r.pos, r.err
	data := r.data
	n := -1
	for r.err == nil && r.pos < len(data) && data[r.pos] != binEnd {
		// the values of long lists are mostly one token, or a token and a uvarint (numbers,
		// strings, references): passed over here; others by binSkip
		switch c := data[r.pos]; {
		case c >= binSmall, c >= binNull && c <= binTrue, c >= binUndefined && c <= binNegZero:
			r.pos++
		case c == binString || c == binObjRef || c == binNodeRef || c == binSym:
			p := r.pos + 1
			for p < len(data) && data[p] >= 0x80 {
				p++
			}
			r.pos = p + 1 // past the end when truncated: the count stops there
		default:
			r.binSkip()
		}
		n++
	}
	r.pos, r.err = save, saveErr
	return max(n, 0)
}

// finishBin assembles a format-2 snapshot from the encoded execution half: the members of
// the format-1 document, in its order, the program as bytes. The parts are copied once, into
// a document of their exact size: the string table (complete only when every part has been
// written), the small members written here, the records and the objects, the execution half.
func (vm *VM) finishBin(e *heapEncoder, execBytes []byte) ([]byte, error) {
	prog := vm.exec.program
	packed := prog.packedBin()
	if err := e.drain(); err != nil {
		e.release()
		return nil, fmt.Errorf("snapshot heap: %w", err)
	}
	small := &jsonWriter{tab: &e.tab, buf: make([]byte, 0, len(packed)+e.headBytes()+128)}
	small.beginObject()
	small.key("format")
	small.int(snapshotFormat2)
	small.key("minor")
	small.int(binMinor)
	small.key("program")
	small.bytes(packed)
	small.key("script")
	small.bool(prog.script)
	small.key("code")
	small.string(prog.CodeFingerprint())
	small.key("heap")
	e.heapHead(small)
	head := len(small.buf) // then the records
	small.key("objs")
	mid := len(small.buf) // then the objects
	small.endObject()
	small.key("exec")
	tail := len(small.buf) // then the execution half, and the end of the document
	nodes, objs := e.nodeW.buf, e.objW.buf
	var count [binary.MaxVarintLen64]byte
	countBytes := binary.PutUvarint(count[:], uint64(e.tab.n))
	doc := make([]byte, 0, 1+countBytes+len(e.tab.buf)+len(small.buf)+len(nodes)+len(objs)+len(execBytes)+1)
	doc = append(doc, binMarker)
	doc = append(doc, count[:countBytes]...)
	doc = append(doc, e.tab.buf...)
	doc = append(doc, small.buf[:head]...)
	doc = append(doc, nodes...)
	doc = append(doc, small.buf[head:mid]...)
	doc = append(doc, objs...)
	doc = append(doc, small.buf[mid:tail]...)
	doc = append(doc, execBytes...)
	doc = append(doc, binEnd)
	vm.snapshotHint.docBytes = len(doc)
	vm.snapshotHint.strings, vm.snapshotHint.tabBytes = e.tab.n, len(e.tab.buf)
	e.release()
	return doc, nil
}

// restoreBin is RestorePrefix of a format-2 snapshot. Its members must come in the order
// finishBin writes them.
func restoreBin(data []byte, cfg Config) (*VM, int, error) {
	r := openBin(data)
	var (
		format          int64 = -1
		minor           int64
		source, packed  []byte
		script          bool
		code            string
		compiled        []byte
		vm              *VM
		d               *heapDecoder
		haveHeap, haveX bool
	)
	fail := func(err error) (*VM, int, error) {
		if d != nil {
			d.release()
		}
		r.releaseStrs()
		return nil, 0, err
	}
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "format":
			format = r.int()
			if format != snapshotFormat2 && r.err == nil {
				return fail(fmt.Errorf("restore: format %d: %w", format, ErrSnapshotUnsupported))
			}
		case "minor":
			minor = r.int()
			if (minor < 0 || minor > binMinor) && r.err == nil {
				return fail(fmt.Errorf("restore: format 2.%d: %w", minor, ErrSnapshotUnsupported))
			}
		case "source":
			source = r.binBytesTok()
		case "program":
			packed = r.binBytesTok()
		case "script":
			script = r.bool()
		case "code":
			code = r.goString()
		case "compiled":
			compiled = r.binBytesTok()
		case "heap":
			if r.err != nil || (source == nil) == (packed == nil) || format != snapshotFormat2 || haveHeap {
				r.fail("heap before the program")
				break
			}
			var err error
			if packed != nil {
				vm, err = restorePackedVM(packed, script, code, cfg)
			} else {
				vm, err = restoreVM(source, script, code, compiled, cfg)
			}
			if err != nil {
				return fail(err)
			}
			d = vm.newHeapDecoder()
			if err := d.readHeap(r); err != nil {
				return fail(fmt.Errorf("restore heap: %w", err))
			}
			haveHeap = true
		case "exec":
			if !haveHeap || haveX {
				r.fail("exec before the heap")
				break
			}
			vm.readExec(d, r)
			if r.err != nil {
				return fail(fmt.Errorf("restore exec: %w", r.err))
			}
			haveX = true
		default:
			r.skip()
		}
	}
	if r.err != nil {
		return fail(fmt.Errorf("restore: %w", r.err))
	}
	if !haveX {
		return fail(fmt.Errorf("restore: missing sections: %w", ErrSnapshotCorrupt))
	}
	d.release() // before the string table: the decoder's reader shares it
	r.releaseStrs()
	return vm, r.pos, nil
}

// SnapshotFormatOf returns the format of snapshot data from its first byte: 1 (a JSON
// document), 2 (binary), or 0 when it is neither.
func SnapshotFormatOf(data []byte) int {
	switch {
	case len(data) == 0:
		return 0
	case data[0] == '{':
		return snapshotFormat
	case data[0] == binMarker:
		return snapshotFormat2
	}
	return 0
}

package interp

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// binTable collects the string table of a format-2 document while it is written.
//
// Every string a snapshot writes goes through it, so it is the encoder's hottest part. It
// finds an entry again in two steps:
//
//   - recent, a direct-mapped cache by the address of the text: the names of properties and
//     repeated values are mostly one Go string each (a constant of the program, a key shared
//     by the objects of a literal), found there without hashing their text;
//   - slots, an open-addressing hash table of plain integers that point into the entries'
//     bytes in buf. Unlike a Go map of strings it holds no pointers (nothing for the
//     collector to scan, no write barriers), stores no string header per entry, keeps its
//     storage from one document to the next and is sized from the previous document of the
//     VM (reserve), so a table of 100,000 strings is filled without growing.
type binTable struct {
	buf     []byte        // the entries written so far, as the document holds them
	n       int           // their count
	ents    []binTabEntry // by index: where each entry's text is in buf
	slots   []uint64      // 0: free; else tag<<32 | index+1, tag the hash's high half
	seed    maphash.Seed
	seeded  bool
	scratch []byte // a key of UTF-16 units in little-endian order, on big-endian machines
	recent  *[binRecent]binRecentEntry
	// recentSet lists the first entries of recent this document set (recentN in all), so
	// that the reset after a small document clears those only
	recentSet [64]uint16
	recentN   int
}

// binTabEntry locates an entry: its text is buf[off:off+size].
type binTabEntry struct {
	off  int
	size int32
	kind uint8
}

const binRecent = 512

// binRecentEntry caches the index of a Go string. It holds the string, so that its address
// cannot be reused for other text while it is cached.
type binRecentEntry struct {
	s   string
	idx int
}

// littleEndian is whether the machine stores uint16 little-endian, as UTF-16 entries are
// written: the units of a string are then their own key.
var littleEndian = func() bool {
	u := uint16(1)
	return *(*byte)(unsafe.Pointer(&u)) == 1
}()

// reserve makes room for strings entries of bytes bytes in all without growing.
func (t *binTable) reserve(strings, bytes int) {
	if cap(t.buf) < bytes {
		t.buf = make([]byte, 0, bytes)
	}
	if cap(t.ents) < strings {
		t.ents = make([]binTabEntry, 0, strings)
	}
	if size := binSlotsFor(strings); len(t.slots) < size {
		t.slots = make([]uint64, size)
	}
}

// binSlotsFor is the size of slots for n entries: a power of two, at most half full.
func binSlotsFor(n int) int {
	size := 256
	for size < 2*n {
		size *= 2
	}
	return size
}

// reset empties the table for the next document, keeping its storage. It keeps no string
// of the last document alive (the cache is cleared; the rest holds no pointers).
func (t *binTable) reset() {
	switch {
	case t.n == 0: // no slot is in use
	case len(t.slots) > 4*binSlotsFor(t.n):
		// far larger than this document needed (a pooled table of a larger heap): the next
		// document's reserve sizes it, rather than every small document clearing it
		t.slots = nil
	default:
		clear(t.slots)
	}
	t.buf, t.n, t.ents = t.buf[:0], 0, t.ents[:0]
	if t.recent != nil {
		if t.recentN <= len(t.recentSet) {
			for _, i := range t.recentSet[:t.recentN] {
				t.recent[i] = binRecentEntry{}
			}
		} else {
			clear(t.recent[:])
		}
	}
	t.recentN = 0
}

// goString returns the index of Go text s, adding it on first sight.
func (t *binTable) goString(s string) int {
	return t.cached(s, false)
}

// ascii is goString for text known to be ASCII.
func (t *binTable) ascii(s string) int {
	return t.cached(s, true)
}

// cached looks s up in recent first.
func (t *binTable) cached(s string, ascii bool) int {
	if len(s) == 0 {
		return t.text(s, binStrASCII)
	}
	if t.recent == nil {
		t.recent = new([binRecent]binRecentEntry)
	}
	p := unsafe.StringData(s)
	slot := (uintptr(unsafe.Pointer(p))>>3 ^ uintptr(len(s))*0x9e37) % binRecent
	e := &t.recent[slot]
	if unsafe.StringData(e.s) == p && len(e.s) == len(s) {
		return e.idx
	}
	if t.recentN < len(t.recentSet) {
		t.recentSet[t.recentN] = uint16(slot)
	}
	t.recentN++
	kind := uint8(binStrASCII)
	if !ascii && !isASCII(unsafe.Slice(p, len(s))) {
		kind = binStrGo
	}
	i := t.text(s, kind)
	e.s, e.idx = s, i
	return i
}

// units returns the index of UTF-16 code units u (not all ASCII), adding them on first sight.
func (t *binTable) units(u []uint16) int {
	var key []byte
	if littleEndian {
		key = unitsBytes(u)
	} else {
		t.scratch = t.scratch[:0]
		for _, c := range u {
			t.scratch = binary.LittleEndian.AppendUint16(t.scratch, c)
		}
		key = t.scratch
	}
	return t.text(unsafe.String(unsafe.SliceData(key), len(key)), binStrUTF16)
}

// text returns the index of the entry of kind whose bytes in the document are key, adding
// it on first sight.
func (t *binTable) text(key string, kind uint8) int {
	if !t.seeded {
		t.seed, t.seeded = maphash.MakeSeed(), true
	}
	if len(t.slots) == 0 {
		t.slots = make([]uint64, binSlotsFor(0))
	}
	tag := uint32(maphash.String(t.seed, key)>>32) ^ uint32(kind)
	mask := uint32(len(t.slots) - 1)
	pos := tag & mask
	for {
		sl := t.slots[pos]
		if sl == 0 {
			break
		}
		if uint32(sl>>32) == tag {
			i := int(uint32(sl)) - 1
			e := t.ents[i]
			if e.kind == kind && int(e.size) == len(key) && string(t.buf[e.off:e.off+len(key)]) == key {
				return i
			}
		}
		pos = (pos + 1) & mask
	}
	size := uint64(len(key))
	if kind == binStrUTF16 {
		size /= 2
	}
	t.buf = binary.AppendUvarint(t.buf, size<<2|uint64(kind))
	i := t.n
	t.ents = append(t.ents, binTabEntry{off: len(t.buf), size: int32(len(key)), kind: kind})
	t.buf = append(t.buf, key...)
	t.n++
	t.slots[pos] = uint64(tag)<<32 | uint64(i+1)
	if 2*t.n > len(t.slots) {
		t.grow()
	}
	return i
}

// grow doubles slots, placing every entry again by its tag.
func (t *binTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := uint32(len(t.slots) - 1)
	for _, sl := range old {
		if sl == 0 {
			continue
		}
		pos := uint32(sl>>32) & mask
		for t.slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		t.slots[pos] = sl
	}
}

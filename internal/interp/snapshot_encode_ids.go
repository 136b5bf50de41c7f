package interp

import (
	"math/bits"
	"slices"
	"unsafe"
)

// objectIDTable gives objects their ids during one heap encoding. It maps an object's
// address to a cell holding its id, laid out like the address space itself, so that objects
// allocated near one another (which a walk of the heap tends to meet near one another) have
// their ids near one another too, which a hash table would scatter:
//   - the address space is cut into chunks of 8 KiB, each with 256 cells of 32 bytes; no two
//     objects share a cell, an Object being larger than a cell (see the assertion below);
//   - a small directory (open addressing) maps chunk numbers to their cells, with the last
//     chunk used cached;
//   - every cell carries the epoch of the encoding that wrote it: starting an encoding is
//     incrementing the epoch, not clearing the cells, and a cell of an older epoch is free.
//
// Addresses are plain integers here: storing them needs no GC write barrier and the table
// holds nothing for the collector to scan. The objects stay alive through the encoder's
// queue, which holds them as pointers, and the collector does not move objects.
type objectIDTable struct {
	cells     []objectIDCell // objectIDChunkCells per chunk, in the order chunks were met
	dir       []objectIDDir  // chunk number to cells; a power of two of slots (or none)
	dirShift  uint           // 64 - log2(len(dir))
	chunks    int            // chunks with cells
	used      int            // chunks looked up in the current encoding
	epoch     uint32         // the current encoding's; cells of other epochs are free
	lastChunk uintptr        // the chunk number last looked up (0: none; no object lives there)
	lastBase  int            // its first cell
}

// objectIDCell is the id of the object in one cell, valid in encoding epoch.
type objectIDCell struct {
	id, epoch uint32
}

// objectIDDir is a directory slot: chunk (0: free) has its cells from base; epoch is the
// last encoding that looked it up.
type objectIDDir struct {
	chunk uintptr
	base  int32
	epoch uint32
}

const (
	objectIDCellShift  = 5  // cells of 32 bytes
	objectIDChunkShift = 13 // chunks of 8 KiB
	objectIDChunkCells = 1 << (objectIDChunkShift - objectIDCellShift)
)

// An Object must be larger than a cell, so that no two objects share one (this does not
// compile otherwise).
var _ [unsafe.Sizeof(Object{}) - 1<<objectIDCellShift]byte

// reset starts a new encoding, forgetting every id. A table serves the encodings of many
// heaps in turn: when most of its chunks went unused in the last encoding (addresses of
// other heaps, of freed memory), it starts afresh, so that it stays the size of the heaps it
// encodes rather than of every address it ever saw.
func (t *objectIDTable) reset() {
	if t.chunks > 4*t.used+64 {
		used := t.used
		*t = objectIDTable{epoch: t.epoch}
		t.reserve(used)
	}
	t.used = 0
	t.lastChunk = 0 // so that the first lookup of each chunk counts it as used
	t.epoch++
	if t.epoch == 0 {
		// after 2^32 encodings, clear the cells so that no old one passes for a new one
		clear(t.cells)
		t.epoch = 1
	}
}

// reserve makes room for cells of about n chunks (the count of a previous encoding).
func (t *objectIDTable) reserve(n int) {
	if n > t.chunks {
		t.cells = slices.Grow(t.cells, (n-t.chunks)*objectIDChunkCells)
	}
	for 2*n > len(t.dir) {
		t.growDir()
	}
}

// lookupOrAdd returns the id of o, or gives it id next (reporting added) when it has none.
func (t *objectIDTable) lookupOrAdd(o *Object, next int) (id int, added bool) {
	c := t.cell(uintptr(unsafe.Pointer(o)))
	if c.epoch == t.epoch {
		return int(c.id), false
	}
	*c = objectIDCell{id: uint32(next), epoch: t.epoch}
	return next, true
}

// cell returns the cell of the object at addr: its id if it has the current epoch, free
// otherwise. Objects smaller than a cell may share one (see nodeIDTable).
func (t *objectIDTable) cell(addr uintptr) *objectIDCell {
	if chunk := addr >> objectIDChunkShift; chunk != t.lastChunk {
		t.lastBase = t.chunkBase(chunk)
		t.lastChunk = chunk
	}
	return &t.cells[t.lastBase+int(addr>>objectIDCellShift)%objectIDChunkCells]
}

// nodeIDTable gives shared records (nodes) their ids during one heap encoding, by address
// like objectIDTable. Records may be smaller than a cell, so a cell holds the id of the first
// record met in it, checked against the queue of records; the others of the cell (rare) go
// to a map.
type nodeIDTable struct {
	cells  objectIDTable
	others map[slotCodec]int // records whose cell belongs to another one
}

// reset starts a new encoding, forgetting every id.
func (t *nodeIDTable) reset() {
	t.cells.reset()
	clear(t.others)
}

// lookupOrAdd returns the id of n, or gives it id len(*queue) and appends it to the queue
// (which holds every record by id) when it has none.
func (t *nodeIDTable) lookupOrAdd(n slotCodec, queue *[]slotCodec) int {
	next := len(*queue)
	// the address of the record: the data word of the interface (records are pointers)
	c := t.cells.cell(uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&n))[1]))
	switch {
	case c.epoch != t.cells.epoch:
		*c = objectIDCell{id: uint32(next), epoch: t.cells.epoch}
	case (*queue)[c.id] == n:
		return int(c.id)
	default:
		if id, ok := t.others[n]; ok {
			return id
		}
		if t.others == nil {
			t.others = map[slotCodec]int{}
		}
		t.others[n] = next
	}
	*queue = append(*queue, n)
	return next
}

// chunkBase returns the first cell of chunk, giving the chunk cells on first sight.
func (t *objectIDTable) chunkBase(chunk uintptr) int {
	if 2*(t.chunks+1) > len(t.dir) {
		t.growDir()
	}
	mask := uintptr(len(t.dir) - 1)
	for i := t.dirHome(chunk); ; i = (i + 1) & mask {
		d := &t.dir[i]
		if d.chunk == chunk {
			if d.epoch != t.epoch {
				d.epoch = t.epoch
				t.used++
			}
			return int(d.base)
		}
		if d.chunk == 0 {
			base := len(t.cells)
			t.cells = append(t.cells, make([]objectIDCell, objectIDChunkCells)...)
			*d = objectIDDir{chunk: chunk, base: int32(base), epoch: t.epoch}
			t.chunks++
			t.used++
			return base
		}
	}
}

// dirHome is the first directory slot probed for chunk (Fibonacci hashing).
func (t *objectIDTable) dirHome(chunk uintptr) uintptr {
	return uintptr(uint64(chunk) * 0x9E3779B97F4A7C15 >> t.dirShift)
}

// growDir doubles the directory (at least 64 slots).
func (t *objectIDTable) growDir() {
	old := t.dir
	size := max(2*len(old), 64)
	t.dir = make([]objectIDDir, size)
	t.dirShift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := uintptr(size - 1)
	for _, d := range old {
		if d.chunk == 0 {
			continue
		}
		i := t.dirHome(d.chunk)
		for t.dir[i].chunk != 0 {
			i = (i + 1) & mask
		}
		t.dir[i] = d
	}
}

package interp

// intrinsicObjs holds a realm's intrinsic objects by id (Object.iid); id 0 stands for none.
// A lazy realm creates few of its intrinsics (realm_lazy.go), so the table is kept in
// chunks, each allocated when an intrinsic of its range is set: a fresh realm pays for the
// chunks its eager intrinsics fall in, not for the whole table.
type intrinsicObjs struct {
	chunks []*intrinsicChunk
	n      int // ids [0, n) are valid
}

// intrinsicChunkSize is the number of ids per chunk.
const intrinsicChunkSize = 32

type intrinsicChunk [intrinsicChunkSize]*Object

// makeIntrinsicObjs returns an empty table for ids [0, n).
func makeIntrinsicObjs(n int) intrinsicObjs {
	return intrinsicObjs{chunks: make([]*intrinsicChunk, (n+intrinsicChunkSize-1)/intrinsicChunkSize), n: n}
}

// len returns the number of ids.
func (t *intrinsicObjs) len() int { return t.n }

// at returns the intrinsic with id (which must be below len), or nil when it is not created.
func (t *intrinsicObjs) at(id int) *Object {
	c := t.chunks[id/intrinsicChunkSize]
	if c == nil {
		return nil
	}
	return c[id%intrinsicChunkSize]
}

// set stores the intrinsic with id (which must be below len).
func (t *intrinsicObjs) set(id int, o *Object) {
	c := t.chunks[id/intrinsicChunkSize]
	if c == nil {
		c = new(intrinsicChunk)
		t.chunks[id/intrinsicChunkSize] = c
	}
	c[id%intrinsicChunkSize] = o
}

// add appends o with the next id, which it returns.
func (t *intrinsicObjs) add(o *Object) int {
	id := t.n
	if id/intrinsicChunkSize == len(t.chunks) {
		t.chunks = append(t.chunks, nil)
	}
	t.n++
	t.set(id, o)
	return id
}

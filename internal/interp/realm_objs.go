package interp

// intrinsicObjs holds a realm's intrinsic objects by id (Object.iid); id 0 stands for none.
// A lazy realm creates few of its intrinsics (realm_lazy.go), so the objects are kept in
// creation order and found through a table of positions by id: a fresh realm pays for two
// bytes per id (memory the collector does not scan) and a pointer per object it created.
type intrinsicObjs struct {
	pos  []uint16  // by id: 1 + the object's position in list; 0 when not created
	list []*Object // the created objects, in creation order
}

// makeIntrinsicObjs returns an empty table for ids [0, n) with room for created objects.
func makeIntrinsicObjs(n, created int) intrinsicObjs {
	return intrinsicObjs{pos: make([]uint16, n), list: make([]*Object, 0, created)}
}

// len returns the number of ids.
func (t *intrinsicObjs) len() int { return len(t.pos) }

// at returns the intrinsic with id (which must be below len), or nil when it is not created.
func (t *intrinsicObjs) at(id int) *Object {
	if p := t.pos[id]; p != 0 {
		return t.list[p-1]
	}
	return nil
}

// set stores the intrinsic with id (which must be below len).
func (t *intrinsicObjs) set(id int, o *Object) {
	if p := t.pos[id]; p != 0 {
		t.list[p-1] = o
		return
	}
	t.list = append(t.list, o)
	t.pos[id] = uint16(len(t.list))
}

// add appends o with the next id, which it returns.
func (t *intrinsicObjs) add(o *Object) int {
	id := len(t.pos)
	t.pos = append(t.pos, 0)
	t.set(id, o)
	return id
}

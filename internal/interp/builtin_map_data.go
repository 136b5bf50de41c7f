package interp

import (
	"cmp"
	"math"
	"slices"
	"weak"
)

// The storage shared by Map and Set: an ordered entry list with a hash index, and the live
// iterators over it.
//
// Entries are kept in insertion order in keys (and vals for a Map); index, a pointer-free hash
// table of positions (builtin_map_index.go), finds a key's entry. Deleting an entry leaves a
// tombstone (a hole key) so that positions held by iterators stay meaningful, exactly as the
// specification's list of records with empty slots. When tombstones outnumber live entries
// the list is compacted; every iterator that is still running is registered with the data
// through a weak pointer and has its position moved to the compacted list, so iteration
// under deletion behaves as the specification says while memory stays proportional to the
// live entries. All operations are O(1) amortised.
//
// Snapshots: the data is a shared record ("collection") referenced by the Map/Set object
// and by its iterators, so that a restored iterator is registered with the same storage.

// collection is the [[MapData]] / [[SetData]] of a Map or Set.
type collection struct {
	keys  []Value   // entry keys in insertion order; kindHole marks a deleted entry
	vals  []Value   // entry values (Map only; nil for a Set)
	index collIndex // key → position in keys
	live  int       // number of entries that are not deleted
	isMap bool
	iters []weak.Pointer[collIterator] // running iterators (for compaction); may hold dead ones
	// prunedAt is the length of iters after the last pruning of dead iterators.
	prunedAt int
}

// maxCollectionSize is the largest number of entries a Map or Set holds (V8's limit is 2^24).
const maxCollectionSize = 1 << 24

// collEntrySize is the accounted size of one entry (key, value and its share of the index),
// in bytes.
const collEntrySize = 2*valueSize + collSlotsAverage*collSlotSize

// normalizeKey turns -0 into +0 (Map.prototype.set and Set.prototype.add store +0).
func normalizeKey(v Value) Value {
	if v.kind == KindNumber && v.num == 0 {
		return Number(0)
	}
	return v
}

// newCollection makes empty storage.
func newCollection(isMap bool) *collection {
	return &collection{isMap: isMap}
}

// find returns the position of key, or -1.
func (c *collection) find(key Value) int {
	i, _ := c.index.find(c.keys, key, collHash(key))
	return i
}

// has reports whether key is present.
func (c *collection) has(key Value) bool { return c.find(key) >= 0 }

// get returns the value stored for key (Map).
func (c *collection) get(key Value) (Value, bool) {
	if i := c.find(key); i >= 0 {
		return c.vals[i], true
	}
	return undefinedValue, false
}

// set stores key → val (appending a new entry or overwriting the value in place).
func (c *collection) set(vm *VM, key, val Value) {
	h := collHash(key)
	i, slot := c.index.find(c.keys, key, h)
	if i >= 0 {
		if c.isMap {
			c.vals[i] = val
		}
		return
	}
	if c.live >= maxCollectionSize {
		if c.isMap {
			vm.throwRangeError("Map maximum size exceeded")
		}
		vm.throwRangeError("Set maximum size exceeded")
	}
	if len(c.keys) >= math.MaxInt32 {
		c.compact()
		slot = -1
	}
	c.index.insert(h, len(c.keys), slot)
	c.keys = append(c.keys, normalizeKey(key))
	if c.isMap {
		c.vals = append(c.vals, val)
	}
	c.live++
	if vm != nil {
		vm.allocated += collEntrySize
	}
}

// remove deletes key; it reports whether it was present.
func (c *collection) remove(key Value) bool {
	i, slot := c.index.find(c.keys, key, collHash(key))
	if i < 0 {
		return false
	}
	c.index.remove(slot)
	c.keys[i] = Value{kind: kindHole}
	if c.isMap {
		c.vals[i] = undefinedValue
	}
	c.live--
	if dead := len(c.keys) - c.live; dead > 16 && dead > c.live {
		c.compact()
	}
	return true
}

// clear deletes every entry. Running iterators continue after the old entries (they see
// entries added later), which compaction keeps true by moving them to position 0.
func (c *collection) clear() {
	for i := range c.keys {
		c.keys[i] = Value{kind: kindHole}
	}
	c.live = 0
	c.compact()
}

// compact drops tombstones and moves the positions of running iterators accordingly.
func (c *collection) compact() {
	// an iterator at old position p moves to the number of live entries before p: one pass
	// over the entries with the iterators in position order
	if iters := c.runningIters(); len(iters) > 0 {
		slices.SortFunc(iters, func(a, b *collIterator) int { return cmp.Compare(a.pos, b.pos) })
		live, i := 0, 0
		for _, it := range iters {
			for ; i < it.pos && i < len(c.keys); i++ {
				if c.keys[i].kind != kindHole {
					live++
				}
			}
			it.pos = live
		}
	}
	j := 0
	for i, k := range c.keys {
		if k.kind == kindHole {
			continue
		}
		c.keys[j] = k
		if c.isMap {
			c.vals[j] = c.vals[i]
		}
		j++
	}
	clear(c.keys[j:])
	c.keys = c.keys[:j]
	if c.isMap {
		clear(c.vals[j:])
		c.vals = c.vals[:j]
	}
	if cap(c.keys) > 64 && cap(c.keys) > 4*j {
		c.keys = append([]Value(nil), c.keys...)
		if c.isMap {
			c.vals = append([]Value(nil), c.vals...)
		}
	}
	c.index.rebuild(c.keys, j)
}

// runningIters returns the registered iterators that are alive and not finished, and
// forgets the others.
func (c *collection) runningIters() []*collIterator {
	var out []*collIterator
	kept := c.iters[:0]
	for _, w := range c.iters {
		if it := w.Value(); it != nil && it.data == c {
			out = append(out, it)
			kept = append(kept, w)
		}
	}
	clear(c.iters[len(kept):])
	c.iters = kept
	c.prunedAt = len(kept)
	return out
}

// register records a running iterator so that compaction can move it.
func (c *collection) register(it *collIterator) {
	if len(c.iters) >= 32 && len(c.iters) >= 2*c.prunedAt {
		c.runningIters()
	}
	c.iters = append(c.iters, weak.Make(it))
}

// each calls fn for every entry present when reached, in order, including entries added
// during the walk (forEach semantics); fn may mutate the collection.
func (c *collection) each(fn func(k, v Value)) {
	it := &collIterator{data: c, isMap: c.isMap}
	c.register(it)
	defer func() { it.data = nil }()
	for {
		k, v, ok := it.step()
		if !ok {
			return
		}
		fn(k, v)
	}
}

// collIterKind selects what a Map/Set iterator yields.
type collIterKind uint8

const (
	collKeys    collIterKind = iota // keys (and Set values)
	collValues                      // Map values
	collEntries                     // [key, value] pairs
)

// collIterator is the slot data of a Map Iterator or Set Iterator object.
type collIterator struct {
	data  *collection // nil once exhausted
	pos   int         // next position to look at in data.keys
	kind  collIterKind
	isMap bool // a Map Iterator (else a Set Iterator)
}

// step returns the next live entry and advances; ok is false at the end (the iterator is
// then finished for good).
func (it *collIterator) step() (k, v Value, ok bool) {
	c := it.data
	if c == nil {
		return undefinedValue, undefinedValue, false
	}
	for it.pos < len(c.keys) {
		i := it.pos
		it.pos++
		if c.keys[i].kind == kindHole {
			continue
		}
		if c.isMap {
			return c.keys[i], c.vals[i], true
		}
		return c.keys[i], c.keys[i], true
	}
	it.data = nil
	return undefinedValue, undefinedValue, false
}

// Snapshot codecs: the storage is a shared record; Map/Set objects hold a collSlot that
// refers to it, iterators refer to it directly.

// collSlot is the internal slot of a Map, Set, WeakMap or WeakSet object.
type collSlot struct {
	data *collection
	weak bool // a WeakMap or WeakSet
}

func init() {
	registerSlotType("collection", func() slotCodec { return &collection{} },
		func(d *heapDecoder, r *jsonReader, s slotCodec) {
			c := s.(*collection)
			r.beginArray()
			r.more(true)
			c.isMap = r.bool()
			r.more(false)
			r.beginArray()
			// Size the entry lists and the index from a count of the entries instead of
			// growing them (holes count too: the index may be larger than needed).
			// A Map's keys and values share one allocation.
			n := 0 // values
			if r.peek() != ']' {
				n = r.countRest() + 1
			}
			entries := n
			if c.isMap {
				entries = n / 2
			}
			if entries > 0 {
				if c.isMap {
					buf := make([]Value, 2*entries)
					c.keys, c.vals = buf[:0:entries], buf[entries:entries]
				} else {
					c.keys = make([]Value, 0, entries)
				}
			}
			if entries > 1 {
				c.index.reserve(entries) // a single entry allocates the smallest table anyway
			}
			for first := true; r.more(first); first = false {
				k := d.value(r)
				if c.isMap {
					r.more(false)
					v := d.value(r)
					c.vals = append(c.vals, v)
				}
				c.keys = append(c.keys, k)
				if k.kind != kindHole {
					h := collHash(k)
					i, slot := c.index.find(c.keys, k, h)
					if i >= 0 {
						r.fail("duplicate collection key")
						return
					}
					c.index.insert(h, len(c.keys)-1, slot)
					c.live++
				}
			}
			r.more(false)
		})
	registerSlotType("coll", func() slotCodec { return &collSlot{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		r.beginArray()
		r.more(true)
		n, _ := d.node(r).(*collection)
		if n == nil {
			r.fail("collection slot without data")
			return
		}
		r.more(false)
		s.(*collSlot).data = n
		s.(*collSlot).weak = r.bool()
		r.more(false)
	})
	registerSlotType("collIterator", func() slotCodec { return &collIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		it := s.(*collIterator)
		r.beginArray()
		r.more(true)
		n := d.node(r)
		if n != nil {
			c, ok := n.(*collection)
			if !ok {
				r.fail("collection iterator over a non-collection")
				return
			}
			it.data = c
			c.register(it)
		}
		r.more(false)
		it.isMap = r.bool()
		r.more(false)
		it.pos = int(r.int())
		r.more(false)
		it.kind = collIterKind(r.int())
		r.more(false)
		if it.pos < 0 || it.kind > collEntries {
			r.fail("bad collection iterator")
		}
	})
}

func (c *collection) slotTag() string { return "collection" }
func (c *collection) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.bool(c.isMap)
	e.w.beginArray()
	for i, k := range c.keys {
		e.value(k)
		if c.isMap {
			e.value(c.vals[i])
		}
	}
	e.w.endArray()
	e.w.endArray()
}
func (c *collection) walkSlot(w *heapWalker) {
	w.add(int64(len(c.keys)) * collEntrySize)
	for i, k := range c.keys {
		w.value(k)
		if c.isMap {
			w.value(c.vals[i])
		}
	}
}

func (s *collSlot) slotTag() string { return "coll" }
func (s *collSlot) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.node(s.data)
	e.w.bool(s.weak)
	e.w.endArray()
}
func (s *collSlot) walkSlot(w *heapWalker) { w.node(s.data) }

func (it *collIterator) slotTag() string { return "collIterator" }
func (it *collIterator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	if it.data == nil {
		e.w.null()
	} else {
		e.node(it.data)
	}
	e.w.bool(it.isMap)
	e.w.int(int64(it.pos))
	e.w.int(int64(it.kind))
	e.w.endArray()
}
func (it *collIterator) walkSlot(w *heapWalker) {
	if it.data != nil {
		w.node(it.data)
	}
}

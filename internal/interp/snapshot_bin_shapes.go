package interp

import (
	"encoding/binary"
	"unsafe"
)

// Shapes of the objects a format-2 heap restores: the objects whose property lists name the
// same string-table entries in the same order (records of one kind, the entries of a Map of
// objects, closures' length and name) share one slice of keys, checked for duplicates once.
// Only their values and attributes are stored per object. A shared slice has its exact size,
// so a property added to one object copies it (append), and propertyMap.remove copies keys
// of exact size before changing them.

// maxShapeKeys is the property count up to which objects share their keys: a larger object
// is rarely one of many alike, and its list would make a long key in the shape table.
const maxShapeKeys = 64

// maxPooledShapes is the number of shapes from which the decoder drops its shape table
// rather than keep it (cleared) for the next decode.
const maxPooledShapes = 1024

// binShapeKeys returns the keys of an object's property list: with names, the list is
// every key a name, and idx their string-table indices (4 bytes each, little-endian); else
// keys holds the keys. The result is the slice of an earlier object of the shape, or a new
// one after checking that no key repeats. Nil after a failure (reported to r).
func (d *heapDecoder) binShapeKeys(r *jsonReader, idx []byte, keys []PropertyKey, names bool) []PropertyKey {
	shareable := names && len(idx) <= 4*maxShapeKeys
	var recent *shapeEntry
	if shareable {
		// the shapes met last, by their first and last names and length, before the table
		name := unsafe.String(unsafe.SliceData(idx), len(idx))
		recent = &d.recentShapes[(uint(idx[0])*31+uint(idx[len(idx)-4])*7+uint(len(idx)))%recentShapes]
		if recent.keys != nil && recent.idx == name {
			return recent.keys
		}
		if e, ok := d.shapes[name]; ok {
			d.evictShape(recent)
			*recent = e
			return e.keys
		}
	}
	if names {
		keys = d.shapeKeysOf(r, d.shapeKeys[:0], idx)
		d.shapeKeys = keys[:0]
	}
	if len(keys) <= mapIndexThreshold {
		for i := 1; i < len(keys); i++ {
			for _, k := range keys[:i] {
				if k == keys[i] {
					r.fail("duplicate property %s", keys[i])
					return nil
				}
			}
		}
	} else if m := (propertyMap{keys: keys}); !m.buildIndex() {
		r.fail("duplicate property names")
		return nil
	}
	out := d.newKeys(len(keys))
	copy(out, keys)
	if shareable {
		d.evictShape(recent)
		*recent = shapeEntry{idx: string(idx), keys: out}
	}
	return out
}

// evictShape moves the shape of an entry of recentShapes, about to be replaced, to the
// shape table (which holds the shapes that recentShapes does not: a heap of few shapes
// needs no table).
func (d *heapDecoder) evictShape(recent *shapeEntry) {
	if recent.keys == nil {
		return
	}
	if d.shapes == nil {
		d.shapes = map[string]shapeEntry{}
	}
	d.shapes[recent.idx] = *recent
}

// shapeKeysOf appends to keys the names of the string-table indices idx (4 bytes each).
func (d *heapDecoder) shapeKeysOf(r *jsonReader, keys []PropertyKey, idx []byte) []PropertyKey {
	for i := 0; i+4 <= len(idx); i += 4 {
		keys = append(keys, strKey(d.binKeyAt(r, int(binary.LittleEndian.Uint32(idx[i:])))))
	}
	return keys
}

// shapeEntry is a shape: the string-table indices of its names (as binShapeKeys takes
// them) and its keys.
type shapeEntry struct {
	idx  string
	keys []PropertyKey
}

// recentShapes is the size of the decoder's cache of the shapes met last.
const recentShapes = 16

// appendShapeIndex appends a string-table index to a shape's list of indices.
func appendShapeIndex(idx []byte, i int) []byte {
	return binary.LittleEndian.AppendUint32(idx, uint32(i))
}

// newKeys returns storage for n keys of exact capacity, from a slab when small.
func (d *heapDecoder) newKeys(n int) []PropertyKey {
	size := d.slabSize(propSlabSize, 128)
	if n > size/4 {
		return make([]PropertyKey, n)
	}
	t := &d.keySlab
	if len(t.buf)-t.used < n {
		t.buf, t.used = make([]PropertyKey, size), 0
	}
	k := t.buf[t.used : t.used+n : t.used+n]
	t.used += n
	return k
}

// binPropSlab is storage for the properties (values and attributes) of the objects of a
// format-2 heap, whose keys are shared by shape: entries [used:] free.
type binPropSlab struct {
	props []Property
	used  int
}

// putBinProp adds a property of a fresh object to the slab, after the n already read.
func (d *heapDecoder) putBinProp(r *jsonReader, p *Property, n int) {
	s := &d.binProps
	if s.used == len(s.props) {
		size := d.slabSize(propSlabSize, 64)
		if n >= size/4 {
			size = n + 1 + r.binValuesLeft() // a long list: storage of its exact size
		}
		props := make([]Property, size)
		copy(props, s.props[s.used-n:s.used])
		s.props, s.used = props, n
	}
	// the slab is zeroed: set only the fields that are not zero (fewer write barriers)
	dst := &s.props[s.used]
	setValue(&dst.value, p.value)
	dst.flags = p.flags
	s.used++
}

// lastBinProps returns the n properties last put into the slab, of exact capacity.
func (d *heapDecoder) lastBinProps(n int) []Property {
	s := &d.binProps
	return s.props[s.used-n : s.used : s.used]
}

// binValuesLeft counts the values from the position to the end of the current container.
func (r *jsonReader) binValuesLeft() int {
	if r.binTok() == binEnd {
		return 0
	}
	return r.binCountRest() + 1
}

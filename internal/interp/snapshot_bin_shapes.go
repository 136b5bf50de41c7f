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

// binShapeKeys returns the keys of an object whose property list named keys, with idx the
// string-table indices of the names (4 bytes each, little-endian) when shareable (every key
// a name, at most maxShapeKeys of them): the slice of an earlier object of the shape, or a
// new one after checking that no key repeats. Nil after a failure (reported to r).
func (d *heapDecoder) binShapeKeys(r *jsonReader, idx []byte, keys []PropertyKey, shareable bool) []PropertyKey {
	if shareable {
		if k, ok := d.shapes[unsafe.String(unsafe.SliceData(idx), len(idx))]; ok {
			return k
		}
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
		if d.shapes == nil {
			d.shapes = map[string][]PropertyKey{}
		}
		d.shapes[string(idx)] = out
	}
	return out
}

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
	if len(d.keySlab) < n {
		d.keySlab = make([]PropertyKey, size)
	}
	k := d.keySlab[:n:n]
	d.keySlab = d.keySlab[n:]
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

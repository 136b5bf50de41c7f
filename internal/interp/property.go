package interp

import (
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"unsafe"
)

// PropertyKey is a property name: a string (held as WTF-8 text, which is lossless for UTF-16
// including lone surrogates, and is the plain Go string for ASCII names) or a symbol. It is
// comparable and usable as a map key.
type PropertyKey struct {
	name string  // WTF-8 of the string key when sym == nil
	sym  *Symbol // the symbol key, or nil
}

// strKey makes a string property key from Go text (ASCII or WTF-8).
func strKey(name string) PropertyKey { return PropertyKey{name: name} }

// symKey makes a symbol property key.
func symKey(s *Symbol) PropertyKey { return PropertyKey{sym: s} }

// jsStringKey makes a property key from a JS string.
func jsStringKey(s *jsString) PropertyKey { return PropertyKey{name: s.wtf8()} }

// indexKey makes the property key of an array index.
func indexKey(i uint32) PropertyKey { return PropertyKey{name: strconv.FormatUint(uint64(i), 10)} }

// mayBeIndexOrLength reports whether the key could be an array index or "length" (a cheap
// test that lets lookups skip the array and String exotic paths).
func (k PropertyKey) mayBeIndexOrLength() bool {
	if k.sym != nil || k.name == "" {
		return false
	}
	c := k.name[0]
	return (c >= '0' && c <= '9') || k.name == "length"
}

// isSymbol reports whether the key is a symbol.
func (k PropertyKey) isSymbol() bool { return k.sym != nil }

// toValue returns the key as a JS value (string or symbol).
func (k PropertyKey) toValue() Value {
	if k.sym != nil {
		return symbolValue(k.sym)
	}
	return stringValue(newStringFromGo(k.name))
}

// String returns the key for messages: the name, or "Symbol(desc)".
func (k PropertyKey) String() string {
	if k.sym != nil {
		return k.sym.descriptiveString()
	}
	return newStringFromGo(k.name).String()
}

// arrayIndex returns the key's value as an array index (a canonical decimal integer below
// 2^32-1), and whether it is one.
func (k PropertyKey) arrayIndex() (uint32, bool) {
	if k.sym != nil {
		return 0, false
	}
	return parseArrayIndex(k.name)
}

// parseArrayIndex parses a canonical array index: "0" or digits without a leading zero, value
// below 2^32-1.
func parseArrayIndex(s string) (uint32, bool) {
	n := len(s)
	if n == 0 || n > 10 || (n > 1 && s[0] == '0') {
		return 0, false
	}
	var v uint64
	for i := 0; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if v >= math.MaxUint32 {
		return 0, false
	}
	return uint32(v), true
}

// propFlags are the attributes of a property.
type propFlags uint8

const (
	propWritable     propFlags = 1 << iota // [[Writable]] (data properties)
	propEnumerable                         // [[Enumerable]]
	propConfigurable                       // [[Configurable]]
	propAccessor                           // an accessor property (getter/setter) instead of data

	// propDefault are the attributes of a property created by assignment or CreateDataProperty.
	propDefault = propWritable | propEnumerable | propConfigurable
	// propHidden are the attributes of built-in methods: writable, configurable, not enumerable.
	propHidden = propWritable | propConfigurable
)

// Property is an own property: a data value or a getter/setter pair, with attributes.
// An accessor property's value is of kind kindAccessor and refers to its accessorPair
// (kept out of line: accessors are rare, and every property is smaller for it).
type Property struct {
	value Value // data properties; the accessorPair of accessor properties
	flags propFlags
}

// accessorPair is the getter and setter of an accessor property (nil = undefined). Pairs
// are never changed once made (clones of the template share them): a change makes a new one.
type accessorPair struct {
	get, set *Object
}

// accessorProperty returns an accessor property (flags gets propAccessor).
func accessorProperty(get, set *Object, flags propFlags) Property {
	return Property{value: Value{kind: kindAccessor, ref: unsafe.Pointer(&accessorPair{get: get, set: set})},
		flags: flags | propAccessor}
}

// accessors returns the pair of an accessor property; nil for a data property.
func (p *Property) accessors() *accessorPair {
	if p.value.kind != kindAccessor {
		return nil
	}
	return (*accessorPair)(p.value.ref)
}

// getter returns the getter of an accessor property (nil: none, or a data property).
func (p *Property) getter() *Object {
	if a := p.accessors(); a != nil {
		return a.get
	}
	return nil
}

// setter returns the setter of an accessor property (nil: none, or a data property).
func (p *Property) setter() *Object {
	if a := p.accessors(); a != nil {
		return a.set
	}
	return nil
}

// setAccessors makes p an accessor property with get and set, keeping its flags (and
// setting propAccessor).
func (p *Property) setAccessors(get, set *Object) {
	*p = accessorProperty(get, set, p.flags)
}

func (p *Property) writable() bool     { return p.flags&propWritable != 0 }
func (p *Property) enumerable() bool   { return p.flags&propEnumerable != 0 }
func (p *Property) configurable() bool { return p.flags&propConfigurable != 0 }
func (p *Property) isAccessor() bool   { return p.flags&propAccessor != 0 }

// PropertyDescriptor is a (possibly partial) property descriptor as used by
// [[DefineOwnProperty]] and Object.defineProperty: each field has a has-flag.
type PropertyDescriptor struct {
	Value                                       Value
	Get, Set                                    Value // undefined or a callable
	Writable, Enumerable, Configurable          bool
	HasValue, HasGet, HasSet                    bool
	HasWritable, HasEnumerable, HasConfigurable bool
}

// isAccessor reports whether the descriptor has [[Get]] or [[Set]].
func (d *PropertyDescriptor) isAccessor() bool { return d.HasGet || d.HasSet }

// isData reports whether the descriptor has [[Value]] or [[Writable]].
func (d *PropertyDescriptor) isData() bool { return d.HasValue || d.HasWritable }

// dataDescriptor returns a complete data descriptor.
func dataDescriptor(v Value, flags propFlags) PropertyDescriptor {
	return PropertyDescriptor{
		Value: v, HasValue: true,
		Writable: flags&propWritable != 0, HasWritable: true,
		Enumerable: flags&propEnumerable != 0, HasEnumerable: true,
		Configurable: flags&propConfigurable != 0, HasConfigurable: true,
	}
}

// descriptorOf returns the complete descriptor of an own property.
func descriptorOf(p *Property) PropertyDescriptor {
	if p.isAccessor() {
		return PropertyDescriptor{
			Get: objectOrUndefined(p.getter()), HasGet: true,
			Set: objectOrUndefined(p.setter()), HasSet: true,
			Enumerable: p.enumerable(), HasEnumerable: true,
			Configurable: p.configurable(), HasConfigurable: true,
		}
	}
	return dataDescriptor(p.value, p.flags)
}

// objectOrUndefined wraps o, or gives undefined when o is nil.
func objectOrUndefined(o *Object) Value {
	if o == nil {
		return undefinedValue
	}
	return objectValue(o)
}

// propertyMap is the ordered own-property storage of an object: entries in insertion order
// and, from mapIndexThreshold entries on, a hash index from key to position (propIndex).
// Deleting an entry compacts the slice (order is preserved).
//
// The entries of a realm's built-in objects may live in the process-wide frozen store (see
// frozenStore): such a slice is shared by every realm, read-only, and exactly sized
// (len == cap, so that append copies). Every change copies it first: get and at hand out
// pointers into a private copy, remove copies before it compacts, add's append reallocates.
// The index of an object whose keys are frozen is the template's, shared too: add leaves it
// as it is (see add) and remove copies it before it changes it.
//
// The keys of objects restored from a snapshot are shared by the objects of one shape (the
// same names in the same order; see heapDecoder.binShapeKeys), exactly sized too: add's
// append copies them, and remove copies keys of exact size before it compacts them.
type propertyMap struct {
	keys  []PropertyKey
	props []Property
	index *propIndex
}

// mapIndexThreshold is the entry count from which a propertyMap keeps a hash index; below it a
// linear scan is faster.
const mapIndexThreshold = 16

// find returns the position of key, or -1.
func (m *propertyMap) find(key PropertyKey) int {
	i, _ := m.findHashed(key, 0)
	return i
}

// findHashed is find for a key whose hash h (propHash) the caller may know already, or 0 when
// it does not: it returns the position and the hash, computed if the lookup needed it (else
// still 0). A lookup along a prototype chain, or one followed by an add, hashes the key once,
// and the instructions with a constant key pass the hash computed with the code.
func (m *propertyMap) findHashed(key PropertyKey, h uint64) (int, uint64) {
	if m.index != nil {
		if h == 0 {
			h = propHash(key)
		}
		if i := m.index.find(m.keys, key, h); i >= 0 {
			return i, h
		}
		// keys added to an object that shares the template's index lie past its end
		for i := m.index.count(); i < len(m.keys); i++ {
			if m.keys[i] == key {
				return i, h
			}
		}
		return -1, h
	}
	if len(m.keys) > mapIndexThreshold {
		if h == 0 {
			h = propHash(key)
		}
		m.buildIndex() // filled without one (the snapshot decoder's fast path)
		return m.index.find(m.keys, key, h), h
	}
	for i := range m.keys {
		if m.keys[i] == key {
			return i, h
		}
	}
	return -1, h
}

// buildIndex creates the hash index from the entries. It reports false when two entries have
// the same key (then the index covers fewer keys than there are entries).
func (m *propertyMap) buildIndex() bool {
	m.index = newPropIndex(make([]uint64, propIndexWords(len(m.keys))))
	return m.index.fill(m.keys)
}

// get returns the property for key, or nil. The property may be written through the pointer.
func (m *propertyMap) get(key PropertyKey) *Property {
	if i := m.find(key); i >= 0 {
		if len(m.props) == cap(m.props) && frozenProps(m.props) {
			m.props = slices.Clone(m.props)
		}
		return &m.props[i]
	}
	return nil
}

// peek returns the property for key, or nil, for reading only: unlike get, it leaves
// storage shared with other realms shared, so the property must not be written through it.
func (m *propertyMap) peek(key PropertyKey) *Property {
	if i := m.find(key); i >= 0 {
		return &m.props[i]
	}
	return nil
}

// at returns the property at position i, which may be written through the pointer.
func (m *propertyMap) at(i int) *Property {
	if len(m.props) == cap(m.props) && frozenProps(m.props) {
		m.props = slices.Clone(m.props)
	}
	return &m.props[i]
}

// has reports whether key is present.
func (m *propertyMap) has(key PropertyKey) bool { return m.find(key) >= 0 }

// add appends a new property (key must not be present) and returns it.
//
// An object that shares the template's index (and had its keys frozen) keeps sharing it: the
// keys added lie past the index's end, where find scans them, until there are more than
// sharedIndexTail of them and the object builds an index of its own.
func (m *propertyMap) add(key PropertyKey, p Property) *Property {
	return m.addHashed(key, 0, p)
}

// addHashed is add for a key whose hash h is known (0: not known), as findHashed returns it.
func (m *propertyMap) addHashed(key PropertyKey, h uint64, p Property) *Property {
	sharedIndex := m.index != nil && m.index.count() < len(m.keys)
	if cap(m.keys) == 0 && cap(m.props) == 0 {
		m.keys, m.props = newPropStorage(4)
	} else if len(m.keys) == cap(m.keys) && frozenKeys(m.keys) {
		sharedIndex = m.index != nil
		m.keys = append(make([]PropertyKey, 0, len(m.keys)+frozenSpare), m.keys...)
	} else if len(m.keys) == cap(m.keys) && len(m.props) == cap(m.props) && !frozenProps(m.props) {
		// both full: grow them together, in one allocation while they are small (room for
		// 6, of an object made so, grows to the 8 an object made with 4 grows to)
		n := 2 * len(m.keys)
		if len(m.keys) < 8 {
			n = min(n, 8)
		}
		keys, props := newPropStorage(n)
		m.keys, m.props = append(keys, m.keys...), append(props, m.props...)
	}
	if len(m.props) == cap(m.props) && frozenProps(m.props) {
		m.props = append(make([]Property, 0, len(m.props)+frozenSpare), m.props...)
	}
	m.keys = append(m.keys, key)
	m.props = append(m.props, p)
	n := len(m.keys)
	switch {
	case sharedIndex && n-m.index.count() > sharedIndexTail:
		m.buildIndex()
	case sharedIndex:
		// the template's index stays as it is
	case m.index != nil:
		if h == 0 {
			h = propHash(key)
		}
		m.index = m.index.insert(h, n-1)
	case n > mapIndexThreshold:
		m.buildIndex()
	}
	return &m.props[n-1]
}

// appendNew appends properties whose keys are neither present nor repeated, at once: the
// storage is made at its final size (storage shared with other realms or objects is copied
// once), the keys shared through sharedAddedKeys when they extend the frozen keys of a
// built-in. The index follows add's rules; an object without one builds it on its first
// lookup.
func (m *propertyMap) appendNew(keys []PropertyKey, props []Property) {
	if len(keys) == 0 {
		return
	}
	n0, n := len(m.keys), len(m.keys)+len(keys)
	sharedIndex := m.index != nil && (m.index.count() < n0 || frozenKeys(m.keys))
	m.keys = sharedAddedKeys(m.keys, keys)
	ps := make([]Property, n)
	copy(ps, m.props)
	copy(ps[n0:], props)
	m.props = ps
	switch {
	case sharedIndex && n-m.index.count() > sharedIndexTail:
		m.buildIndex()
	case sharedIndex:
		// the template's index stays as it is
	case m.index != nil:
		for i := n0; i < n; i++ {
			m.index = m.index.insert(propHash(m.keys[i]), i)
		}
	}
}

// Small property storage: the keys and the properties of an object are allocated together
// (one allocation instead of two for most objects; the size of each is a malloc size class).
type (
	propStorage1 struct {
		keys  [1]PropertyKey
		props [1]Property
	}
	propStorage2 struct {
		keys  [2]PropertyKey
		props [2]Property
	}
	propStorage3 struct {
		keys  [3]PropertyKey
		props [3]Property
	}
	propStorage4 struct {
		keys  [4]PropertyKey
		props [4]Property
	}
	propStorage6 struct {
		keys  [6]PropertyKey
		props [6]Property
	}
	propStorage8 struct {
		keys  [8]PropertyKey
		props [8]Property
	}
	propStorage14 struct {
		keys  [14]PropertyKey
		props [14]Property
	}
	propStorage16 struct {
		keys  [16]PropertyKey
		props [16]Property
	}
)

// newPropStorage returns empty keys and properties with room for n entries (at least).
func newPropStorage(n int) ([]PropertyKey, []Property) {
	switch {
	case n <= 4:
		s := new(propStorage4)
		return s.keys[:0], s.props[:0]
	case n <= 8:
		s := new(propStorage8)
		return s.keys[:0], s.props[:0]
	case n <= 16:
		s := new(propStorage16)
		return s.keys[:0], s.props[:0]
	}
	return make([]PropertyKey, 0, n), make([]Property, 0, n)
}

// reserve gives an object without properties room for exactly n of them when n is 1 or 2
// (smaller than the 4 an add starts with), or for at least n otherwise: for objects that are
// made with all their properties (a function's, an iterator result's).
func (m *propertyMap) reserve(n int) {
	switch n {
	case 1:
		s := new(propStorage1)
		m.keys, m.props = s.keys[:0], s.props[:0]
	case 2:
		s := new(propStorage2)
		m.keys, m.props = s.keys[:0], s.props[:0]
	default:
		m.keys, m.props = newPropStorage(n)
	}
}

// frozenSpare is the room for more properties that an object leaves when it copies its
// frozen keys or properties to add one (a few globals, a method on a prototype).
const frozenSpare = 4

// sharedIndexTail is how many keys an object may add past the end of the index it shares
// with the template before it builds its own.
const sharedIndexTail = 8

// remove deletes key if present.
func (m *propertyMap) remove(key PropertyKey) {
	i := m.find(key)
	if i < 0 {
		return
	}
	sharedIndex := m.index != nil && m.index.count() < len(m.keys) // see add
	if frozenKeys(m.keys) {
		m.keys = slices.Clone(m.keys)
		if m.index != nil {
			m.index = m.index.clone()
		}
	} else if len(m.keys) == cap(m.keys) {
		m.keys = slices.Clone(m.keys) // may be shared by the objects of one shape (see below)
	}
	if frozenProps(m.props) {
		m.props = slices.Clone(m.props)
	}
	if !sharedIndex && m.index != nil {
		m.index.remove(key, i)
	}
	copy(m.keys[i:], m.keys[i+1:])
	copy(m.props[i:], m.props[i+1:])
	m.keys[len(m.keys)-1] = PropertyKey{}
	m.props[len(m.props)-1] = Property{}
	m.keys = m.keys[:len(m.keys)-1]
	m.props = m.props[:len(m.props)-1]
	if sharedIndex {
		m.buildIndex()
	}
}

// len returns the number of properties.
func (m *propertyMap) len() int { return len(m.keys) }

// propIndex is the hash index of a propertyMap, at the start of one pointer-free allocation of
// words: a header word (the number of keys the index covers -- the first that many of the
// map's keys -- in its low half, the table's capacity in its high half), then one of the
// package's open-addressing tables (hash_index.go) from key to position. The collector never
// scans it, building one is a single allocation, and an object refers to it by one pointer.
//
// A string key hashes its name's bytes (WTF-8), a symbol key its symbol's address (the Go
// collector does not move heap objects), both seeded per process as for Map keys.
type propIndex struct {
	header uint64 // count | capacity<<32; the slots follow in the same allocation
}

// propIndexWords returns the number of words of an index for n keys.
func propIndexWords(n int) int { return 1 + hashSlotsFor(max(n, 1)) }

// newPropIndex makes an empty index in words (zeroed, of propIndexWords(n) for n keys).
func newPropIndex(words []uint64) *propIndex {
	words[0] = uint64(len(words)-1) << 32
	return (*propIndex)(unsafe.Pointer(&words[0]))
}

// propNameSeed is the seed of the hashes of string property keys, random per process.
var propNameSeed = maphash.MakeSeed()

// propHash returns the hash of key. It is never 0, which findHashed takes for a hash not yet
// computed: the top bit is set, and the index uses only the low 32 bits.
func propHash(key PropertyKey) uint64 {
	if key.sym != nil {
		return collHash64(uint64(uintptr(unsafe.Pointer(key.sym)))) | 1<<63
	}
	return maphash.String(propNameSeed, key.name) | 1<<63
}

// count returns the number of keys the index covers.
func (x *propIndex) count() int { return int(uint32(x.header)) }

// words returns the index's words: the header, then the slots.
func (x *propIndex) words() []uint64 { return unsafe.Slice(&x.header, 1+x.header>>32) }

// slots returns the index's table.
func (x *propIndex) slots() []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Add(unsafe.Pointer(x), hashSlotSize)), x.header>>32)
}

// clone returns a copy of the index.
func (x *propIndex) clone() *propIndex {
	return (*propIndex)(unsafe.Pointer(&slices.Clone(x.words())[0]))
}

// find returns the position of key (whose hash is h) among the keys the index covers, or -1.
func (x *propIndex) find(keys []PropertyKey, key PropertyKey, h uint64) int {
	slots := x.slots()
	for i := hashHome(slots, h); ; i = hashNext(slots, i) {
		var s uint64
		if i, s = hashSeek(slots, i, h); s == 0 {
			return -1
		}
		if p := hashPos(s); keys[p] == key {
			return p
		}
	}
}

// fill indexes keys in x, an empty index sized for them. It reports false when two keys are
// the same: the later one is left out, so the index covers fewer keys than keys holds.
func (x *propIndex) fill(keys []PropertyKey) bool {
	slots := x.slots()
	for i, k := range keys {
		h := propHash(k)
		j := hashHome(slots, h)
		for {
			var s uint64
			if j, s = hashSeek(slots, j, h); s == 0 {
				break
			}
			if keys[hashPos(s)] == k {
				return false
			}
			j = hashNext(slots, j)
		}
		slots[j] = hashSlot(h, i)
		x.header++
	}
	return true
}

// insert indexes the key with hash h, known to be absent, at position pos (count(), the next
// one), and returns the index, reallocated when it had to grow.
func (x *propIndex) insert(h uint64, pos int) *propIndex {
	slots := x.slots()
	if n := x.count() + 1; 2*n > len(slots) {
		y := newPropIndex(make([]uint64, 1+2*len(slots)))
		y.header |= uint64(x.count())
		hashMove(y.slots(), slots)
		x, slots = y, y.slots()
	}
	hashPlace(slots, hashSlot(h, pos))
	x.header++
	return x
}

// remove removes key, indexed at position pos, from the index, which then covers one key
// less: the positions after pos are renumbered for the keys without it.
func (x *propIndex) remove(key PropertyKey, pos int) {
	slots := x.slots()
	h := propHash(key)
	i := hashHome(slots, h)
	for {
		var s uint64
		if i, s = hashSeek(slots, i, h); s == 0 {
			panic("interp: a property key is missing from its object's index")
		}
		if hashPos(s) == pos {
			break
		}
		i = hashNext(slots, i)
	}
	hashDelete(slots, i)
	hashRenumber(slots, pos)
	x.header--
}

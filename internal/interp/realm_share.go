package interp

import (
	"encoding/binary"
	"hash/maphash"
	"sync/atomic"
	"unsafe"
)

// sharedProps is the frozen storage of one template intrinsic that its clones share: its
// keys with their hash index, and its properties when none of them refers to an object (nil
// otherwise: clones copy those, with the references remapped to their own objects).
type sharedProps struct {
	keys  []PropertyKey
	props []Property
	index *propIndex // the keys' hash index (read-only), nil for few keys
}

// holdsNoObject reports whether no property of ps refers to an object, so that every realm
// can share the properties as they are.
func holdsNoObject(ps []Property) bool {
	for i := range ps {
		if ps[i].value.kind == KindObject || ps[i].getter() != nil || ps[i].setter() != nil {
			return false
		}
	}
	return true
}

// freeze moves the template realm's property keys, their hash indexes and the properties
// into the process-wide frozen store (one block each), points the template's objects at it
// and records what full clones share (t.shared: the properties of the objects that refer to
// no object)
// and how many properties they copy (t.copiedProps). It runs once, when the template is
// complete; from then on no realm writes to the store: propertyMap copies a frozen slice
// before any change.
func (t *Realm) freeze() {
	nKeys, nProps, nIndex := 0, 0, 0
	for iid := 1; iid < t.objs.len(); iid++ {
		o := t.objs.at(iid)
		nKeys += len(o.props.keys)
		nProps += len(o.props.props)
		if n := len(o.props.keys); n > mapIndexThreshold {
			nIndex += propIndexWords(n)
		}
	}
	store := &frozenStore{keys: make([]PropertyKey, nKeys), props: make([]Property, nProps),
		indexes: make([]uint64, nIndex)}
	keys, props, indexes := store.keys, store.props, store.indexes
	t.shared = make([]sharedProps, t.objs.len())
	t.copiedProps = 0
	for i := 1; i < t.objs.len(); i++ {
		o := t.objs.at(i)
		n := len(o.props.keys)
		if n == 0 {
			o.props.keys, o.props.props = nil, nil
			continue
		}
		copy(keys, o.props.keys)
		o.props.keys, keys = keys[:n:n], keys[n:]
		t.shared[i].keys = o.props.keys
		if n > mapIndexThreshold {
			size := propIndexWords(n)
			o.props.index, indexes = newPropIndex(indexes[:size:size]), indexes[size:]
			o.props.index.fill(o.props.keys)
			t.shared[i].index = o.props.index
		}
		copy(props, o.props.props)
		o.props.props, props = props[:n:n], props[n:]
		if !holdsNoObject(o.props.props) {
			// copied by full clones; lazy clones share them as placeholders (realm_lazy.go)
			t.copiedProps += n
			continue
		}
		t.shared[i].props = o.props.props
	}
	// the entries of added keys of every built-in with keys, in one block (store.ways), and
	// the table that finds them holds no pointers: the collector marks one object rather
	// than one per built-in (some 660), and need not scan the table
	nBuiltins := 0
	for i := 1; i < t.objs.len(); i++ {
		if len(t.objs.at(i).props.keys) > 0 {
			nBuiltins++
		}
	}
	store.ways = make([]addedKeysWays, nBuiltins)
	store.added = make(map[int]frozenBuiltin, nBuiltins)
	for i := 1; i < t.objs.len(); i++ {
		if ks := t.objs.at(i).props.keys; len(ks) > 0 {
			at := (uintptr(unsafe.Pointer(unsafe.SliceData(ks))) - uintptr(unsafe.Pointer(unsafe.SliceData(store.keys)))) /
				unsafe.Sizeof(PropertyKey{})
			store.added[int(at)] = frozenBuiltin{n: int32(len(ks)), way: int32(len(store.added))}
		}
	}
	// not sized by the keys: most names are the keys of several built-ins (some 450 names
	// for 2,000 keys), and a table sized for every key would be mostly empty, yet scanned
	// by every collection cycle of the process
	store.names = make(map[string]string)
	for _, k := range store.keys {
		if k.sym == nil {
			store.names[k.name] = k.name
		}
	}
	frozen.Store(store)
}

// frozenStore is the process-wide read-only storage of the template realm's property keys
// and properties: the realms cloned from the template share these slices instead of copying
// them (copy-on-write, see propertyMap) -- full clones those that hold no object reference
// (the "length" and "name" of the native functions, ...), lazy clones most others too.
type frozenStore struct {
	keys    []PropertyKey
	props   []Property
	indexes []uint64          // the hash indexes of the keys (propIndex), one after the other
	names   map[string]string // the names of the string keys, for interning (internKeyName)
	added   map[int]frozenBuiltin
	ways    []addedKeysWays // the entries of added keys of the built-ins (frozenBuiltin.way)
}

// frozenBuiltin is what frozenStore.added keeps per built-in, by where its keys start in
// the store: how many keys it has, and the position of its entries of added keys in
// frozenStore.ways (see addedKeysWays). It holds no pointer: the collector does not scan
// the table.
type frozenBuiltin struct {
	n   int32
	way int32
}

// frozen is the frozen store, set once when the template realm is complete.
var frozen atomic.Pointer[frozenStore]

// frozenKeys reports whether keys lies in the frozen store.
func frozenKeys(keys []PropertyKey) bool {
	f := frozen.Load()
	if f == nil || len(keys) == 0 || len(f.keys) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(keys)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(f.keys)))
	return p-start < uintptr(len(f.keys))*unsafe.Sizeof(PropertyKey{})
}

// frozenProps reports whether props lies in the frozen store.
func frozenProps(props []Property) bool {
	f := frozen.Load()
	if f == nil || len(props) == 0 || len(f.props) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(props)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(f.props)))
	return p-start < uintptr(len(f.props))*unsafe.Sizeof(Property{})
}

// The keys of built-ins that snapshots add properties to (the global object above all, with
// the globals a host defines) are a built-in's frozen keys followed by the names added,
// exactly sized (an add copies them) and shared by every realm that adds the same names
// (sharedAddedKeys). Each built-in with frozen keys has a few entries of its own
// (frozenStore.added), so that the lists one restore writes for different built-ins never
// replace each other. An entry is replaced, never changed, so that readers take no lock; a
// built-in that meets more lists than it has entries copies them for each realm, as without
// the entries. A host's globals make one list, or a few.
type addedKeysWays [addedKeyWays]atomic.Pointer[addedKeysEntry]

// addedKeysEntry is an entry of addedKeysWays: the names added (see sharedAddedKeys), and
// the keys.
type addedKeysEntry struct {
	id   string
	keys []PropertyKey
}

// Bounds of the added keys: the entries per built-in, the length of a list of added names,
// and the size of an entry's id.
const (
	addedKeyWays   = 4
	maxAddedKeys   = 64
	maxAddedKeysID = 2048
)

// addedKeysSeed is the seed of the hashes that place lists among a built-in's entries.
var addedKeysSeed = maphash.MakeSeed()

// sharedAddedKeys returns keys followed by added, exactly sized: when keys are a built-in's
// frozen keys and added are names, the slice shared by every realm that adds them (see
// addedKeysWays); otherwise a copy.
func sharedAddedKeys(keys, added []PropertyKey) []PropertyKey {
	if len(keys) == 0 || len(keys) != cap(keys) || len(added) > maxAddedKeys {
		return appendKeys(keys, added)
	}
	ways := frozenAddedKeys(keys)
	if ways == nil {
		return appendKeys(keys, added)
	}
	// the entry's id: each name with its length
	var buf [256]byte
	id := buf[:0]
	for _, k := range added {
		if k.sym != nil {
			return appendKeys(keys, added) // symbols belong to one heap
		}
		id = binary.AppendUvarint(id, uint64(len(k.name)))
		id = append(id, k.name...)
		if len(id) > maxAddedKeysID {
			return appendKeys(keys, added)
		}
	}
	for i := range ways {
		if e := ways[i].Load(); e != nil && e.id == string(id) {
			return e.keys
		}
	}
	out := appendKeys(keys, added)
	ways[maphash.Bytes(addedKeysSeed, id)%addedKeyWays].Store(&addedKeysEntry{id: string(id), keys: out})
	return out
}

// frozenAddedKeys returns the added keys' entries of the built-in whose frozen keys are
// exactly keys, nil when keys are not a built-in's.
func frozenAddedKeys(keys []PropertyKey) *addedKeysWays {
	if !frozenKeys(keys) {
		return nil
	}
	f := frozen.Load()
	at := (uintptr(unsafe.Pointer(unsafe.SliceData(keys))) - uintptr(unsafe.Pointer(unsafe.SliceData(f.keys)))) /
		unsafe.Sizeof(PropertyKey{})
	b, ok := f.added[int(at)]
	if !ok || int(b.n) != len(keys) {
		return nil
	}
	return &f.ways[b.way]
}

// appendKeys returns keys followed by added in new storage of exact size.
func appendKeys(keys, added []PropertyKey) []PropertyKey {
	out := make([]PropertyKey, len(keys)+len(added))
	copy(out, keys)
	copy(out[len(keys):], added)
	return out
}

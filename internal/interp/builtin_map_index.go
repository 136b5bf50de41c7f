package interp

import (
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// The hash index of Map and Set storage (collection.index).
//
// The index maps a key under SameValueZero to its position in collection.keys. It is one of
// the package's open-addressing tables (hash_index.go): uint64 slots that the collector never
// scans, so restoring a snapshot allocates one pointer-free slice per collection. Deleting a
// key empties its slot (backward-shift deletion); compacting the entry list (which renumbers
// positions) rebuilds the table by hashing the live keys again.
//
// Keys are hashed and compared directly as Values under SameValueZero: -0 and +0 are one key,
// every NaN is one key, undefined, null and booleans compare by value, symbols and objects by
// identity (their address: the Go collector does not move heap objects), strings by code
// units whatever their form (flat ASCII, flat UTF-16 or rope, which is flattened first).
//
// Hashing is seeded per process so that a program cannot build colliding keys without the
// seed (a program inserting many keys crafted to collide would otherwise make each insertion
// O(n)): strings use hash/maphash with a random seed; numbers, symbols and objects (64-bit
// payloads) use wyhash's 64-bit mixing with secret keys drawn from a random maphash seed, the
// function Go's own maps use for 8-byte keys where AES hashing is unavailable.

// collIndex is the open-addressing hash table of a collection.
type collIndex struct {
	slots []uint64 // a hash table (hash_index.go): hash32<<32 | position+1; 0 is empty
	used  int      // occupied slots
}

// Sizes of the index.
const (
	collSlotSize     = hashSlotSize // bytes per slot
	collMinSlots     = hashMinSlots // capacity of the smallest non-empty table
	collSlotsAverage = 3            // slots per entry on average (between 2 and 4 at load ≤ 1/2)
)

// Seeds of the key hashes, random per process.
var (
	collStringSeed = maphash.MakeSeed() // ASCII strings (and UTF-16 strings with only ASCII units)
	collWideSeed   = maphash.MakeSeed() // UTF-16 strings, hashed as their code units' bytes
	collMixKey0    = collSecret(0)      // secrets of the 64-bit mix
	collMixKey1    = collSecret(1)
)

// collSecret draws a secret 64-bit key from a random seed.
func collSecret(i uint64) uint64 {
	return maphash.Comparable(maphash.MakeSeed(), i) | 1
}

// wyhash constants (the primes of wyhash's final version).
const (
	wyp0 = 0xa0761d6478bd642f
	wyp1 = 0xe7037ed1a0b428db
	wyp2 = 0x8ebc6af09c88c6e3
)

// collMix is wyhash's multiply-and-fold step.
func collMix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// collHash64 hashes a 64-bit payload with the secret keys.
func collHash64(x uint64) uint64 {
	return collMix(wyp1^8, collMix(uint64(uint32(x))^collMixKey1^wyp2, x>>32^collMixKey0^wyp0))
}

// Payload tags that keep undefined, null and the booleans apart from one another (they are
// kept apart from numbers by the key comparison, which checks the kind).
const (
	collTagUndefined = 0x756e646566696e65
	collTagNull      = 0x6e756c6c6e756c6c
	collTagBool      = 0x626f6f6c65616e00
)

// collHash returns the hash of v under SameValueZero: equal keys hash the same.
func collHash(v Value) uint64 {
	switch v.kind {
	case KindString:
		return collHashString(v.str())
	case KindNumber:
		f := v.num
		var b uint64
		switch {
		case f != f:
			b = 0x7ff8000000000001 // every NaN
		case f == 0:
			b = 0 // -0 is +0
		default:
			b = math.Float64bits(f)
		}
		return collHash64(b)
	case KindSymbol, KindObject:
		return collHash64(uint64(uintptr(v.ref)))
	case KindBool:
		if v.num != 0 {
			return collHash64(collTagBool | 1)
		}
		return collHash64(collTagBool)
	case KindNull:
		return collHash64(collTagNull)
	case KindBigInt:
		// by value: the low word and the sign, enough to spread keys (equal values agree)
		b := v.bigint()
		return collHash64(bigIntLow64(b) ^ uint64(b.Sign()+1)<<62 ^ uint64(b.BitLen()))
	}
	return collHash64(collTagUndefined)
}

// collHashString hashes the code units of s. Flat ASCII text hashes without allocating; a rope
// is flattened first. A UTF-16 string hashes its units' bytes, unless every unit is ASCII (a
// form the string constructors avoid), when it hashes as the equal ASCII string.
func collHashString(s *jsString) uint64 {
	s = s.flat()
	if s.isASCII {
		return maphash.String(collStringSeed, s.ascii)
	}
	u := s.flatUnits()
	for _, c := range u {
		if c >= 0x80 {
			return maphash.Bytes(collWideSeed, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), 2*len(u)))
		}
	}
	var h maphash.Hash
	h.SetSeed(collStringSeed)
	var buf [64]byte
	for len(u) > 0 {
		n := min(len(u), len(buf))
		for i, c := range u[:n] {
			buf[i] = byte(c)
		}
		h.Write(buf[:n])
		u = u[n:]
	}
	return h.Sum64()
}

// collSameKey reports whether the stored key a and the key b are the same under SameValueZero.
func collSameKey(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindNumber:
		return a.num == b.num || a.num != a.num && b.num != b.num
	case KindBool:
		return a.num == b.num
	case KindString:
		return a.ref == b.ref || collSameString(a.str(), b.str())
	case KindSymbol, KindObject:
		return a.ref == b.ref
	case KindBigInt:
		return a.ref == b.ref || a.bigint().Cmp(b.bigint()) == 0
	}
	return true
}

// collSameString compares the code units of two strings whatever their forms.
func collSameString(a, b *jsString) bool {
	if a.length != b.length {
		return false
	}
	a, b = a.flat(), b.flat()
	switch {
	case a.isASCII && b.isASCII:
		return a.ascii == b.ascii
	case !a.isASCII && !b.isASCII:
		return slices.Equal(a.flatUnits(), b.flatUnits())
	case a.isASCII:
		a, b = b, a
	}
	// a is UTF-16, b is ASCII
	for i, c := range a.flatUnits() {
		if c != uint16(b.ascii[i]) {
			return false
		}
	}
	return true
}

// collSlotsFor returns the capacity for n keys: a power of two ≥ 2n (0 for no keys).
func collSlotsFor(n int) int { return hashSlotsFor(n) }

// reserve makes room for n keys in an empty index.
func (x *collIndex) reserve(n int) {
	if size := collSlotsFor(n); size > len(x.slots) {
		x.slots = make([]uint64, size)
	}
}

// find returns the position of key (whose hash is h) in keys, or -1, with the empty slot where
// the probe ended (where key would be inserted).
func (x *collIndex) find(keys []Value, key Value, h uint64) (pos, slot int) {
	if len(x.slots) == 0 {
		return -1, -1
	}
	for i := hashHome(x.slots, h); ; i = hashNext(x.slots, i) {
		var s uint64
		if i, s = hashSeek(x.slots, i, h); s == 0 {
			return -1, i
		}
		if p := hashPos(s); collSameKey(keys[p], key) {
			return p, i
		}
	}
}

// insert records that the key with hash h, known to be absent, is at pos; slot is the empty
// slot find returned for it (or -1).
func (x *collIndex) insert(h uint64, pos, slot int) {
	if 2*(x.used+1) > len(x.slots) {
		x.grow()
		slot = -1
	}
	if slot < 0 {
		hashPlace(x.slots, hashSlot(h, pos))
	} else {
		x.slots[slot] = hashSlot(h, pos)
	}
	x.used++
}

// grow doubles the capacity, re-placing the slots from their stored hashes.
func (x *collIndex) grow() {
	old := x.slots
	x.slots = make([]uint64, max(collMinSlots, 2*len(old)))
	hashMove(x.slots, old)
}

// remove deletes the key at slot (as found by find), shifting back the slots after it that
// probing would otherwise no longer reach.
func (x *collIndex) remove(slot int) {
	hashDelete(x.slots, slot)
	x.used--
}

// rebuild indexes the live keys of keys again (after their positions changed), sized for live
// keys.
func (x *collIndex) rebuild(keys []Value, live int) {
	if size := collSlotsFor(live); size == len(x.slots) {
		clear(x.slots)
	} else if size == 0 {
		x.slots = nil
	} else {
		x.slots = make([]uint64, size)
	}
	x.used = 0
	for i, k := range keys {
		if k.kind != kindHole {
			x.insert(collHash(k), i, -1)
		}
	}
}

package interp

import "math/bits"

// The open-addressing table shared by the package's hash indexes: the index of Map and Set
// storage (collIndex) and the index of an object's own properties (propIndex).
//
// An index maps a key to its position in a list of keys that its user keeps. The table is an
// array of uint64 slots, so the collector never scans it and building one is a single
// pointer-free allocation:
//
//	slot = hash32<<32 | (position+1)     (0 is an empty slot)
//
// The upper half holds the low 32 bits of the key's hash: a probe compares it before looking
// at the key itself, and growing the table re-places slots from it without touching the keys
// (the capacity is at most 2^25 slots, so 32 bits always hold the home slot). The capacity is
// a power of two of at least hashMinSlots slots and the load stays at most 1/2, so an
// unsuccessful lookup probes 2.5 slots on average. Probing is linear; deleting uses
// backward-shift deletion, so the table never holds tombstones, only the live keys.
//
// The table knows neither how keys are hashed nor how they are compared: each user hashes a
// key, walks the candidates with hashSeek and compares them with its key itself (in line,
// without an indirect call per candidate: the probe's state stays in registers).

// Sizes of a hash table.
const (
	hashSlotSize = 8 // bytes per slot
	hashMinSlots = 8 // capacity of the smallest non-empty table
)

// hashSlotsFor returns the capacity for n keys: a power of two ≥ 2n (0 for no keys).
func hashSlotsFor(n int) int {
	if n <= 0 {
		return 0
	}
	return max(hashMinSlots, 1<<bits.Len(uint(2*n-1)))
}

// hashSlot returns the slot word of the key with hash h at position pos.
func hashSlot(h uint64, pos int) uint64 { return h<<32 | uint64(pos+1) }

// hashHome returns the home slot of hash h in slots, a non-empty table.
func hashHome(slots []uint64, h uint64) int { return int(h) & (len(slots) - 1) }

// hashSeek returns the first slot from i on (cyclically) that is empty or holds the hash h
// (its low 32 bits), with the slot's word: 0 when empty, else a candidate for the key, at
// position hashPos of the word. A lookup starts at hashHome and, after a candidate that is
// not its key, goes on from the next slot (hashNext); it ends at an empty slot. slots is a
// non-empty table (it always has empty slots).
func hashSeek(slots []uint64, i int, h uint64) (int, uint64) {
	mask, tag := len(slots)-1, h<<32
	for {
		s := slots[i]
		if s == 0 || s&^0xffffffff == tag {
			return i, s
		}
		i = (i + 1) & mask
	}
}

// hashNext returns the slot after i.
func hashNext(slots []uint64, i int) int { return (i + 1) & (len(slots) - 1) }

// hashPos returns the position held by an occupied slot's word.
func hashPos(w uint64) int { return int(uint32(w)) - 1 }

// hashPlace stores slot word w in the first empty slot from its home (the table must have
// one).
func hashPlace(slots []uint64, w uint64) {
	mask := len(slots) - 1
	i := int(w>>32) & mask
	for slots[i] != 0 {
		i = (i + 1) & mask
	}
	slots[i] = w
}

// hashMove re-places every occupied slot of src into dst, an empty table with room for them.
func hashMove(dst, src []uint64) {
	for _, s := range src {
		if s != 0 {
			hashPlace(dst, s)
		}
	}
}

// hashDelete empties slot (an occupied slot of slots), shifting back the slots after it that
// probing would otherwise no longer reach.
func hashDelete(slots []uint64, slot int) {
	mask := len(slots) - 1
	i := slot
	for j := (i + 1) & mask; slots[j] != 0; j = (j + 1) & mask {
		home := int(slots[j]>>32) & mask
		// the slot at j may move to i when its home is not cyclically in (i, j]
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			slots[i] = slots[j]
			i = j
		}
	}
	slots[i] = 0
}

// hashRenumber lowers by one the positions above pos held by slots (after the key at pos was
// deleted from a list that keeps its order and closes the gap). Slots stay where they are:
// their hashes do not change.
func hashRenumber(slots []uint64, pos int) {
	above := uint32(pos + 1) // slot halves above this refer to positions after pos
	for i, s := range slots {
		if uint32(s) > above {
			slots[i] = s - 1
		}
	}
}

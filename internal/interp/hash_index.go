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
// key, walks the candidates of a hashProbe and compares them with its key itself (in line,
// without an indirect call per candidate).

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

// hashProbe walks the slots a lookup of one hash visits: the candidates whose stored hash
// matches, up to the empty slot that ends the probe.
type hashProbe struct {
	slots []uint64
	tag   uint64 // the hash's low 32 bits, in the upper half
	i     int    // the slot last visited
	mask  int
}

// newHashProbe starts a probe for hash h in slots (a table, possibly empty).
func newHashProbe(slots []uint64, h uint64) hashProbe {
	mask := len(slots) - 1
	return hashProbe{slots: slots, tag: h << 32, i: (int(h) - 1) & mask, mask: mask}
}

// next returns the position of the next candidate whose stored hash matches, or -1 when the
// probe reached an empty slot (then slot returns it) or the table is empty.
func (p *hashProbe) next() int {
	if len(p.slots) == 0 {
		p.i = -1
		return -1
	}
	for {
		p.i = (p.i + 1) & p.mask
		s := p.slots[p.i]
		if s == 0 {
			return -1
		}
		if s&^0xffffffff == p.tag {
			return int(uint32(s)) - 1
		}
	}
}

// slot returns the slot last visited: the candidate's, or the empty slot where the probe
// ended (where the key would be inserted); -1 for an empty table.
func (p *hashProbe) slot() int { return p.i }

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

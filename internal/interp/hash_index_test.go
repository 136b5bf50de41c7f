package interp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkHashTable verifies the invariants of a table indexing keys[:n] (whose hashes hash
// gives): each key is found at its position, every slot refers to an indexed key whose hash
// it holds and is reachable from its home slot without crossing an empty slot, the load is at
// most 1/2 and the capacity a power of two.
func checkHashTable(t *testing.T, slots []uint64, keys []uint64, hash func(uint64) uint64) {
	t.Helper()
	if len(keys) == 0 {
		for _, s := range slots {
			require.Zero(t, s)
		}
		return
	}
	require.Zero(t, len(slots)&(len(slots)-1), "capacity %d is not a power of two", len(slots))
	require.GreaterOrEqual(t, len(slots), hashMinSlots)
	require.LessOrEqual(t, 2*len(keys), len(slots), "load above 1/2")
	mask := len(slots) - 1
	used := 0
	for i, s := range slots {
		if s == 0 {
			continue
		}
		used++
		p := int(uint32(s)) - 1
		require.Less(t, p, len(keys), "slot %d", i)
		require.Equal(t, uint32(hash(keys[p])), uint32(s>>32), "slot %d holds a stale hash", i)
		for j := int(s>>32) & mask; j != i; j = (j + 1) & mask {
			require.NotZero(t, slots[j], "slot %d is cut off from its home by empty slot %d", i, j)
		}
	}
	require.Equal(t, len(keys), used)
	for i, k := range keys {
		require.Equal(t, i, probeFor(slots, keys, k, hash), "key %d", k)
	}
}

// probeFor looks k up in a table of keys.
func probeFor(slots []uint64, keys []uint64, k uint64, hash func(uint64) uint64) int {
	if len(slots) == 0 {
		return -1
	}
	slot, _ := probeSlot(slots, keys, k, hash)
	if slot < 0 {
		return -1
	}
	return hashPos(slots[slot])
}

// probeSlot returns the slot holding k, or -1 with the empty slot where the probe ended.
func probeSlot(slots []uint64, keys []uint64, k uint64, hash func(uint64) uint64) (slot, empty int) {
	h := hash(k)
	for i := hashHome(slots, h); ; i = hashNext(slots, i) {
		var s uint64
		if i, s = hashSeek(slots, i, h); s == 0 {
			return -1, i
		}
		if keys[hashPos(s)] == k {
			return i, -1
		}
	}
}

// TestHashSlotsFor checks the capacities: powers of two, at least twice the keys.
func TestHashSlotsFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		n    int
		want int
	}{
		{"none", 0, 0},
		{"negative", -3, 0},
		{"one", 1, hashMinSlots},
		{"four", 4, 8},
		{"five", 5, 16},
		{"eight", 8, 16},
		{"nine", 9, 32},
		{"thousand", 1000, 2048},
		{"1024", 1024, 2048},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, hashSlotsFor(tt.n))
		})
	}
}

// TestHashSeek checks where probes stop: at the first empty slot or slot holding the hash,
// wrapping around the end of the table.
func TestHashSeek(t *testing.T) {
	t.Parallel()
	h := uint64(0xabcd_0006) // home 6 of 8
	other := hashSlot(0x1234_0006, 3)
	tests := []struct {
		name  string
		slots []uint64
		from  int
		want  int
		found bool
	}{
		{"empty home", []uint64{0, 0, 0, 0, 0, 0, 0, 0}, 6, 6, false},
		{"candidate at home", []uint64{0, 0, 0, 0, 0, 0, hashSlot(h, 2), 0}, 6, 6, true},
		{"past another hash", []uint64{0, 0, 0, 0, 0, 0, other, hashSlot(h, 2)}, 6, 7, true},
		{"wraps to an empty slot", []uint64{0, 0, 0, 0, 0, 0, other, other}, 6, 0, false},
		{"wraps to a candidate", []uint64{hashSlot(h, 1), 0, 0, 0, 0, 0, other, other}, 6, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, 6, hashHome(tt.slots, h))
			i, s := hashSeek(tt.slots, tt.from, h)
			require.Equal(t, tt.want, i)
			require.Equal(t, tt.found, s != 0)
			require.Equal(t, tt.slots[i], s)
		})
	}
}

// TestHashTableAgainstModel drives a table through random inserts and order-keeping deletes
// (the property index's use: positions after a deleted key are renumbered), checking it
// against the list of keys after every step. The hashes are poor on purpose (few distinct
// home slots, clusters that wrap around the end of the table).
func TestHashTableAgainstModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		hash func(uint64) uint64
	}{
		{"spread", func(k uint64) uint64 { return collHash64(k) }},
		{"four homes", func(k uint64) uint64 { return k%4<<20 | k%4 }},
		{"near the end", func(k uint64) uint64 { return 0xffff_fff0 + k%8 }},
		{"one hash", func(uint64) uint64 { return 7 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, 2))
			var slots []uint64
			var keys []uint64
			next := uint64(1)
			for step := 0; step < 600; step++ {
				if len(keys) > 0 && rng.IntN(3) == 0 {
					pos := rng.IntN(len(keys))
					slot, _ := probeSlot(slots, keys, keys[pos], tt.hash)
					require.GreaterOrEqual(t, slot, 0, "key at %d not found", pos)
					require.Equal(t, pos, hashPos(slots[slot]))
					hashDelete(slots, slot)
					hashRenumber(slots, pos)
					keys = slices.Delete(keys, pos, pos+1)
				} else {
					k := next
					next++
					require.Equal(t, -1, probeFor(slots, keys, k, tt.hash))
					if 2*(len(keys)+1) > len(slots) {
						bigger := make([]uint64, max(hashMinSlots, 2*len(slots)))
						hashMove(bigger, slots)
						slots = bigger
					}
					hashPlace(slots, hashSlot(tt.hash(k), len(keys)))
					keys = append(keys, k)
				}
				checkHashTable(t, slots, keys, tt.hash)
			}
			require.Greater(t, len(keys), 50)
		})
	}
}

// TestHashRenumber checks that only the positions above the deleted one move down.
func TestHashRenumber(t *testing.T) {
	t.Parallel()
	// position 1 was deleted: 0, 2 and 3 remain
	slots := []uint64{0, hashSlot(5, 0), hashSlot(6, 3), 0, 0, hashSlot(9, 2), 0, 0}
	hashRenumber(slots, 1)
	require.Equal(t, []uint64{0, hashSlot(5, 0), hashSlot(6, 2), 0, 0, hashSlot(9, 1), 0, 0}, slots)
}

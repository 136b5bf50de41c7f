package interp

import (
	"math/bits"
	"unsafe"
)

// addrSet is the set of heap addresses (objects, strings) the live-heap walk has seen, so that
// it counts shared data once. The walk runs when a program nears its memory limit and visits
// every object and every long string or rope node it holds: a map[*T]struct{} there costs
// about 17 bytes a slot (a swiss-map slot pads the empty value to a word) and, grown by
// doubling with the old tables left as garbage, allocated about 66 bytes per entry for a heap
// of small rope nodes, half as much again as the nodes' own accounted size. That garbage came
// on top of a heap already at the limit. This set stores bare addresses in one pointer-free
// array (8 bytes a slot, at most 3/4 full, never scanned by the collector) and is sized up
// front from the previous walk, so that a walk usually allocates one table and no garbage.
//
// Addresses are kept as uintptr: the walk runs on the VM's goroutine while everything it
// visits stays reachable from the VM, and Go's heap does not move objects.
type addrSet struct {
	slots []uintptr // 0 is an empty slot
	shift uint      // 64 - log2(len(slots))
	n     int
}

// addrSetMinSlots is the capacity of the smallest table.
const addrSetMinSlots = 64

// newAddrSet returns a set with room for n addresses before it grows.
func newAddrSet(n int) addrSet {
	var s addrSet
	s.init(max(addrSetMinSlots, 1<<bits.Len(uint(n+n/3))))
	return s
}

func (s *addrSet) init(slots int) {
	s.slots = make([]uintptr, slots)
	s.shift = uint(64 - bits.TrailingZeros(uint(slots)))
	s.n = 0
}

// home is the slot where the search for p starts (Fibonacci hashing: the top bits of the
// product mix the address's low bits, which alignment leaves mostly zero).
func (s *addrSet) home(p uintptr) int { return int((uint64(p) * 0x9E3779B97F4A7C15) >> s.shift) }

// add puts p in the set and reports whether it was not there yet.
func (s *addrSet) add(p unsafe.Pointer) bool {
	a := uintptr(p)
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := len(s.slots) - 1
	for i := s.home(a); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = a
			s.n++
			return true
		case a:
			return false
		}
	}
}

// grow doubles the table.
func (s *addrSet) grow() {
	old := s.slots
	s.init(2 * len(old))
	mask := len(s.slots) - 1
	for _, a := range old {
		if a == 0 {
			continue
		}
		i := s.home(a)
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = a
		s.n++
	}
}

// len returns the number of addresses in the set.
func (s *addrSet) len() int { return s.n }

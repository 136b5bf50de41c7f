package interp

import "strconv"

// Snapshot codec of the Math object's internal slot (the Math.random state). The state is
// written as two hexadecimal strings because JSON numbers cannot carry 64-bit integers
// exactly.
//
// The Math object is an intrinsic, and the heap encoder writes intrinsics as differences
// from a fresh realm; MathRandomState and SetMathRandomState let the execution half save and
// restore the generator's state with the rest of the top-level snapshot.

func init() {
	registerSlotType("mathRandom", func() slotCodec { return &mathRandomState{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		st := s.(*mathRandomState)
		r.beginArray()
		r.more(true)
		st.S0 = parseHexState(r, r.goString())
		r.more(false)
		st.S1 = parseHexState(r, r.goString())
		r.more(false)
	})
}

// parseHexState parses one word of the generator state, failing the reader when invalid.
func parseHexState(r *jsonReader, s string) uint64 {
	u, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		r.fail("bad Math.random state %q", s)
	}
	return u
}

func (st *mathRandomState) slotTag() string { return "mathRandom" }

func (st *mathRandomState) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.string(strconv.FormatUint(st.S0, 16))
	e.w.string(strconv.FormatUint(st.S1, 16))
	e.w.endArray()
}

func (st *mathRandomState) walkSlot(w *heapWalker) {}

// cloneSlot copies the state for a realm cloned from the template (without reflection: every
// restore clones it).
func (st *mathRandomState) cloneSlot(func(*Object) *Object) any {
	c := *st
	return &c
}

// mathState returns the Math object's generator state, or nil when Math is missing.
func (vm *VM) mathState() *mathRandomState {
	if m := vm.realm.Intrinsic("Math"); m != nil {
		st, _ := m.slots.(*mathRandomState)
		return st
	}
	return nil
}

// mathRandomState returns the state of Math.random's generator (for snapshots).
func (vm *VM) mathRandomState() [2]uint64 {
	if st := vm.mathState(); st != nil {
		return [2]uint64{st.S0, st.S1}
	}
	return [2]uint64{}
}

// setMathRandomState restores the state of Math.random's generator from MathRandomState.
func (vm *VM) setMathRandomState(s [2]uint64) {
	if st := vm.mathState(); st != nil {
		st.S0, st.S1 = s[0], s[1]
	}
}

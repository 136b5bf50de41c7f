package interp

import (
	"errors"
	"sync"
)

// The heap half of the snapshot codec.
//
// Encoding walks from the values the execution half writes (frames, queues, results): each
// object gets an id the first time it is written ({"#":id}) and is queued; finish() drains
// the queue, writing every reachable object once, in id order, so the walk never recurses in
// Go. Built-in objects (intrinsics) are written by name, with only their changes relative to
// a fresh realm: an unchanged intrinsic costs one number. Every intrinsic is checked for
// changes at each snapshot, so a change to a built-in that nothing else references survives.
//
// The heap section is one JSON object:
//
//	{"syms":  [[description|null, registered], ...],   // symbol ids
//	 "intr":  [[id, "Array.prototype"], ...],           // ids of intrinsic objects
//	 "n":     count,                                    // number of object ids
//	 "nodes": [{"t": tag, "d": data}, ...],             // shared records (environments, ...)
//	 "objs":  [entry, ...]}                             // one entry per object id
//
// An object entry is {"c": class, "p": proto, "f": flags, "pr": props, "el": elements,
// "len": array length, "s": {"t": slot tag, "d": slot data}}, where defaults are left out:
// class Object, the class's usual prototype (Object/Array/Function.prototype), flags
// "extensible", len = number of elements. An intrinsic's entry is 0 when unchanged, or
// {"set": [...], "add": [...]} (or a full "pr") with "p"/"f"/"el"/"len"/"s" when those
// changed. A property is [key, value] (writable, enumerable, configurable), [key, value,
// flags] or, for accessors, [key, getter, setter, flags]; a key is a string or a symbol.
//
// Values are JSON: finite numbers (except -0) as numbers, strings as strings (lone surrogates
// as \u escapes), booleans, null, and tagged objects for the rest: {"u":1} undefined,
// {"n":"NaN"|"Infinity"|"-Infinity"|"-0"}, {"#":id} object, {"y":id} symbol, {"w":"iterator"}
// well-known symbol, {"h":1} array hole, {"bi":"-1f"} a BigInt (hexadecimal), and {"@":id}
// for a shared record (node).
//
// Decoding allocates every object up front (from the count "n"), and each record when the
// reading reaches it or something refers to it, then fills them in, so references may point
// forwards and form cycles; the members must come in the order above. Values that the
// execution half reads afterwards resolve ids against those tables.
//
// Internal slots: every type stored in Object.slots (and every shared record a slot refers
// to) implements slotCodec and registers a decoder with registerSlotType. Natives are
// restored by their stable name; primitive wrappers' slots (a Value) are built in.

// Snapshot decoding errors.
var (
	// ErrSnapshotCorrupt means the snapshot bytes are not a valid encoding.
	ErrSnapshotCorrupt = errors.New("interp: corrupt snapshot")
	// ErrSnapshotUnsupported means the heap holds something that cannot be encoded (an
	// internal slot type without a codec, a native without a stable name).
	ErrSnapshotUnsupported = errors.New("interp: heap value cannot be snapshotted")
)

// slotCodec is implemented by internal slot types (the values of Object.slots) and by shared
// records referenced from them (environment records, ...).
type slotCodec interface {
	// slotTag is the stable name of the type in snapshots ("mapData"). Never change it.
	slotTag() string
	// encodeSlot writes exactly one JSON value describing the slot, using the encoder's
	// writer methods; references go through e.value (JS values) and e.node (records).
	encodeSlot(e *heapEncoder)
	// walkSlot reports every value and record the slot refers to (memory accounting), and
	// may add its own size with w.add.
	walkSlot(w *heapWalker)
}

// slotType is the registration of a slotCodec: alloc makes an empty instance, decode fills it
// from the JSON value encodeSlot wrote. During decode, objects and records that decode
// returns through d.value/d.node may not be filled in yet: store them, do not read them.
type slotType struct {
	alloc  func() slotCodec
	decode func(d *heapDecoder, r *jsonReader, s slotCodec)
}

var (
	slotTypesMu sync.RWMutex
	slotTypes   = map[string]slotType{}
)

// registerSlotType registers the decoder of a slot type; call it from an init function.
func registerSlotType(tag string, alloc func() slotCodec, decode func(d *heapDecoder, r *jsonReader, s slotCodec)) {
	slotTypesMu.Lock()
	defer slotTypesMu.Unlock()
	if _, dup := slotTypes[tag]; dup {
		panic("interp: duplicate slot type " + tag)
	}
	slotTypes[tag] = slotType{alloc: alloc, decode: decode}
}

func lookupSlotType(tag string) (slotType, bool) {
	slotTypesMu.RLock()
	defer slotTypesMu.RUnlock()
	t, ok := slotTypes[tag]
	return t, ok
}

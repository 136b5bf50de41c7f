package interp

import "testing"

// TestWeakCollections checks WeakMap and WeakSet against results computed by node 20
// (getOrInsert and getOrInsertComputed, which node 20 lacks, against the proposal).
func TestWeakCollections(t *testing.T) {
	t.Parallel()
	runJSCases(t, weakCases)
}

// weakCases are the node-checked programs of this file (also run under snapshots).
var weakCases = []jsCase{
	{"weakmap_basic", `const k = {}, k2 = []; const w = new WeakMap([[k, 1]]); w.set(k2, 2); [w.get(k), w.get(k2), w.has(k), w.has({}), w.delete(k), w.has(k), w.get(k)].join()`, "1,2,true,false,true,false,"},
	{"weakmap_primitive_key", `new WeakMap().set(1, 2)`, "throws TypeError"},
	{"weakmap_registered_symbol", `new WeakMap().set(Symbol.for('x'), 2)`, "throws TypeError"},
	{"weakmap_symbol_key", `const s = Symbol('s'); new WeakMap().set(s, 5).get(s)`, "5"},
	{"weakmap_get_primitive", `String(new WeakMap().get(1)) + new WeakMap().has('x') + new WeakMap().delete(2)`, "undefinedfalsefalse"},
	{"weakmap_no_size", `'size' in WeakMap.prototype || 'clear' in WeakMap.prototype || 'keys' in WeakMap.prototype`, "false"},
	{"weakmap_tag", `Object.prototype.toString.call(new WeakMap())`, "[object WeakMap]"},
	{"weakmap_without_new", `WeakMap()`, "throws TypeError"},
	{"weakmap_incompatible", `WeakMap.prototype.get.call(new Map(), {})`, "throws TypeError"},
	{"weakmap_ctor_bad_key", `new WeakMap([[1, 2]])`, "throws TypeError"},
	{"weakset_basic", `const o = {}; const w = new WeakSet([o]); [w.has(o), w.has({}), w.delete(o), w.has(o), w.add(o) === w].join()`, "true,false,true,false,true"},
	{"weakset_primitive", `new WeakSet().add('x')`, "throws TypeError"},
	{"weakset_incompatible", `WeakSet.prototype.has.call(new Set(), {})`, "throws TypeError"},
	{"weakset_tag", `String(new WeakSet())`, "[object WeakSet]"},
	{"lengths", `[WeakMap.length, WeakSet.length, WeakMap.prototype.set.length, WeakSet.prototype.add.length].join()`, "0,0,2,1"},
	{"subclass", `class W extends WeakMap { set(k, v) { return super.set(k, v + 1) } } const k = {}; new W([[k, 1]]).get(k)`, "2"},

	{"getOrInsert", `const k = {}; const w = new WeakMap(); [w.getOrInsert(k, 1), w.getOrInsert(k, 2), w.get(k)].join()`, "1,1,1"},
	{"getOrInsertComputed", `const k = {}; const w = new WeakMap(); [w.getOrInsertComputed(k, x => x === k ? 3 : 0), w.getOrInsertComputed(k, () => 9)].join()`, "3,3"},
	{"getOrInsertComputed_bad_key", `new WeakMap().getOrInsertComputed(1, () => 1)`, "throws TypeError"},
	{"map_getOrInsert", `const m = new Map(); [m.getOrInsert(-0, 'a'), Object.is([...m.keys()][0], 0), m.getOrInsert(0, 'b')].join()`, "a,true,a"},
	{"map_getOrInsertComputed_overwrite", `const m = new Map(); const v = m.getOrInsertComputed('k', k => { m.set(k, 'inner'); return 'outer' }); [v, m.get('k'), m.size].join()`, "outer,outer,1"},
	{"map_getOrInsertComputed_not_callable", `new Map().getOrInsertComputed(1, 2)`, "throws TypeError"},
}

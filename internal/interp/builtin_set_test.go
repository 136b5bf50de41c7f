package interp

import "testing"

// TestSetBuiltins checks Set against results computed by node 20; the set algebra methods,
// which node 20 lacks, against the specification.
func TestSetBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, setCases)
}

// setCases are the node-checked programs of this file (also run under snapshots).
var setCases = []jsCase{
	{"basic", `const s = new Set([1, 2, 2, 3]); s.add(4); [s.size, s.has(2), s.has(5)].join()`, "4,true,false"},
	{"order", `[...new Set(['b', 'a', 'b', 'c'])].join()`, "b,a,c"},
	{"negzero", `const s = new Set([-0]); [Object.is([...s][0], 0), s.has(0), s.has(-0)].join()`, "true,true,true"},
	{"nan", `new Set([NaN, NaN, 0/0]).size`, "1"},
	{"delete", `const s = new Set([1, 2, 3]); [s.delete(2), s.delete(2), [...s].join('')].join()`, "true,false,13"},
	{"clear", `const s = new Set([1, 2]); s.clear(); s.size`, "0"},
	{"add_returns_set", `const s = new Set(); s.add(1) === s`, "true"},
	{"entries", `JSON.stringify([...new Set(['a', 'b']).entries()])`, "[[\"a\",\"a\"],[\"b\",\"b\"]]"},
	{"keys_is_values", `Set.prototype.keys === Set.prototype.values && Set.prototype[Symbol.iterator] === Set.prototype.values`, "true"},
	{"forEach", `const s = new Set(['x', 'y']); const out = []; s.forEach(function (v, k, ss) { out.push(v + k + (ss === s) + this.n) }, {n: 1}); out.join()`, "xxtrue1,yytrue1"},
	{"delete_during_forEach", `const s = new Set([1, 2, 3, 4]); const out = []; s.forEach(v => { out.push(v); s.delete(v + 1) }); out.join()`, "1,3"},
	{"add_during_iteration", `const s = new Set([1]); const out = []; for (const v of s) { out.push(v); if (v < 5) s.add(v + 1) } out.join()`, "1,2,3,4,5"},
	{"delete_all_then_add_during_iteration", `const s = new Set(); for (let i = 0; i < 50; i++) s.add(i); const out = []; for (const v of s) { out.push(v); if (v === 0) { for (let i = 0; i < 50; i++) s.delete(i); s.add('x') } } out.join()`, "0,x"},
	{"tag", `Object.prototype.toString.call(new Set()) + Object.prototype.toString.call(new Set().values())`, "[object Set][object Set Iterator]"},
	{"without_new", `Set([])`, "throws TypeError"},
	{"incompatible", `Set.prototype.has.call(new Map(), 1)`, "throws TypeError"},
	{"string_iterable", `new Set(['a', 'b', 'a']).size`, "2"},
	{"subclass_add", `let n = 0; class S extends Set { add(v) { n++; return super.add(v) } } const s = new S([1, 2, 2]); n + ':' + s.size`, "3:2"},
	{"lengths", `[Set.length, Set.prototype.add.length, Set.prototype.forEach.length].join()`, "0,1,1"},
	{"names", `[Set.prototype.keys.name, Set.prototype[Symbol.iterator].name, Object.getOwnPropertyDescriptor(Set.prototype, 'size').get.name].join()`, "values,values,get size"},
	{"iter_next_incompatible", `new Set().values().next.call(new Map().keys())`, "throws TypeError"},
	{"iterator_sticky_done", `const s = new Set(); const it = s.values(); it.next(); s.add(1); it.next().done`, "true"},
	{"dedupe_objects", `const o = {}; new Set([o, o, {}]).size`, "2"},

	{"union", `[...new Set([1, 2, 3]).union(new Set([3, 4, 1, 5]))].join()`, "1,2,3,4,5"},
	{"intersection_small_this", `[...new Set([3, 1, 2]).intersection(new Set([1, 2, 3, 4]))].join()`, "3,1,2"},
	{"intersection_small_other", `[...new Set([1, 2, 3, 4]).intersection(new Set([4, 2, 9]))].join()`, "4,2"},
	{"difference", `[...new Set([1, 2, 3, 4]).difference(new Set([2, 4]))].join()`, "1,3"},
	{"difference_big_other", `[...new Set([1, 2]).difference(new Set([2, 4, 5]))].join()`, "1"},
	{"symmetricDifference", `[...new Set([1, 2, 3]).symmetricDifference(new Set([3, 4, 1]))].join()`, "2,4"},
	{"isSubsetOf", `[new Set([1, 2]).isSubsetOf(new Set([1, 2, 3])), new Set([1, 5]).isSubsetOf(new Set([1, 2, 3])), new Set().isSubsetOf(new Set())].join()`, "true,false,true"},
	{"isSupersetOf", `[new Set([1, 2, 3]).isSupersetOf(new Set([1, 2])), new Set([1]).isSupersetOf(new Set([1, 2]))].join()`, "true,false"},
	{"isDisjointFrom", `[new Set([1, 2]).isDisjointFrom(new Set([3, 4])), new Set([1, 2]).isDisjointFrom(new Set([2, 3, 4])), new Set([1, 2, 3]).isDisjointFrom(new Set([3]))].join()`, "true,false,false"},
	{"setlike_map", `[...new Set([1, 2, 3]).intersection(new Map([[2, 'x'], [3, 'y'], [4, 'z'], [5, 'w']]))].join()`, "2,3"},
	{"setlike_object", `const like = {size: 2, has: v => v === 1 || v === 7, keys: () => [1, 7][Symbol.iterator]()}; [[...new Set([1, 2]).union(like)].join(), [...new Set([1, 2, 3]).intersection(like)].join(), new Set([1]).isSubsetOf(like)].join('|')`, "1,2,7|1|true"},
	{"setlike_negzero", `const like = {size: 1, has: () => false, keys: () => [-0][Symbol.iterator]()}; Object.is([...new Set().union(like)][0], 0)`, "true"},
	{"setlike_array_rejected", `new Set([1]).union([1, 2])`, "throws TypeError"},
	{"setlike_nan_size", `new Set([1]).union({size: undefined, has() {}, keys() {}})`, "throws TypeError"},
	{"setlike_negative_size", `new Set([1]).union({size: -1, has() {}, keys() {}})`, "throws RangeError"},
	{"setlike_has_not_callable", `new Set([1]).union({size: 1, has: 1, keys() {}})`, "throws TypeError"},
	{"setlike_keys_not_object", `new Set([1]).union({size: 1, has() {}, keys() { return 1 }})`, "throws TypeError"},
	{"result_is_plain_set", `class S extends Set {} const u = new S([1]).union(new Set([2])); [u instanceof S, u instanceof Set].join()`, "false,true"},
	{"superset_closes_iterator", `let closed = 0; const like = {size: 1, has: () => true, keys: () => ({next: () => ({value: 9, done: false}), return() { closed++; return {} }})}; [new Set([1]).isSupersetOf(like), closed].join()`, "false,1"},
	{"algebra_lengths", `['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf', 'isSupersetOf', 'isDisjointFrom'].map(n => Set.prototype[n].length).join('')`, "1111111"},
	{"intersection_has_mutates_this", `const s = new Set([1, 2, 3]); const like = {size: 10, has(v) { if (v === 1) s.delete(2); return true }, keys() {}}; [...s.intersection(like)].join()`, "1,3"},
}

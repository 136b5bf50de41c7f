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

	// keys under SameValueZero through the hash index: string forms, -0, NaN, growth,
	// deletion, compaction and clearing with running iterators (checked with node 20)
	{"index_equal_string_forms", "const parts = ['ab', 'a' + 'b', 'xab'.slice(1), String.fromCharCode(97, 98), 'ABC'.toLowerCase().slice(0, 2), ['a', 'b'].join(''), `${'a'}b`, 'éab'.slice(1), JSON.parse('\"\\\\u0061b\"')]; new Set(parts).size", "1"},
	{"index_symbols", `const syms = Array.from({length: 100}, (_, i) => Symbol(String(i))); const s = new Set(syms); syms.forEach((y, i) => { if (i % 3 === 0) s.delete(y) }); [s.size, s.has(syms[1]), s.has(syms[3]), s.has(Symbol('1')), s.has(Symbol.iterator)].join()`, "66,true,false,false,false"},
	{"index_powers_and_multiples", `const s = new Set(); for (let i = 0; i < 300; i++) s.add(i * 1024); for (let i = 0; i < 300; i++) s.add(2 ** (i % 150)); for (let i = 0; i < 300; i++) s.add(-(2 ** -(i % 150))); s.size`, "591"},
	{"index_clear_readd_during_iteration", `const s = new Set([1, 2, 3]); const out = []; let once = true; for (const v of s) { out.push(v); if (v === 1 && once) { once = false; s.clear(); s.add(2); s.add(1) } } out.join() + '|' + [...s].join()`, "1,2,1|2,1"},
	{"index_clear_then_reuse", `const s = new Set(); for (let i = 0; i < 100; i++) s.add(i); s.clear(); for (let i = 50; i < 60; i++) s.add(i); [s.size, s.has(55), s.has(5), [...s].join(' ')].join()`, "10,true,false,50 51 52 53 54 55 56 57 58 59"},
	{"index_string_iterable_emoji", `[...new Set('héllo😀😀')].join('|')`, "h|é|l|o|😀"},
	{"index_mass_delete_during_iteration", `const s = new Set(); for (let i = 0; i < 300; i++) s.add('v' + i); const out = []; for (const v of s) { out.push(v); if (v === 'v0') for (let i = 1; i < 290; i++) s.delete('v' + i) } out.join()`, "v0,v290,v291,v292,v293,v294,v295,v296,v297,v298,v299"},
	{"index_difference_with_holes", `const s = new Set(); for (let i = 0; i < 100; i++) s.add(i); for (let i = 0; i < 100; i += 3) s.delete(i); const d = s.difference(new Set([1, 2, 4, 5])); [d.size, [...d].slice(0, 5).join(' '), s.size].join('|')`, "62|7 8 10 11 13|66"},
	{"index_algebra_mixed_kinds", `const a = new Set([1, 'a', NaN, -0, null]); const b = new Set([0, NaN, 'a', undefined]); [[...a.union(b)].map(String).join(), [...a.intersection(b)].map(String).join(), [...a.difference(b)].map(String).join(), [...a.symmetricDifference(b)].map(String).join()].join('|')`, "1,a,NaN,0,null,undefined|0,NaN,a|1,null|1,null,undefined"},
	{"index_union_after_deletes", `const a = new Set(['x', 'y', 'z', 'w']); a.delete('y'); const u = a.union(new Set(['y', 'x', 'é'])); [...u].join() + '|' + u.has('y') + u.has('é')`, "x,z,w,y,é|truetrue"},
	{"index_weakset", `const ws = new WeakSet(); const ks = Array.from({length: 50}, () => ({})); ks.forEach(k => ws.add(k)); ks.slice(0, 25).forEach(k => ws.delete(k)); [ws.has(ks[0]), ws.has(ks[30]), ks.filter(k => ws.has(k)).length].join()`, "false,true,25"},
}

package interp

import "testing"

// TestMapBuiltins checks Map against results computed by node 20 (Map.groupBy, which node 20
// lacks, against the specification).
func TestMapBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, mapCases)
}

// mapCases are the node-checked programs of this file (also run under snapshots).
var mapCases = []jsCase{
	{"two_iterators_compaction", `const m = new Map(); for (let i = 0; i < 100; i++) m.set(i, i); const a = m.keys(), b = m.keys(); for (let i = 0; i < 50; i++) b.next(); a.next(); for (let i = 0; i < 95; i++) if (i !== 60) m.delete(i); m.set("z", 1); [[...a].join(), [...b].join()].join("|")`, "60,95,96,97,98,99,z|60,95,96,97,98,99,z"},
	{"basic", `const m = new Map([[1,'a'],[2,'b']]); m.set(3,'c'); [m.size, m.get(2), m.has(3), m.has(4), m.get(4)].join()`, "3,b,true,false,"},
	{"order", `const m = new Map(); m.set('b',1).set('a',2).set('c',3); [...m.keys()].join()`, "b,a,c"},
	{"overwrite_keeps_order", `const m = new Map([['a',1],['b',2]]); m.set('a',9); [...m].join(';')`, "a,9;b,2"},
	{"negzero", `const m = new Map([[-0,'z']]); [Object.is([...m.keys()][0], 0), m.get(0), m.get(-0)].join()`, "true,z,z"},
	{"nan", `const m = new Map(); m.set(NaN, 1); m.set(NaN, 2); [m.size, m.get(NaN), m.has(0/0)].join()`, "1,2,true"},
	{"objects_identity", `const a = {}, b = {}; const m = new Map([[a,1],[b,2]]); [m.get(a), m.get(b), m.get({})].join()`, "1,2,"},
	{"string_vs_number", `const m = new Map([['1','s'],[1,'n']]); [m.size, m.get('1'), m.get(1)].join()`, "2,s,n"},
	{"delete", `const m = new Map([[1,1],[2,2],[3,3]]); [m.delete(2), m.delete(2), m.size, [...m.keys()].join('')].join()`, "true,false,2,13"},
	{"delete_during_iteration", `const m = new Map([[1,1],[2,2],[3,3],[4,4]]); const out = []; for (const [k] of m) { out.push(k); if (k === 1) { m.delete(2); m.set(5,5); } } out.join()`, "1,3,4,5"},
	{"clear_during_iteration", `const m = new Map([[1,1],[2,2]]); const out = []; for (const [k] of m) { out.push(k); if (k === 1) { m.clear(); m.set(9, 9); } } out.join()`, "1,9"},
	{"many_deletes_iterator", `const m = new Map(); for (let i = 0; i < 100; i++) m.set(i, i); const it = m.keys(); it.next(); for (let i = 0; i < 90; i++) m.delete(i); [it.next().value, m.size, [...it].length].join()`, "90,10,9"},
	{"lru", `const m = new Map(); for (let i = 0; i < 1000; i++) { m.set(i, i); if (m.size > 10) m.delete(m.keys().next().value); } [m.size, [...m.keys()].join(',')].join('|')`, "10|990,991,992,993,994,995,996,997,998,999"},
	{"forEach", `const m = new Map([['a',1],['b',2]]); const out = []; m.forEach(function (v, k, mm) { out.push(k + v + (mm === m) + this.x) }, {x: '!'}); out.join()`, "a1true!,b2true!"},
	{"forEach_add_during", `const m = new Map([[1,1]]); const out = []; m.forEach((v, k) => { out.push(k); if (k < 4) m.set(k + 1, 0) }); out.join()`, "1,2,3,4"},
	{"iterator_done_sticky", `const m = new Map(); const it = m.entries(); it.next(); m.set(1,1); JSON.stringify(it.next())`, "{\"done\":true}"},
	{"entries_shape", `JSON.stringify([...new Map([[1,{a:2}]]).entries()])`, "[[1,{\"a\":2}]]"},
	{"values", `[...new Map([[1,'x'],[2,'y']]).values()].join()`, "x,y"},
	{"tag", `Object.prototype.toString.call(new Map()) + Object.prototype.toString.call(new Map().keys())`, "[object Map][object Map Iterator]"},
	{"iter_proto", `const ip = Object.getPrototypeOf(new Map().keys()); [typeof ip.next, Object.getPrototypeOf(ip) === Object.getPrototypeOf(Object.getPrototypeOf([].keys())), ip[Symbol.toStringTag]].join()`, "function,true,Map Iterator"},
	{"symbol_iterator_is_entries", `Map.prototype[Symbol.iterator] === Map.prototype.entries`, "true"},
	{"call_without_new", `Map()`, "throws TypeError"},
	{"bad_entry", `new Map([1])`, "throws TypeError"},
	{"not_iterable", `new Map(5)`, "throws TypeError"},
	{"null_arg", `new Map(null).size`, "0"},
	{"incompatible", `Map.prototype.get.call({}, 1)`, "throws TypeError"},
	{"incompatible_set", `Map.prototype.get.call(new Set(), 1)`, "throws TypeError"},
	{"size_incompatible", `Object.getOwnPropertyDescriptor(Map.prototype, 'size').get.call([])`, "throws TypeError"},
	{"lengths", `[Map.length, Map.prototype.set.length, Map.prototype.get.length, Map.prototype.forEach.length, Map.groupBy.length].join()`, "0,2,1,1,2"},
	{"names", `[Map.prototype.set.name, Object.getOwnPropertyDescriptor(Map.prototype, 'size').get.name, Map.prototype[Symbol.iterator].name, Object.getOwnPropertyDescriptor(Map, Symbol.species).get.name].join()`, "set,get size,entries,get [Symbol.species]"},
	{"species", `Map[Symbol.species] === Map`, "true"},
	{"subclass", `class M extends Map { set(k, v) { return super.set(k, v * 2) } } const m = new M([[1, 2]]); [m.get(1), m instanceof Map, m instanceof M].join()`, "4,true,true"},
	{"subclass_adder_called", `let n = 0; class M extends Map { set(k, v) { n++; return super.set(k, v) } } new M([[1, 2], [3, 4]]); n`, "2"},
	{"groupBy", `const g = Map.groupBy([1,2,3,4,5], x => x % 2 ? 'odd' : 'even'); [[...g.keys()].join(), g.get('odd').join(), g.get('even').join()].join('|')`, "odd,even|1,3,5|2,4"},
	{"groupBy_index", `const g = Map.groupBy(["a", "b", "c"], (c, i) => i); [...g].map(e => e.join(':')).join()`, "0:a,1:b,2:c"},
	{"keys_enumerable", `Object.keys(Map.prototype).length + ':' + Object.getOwnPropertyNames(Map.prototype).sort().join()`, "0:clear,constructor,delete,entries,forEach,get,getOrInsert,getOrInsertComputed,has,keys,set,size,values"},
	{"entry_getters", `const e = {get 0() { return 'k' }, get 1() { return 'v' }}; new Map([e]).get('k')`, "v"},
	{"iterator_closed_on_error", `let closed = false; const it = {[Symbol.iterator]() { return {next() { return {value: 1, done: false} }, return() { closed = true; return {} }} }}; try { new Map(it) } catch (e) {} closed`, "true"},
	{"set_returns_map", `const m = new Map(); m.set(1, 2) === m`, "true"},
	{"delete_readd_order", `const m = new Map([[1,1],[2,2]]); m.delete(1); m.set(1, 1); [...m.keys()].join()`, "2,1"},
	{"map_json", `JSON.stringify(new Map([[1,2]]))`, "{}"},
	{"symbol_keys", `const s = Symbol('x'); const m = new Map([[s, 1]]); m.get(s) + ':' + m.has(Symbol('x'))`, "1:false"},
	{"next_incompatible", `new Map().keys().next.call(new Set().values())`, "throws TypeError"},
	{"spread_nested", `const m = new Map([['a', new Map([['b', 1]])]]); m.get('a').get('b')`, "1"},
}

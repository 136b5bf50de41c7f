package interp

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkPropertyMap verifies m against the keys it should hold, in order: each is found at its
// position, the absent keys are not found, and an index of its own (not shared) covers every
// key and keeps the table's invariants.
func checkPropertyMap(t *testing.T, m *propertyMap, want []PropertyKey, absent []PropertyKey) {
	t.Helper()
	require.Equal(t, want, m.keys)
	require.Len(t, m.props, len(want))
	for i, k := range want {
		require.Equal(t, i, m.find(k), "key %v", k)
	}
	for _, k := range absent {
		require.Equal(t, -1, m.find(k), "absent key %v", k)
	}
	if len(want) > mapIndexThreshold {
		require.NotNil(t, m.index, "%d keys without an index", len(want))
	}
	if m.index == nil || frozenKeys(m.keys) || m.index.count() < len(m.keys) {
		return // no index, or the template's
	}
	bits := make([]uint64, len(m.keys))
	byBits := make(map[uint64]PropertyKey, len(m.keys))
	for i, k := range m.keys {
		bits[i] = uint64(i) // the keys as numbers, for the table's checks
		byBits[uint64(i)] = k
	}
	require.Equal(t, len(m.keys), m.index.count())
	checkHashTable(t, m.index.slots(), bits, func(b uint64) uint64 { return propHash(byBits[b]) })
}

// collidingNames returns n distinct names whose hashes agree in their low bits (bits of them):
// in a table of up to 2^bits slots they all have the same home slot.
func collidingNames(n int, bits uint) []PropertyKey {
	var out []PropertyKey
	mask := uint64(1)<<bits - 1
	want := propHash(strKey("c0")) & mask
	for i := 0; len(out) < n; i++ {
		if k := strKey(fmt.Sprint("c", i)); propHash(k)&mask == want {
			out = append(out, k)
		}
	}
	return out
}

// names returns string keys prefix0 .. prefix(n-1).
func names(prefix string, n int) []PropertyKey {
	out := make([]PropertyKey, n)
	for i := range out {
		out[i] = strKey(fmt.Sprint(prefix, i))
	}
	return out
}

// symbols returns n symbol keys.
func symbols(n int) []PropertyKey {
	out := make([]PropertyKey, n)
	for i := range out {
		out[i] = symKey(newSymbol(newStringFromGo(fmt.Sprint("s", i))))
	}
	return out
}

// TestPropertyMapIndex drives property maps through adds, removes and re-adds, checking the
// order, every lookup and the index after each step.
func TestPropertyMapIndex(t *testing.T) {
	t.Parallel()
	colliding := collidingNames(40, 8)
	mixed := slices.Concat(names("m", 10), symbols(10), []PropertyKey{strKey(""), strKey("0"), strKey("4294967295"), strKey("\xed\xa0\x80")})
	tests := []struct {
		name   string
		add    []PropertyKey
		remove []int // positions in add, removed in this order
		readd  []int // positions in add, added again in this order
	}{
		{"few strings", names("k", mapIndexThreshold), []int{3}, []int{3}},
		{"threshold crossed", names("k", mapIndexThreshold+1), nil, nil},
		{"grow to 100", names("k", 100), nil, nil},
		{"symbols", symbols(30), []int{0, 15, 29}, []int{15}},
		{"strings and symbols", mixed, []int{10, 0, 21}, []int{0, 21, 10}},
		{"remove first", names("p", 20), []int{0}, nil},
		{"remove middle", names("p", 20), []int{10}, nil},
		{"remove last", names("p", 20), []int{19}, nil},
		{"remove all", names("p", 20), []int{19, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 2, 3, 4}, []int{7, 3, 12}},
		{"below the threshold and back", names("p", mapIndexThreshold+4), []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2, 3, 4, 5}},
		{"re-add after remove", names("r", mapIndexThreshold+8), []int{4, 5}, []int{5, 4}},
		{"colliding low bits", colliding, []int{0, 20, 39, 1}, []int{20, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var m propertyMap
			var want []PropertyKey
			absent := append(names("absent", 3), symbols(1)...)
			for i, k := range tt.add {
				m.add(k, Property{value: intValue(i), flags: propDefault})
				want = append(want, k)
				checkPropertyMap(t, &m, want, absent)
			}
			for _, i := range tt.remove {
				k := tt.add[i]
				m.remove(k)
				m.remove(k) // a second time: absent, nothing changes
				want = slices.DeleteFunc(want, func(w PropertyKey) bool { return w == k })
				checkPropertyMap(t, &m, want, append(absent, k))
			}
			for _, i := range tt.readd {
				k := tt.add[i]
				m.add(k, Property{value: intValue(-i), flags: propDefault})
				want = append(want, k)
				checkPropertyMap(t, &m, want, absent)
				require.Equal(t, intValue(-i), m.peek(k).value)
			}
			for i, k := range want {
				require.Equal(t, k, m.keys[i])
				require.Equal(t, m.props[i], *m.get(k))
			}
		})
	}
}

// TestPropertyMapLazyIndex checks that a map filled without an index (as the snapshot decoder
// does) builds it on the first lookup, and that buildIndex reports duplicate keys.
func TestPropertyMapLazyIndex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		keys   []PropertyKey
		unique bool
	}{
		{"distinct", names("k", 30), true},
		{"distinct symbols", symbols(mapIndexThreshold + 4), true},
		{"duplicate", append(names("k", mapIndexThreshold+4), strKey("k3")), false},
		{"duplicate last", append(names("k", mapIndexThreshold+4), strKey(fmt.Sprint("k", mapIndexThreshold+3))), false},
		{"duplicate symbol", func() []PropertyKey { s := symbols(mapIndexThreshold + 2); return append(s, s[len(s)-1]) }(), false},
		{"colliding", collidingNames(20, 6), true},
		{"colliding duplicate", append(collidingNames(20, 6), collidingNames(2, 6)[1]), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := propertyMap{keys: tt.keys, props: make([]Property, len(tt.keys))}
			if tt.unique {
				require.Equal(t, 5, m.find(tt.keys[5]))
				require.NotNil(t, m.index)
				checkPropertyMap(t, &m, tt.keys, names("absent", 2))
			}
			require.Equal(t, tt.unique, m.buildIndex())
		})
	}
}

// TestSnapshotDuplicatePropertyIndexed checks that the decoder rejects an object with a
// duplicate property name among more than mapIndexThreshold (where it uses the index).
func TestSnapshotDuplicatePropertyIndexed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		dup  bool
	}{
		{"distinct", false},
		{"duplicate", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			props := ""
			for i := 0; i < 3*mapIndexThreshold; i++ {
				props += fmt.Sprintf(`["k%d",%d],`, i, i)
			}
			last := "z"
			if tt.dup {
				last = "k7"
			}
			data := `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"pr":[` + props + `["` + last + `",1]]}]},"roots":[{"#":0}]}`
			vals, err := decodeRootsInto(newTestVM(t), []byte(data))
			if tt.dup {
				require.ErrorIs(t, err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, err)
			o := vals[0].asObject()
			require.Equal(t, 3*mapIndexThreshold+1, o.props.len())
			require.Equal(t, 7, o.props.find(strKey("k7")))
			require.Equal(t, 3*mapIndexThreshold, o.props.find(strKey("z")))
		})
	}
}

// TestCloneSharedPropertyIndex adds keys to and removes keys from a built-in of a new realm,
// which shares the template's index: keys added past its end are found (by a scan, then by an
// index of the object's own), removals give the object its own index, and the template's
// index is unchanged, bit for bit.
func TestCloneSharedPropertyIndex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		intr   string
		add    int
		remove []string // names removed after the additions
		shared bool     // the object still shares the template's index at the end
	}{
		{"nothing", "Math", 0, nil, true},
		{"one", "Math", 1, nil, true},
		{"up to the tail", "Math", sharedIndexTail, nil, true},
		{"past the tail", "Math", sharedIndexTail + 1, nil, false},
		{"far past the tail", "Number", 3 * sharedIndexTail, nil, false},
		{"remove original first", "Math", 0, []string{"abs"}, false},
		{"remove original last", "String.prototype", 0, []string{"at", "toString"}, false},
		{"remove added", "Math", 3, []string{"x1"}, false},
		{"remove added and original", "Object", sharedIndexTail + 2, []string{"x0", "keys", "x9"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmpl := templateRealm().Intrinsic(tt.intr)
			before := slices.Clone(tmpl.props.index.words())
			require.NotNil(t, before)
			o := New(Config{}).realm.Intrinsic(tt.intr)
			require.Same(t, tmpl.props.index, o.props.index)
			want := slices.Clone(o.props.keys)
			added := names("x", tt.add)
			for i, k := range added {
				o.props.add(k, Property{value: intValue(i), flags: propDefault})
				want = append(want, k)
				checkPropertyMap(t, &o.props, want, names("absent", 1))
			}
			for _, name := range tt.remove {
				k := strKey(name)
				require.NotEqual(t, -1, o.props.find(k), name)
				o.props.remove(k)
				want = slices.DeleteFunc(want, func(w PropertyKey) bool { return w == k })
				checkPropertyMap(t, &o.props, want, []PropertyKey{k})
			}
			require.Equal(t, tt.shared, tmpl.props.index == o.props.index)
			require.Equal(t, before, tmpl.props.index.words(), "the template's index changed")
			for i, k := range tmpl.props.keys {
				require.Equal(t, i, tmpl.props.find(k))
			}
			for _, k := range added {
				require.Equal(t, -1, tmpl.props.find(k))
			}
		})
	}
}

// TestPropertyIndexJS checks programs on objects with many properties against node.
func TestPropertyIndexJS(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"add_many_keys", `const o = {}; for (let i = 0; i < 40; i++) o['k' + i] = i; Object.keys(o).length + ':' + o.k0 + ':' + o.k39 + ':' + o.k40`, "40:0:39:undefined"},
		{"delete_first", `const o = {}; for (let i = 0; i < 20; i++) o['p' + i] = i; delete o.p0; Object.keys(o).join() + '|' + o.p1 + ':' + o.p19 + ':' + ('p0' in o)`, "p1,p2,p3,p4,p5,p6,p7,p8,p9,p10,p11,p12,p13,p14,p15,p16,p17,p18,p19|1:19:false"},
		{"delete_middle", `const o = {}; for (let i = 0; i < 20; i++) o['p' + i] = i; delete o.p10; Object.keys(o).join() + '|' + o.p11 + ':' + o.p19 + ':' + o.p9`, "p0,p1,p2,p3,p4,p5,p6,p7,p8,p9,p11,p12,p13,p14,p15,p16,p17,p18,p19|11:19:9"},
		{"delete_last", `const o = {}; for (let i = 0; i < 20; i++) o['p' + i] = i; delete o.p19; Object.keys(o).join() + '|' + o.p18 + ':' + o.p19`, "p0,p1,p2,p3,p4,p5,p6,p7,p8,p9,p10,p11,p12,p13,p14,p15,p16,p17,p18|18:undefined"},
		{"delete_readd_order", `const o = {}; for (let i = 0; i < 12; i++) o['x' + i] = i; delete o.x3; o.x3 = 'again'; Object.keys(o).join() + '|' + o.x3 + ':' + o.x4`, "x0,x1,x2,x4,x5,x6,x7,x8,x9,x10,x11,x3|again:4"},
		{"delete_all_then_add", `const o = {}; for (let i = 0; i < 30; i++) o['d' + i] = i; for (let i = 0; i < 30; i++) delete o['d' + i]; o.z = 1; o.d5 = 5; JSON.stringify(o)`, "{\"z\":1,\"d5\":5}"},
		{"delete_every_other", `const o = {}; for (let i = 0; i < 50; i++) o['e' + i] = i; for (let i = 0; i < 50; i += 2) delete o['e' + i]; let s = 0; for (const k in o) s += o[k]; Object.keys(o).length + ':' + s + ':' + o.e49 + ':' + o.e48`, "25:625:49:undefined"},
		{"for_in_order", `const o = {b: 1, a: 2}; for (let i = 0; i < 10; i++) o['n' + i] = i; o[5] = 'five'; o[1] = 'one'; const ks = []; for (const k in o) ks.push(k); ks.join()`, "1,5,b,a,n0,n1,n2,n3,n4,n5,n6,n7,n8,n9"},
		{"integer_like_mixed", `const o = {}; for (let i = 0; i < 12; i++) { o['s' + i] = i; o[20 - i] = i; } o['01'] = 'a'; o['-1'] = 'b'; o['4294967295'] = 'c'; o['4294967294'] = 'd'; Object.keys(o).join()`, "9,10,11,12,13,14,15,16,17,18,19,20,4294967294,s0,s1,s2,s3,s4,s5,s6,s7,s8,s9,s10,s11,01,-1,4294967295"},
		{"spread_copy", `const o = {}; for (let i = 0; i < 15; i++) o['q' + i] = i * 2; const c = {...o, q3: 'x', extra: true}; delete c.q0; Object.keys(c).join() + '|' + c.q3 + ':' + c.q14`, "q1,q2,q3,q4,q5,q6,q7,q8,q9,q10,q11,q12,q13,q14,extra|x:28"},
		{"json_roundtrip", `const o = {}; for (let i = 0; i < 25; i++) o['j' + i] = {v: i}; delete o.j12; const p = JSON.parse(JSON.stringify(o)); Object.keys(p).length + ':' + p.j24.v + ':' + ('j12' in p) + ':' + JSON.stringify(p).length`, "24:24:false:341"},
		{"json_parse_many", `const src = '{' + Array.from({length: 30}, (_, i) => '"k' + i + '":' + i).join(',') + '}'; const o = JSON.parse(src); delete o.k7; o.k7 = 70; Object.keys(o).slice(-3).join() + ':' + o.k7 + ':' + o.k29`, "k28,k29,k7:70:29"},
		{"json_parse_duplicate", `const o = JSON.parse('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10,"j":11}'); Object.keys(o).join() + ':' + o.a`, "a,b,c,d,e,f,g,h,i,j:10"},
		{"define_property", `const o = {}; for (let i = 0; i < 10; i++) o['m' + i] = i; Object.defineProperty(o, 'hidden', {value: 42, enumerable: false}); Object.defineProperty(o, 'm2', {get() { return 'g' }, enumerable: true, configurable: true}); Object.keys(o).join() + '|' + o.hidden + ':' + o.m2 + ':' + Object.getOwnPropertyNames(o).length`, "m0,m1,m2,m3,m4,m5,m6,m7,m8,m9|42:g:11"},
		{"define_then_delete", `const o = {}; for (let i = 0; i < 10; i++) Object.defineProperty(o, 'c' + i, {value: i, configurable: i % 2 === 0, enumerable: true}); const r = []; for (let i = 0; i < 10; i++) { let ok = true; try { delete o['c' + i] } catch (e) { ok = e.name } r.push(ok) }; r.join('') + '|' + Object.keys(o).join()`, "trueTypeErrortrueTypeErrortrueTypeErrortrueTypeErrortrueTypeError|c1,c3,c5,c7,c9"},
		{"symbols_many", `const syms = Array.from({length: 12}, (_, i) => Symbol('s' + i)); const o = {}; syms.forEach((s, i) => { o[s] = i; o['n' + i] = -i; }); delete o[syms[4]]; Object.getOwnPropertySymbols(o).map(s => s.description).join() + '|' + o[syms[11]] + ':' + o[syms[4]] + ':' + Object.keys(o).length`, "s0,s1,s2,s3,s5,s6,s7,s8,s9,s10,s11|11:undefined:12"},
		{"symbol_and_string_same_desc", `const s = Symbol('k'); const o = {}; for (let i = 0; i < 10; i++) o['k' + i] = i; o[s] = 'sym'; o.k = 'str'; o[Symbol.for('k')] = 'reg'; o[s] + ':' + o.k + ':' + o[Symbol.for('k')] + ':' + (Object.getOwnPropertyNames(o).length + Object.getOwnPropertySymbols(o).length)`, "sym:str:reg:13"},
		{"own_keys_order", `const o = {}; const s = Symbol('z'); for (let i = 0; i < 9; i++) o['r' + i] = i; o[s] = 1; o[3] = 3; o.r0 = 'again'; delete o.r4; [...Object.getOwnPropertyNames(o), ...Object.getOwnPropertySymbols(o)].map(String).join()`, "3,r0,r1,r2,r3,r5,r6,r7,r8,Symbol(z)"},
		{"object_assign", `const a = {}; for (let i = 0; i < 12; i++) a['a' + i] = i; const b = Object.assign({z: 0}, a, {a5: 'five'}); Object.keys(b).join() + ':' + b.a5`, "z,a0,a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11:five"},
		{"object_entries_after_delete", `const o = {}; for (let i = 0; i < 16; i++) o['t' + i] = i; delete o.t0; delete o.t15; delete o.t8; o.t8 = 'n'; Object.entries(o).map(e => e.join('=')).join()`, "t1=1,t2=2,t3=3,t4=4,t5=5,t6=6,t7=7,t9=9,t10=10,t11=11,t12=12,t13=13,t14=14,t8=n"},
		{"has_own", `const o = {}; for (let i = 0; i < 20; i++) o['h' + i] = undefined; delete o.h13; [Object.hasOwn(o, 'h0'), Object.hasOwn(o, 'h13'), Object.hasOwn(o, 'h19'), 'h20' in o, o.hasOwnProperty('h12')].join()`, "true,false,true,false,true"},
		{"freeze_many", `'use strict'; const o = {}; for (let i = 0; i < 12; i++) o['f' + i] = i; Object.freeze(o); let e = ''; try { o.f1 = 9 } catch (x) { e = x.name } e + ':' + o.f1 + ':' + Object.isFrozen(o)`, "TypeError:1:true"},
		{"class_instance_fields", `class C { constructor() { for (let i = 0; i < 14; i++) this['f' + i] = i } } const c = new C(); delete c.f7; c.f7 = 'back'; Object.keys(c).slice(5, 9).join() + ':' + c.f7 + ':' + c.f13`, "f5,f6,f8,f9:back:13"},
		{"prototype_lookup", `const p = {}; for (let i = 0; i < 12; i++) p['m' + i] = () => i; const o = Object.create(p); o.m3 = () => 'own'; delete p.m5; [o.m0(), o.m3(), o.m11(), typeof o.m5].join()`, "0,own,11,undefined"},
		{"builtin_add_and_delete", `Math.extra1 = 1; Math.extra2 = 2; delete Math.max; const r = [typeof Math.max, Math.extra2, Math.min(3, 1), Object.getOwnPropertyNames(Math).includes('extra1')].join(); delete Math.extra1; r + ':' + ('extra1' in Math) + ':' + Math.abs(-2)`, "undefined,2,1,true:false:2"},
		{"builtin_many_additions", `for (let i = 0; i < 20; i++) Array.prototype['x' + i] = i; delete Array.prototype.x3; delete Array.prototype.map; const a = [1]; [a.x0, a.x3, a.x19, typeof a.map, a.filter(Boolean).length].join()`, "0,,19,undefined,1"},
		{"builtin_readd_removed", `const f = Object.prototype.hasOwnProperty; delete Object.prototype.hasOwnProperty; const b = ({}).hasOwnProperty === undefined; Object.prototype.hasOwnProperty = f; b + ':' + ({q: 1}).hasOwnProperty('q') + ':' + Object.getOwnPropertyNames(Object.prototype).slice(-1)[0]`, "true:true:hasOwnProperty"},
		{"global_vars", `for (let i = 0; i < 30; i++) globalThis['g' + i] = i; delete globalThis.g10; [typeof g10, g29, g0, typeof globalThis.g10].join()`, "undefined,29,0,undefined"},
		{"computed_names", `const o = {}; const names = ['constructor', '__proto__x', 'toString', 'valueOf', 'length', 'name', 'a b', '', 'é', '日本', '\u{1F600}']; names.forEach((n, i) => o[n] = i); delete o.length; o.length = 'L'; Object.keys(o).map(k => k + '=' + o[k]).join('|')`, "constructor=0|__proto__x=1|toString=2|valueOf=3|name=5|a b=6|=7|é=8|日本=9|😀=10|length=L"},
		{"empty_string_key", `const o = {}; for (let i = 0; i < 10; i++) o['x'.repeat(i)] = i; delete o['']; o[''] = 'e'; Object.keys(o).map(k => k.length).join() + ':' + o[''] + ':' + o.xxxxxxxxx`, "1,2,3,4,5,6,7,8,9,0:e:9"},
		{"array_named_props", `const a = [1, 2, 3]; for (let i = 0; i < 12; i++) a['p' + i] = i; delete a.p0; a.length = 1; Object.keys(a).join() + ':' + a.length`, "0,p1,p2,p3,p4,p5,p6,p7,p8,p9,p10,p11:1"},
		{"function_props", `function f() {} for (let i = 0; i < 10; i++) f['s' + i] = i; delete f.name; delete f.s2; Object.getOwnPropertyNames(f).join() + ':' + f.name`, "length,prototype,s0,s1,s3,s4,s5,s6,s7,s8,s9:"},
		{"lone_surrogates", `const o = {}; for (let i = 0; i < 10; i++) o['\uD800' + i] = i; o['\uDC00'] = 'lo'; delete o['\uD8003']; Object.keys(o).length + ':' + o['\uD8009'] + ':' + o['\uDC00'] + ':' + o['\uD8003']`, "10:9:lo:undefined"},
		{"many_removes_and_adds", `const o = {}; let log = 0; for (let r = 0; r < 5; r++) { for (let i = 0; i < 20; i++) o['k' + ((i * 7 + r) % 23)] = r * 100 + i; for (let i = 0; i < 20; i += 3) delete o['k' + ((i * 5 + r) % 23)]; } for (const k in o) log += o[k]; Object.keys(o).join() + '|' + log`, "k5,k12,k13,k20,k6,k14,k21,k7,k15,k22,k8,k16,k0,k9,k17,k1|6269"},
	})
}

// BenchmarkPropertyFind looks keys up in objects of several sizes (hits, misses, and a built-in
// of a new realm, which shares the template's index), and restores objects of 32 properties.
func BenchmarkPropertyFind(b *testing.B) {
	for _, n := range []int{16, 64, 1024} {
		var m propertyMap
		keys := names("key", n)
		for i, k := range keys {
			m.add(k, Property{value: intValue(i), flags: propDefault})
		}
		b.Run(fmt.Sprintf("hit/keys=%d", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if m.find(keys[i]) != i {
					b.Fatal("not found")
				}
				if i++; i == n {
					i = 0
				}
			}
		})
		miss := names("other", n)
		b.Run(fmt.Sprintf("miss/keys=%d", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if m.find(miss[i]) >= 0 {
					b.Fatal("found")
				}
				if i++; i == n {
					i = 0
				}
			}
		})
	}
	b.Run("shared/Math", func(b *testing.B) {
		o := New(Config{}).realm.Intrinsic("Math")
		keys := slices.Clone(o.props.keys)
		i := 0
		for b.Loop() {
			if o.props.find(keys[i]) != i {
				b.Fatal("not found")
			}
			if i++; i == len(keys) {
				i = 0
			}
		}
	})
	b.Run("build/keys=32", func(b *testing.B) {
		keys := names("key", 32)
		b.ReportAllocs()
		for b.Loop() {
			m := propertyMap{keys: keys}
			m.buildIndex()
		}
	})
}

package interp

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// evalJS runs src as a program and returns ToString of its completion value, or "throws "
// and the error's name when it ends with an exception.
func evalJS(t *testing.T, src string) string {
	t.Helper()
	return evalIn(t, New(Config{}), src)
}

// evalIn is evalJS in a given fresh VM (which the caller can inspect afterwards).
func evalIn(t *testing.T, vm *VM, src string) string {
	t.Helper()
	p, err := Compile(src)
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm.Result()
	if thrown {
		name, _, _, _ := vm.DescribeError(v)
		return "throws " + name
	}
	return vm.ToGoString(v)
}

// jsCase is one program of a table test with node's result for it.
type jsCase struct {
	name string
	src  string
	want string
}

// runJSCases runs each case as a parallel subtest.
func runJSCases(t *testing.T, cases []jsCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, evalJS(t, tt.src), tt.src)
		})
	}
}

// TestArrayBuiltins checks Array against results computed by node.
func TestArrayBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"ctor_len", `new Array(3).length`, "3"},
		{"ctor_items", `new Array(1, 2, 3).join()`, "1,2,3"},
		{"ctor_single_string", `Array('7').length + ':' + Array('7')[0]`, "1:7"},
		{"ctor_invalid_length", `new Array(-1)`, "throws RangeError"},
		{"ctor_fractional_length", `Array(1.5)`, "throws RangeError"},
		{"isArray", `[Array.isArray([]), Array.isArray({length: 0}), Array.isArray(Array.prototype)].join()`, "true,false,true"},
		{"from_iterable", `const it = {[Symbol.iterator]() { let i = 0; return {next: () => ({value: ++i, done: i > 3})} }}; Array.from(it).join()`, "1,2,3"},
		{"from_arraylike", `Array.from({length: 3, 0: 'x', 2: 'z'}).join('|')`, "x||z"},
		{"from_map", `Array.from([1, 2, 3], function (x, i) { return x * 10 + i + this.k }, {k: 100}).join()`, "110,121,132"},
		{"from_not_callable", `Array.from([1], 5)`, "throws TypeError"},
		{"from_null", `Array.from(null)`, "throws TypeError"},
		{"of", `Array.of(1, 'a', null).length`, "3"},
		{"of_subclass", `class A extends Array {}; const a = A.of(1, 2); (a instanceof A) + ':' + a.length`, "true:2"},
		{"at", `[[1, 2, 3].at(0), [1, 2, 3].at(-1), [1, 2, 3].at(5)].join()`, "1,3,"},
		{"concat", `[1, 2].concat(3, [4, [5]], []).length + ':' + [1, 2].concat(3, [4, [5]]).join()`, "5:1,2,3,4,5"},
		{"concat_spreadable", `const o = {length: 2, 0: 'a', 1: 'b', [Symbol.isConcatSpreadable]: true}; [0].concat(o).join()`, "0,a,b"},
		{"concat_not_spreadable", `const a = [1, 2]; a[Symbol.isConcatSpreadable] = false; [0].concat(a).length`, "2"},
		{"concat_holes", `const r = [, 1].concat([2, , 3]); r.length + ':' + (0 in r) + ':' + (3 in r)`, "5:false:false"},
		{"copyWithin", `[1, 2, 3, 4, 5].copyWithin(-2, 0, 2).join()`, "1,2,3,1,2"},
		{"copyWithin_overlap", `[1, 2, 3, 4, 5].copyWithin(1, 0).join()`, "1,1,2,3,4"},
		{"entries", `[...['a', 'b'].entries()].join(';')`, "0,a;1,b"},
		{"keys_holes", `[...[, 'b'].keys()].join()`, "0,1"},
		{"values", `[...[1, 2].values()].join()`, "1,2"},
		{"iterator_is_values", `Array.prototype[Symbol.iterator] === Array.prototype.values`, "true"},
		{"every", `[[1, 2, 3].every(x => x > 0), [1, 2, 3].every(x => x > 1), [].every(x => false)].join()`, "true,false,true"},
		{"fill", `[1, 2, 3, 4].fill(0, 1, -1).join()`, "1,0,0,4"},
		{"fill_new", `new Array(3).fill('x').join('')`, "xxx"},
		{"filter", `[1, 2, 3, 4, 5].filter(x => x % 2).join()`, "1,3,5"},
		{"filter_holes", `[1, , 3].filter(() => true).length`, "2"},
		{"find", `[[5, 12, 8].find(x => x > 6), [5].find(x => x > 6)].join()`, "12,"},
		{"findIndex", `[5, 12, 8].findIndex(x => x > 6) + ',' + [5].findIndex(x => x > 6)`, "1,-1"},
		{"findLast", `[5, 12, 8, 1].findLast(x => x > 6) + ',' + [5, 12, 8, 1].findLastIndex(x => x > 6)`, "8,2"},
		{"find_holes_visited", `let n = 0; [, , ,].find(() => { n++ }); n`, "3"},
		{"flat", `[1, [2, [3, [4]]]].flat().length + ':' + [1, [2, [3, [4]]]].flat(Infinity).join()`, "3:1,2,3,4"},
		{"flat_holes", `[1, , [2, , 3]].flat().length`, "3"},
		{"flatMap", `[1, 2].flatMap(x => [x, [x * 2]]).length + ':' + [1, 2].flatMap(x => [x, x * 2]).join()`, "4:1,2,2,4"},
		{"forEach", `let s = 0; [1, 2, 3].forEach((x, i, a) => { s += x * i + a.length }); s`, "17"},
		{"forEach_not_callable", `[1].forEach()`, "throws TypeError"},
		{"forEach_null_this", `const f = Array.prototype.forEach; f(x => x)`, "throws TypeError"},
		{"includes", `[[1, 2, NaN].includes(NaN), [1, 2].includes(3), [1, , 3].includes(undefined), [-0].includes(0)].join()`, "true,false,true,true"},
		{"includes_from", `[1, 2, 3].includes(1, 1) + ',' + [1, 2, 3].includes(3, -1)`, "false,true"},
		{"indexOf", `[[1, 2, 1].indexOf(1), [1, 2, 1].indexOf(1, 1), [NaN].indexOf(NaN), [1, 2, 3].indexOf(3, -1)].join()`, "0,2,-1,2"},
		{"lastIndexOf", `[[1, 2, 1].lastIndexOf(1), [1, 2, 1].lastIndexOf(1, -2), [1].lastIndexOf(2)].join()`, "2,0,-1"},
		{"join", `[1, null, undefined, 'a', [2, 3]].join('-')`, "1---a-2,3"},
		{"join_default", `[1, 2].join() + [1, 2].join(undefined)`, "1,21,2"},
		{"join_cycle", `const a = [1, 2]; a.push(a); a.join()`, "1,2,"},
		{"keys", `[...Array(3).keys()].join()`, "0,1,2"},
		{"map", `[1, 2, 3].map((x, i) => x * i).join()`, "0,2,6"},
		{"map_holes", `const m = [1, , 3].map(x => x * 2); m.length + ':' + (1 in m) + ':' + m.join()`, "3:false:2,,6"},
		{"map_species", `class A extends Array {}; const a = new A(1, 2, 3).map(x => x); (a instanceof A) + ':' + a.length`, "true:3"},
		{"pop", `const a = [1, 2, 3]; a.pop() + ':' + a.length + ':' + [].pop()`, "3:2:undefined"},
		{"push", `const a = [1]; a.push(2, 3) + ':' + a.join()`, "3:1,2,3"},
		{"push_arraylike", `const o = {length: 1, push: Array.prototype.push}; o.push('x'); o.length + ':' + o[1]`, "2:x"},
		{"reduce", `[1, 2, 3, 4].reduce((a, b) => a + b) + ',' + [1, 2, 3].reduce((a, b) => a + b, 10)`, "10,16"},
		{"reduce_empty", `[].reduce((a, b) => a + b)`, "throws TypeError"},
		{"reduceRight", `['a', 'b', 'c'].reduceRight((a, b) => a + b)`, "cba"},
		{"reverse", `[1, 2, 3].reverse().join()`, "3,2,1"},
		{"reverse_holes", `const r = [1, , 3, , ].reverse(); r.length + ':' + Object.keys(r).join()`, "4:1,3"},
		{"shift", `const a = [1, 2, 3]; a.shift() + ':' + a.join() + ':' + a.length`, "1:2,3:2"},
		{"unshift", `const a = [3]; a.unshift(1, 2) + ':' + a.join()`, "3:1,2,3"},
		{"slice", `[1, 2, 3, 4, 5].slice(1, -1).join() + ';' + [1, 2, 3].slice(-2).join() + ';' + [1, 2, 3].slice(5).length`, "2,3,4;2,3;0"},
		{"slice_arraylike", `({length: 2, 0: 'a', 1: 'b', slice: Array.prototype.slice}).slice().join()`, "a,b"},
		{"some", `[[1, 2].some(x => x > 1), [1, 2].some(x => x > 5)].join()`, "true,false"},
		{"sort_default", `[10, 9, 1, 100, undefined, 'b', 'a'].sort().join()`, "1,10,100,9,a,b,"},
		{"sort_numbers", `[10, 9, 1, 100, -5].sort((a, b) => a - b).join()`, "-5,1,9,10,100"},
		{"sort_stable", `[{k: 1, v: 'a'}, {k: 0, v: 'b'}, {k: 1, v: 'c'}, {k: 0, v: 'd'}].sort((x, y) => x.k - y.k).map(x => x.v).join('')`, "bdac"},
		{"sort_holes", `const a = [3, , 1, undefined]; a.sort(); a.length + ':' + a.join() + ':' + (3 in a)`, "4:1,3,,:false"},
		{"sort_bad_comparator", `[1, 2].sort(1)`, "throws TypeError"},
		{"sort_large_stable", `const a = []; for (let i = 0; i < 500; i++) a.push({k: i % 7, i}); a.sort((x, y) => x.k - y.k); a.every((x, j) => j === 0 || a[j - 1].k < x.k || (a[j - 1].k === x.k && a[j - 1].i < x.i))`, "true"},
		{"sort_comparator_throws", `const a = [3, 1, 2]; try { a.sort(() => { throw 1 }) } catch (e) {} a.join()`, "3,1,2"},
		{"splice", `const a = [1, 2, 3, 4, 5]; const r = a.splice(1, 2, 'x'); r.join() + ';' + a.join()`, "2,3;1,x,4,5"},
		{"splice_insert", `const a = [1, 2]; a.splice(1, 0, 'a', 'b'); a.join()`, "1,a,b,2"},
		{"splice_one_arg", `const a = [1, 2, 3]; a.splice(1).join() + ';' + a.length`, "2,3;1"},
		{"splice_negative", `const a = [1, 2, 3]; a.splice(-1, 1); a.join()`, "1,2"},
		{"toLocaleString", `[1234.5, null, 7].toLocaleString()`, "1,234.5,,7"},
		{"toString", "[1, [2, 3]].toString() + ';' + `${[]}`", "1,2,3;"},
		{"toString_no_join", `({join: 1, toString: Array.prototype.toString}).toString()`, "[object Object]"},
		{"toReversed", `const a = [1, 2, 3]; a.toReversed().join() + ';' + a.join()`, "3,2,1;1,2,3"},
		{"toSorted", `const a = [3, 1, 2]; a.toSorted().join() + ';' + a.join()`, "1,2,3;3,1,2"},
		{"toSorted_holes", `[3, , 1].toSorted().length + ':' + (2 in [3, , 1].toSorted())`, "3:true"},
		{"toSpliced", `const a = [1, 2, 3]; a.toSpliced(1, 1, 'x', 'y').join() + ';' + a.join()`, "1,x,y,3;1,2,3"},
		{"with", `[1, 2, 3].with(1, 'x').join() + ';' + [1, 2, 3].with(-1, 'z').join()`, "1,x,3;1,2,z"},
		{"with_range", `[1].with(1, 0)`, "throws RangeError"},
		{"unscopables", `Object.keys(Array.prototype[Symbol.unscopables]).length`, "16"},
		{"species", `Array[Symbol.species] === Array`, "true"},
		{"method_length", `[Array.prototype.map.length, Array.prototype.splice.length, Array.from.length, Array.length, Array.prototype.reduce.name].join()`, "1,2,1,1,reduce"},
		{"length_set", `const a = [1, 2, 3]; a.length = 1; a.join() + ':' + a.length`, "1:1"},
		{"sparse_join", `const a = []; a[1e6] = 'x'; a.join('').length + ':' + a.indexOf('x')`, "1:1000000"},
		{"from_iter_close", `let closed = 0; const it = {[Symbol.iterator]() { return {next: () => ({value: 1, done: false}), return() { closed++; return {} }} }}; try { Array.from(it, () => { throw 1 }) } catch (e) {} closed`, "1"},
		{"from_length_set", `const r = Array.from({length: 2, 0: 'a'}); r.length + ':' + (1 in r)`, "2:true"},
		{"push_generic_length", `const o = {length: '2', push: Array.prototype.push}; o.push(1); o.length`, "3"},
		{"pop_generic", `const o = {length: 2, 0: 'a', 1: 'b', pop: Array.prototype.pop}; o.pop() + ':' + o.length + ':' + (1 in o)`, "b:1:false"},
		{"shift_holes", `const a = [, 1, , 2]; a.shift(); a.length + ':' + Object.keys(a).join()`, "3:0,2"},
		{"splice_holes", `const a = [1, , 3, , 5]; const r = a.splice(1, 2); r.length + ':' + (0 in r) + ':' + a.length + ':' + Object.keys(a).join()`, "2:false:3:0,2"},
		{"unshift_arraylike", `const o = {length: 1, 0: 'b', unshift: Array.prototype.unshift}; o.unshift('a') + ':' + o[0] + o[1]`, "2:ab"},
		{"sort_undefined_comparator", `[3, 2, 1].sort(undefined).join()`, "1,2,3"},
		{"sort_nan_comparator", `[3, 1, 2].sort(() => NaN).join()`, "3,1,2"},
		{"sort_mixed", `[true, 'b', 2, null, 10, 'a'].sort().join()`, "10,2,a,b,,true"},
		{"sort_objects_default", "[{toString() { return 'b' }}, {toString() { return 'a' }}].sort().map(o => `${o}`).join()", "a,b"},
		{"indexOf_fromIndex_large", `[1, 2, 3].indexOf(1, 10) + ',' + [1, 2, 3].lastIndexOf(3, -10)`, "-1,-1"},
		{"fill_negative", `Array(5).fill(1, -3, -1).join()`, ",,1,1,"},
		{"includes_fromIndex_neg", `[1, 2, 3].includes(1, -100)`, "true"},
		{"every_mutation", `const a = [1, 2, 3]; let seen = []; a.every((x, i) => { if (i === 0) a.pop(); seen.push(x); return true }); seen.join()`, "1,2"},
		{"map_arraylike", `({length: 2, 0: 1, 1: 2, map: Array.prototype.map}).map(x => x + 1).join()`, "2,3"},
		{"filter_thisArg", `[1, 2, 3].filter(function (x) { return x > this.min }, {min: 1}).join()`, "2,3"},
		{"reduce_holes", `[, 1, , 2].reduce((a, b) => a + b)`, "3"},
		{"reduceRight_init", `[1, 2, 3].reduceRight((a, b) => a + b, 'x')`, "x321"},
		{"flat_depth0", `[[1], [2]].flat(0).length`, "2"},
		{"flatMap_not_callable", `[1].flatMap()`, "throws TypeError"},
		{"copyWithin_arraylike", `const o = {length: 3, 0: 'a', 2: 'c', cw: Array.prototype.copyWithin}; o.cw(0, 1); (0 in o) + ':' + o[1]`, "false:c"},
		{"at_fraction", `[1, 2, 3].at(1.7) + ',' + [1, 2, 3].at(-0.5)`, "2,1"},
		{"join_nested_null", `[[null], [undefined], [[]]].join(';')`, ";;"},
		{"concat_array_subclass", `class A extends Array {}; const r = new A().concat([1]); r instanceof A`, "true"},
		{"slice_species_null", `const a = [1, 2]; a.constructor = {[Symbol.species]: null}; Array.isArray(a.slice())`, "true"},
		{"species_not_ctor", `const a = [1]; a.constructor = {[Symbol.species]: 1}; a.map(x => x)`, "throws TypeError"},
		{"with_fraction", `[1, 2, 3].with(1.9, 'x').join()`, "1,x,3"},
		{"toSpliced_no_args", `[1, 2].toSpliced().join()`, "1,2"},
		{"splice_no_args", `const a = [1, 2]; a.splice().length + ':' + a.length`, "0:2"},
		{"entries_next", `const it = [7].entries(); const a = it.next(); const b = it.next(); a.value.join() + ':' + a.done + ':' + b.done`, "0,7:false:true"},
		{"iterator_tag", `const it = [].values(); it.ts = Object.prototype.toString; it.ts()`, "[object Array Iterator]"},
		{"array_proto_is_array", `Array.isArray(Array.prototype) + ':' + Array.prototype.length`, "true:0"},
		{"new_array_big", `new Array(4294967295).length`, "throws RangeError"},
		{"new_array_too_big", `new Array(4294967296)`, "throws RangeError"},
		{"copyWithin_shrinks", `const a = Array.from({length: 30}, (_, i) => i); const r = a.copyWithin(25, {valueOf() { a.length = 20; return 1 }}); r.length + ':' + r.join()`, "30:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,,,,,,1,2,3,4,5"},
		{"slice_shrinks", `const a = [1, 2, 3, 4]; const r = a.slice({valueOf() { a.length = 1; return 0 }}); r.length + ':' + (3 in r)`, "4:false"},
		{"splice_shrinks", `const a = [1, 2, 3, 4]; const r = a.splice({valueOf() { a.length = 1; return 1 }}, 2); r.length + ':' + a.length + ':' + a.join()`, "2:2:1,"},
		{"includes_shrinks", `const a = [1, 2, 3, 4]; a.includes(undefined, {valueOf() { a.length = 1; return 0 }})`, "true"},
		{"fill_grows_holes", `const a = new Array(6); a.fill(7, 2, 4); a.length + ':' + Object.keys(a).join() + ':' + a.join()`, "6:2,3:,,7,7,,"},
		{"fill_big", `new Array(100000).fill(1).reduce((s, x) => s + x, 0)`, "100000"},
		{"fill_frozen", `Object.freeze([1, 2]).fill(0)`, "throws TypeError"},
		{"array_toLocaleString_options", `[1234.5, 2].toLocaleString('en-US', {style: 'currency', currency: 'USD'})`, "$1,234.50,$2.00"},
		{"from_array_grows", `const a = [1, 2, , 4]; const r = Array.from(a, (x, i) => { if (i === 0) a.push(9); return x }); r.join() + ':' + (2 in r)`, "1,2,,4,9:true"},
		{"from_array_next_patched", `const proto = Object.getPrototypeOf([].values()); const n = proto.next; proto.next = function () { const r = n.apply(this, []); if (!r.done) r.value = 'p'; return r }; Array.from([1, 2]).join()`, "p,p"},
		{"sort_sparse_huge", `const a = []; a[200000] = 1; a[5] = 3; a[100000] = 2; a.sort(); a.length + ":" + Object.keys(a).join() + ":" + a[0] + a[1] + a[2]`, "200001:0,1,2:123"},
	})
}

// TestArrayLoopsInterruptible checks that natives looping over a huge array-like length
// stop at the run's deadline instead of hanging the worker.
func TestArrayLoopsInterruptible(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{"join", `Array.prototype.join.call({length: 2 ** 53 - 1}, '')`},
		{"forEach", `Array.prototype.forEach.call({length: 2 ** 53 - 1}, () => {})`},
		{"indexOf", `Array.prototype.indexOf.call({length: 2 ** 53 - 1}, 1)`},
		{"reverse", `Array.prototype.reverse.call({length: 2 ** 53 - 1})`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := New(Config{})
			p, err := Compile(tt.src)
			require.NoError(t, err)
			require.NoError(t, vm.Start(p))
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_, err = vm.Run(ctx, RunOptions{})
			var d *Diagnostic
			require.True(t, errors.As(err, &d), "error %v", err)
			require.Equal(t, "TimeoutExceeded", d.Kind)
		})
	}
}

// benchJS compiles src once and runs it on a fresh VM per iteration.
func benchJS(b *testing.B, src string) {
	p, err := Compile(src)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		vm := New(Config{})
		require.NoError(b, vm.Start(p))
		if _, err := vm.Run(context.Background(), RunOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, thrown := vm.Result(); thrown {
			b.Fatal("thrown")
		}
	}
}

// arrayBenchSetup builds a 10,000-element array of pseudo-random integers.
const arrayBenchSetup = `const a = []; let s = 1; for (let i = 0; i < 10000; i++) { s = (s * 1103515245 + 12345) % 2147483648; a.push(s % 100000) }
`

func BenchmarkArraySortComparator(b *testing.B) {
	benchJS(b, arrayBenchSetup+`a.sort((x, y) => x - y); a[0]`)
}

func BenchmarkArraySortDefault(b *testing.B) {
	benchJS(b, arrayBenchSetup+`a.sort(); a[0]`)
}

func BenchmarkArrayMapFilterJoin(b *testing.B) {
	benchJS(b, arrayBenchSetup+`a.map(x => x * 2).filter(x => x % 3 === 0).join(',').length`)
}

func BenchmarkArrayReduce(b *testing.B) {
	benchJS(b, arrayBenchSetup+`a.reduce((s, x) => s + x, 0)`)
}

func BenchmarkArraySetupOnly(b *testing.B) {
	benchJS(b, arrayBenchSetup+`a.length`)
}

func BenchmarkArrayEmptyProgram(b *testing.B) {
	benchJS(b, `1`)
}

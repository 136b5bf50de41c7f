package interp

import "testing"

// Node 20 has none of these built-ins: the expected results follow the proposal texts
// (iterator chunking, joint iteration, iterator includes, Iterator.prototype.join).

// TestIteratorChunking checks Iterator.prototype.chunks and windows.
func TestIteratorChunking(t *testing.T) {
	t.Parallel()
	runJSCases(t, chunkingCases)
}

// TestIteratorIncludesJoin checks Iterator.prototype.includes and join.
func TestIteratorIncludesJoin(t *testing.T) {
	t.Parallel()
	runJSCases(t, includesJoinCases)
}

// TestIteratorZip checks Iterator.zip and Iterator.zipKeyed.
func TestIteratorZip(t *testing.T) {
	t.Parallel()
	runJSCases(t, zipCases)
}

// show is a prelude that renders nested arrays as "[a,b]" so that chunk boundaries show.
const show = `const show = x => Array.isArray(x) ? '[' + x.map(show).join() + ']' : String(x);
function* gen(n) { for (let i = 0; i < n; i++) yield i }
`

// closeLog is a prelude: an iterator over 1..n that logs next/return calls into log.
const closeLog = `const log = [];
function counted(n) {
  let i = 0;
  return { __proto__: Iterator.prototype,
    next() { log.push('next'); i++; return { value: i, done: i > n } },
    return() { log.push('return'); return {} } };
}
`

var chunkingCases = []jsCase{
	{"chunks even", show + `show([...gen(6).chunks(2)])`, "[[0,1],[2,3],[4,5]]"},
	{"chunks last partial", show + `show([...gen(5).chunks(2)])`, "[[0,1],[2,3],[4]]"},
	{"chunks size 1", show + `show([...gen(3).chunks(1)])`, "[[0],[1],[2]]"},
	{"chunks larger than input", show + `show([...gen(3).chunks(10)])`, "[[0,1,2]]"},
	{"chunks empty", show + `show([...gen(0).chunks(3)])`, "[]"},
	{"chunks max size", show + `show([...gen(2).chunks(2 ** 32 - 1)])`, "[[0,1]]"},
	{"chunks distinct arrays", `const [a, b] = [1, 2, 3, 4].values().chunks(2); String(a !== b && Array.isArray(a))`, "true"},
	{"chunks zero", `[].values().chunks(0)`, "throws RangeError"},
	{"chunks too large", `[].values().chunks(2 ** 32)`, "throws RangeError"},
	{"chunks fraction", `[].values().chunks(1.5)`, "throws TypeError"},
	{"chunks string not coerced", `[].values().chunks('2')`, "throws TypeError"},
	{"chunks infinity", `[].values().chunks(Infinity)`, "throws TypeError"},
	{"chunks missing", `[].values().chunks()`, "throws TypeError"},
	{"chunks non-object this", `Iterator.prototype.chunks.call(1, 2)`, "throws TypeError"},
	{"chunks bad size closes", closeLog + `try { counted(3).chunks(0) } catch (e) { log.push(e.name) } log.join()`, "return,RangeError"},
	{"chunks is lazy", closeLog + `const c = counted(5).chunks(2); log.push('made'); c.next(); log.join()`, "made,next,next"},
	{"chunks return closes underlying", closeLog + `const c = counted(5).chunks(2); c.next(); c.return(); c.next(); log.join()`, "next,next,return"},
	{"chunks exhausted does not close", closeLog + `const c = counted(3).chunks(2); [...c]; c.return(); log.join()`, "next,next,next,next"},
	{"chunks helper prototype", `const c = [].values().chunks(1); [Object.getPrototypeOf(c) === Object.getPrototypeOf([].values().map(x => x)), c[Symbol.toStringTag]].join()`, "true,Iterator Helper"},
	{"chunks next throws", `const it = {__proto__: Iterator.prototype, next() { throw new SyntaxError('n') }}; it.chunks(2).next()`, "throws SyntaxError"},
	{"windows basic", show + `show([...gen(5).windows(3)])`, "[[0,1,2],[1,2,3],[2,3,4]]"},
	{"windows size 1", show + `show([...gen(3).windows(1)])`, "[[0],[1],[2]]"},
	{"windows exact", show + `show([...gen(2).windows(2)])`, "[[0,1]]"},
	{"windows only-full short input", show + `show([...gen(2).windows(3)])`, "[]"},
	{"windows only-full explicit", show + `show([...gen(2).windows(3, 'only-full')])`, "[]"},
	{"windows allow-partial short input", show + `show([...gen(2).windows(3, 'allow-partial')])`, "[[0,1]]"},
	{"windows allow-partial long input", show + `show([...gen(4).windows(3, 'allow-partial')])`, "[[0,1,2],[1,2,3]]"},
	{"windows allow-partial empty", show + `show([...gen(0).windows(3, 'allow-partial')])`, "[]"},
	{"windows distinct arrays", `const [a, b] = [1, 2, 3].values().windows(2); [a !== b, a.join(), b.join()].join('|')`, "true|1,2|2,3"},
	{"windows bad undersized", `[].values().windows(2, 'partial')`, "throws TypeError"},
	{"windows null undersized", `[].values().windows(2, null)`, "throws TypeError"},
	{"windows bad size first", `[].values().windows(0, 'bad')`, "throws RangeError"},
	{"windows bad undersized closes", closeLog + `try { counted(3).windows(2, 1) } catch (e) { log.push(e.name) } log.join()`, "return,TypeError"},
	{"windows partial then return does not close", closeLog + `const w = counted(1).windows(3, 'allow-partial'); const r = w.next().value.join(); w.return(); log.push(r); log.join()`, "next,next,1"},
	{"windows re-entrant next", `let w; const it = {__proto__: Iterator.prototype, next() { w.next(); return {value: 1, done: false} }}; w = it.windows(1); w.next()`, "throws TypeError"},
}

var includesJoinCases = []jsCase{
	{"includes found", `String([1, 2, 3].values().includes(2))`, "true"},
	{"includes missing", `String([1, 2, 3].values().includes(4))`, "false"},
	{"includes NaN", `String([1, NaN].values().includes(NaN))`, "true"},
	{"includes zeros", `[[-0].values().includes(0), [0].values().includes(-0)].join()`, "true,true"},
	{"includes no coercion", `String(['1'].values().includes(1))`, "false"},
	{"includes skip", `[[1, 2, 3].values().includes(1, 1), [1, 2, 3].values().includes(2, 1), [1, 2, 3].values().includes(3, 3)].join()`, "false,true,false"},
	{"includes skip infinity", `String([1, 2].values().includes(2, Infinity))`, "false"},
	{"includes skip negative zero", `String([1].values().includes(1, -0))`, "true"},
	{"includes skip negative", `[].values().includes(1, -1)`, "throws RangeError"},
	{"includes skip negative infinity", `[].values().includes(1, -Infinity)`, "throws RangeError"},
	{"includes skip too large", `[].values().includes(1, 2 ** 53)`, "throws RangeError"},
	{"includes skip fraction", `[].values().includes(1, 0.5)`, "throws TypeError"},
	{"includes skip string", `[].values().includes(1, '1')`, "throws TypeError"},
	{"includes skip NaN", `[].values().includes(1, NaN)`, "throws TypeError"},
	{"includes closes on match", closeLog + `const r = counted(5).includes(2); log.push(r); log.join()`, "next,next,return,true"},
	{"includes exhausts without closing", closeLog + `const r = counted(2).includes(9); log.push(r); log.join()`, "next,next,next,false"},
	{"includes bad skip closes", closeLog + `try { counted(2).includes(1, 1.5) } catch (e) { log.push(e.name) } log.join()`, "return,TypeError"},
	{"includes non-object this", `Iterator.prototype.includes.call('abc', 'a')`, "throws TypeError"},
	{"join default separator", `['a', 'b', 'c'].values().join()`, "a,b,c"},
	{"join separator", `[1, 2, 3].values().join(' - ')`, "1 - 2 - 3"},
	{"join empty separator", `[1, 2, 3].values().join('')`, "123"},
	{"join empty", `'<' + [].values().join() + '>'`, "<>"},
	{"join nullish", `['a', null, undefined, 'b'].values().join()`, "a,,,b"},
	{"join null separator", `[1, 2].values().join(null)`, "1null2"},
	{"join objects", `[{toString() { return 'x' }}, [1, 2], 3.5].values().join(';')`, "x;1,2;3.5"},
	{"join symbol", `[Symbol()].values().join()`, "throws TypeError"},
	{"join value conversion closes", closeLog + `const it = counted(3).map(v => v === 2 ? {toString() { throw new EvalError() }} : v); try { it.join() } catch (e) { log.push(e.name) } log.join()`, "next,next,return,EvalError"},
	{"join separator before next", `const log = []; const it = {get next() { log.push('next'); return () => ({done: true}) }}; Iterator.prototype.join.call(it, {toString() { log.push('sep'); return '' }}); log.join()`, "sep,next"},
	{"join separator throw closes", closeLog + `try { counted(3).join({toString() { throw new URIError() }}) } catch (e) { log.push(e.name) } log.join()`, "return,URIError"},
	{"join next throw does not close", `let closed = false; const it = {__proto__: Iterator.prototype, next() { throw new EvalError() }, return() { closed = true; return {} }}; let n; try { it.join() } catch (e) { n = e.name } n + ':' + closed`, "EvalError:false"},
	{"join non-object this", `Iterator.prototype.join.call(null)`, "throws TypeError"},
}

var zipCases = []jsCase{
	{"zip shortest", show + `show([...Iterator.zip([[1, 2, 3], ['a', 'b']])])`, "[[1,a],[2,b]]"},
	{"zip longest", show + `show([...Iterator.zip([[1, 2, 3], ['a']], {mode: 'longest'})])`, "[[1,a],[2,undefined],[3,undefined]]"},
	{"zip longest padding", show + `show([...Iterator.zip([[1], [], [7, 8]], {mode: 'longest', padding: ['x', 'y', 'z']})])`, "[[1,y,7],[x,y,8]]"},
	{"zip longest short padding", show + `show([...Iterator.zip([[], [1]], {mode: 'longest', padding: ['p']})])`, "[[p,1]]"},
	{"zip strict", show + `show([...Iterator.zip([[1, 2], 'ab'.split('')], {mode: 'strict'})])`, "[[1,a],[2,b]]"},
	{"zip strict mismatch first", `[...Iterator.zip([[1], [1, 2]], {mode: 'strict'})]`, "throws TypeError"},
	{"zip strict mismatch later", `[...Iterator.zip([[1, 2], [1]], {mode: 'strict'})]`, "throws TypeError"},
	{"zip empty", show + `show([...Iterator.zip([])])`, "[]"},
	{"zip generators", show + `show([...Iterator.zip([gen(3), gen(4).map(x => x * 10)])])`, "[[0,0],[1,10],[2,20]]"},
	{"zip iterator without Symbol.iterator", show + `let i = 0; const raw = {next: () => ({value: i++, done: i > 2})}; show([...Iterator.zip([raw, [5, 6, 7]])])`, "[[0,5],[1,6]]"},
	{"zip fresh arrays", `const z = Iterator.zip([[1, 2]]); const a = z.next().value, b = z.next().value; String(a !== b)`, "true"},
	{"zip string input rejected", `Iterator.zip(['ab'])`, "throws TypeError"},
	{"zip String object accepted", show + `show([...Iterator.zip([new String('ab')])])`, "[[a],[b]]"},
	{"zip non-object iterables", `Iterator.zip('ab')`, "throws TypeError"},
	{"zip bad mode", `Iterator.zip([], {mode: 'long'})`, "throws TypeError"},
	{"zip bad options", `Iterator.zip([], 'longest')`, "throws TypeError"},
	{"zip bad padding", `Iterator.zip([], {mode: 'longest', padding: 1})`, "throws TypeError"},
	{"zip padding ignored unless longest", `String(Iterator.zip([], {get padding() { throw new Error() }}).next().done)`, "true"},
	{"zip shortest closes the others", closeLog + `const z = Iterator.zip([counted(5), [1]]); [...z]; log.join()`, "next,next,return"},
	{"zip shortest closes later ones", closeLog + `const z = Iterator.zip([[1], counted(5)]); [...z]; log.join()`, "next,return"},
	{"zip return closes in reverse", `const log = []; const mk = n => ({__proto__: Iterator.prototype, next: () => ({value: n, done: false}), return() { log.push(n); return {} }}); const z = Iterator.zip([mk(1), mk(2), mk(3)]); z.next(); z.return(); log.join()`, "3,2,1"},
	{"zip next throw closes the others", `const log = []; const ok = n => ({__proto__: Iterator.prototype, next: () => ({value: n, done: false}), return() { log.push(n); return {} }}); const bad = {__proto__: Iterator.prototype, next() { throw new EvalError() }, return() { log.push('bad') }}; try { Iterator.zip([ok(1), bad, ok(3)]).next() } catch (e) { log.push(e.name) } log.join()`, "3,1,EvalError"},
	{"zip bad input closes earlier inputs", closeLog + `try { Iterator.zip([counted(1), 5]) } catch (e) { log.push(e.name) } log.join()`, "return,TypeError"},
	{"zip result prototype", `const z = Iterator.zip([]); [Object.getPrototypeOf(z) === Object.getPrototypeOf([].values().map(x => x)), typeof z.next].join()`, "true,function"},
	{"zip lengths", `[Iterator.zip.length, Iterator.zipKeyed.length].join()`, "1,1"},
	{"zipKeyed shortest", `const r = [...Iterator.zipKeyed({a: [1, 2], b: ['x', 'y', 'z']})]; r.map(o => o.a + o.b).join()`, "1x,2y"},
	{"zipKeyed null prototype", `const o = Iterator.zipKeyed({a: [1]}).next().value; [String(Object.getPrototypeOf(o)), Object.keys(o).join()].join('|')`, "null|a"},
	{"zipKeyed longest padding", `const r = [...Iterator.zipKeyed({a: [1], b: [1, 2]}, {mode: 'longest', padding: {a: 'pad'}})]; JSON.stringify(r)`, `[{"a":1,"b":1},{"a":"pad","b":2}]`},
	{"zipKeyed key order", `const r = Iterator.zipKeyed({b: [1], 2: [2], a: [3], 1: [4]}).next().value; Object.keys(r).join()`, "1,2,b,a"},
	{"zipKeyed skips undefined and non-enumerable", `const src = {a: [1], u: undefined}; Object.defineProperty(src, 'h', {value: [2], enumerable: false}); Object.keys(Iterator.zipKeyed(src).next().value).join()`, "a"},
	{"zipKeyed symbol keys", `const s = Symbol('s'); const r = Iterator.zipKeyed({[s]: [1], a: [2]}).next().value; [r[s], r.a].join()`, "1,2"},
	{"zipKeyed strict mismatch", `[...Iterator.zipKeyed({a: [1], b: []}, {mode: 'strict'})]`, "throws TypeError"},
	{"zipKeyed empty", `String(Iterator.zipKeyed({}).next().done)`, "true"},
	{"zipKeyed non-object", `Iterator.zipKeyed(1)`, "throws TypeError"},
}

// BenchmarkIteratorZip measures zipping two 10,000-value iterators (an array iterator and a
// generator) and summing the pairs.
func BenchmarkIteratorZip(b *testing.B) {
	benchJS(b, `const a = Array.from({length: 10000}, (_, i) => i); function* g() { for (let i = 0; i < 10000; i++) yield i }
let s = 0; for (const [x, y] of Iterator.zip([a.values(), g()])) s += x + y; s`)
}

// BenchmarkIteratorChunksWindows measures chunks(16) and windows(16) over 10,000 values.
func BenchmarkIteratorChunksWindows(b *testing.B) {
	benchJS(b, `const a = Array.from({length: 10000}, (_, i) => i);
let n = 0; for (const c of a.values().chunks(16)) n += c.length; for (const w of a.values().windows(16)) n += w[0]; n`)
}

// BenchmarkIteratorJoin measures joining 10,000 numbers from an iterator.
func BenchmarkIteratorJoin(b *testing.B) {
	benchJS(b, `const a = Array.from({length: 10000}, (_, i) => i); a.values().join('-').length`)
}

package interp

import "testing"

// TestPromiseKeyed checks Promise.allKeyed and Promise.allSettledKeyed against the await
// dictionary proposal (node 20 lacks them).
func TestPromiseKeyed(t *testing.T) {
	t.Parallel()
	runJSCases(t, promiseKeyedCases)
}

var promiseKeyedCases = []jsCase{
	{"allKeyed values", `const r = await Promise.allKeyed({a: 1, b: Promise.resolve(2), c: new Promise(res => res(3))}); JSON.stringify(r)`, `{"a":1,"b":2,"c":3}`},
	{"allKeyed null prototype", `const r = await Promise.allKeyed({a: 1}); String(Object.getPrototypeOf(r))`, "null"},
	{"allKeyed order kept when settling out of order", `let late; const p = new Promise(r => late = r); const all = Promise.allKeyed({first: p, second: 2}); await null; late(1); Object.entries(await all).join(';')`, "first,1;second,2"},
	{"allKeyed integer keys first", `Object.keys(await Promise.allKeyed({b: 1, 1: 2, a: 3, 0: 4})).join()`, "0,1,b,a"},
	{"allKeyed empty", `JSON.stringify(await Promise.allKeyed({}))`, "{}"},
	{"allKeyed symbol keys", `const s = Symbol('k'); const r = await Promise.allKeyed({[s]: 5}); String(r[s])`, "5"},
	{"allKeyed ignores non-enumerable and inherited", `const src = Object.create({inherited: 1}); Object.defineProperty(src, 'hidden', {value: 2}); src.own = 3; Object.keys(await Promise.allKeyed(src)).join()`, "own"},
	{"allKeyed rejects with the first rejection", `let m; try { await Promise.allKeyed({a: Promise.reject(new RangeError('r')), b: 1}) } catch (e) { m = e.name + ':' + e.message } m`, "RangeError:r"},
	{"allKeyed non-object rejects", `let n; try { await Promise.allKeyed([1][5]) } catch (e) { n = e.name } n`, "TypeError"},
	{"allKeyed string rejects", `let n; await Promise.allKeyed('ab').catch(e => n = e.name); n`, "TypeError"},
	{"allKeyed getter throw rejects", `let n; await Promise.allKeyed({get a() { throw new EvalError() }}).catch(e => n = e.name); n`, "EvalError"},
	{"allKeyed arrays are objects", `JSON.stringify(await Promise.allKeyed([1, Promise.resolve(2)]))`, `{"0":1,"1":2}`},
	{"allKeyed non-constructor this", `Promise.allKeyed.call(1, {})`, "throws TypeError"},
	{"allKeyed uses this.resolve", `class P extends Promise { static resolve(v) { P.seen = (P.seen || 0) + 1; return super.resolve(v) } } await P.allKeyed({a: 1, b: 2}); String(P.seen)`, "2"},
	{"allKeyed result is a P", `class P extends Promise {} String(P.allKeyed({}) instanceof P)`, "true"},
	{"allKeyed then is invoked", `let calls = 0; const thenable = {then(f) { calls++; f(9) }}; const r = await Promise.allKeyed({t: thenable}); r.t + ':' + calls`, "9:1"},
	{"allSettledKeyed", `const r = await Promise.allSettledKeyed({ok: 1, bad: Promise.reject('no')}); JSON.stringify(r)`, `{"ok":{"status":"fulfilled","value":1},"bad":{"status":"rejected","reason":"no"}}`},
	{"allSettledKeyed never rejects", `const r = await Promise.allSettledKeyed({a: Promise.reject(1), b: Promise.reject(2)}); Object.values(r).map(x => x.status + x.reason).join()`, "rejected1,rejected2"},
	{"allSettledKeyed records inherit Object.prototype", `const r = await Promise.allSettledKeyed({a: 1}); [String(Object.getPrototypeOf(r)), Object.getPrototypeOf(r.a) === Object.prototype].join()`, "null,true"},
	{"allSettledKeyed settles a key once", `const bad = {then(f, r) { f(1); r(2); f(3) }}; JSON.stringify(await Promise.allSettledKeyed({k: bad}))`, `{"k":{"status":"fulfilled","value":1}}`},
	{"lengths and names", `[Promise.allKeyed.length, Promise.allKeyed.name, Promise.allSettledKeyed.length, Promise.allSettledKeyed.name].join()`, "1,allKeyed,1,allSettledKeyed"},
}

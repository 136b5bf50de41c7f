package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSnapshotRuntimeObjectsEveryStep runs programs that exercise the runtime's objects
// (iterator helpers, symbols, errors, property attributes, changed built-ins, sparse arrays,
// lone surrogates, special numbers, console state) with a snapshot and a restore into a
// fresh VM after every instruction; results were taken from node (with "use strict").
func TestSnapshotRuntimeObjectsEveryStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "iterator helpers", src: `const it = [1, 2, 3, 4, 5].values().filter(x => x % 2).map(x => x * 10); const a = it.next().value; await null; [a, ...it].join()`, want: "10,30,50"},
		{name: "symbols and registry", src: `const s = Symbol.for('app'); const u = Symbol('u'); const o = {[s]: 1, [u]: 2}; await null; [o[Symbol.for('app')], o[u], Symbol.keyFor(s), u.description].join()`, want: "1,2,app,u"},
		{name: "errors with cause", src: `const e = new RangeError('bad', {cause: {code: 7}}); await null; [e.name, e.message, e.cause.code, e instanceof RangeError, String(e)].join()`, want: "RangeError,bad,7,true,RangeError: bad"},
		{name: "aggregate error", src: `const e = new AggregateError([new Error('a'), 2], 'all'); await null; [e.errors.length, e.errors[0].message, e.message].join()`, want: "2,a,all"},
		{name: "frozen and sealed", src: `const f = Object.freeze({a: [1]}); const s = Object.seal({b: 2}); await null; let r = ''; try { f.a = 0 } catch (e) { r += e.constructor.name } s.b = 3; [r, Object.isFrozen(f), Object.isSealed(s), s.b].join()`, want: "TypeError,true,true,3"},
		{name: "accessors", src: `let n = 0; const o = {}; Object.defineProperty(o, 'x', {get() { return ++n }, configurable: true}); o.x; await null; o.x; [o.x, Object.getOwnPropertyDescriptor(o, 'x').enumerable].join()`, want: "3,false"},
		{name: "changed built-ins", src: `Array.prototype.last = function () { return this[this.length - 1] }; delete Object.prototype.__defineGetter__; await null; [[1, 2, 3].last(), typeof Object.prototype.__defineGetter__].join()`, want: "3,undefined"},
		{name: "property order", src: `const o = {b: 1, 2: 2, a: 3, 1: 4}; delete o.b; o.b = 5; await null; o[0] = 6; Object.keys(o).join()`, want: "0,1,2,a,b"},
		{name: "arrays sparse and holes", src: `const a = [1, , 3]; a[10] = 11; a.length = 12; await null; [a.length, 1 in a, Object.keys(a).join('-')].join()`, want: "12,false,0-2-10"},
		{name: "lone surrogates", src: `const s = '\ud800x\udfff'; await null; [s.length, s.charCodeAt(0), s.charCodeAt(2)].join()`, want: "3,55296,57343"},
		{name: "special numbers", src: `const v = [-0, NaN, Infinity, -Infinity, 1e21, 5e-324]; await null; [Object.is(v[0], -0), isNaN(v[1]), v[2], v[3], v[4], v[5]].join()`, want: "true,true,Infinity,-Infinity,1e+21,5e-324"},
		{name: "console counters", src: `console.count('x'); console.group('g'); await null; console.count('x'); console.groupEnd(); 'ok'`, want: "ok"},
		{name: "iterator concat", src: `const it = Iterator.concat([1, 2], [3]); it.next(); await null; [...it].join()`, want: "2,3"},
		{name: "object statics", src: `const o = Object.fromEntries([['a', 1], ['b', 2]]); await null; JSON.stringify([Object.entries(o), Object.groupBy([1, 2, 3], x => x % 2 ? 'odd' : 'even')])`, want: "[[[\"a\",1],[\"b\",2]],{\"odd\":[1,3],\"even\":[2]}]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, snaps := runWithSnapshots(t, tt.src, 1)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
			require.Greater(t, snaps, 10)
		})
	}
}

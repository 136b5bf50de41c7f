package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArrayFromAsync checks Array.fromAsync (newer than node 20: expectations follow the
// specification and were checked against its test262 tests).
func TestArrayFromAsync(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"array_of_promises", `(await Array.fromAsync([1, Promise.resolve(2), 3])).join()`, "1,2,3"},
		{"arraylike_async_map", `(await Array.fromAsync({length: 3, 0: Promise.resolve('a'), 1: 'b', 2: 'c'}, async (x, i) => x + i)).join()`, "a0,b1,c2"},
		{"async_generator", `async function* g() { yield 1; yield Promise.resolve(2); yield 3 } (await Array.fromAsync(g())).join()`, "1,2,3"},
		{"returns_promise", `const p = Array.fromAsync([]); (p instanceof Promise) + ':' + Array.fromAsync.length`, "true:1"},
		{"bad_mapfn_rejects", `let r; try { await Array.fromAsync([1], 5) } catch (e) { r = e.name } r`, "TypeError"},
		{"null_rejects", `let r; try { await Array.fromAsync(null) } catch (e) { r = e.name } r`, "TypeError"},
		{"mapfn_throw_closes", `let closed = 0; const it = {[Symbol.iterator]() { return {next() { return {value: 1, done: false} }, return() { closed++; return {} }} }}; let r; try { await Array.fromAsync(it, () => { throw new RangeError('x') }) } catch (e) { r = e.name } r + ':' + closed`, "RangeError:1"},
		{"async_mapfn_reject_closes_async", `let closed = 0; const it = {[Symbol.asyncIterator]() { return {next() { return Promise.resolve({value: 1, done: false}) }, return() { closed++; return Promise.resolve({}) }} }}; let r; try { await Array.fromAsync(it, async () => { throw new URIError('x') }) } catch (e) { r = e.name } r + ':' + closed`, "URIError:1"},
		{"rejecting_value_closes_sync", `let closed = 0; const it = {[Symbol.iterator]() { return {next() { return {value: Promise.reject(new EvalError('v')), done: false} }, return() { closed++; return {} }} }}; let r; try { await Array.fromAsync(it) } catch (e) { r = e.name } r + ':' + closed`, "EvalError:1"},
		{"subclass_target", `class A extends Array {} const r = await A.fromAsync([1, 2]); (r instanceof A) + ':' + r.length`, "true:2"},
		{"non_constructor_this", `const f = Array.fromAsync; const r = await f({length: 2, 0: 'x', 1: 'y'}); Array.isArray(r) + ':' + r.join()`, "true:x,y"},
		{"length_too_big", `let r; try { await Array.fromAsync({length: 2 ** 32}) } catch (e) { r = e.name } r`, "RangeError"},
	})
}

// TestArrayFromAsyncSnapshot suspends an Array.fromAsync on a host promise, moves the run
// through a snapshot into a new VM, and finishes it there.
func TestArrayFromAsyncSnapshot(t *testing.T) {
	t.Parallel()
	vm, h := newHostVM(t, "const r = await Array.fromAsync([1, later(), 3], async x => x * 2); r.join()")
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	data, err := vm.Snapshot()
	require.NoError(t, err)
	vm2, err := Restore(data, Config{Host: h})
	require.NoError(t, err)
	require.Equal(t, []uint64{1}, vm2.pendingHostPromises())
	require.NoError(t, vm2.SettleHostPromise(1, true, Number(21)))
	st, err = vm2.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm2.Result()
	require.False(t, thrown)
	require.Equal(t, "2,42,6", vm2.ToGoString(v))
}

package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// intrinsicChangePrograms change built-in objects in every way a program can, then read the
// changes back after an await; want is what node prints for the same program.
var intrinsicChangePrograms = []struct {
	name string
	src  string
	want string
}{
	{name: "set data property",
		src:  "Math.max = Math.min; JSON.stringify = 5; await null; `${Math.max(1, 2)} ${JSON.stringify}`",
		want: "1 5"},
	{name: "set to a new closure",
		src:  "Array.prototype.join = function () { return 'joined' }; await null; [1, 2].join() + String([3])",
		want: "joinedjoined"},
	{name: "add string and symbol keys",
		src:  "Math.answer = 42; const k = Symbol.for('k'); Object.prototype[k] = 'sym'; await null; `${Math.answer} ${({})[k]} ${Object.keys(Math)}`",
		want: "42 sym answer"},
	{name: "delete",
		src:  "delete Math.max; delete Object.prototype.toString; await null; `${typeof Math.max} ${Object.prototype.hasOwnProperty('toString')} ${Math.min(3, 4)}`",
		want: "undefined false 3"},
	{name: "delete then re-add",
		src:  "const f = Math.abs; delete Math.abs; Math.abs = f; await null; `${Math.abs(-2)} ${Object.keys(Math)} ${Object.getOwnPropertyNames(Math).indexOf('abs') > Object.getOwnPropertyNames(Math).indexOf('max')}`",
		want: "2 abs true"},
	{name: "defineProperty flags",
		src:  "Object.defineProperty(Math, 'sqrt', {value: 3, writable: false}); Object.defineProperty(JSON, 'parse', {enumerable: true, writable: false}); await null; const d = Object.getOwnPropertyDescriptor(JSON, 'parse'); `${Math.sqrt} ${Object.getOwnPropertyDescriptor(Math, 'sqrt').writable} ${d.enumerable} ${d.writable} ${d.configurable} ${Object.keys(JSON)}`",
		want: "3 false true false true parse"},
	{name: "defineProperty accessor",
		src:  "let hits = 0; Object.defineProperty(Math, 'floor', {get() { hits++; return 2 }}); Object.defineProperty(Array.prototype, 'first', {get() { return this[0] }, set(v) { this[0] = v }, configurable: true}); await null; const a = [7]; a.first = 8; `${Math.floor + Math.floor} ${hits} ${a.first} ${typeof Object.getOwnPropertyDescriptor(Array.prototype, 'first').set}`",
		want: "4 2 8 function"},
	{name: "accessor to intrinsic getter",
		src:  "const g = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get; Object.defineProperty(Set.prototype, 'count', {get: g}); await null; `${Object.getOwnPropertyDescriptor(Set.prototype, 'count').get === Object.getOwnPropertyDescriptor(Map.prototype, 'size').get}`",
		want: "true"},
	{name: "swap intrinsic references",
		src:  "[JSON.parse, JSON.stringify] = [JSON.stringify, JSON.parse]; Object.values = Object.keys; await null; `${JSON.parse([1])} ${typeof JSON.stringify('2')} ${Object.values === Object.keys} ${Object.values({a: 1})}`",
		want: "[1] number true a"},
	{name: "swap accessor functions",
		src:  "const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get; Object.defineProperty(Map.prototype, 'size', {get: setSize}); await null; `${Object.getOwnPropertyDescriptor(Map.prototype, 'size').get === setSize} ${new Set([1, 2]).size}`",
		want: "true 2"},
	{name: "setPrototypeOf",
		src:  "Object.setPrototypeOf(JSON, Array.prototype); Object.setPrototypeOf(Number, null); Object.setPrototypeOf(Math, Array.prototype); await null; `${JSON.map === [].map} ${Object.getPrototypeOf(Number)} ${Object.getPrototypeOf(Math) === Array.prototype}`",
		want: "true null true"},
	{name: "preventExtensions and freeze",
		src:  "Object.preventExtensions(JSON); Object.freeze(Math); Object.seal(Number); await null; `${Object.isExtensible(JSON)} ${Object.isFrozen(Math)} ${Object.isSealed(Number)} ${Object.isFrozen(Number)} ${Object.isExtensible(Object)}`",
		want: "false true true false true"},
	{name: "intrinsic array elements",
		src:  "Array.prototype[0] = 'a'; Array.prototype.push('b', 'c'); Array.prototype[5] = 'f'; await null; `${Array.prototype.length} ${Array.prototype[1]} ${3 in Array.prototype} ${Array.prototype[5]} ${[].concat()[0]}`",
		want: "6 b false f a"},
	{name: "intrinsic array length",
		src:  "Array.prototype.length = 3; await null; `${Array.prototype.length} ${Object.keys(Array.prototype)}`",
		want: "3 "},
	{name: "intrinsic array frozen length",
		src:  "Array.prototype.push(1); Object.defineProperty(Array.prototype, 'length', {writable: false}); await null; let e = ''; try { Array.prototype.push(2) } catch (x) { e = x.name }; `${Array.prototype.length} ${e}`",
		want: "1 TypeError"},
	{name: "numbers",
		src:  "Math.negz = -0; Math.nan = NaN; Math.big = 1e300; Object.defineProperty(globalThis, 'NaNish', {value: NaN}); await null; `${Object.is(Math.negz, -0)} ${Number.isNaN(Math.nan)} ${Math.big} ${Object.is(NaNish, NaN)}`",
		want: "true true 1e+300 true"},
	{name: "primitive values",
		src:  "Math.u = undefined; Math.n = null; Math.t = true; Math.s = 'text'; Math.sym = Symbol.iterator; Math.own = Symbol('own'); await null; `${Math.u} ${Math.n} ${Math.t} ${Math.s} ${Math.sym === Symbol.iterator} ${Math.own.description}`",
		want: "undefined null true text true own"},
	{name: "function name and length",
		src:  "Object.defineProperty(Math.max, 'name', {value: 'biggest'}); Object.defineProperty(Math.max, 'length', {value: 9}); await null; `${Math.max.name} ${Math.max.length} ${Math.min.name}`",
		want: "biggest 9 min"},
	{name: "globals",
		src:  "globalThis.answer = 42; delete globalThis.escape; var declared = 'v'; await null; `${answer} ${typeof escape} ${declared} ${Object.keys(globalThis).includes('answer')}`",
		want: "42 undefined v true"},
	{name: "many intrinsics at once",
		src:  "for (const k of Object.getOwnPropertyNames(Math)) if (typeof Math[k] === 'function') Math[k].tag = k; await null; `${Math.max.tag} ${Math.sin.tag} ${Object.keys(Math.cos)}`",
		want: "max sin tag"},
	{name: "restore the original value",
		src:  "const orig = Math.max; Math.max = 1; Math.max = orig; await null; `${Math.max(4, 5)} ${Math.max === orig}`",
		want: "5 true"},
}

// TestSnapshotIntrinsicChangesSurvive runs each program pausing every few instructions,
// snapshotting, restoring into a new VM and going on with the restored one: every change to
// the intrinsics must survive, and snapshotting the restored VM must give the same bytes.
func TestSnapshotIntrinsicChangesSurvive(t *testing.T) {
	t.Parallel()
	for _, tt := range intrinsicChangePrograms {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			snaps := 0
			for {
				st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 3})
				require.NoError(t, err)
				if st == StatusDone {
					break
				}
				require.Equal(t, StatusPaused, st)
				data, err := vm.Snapshot()
				require.NoError(t, err)
				vm, err = Restore(data, Config{})
				require.NoError(t, err, "restore after %d snapshots", snaps)
				again, err := vm.Snapshot()
				require.NoError(t, err)
				require.Equal(t, string(data), string(again), "re-encoding after %d snapshots", snaps)
				snaps++
			}
			require.Positive(t, snaps)
			v, thrown := vm.Result()
			require.False(t, thrown, vm.ToGoString(v))
			require.Equal(t, tt.want, vm.ToGoString(v))
			requireSameIntrinsicVerdicts(t, vm.realm)
		})
	}
}

// requireSameIntrinsicVerdicts checks that the by-id comparison of intrinsics agrees with the
// generic one on every intrinsic of r.
func requireSameIntrinsicVerdicts(t *testing.T, r *Realm) {
	t.Helper()
	ref := referenceRealm()
	require.Same(t, ref.names, r.names, "a cloned realm shares the reference's names")
	changed := changedIntrinsics(r, ref, nil)
	require.Len(t, changed, r.objs.len())
	for iid := 1; iid < r.objs.len(); iid++ {
		o := r.objs.at(iid)
		if o == nil {
			require.False(t, changed[iid], "an intrinsic not created is unchanged")
			continue
		}
		refObj := ref.counterpart(r, o)
		want := refObj == nil || !intrinsicUnchanged(r, o, ref, refObj)
		require.Equal(t, want, changed[iid], "intrinsic %s", r.nameOf(o))
	}
}

package interp

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// addedGlobalsPrograms add properties to built-ins before a host call: the host's globals
// (newHostVM) and, from the program, more globals than the template's index leaves for a
// scan, a symbol key, and a method on a prototype. Their results list what they see.
var addedGlobalsPrograms = []struct {
	name, src string
	shared    bool // the global object's keys are names only: restores share them
}{
	{name: "names", shared: true, src: `for (let i = 0; i < 12; i++) globalThis['g' + i] = i;
Array.prototype.extra = 'x';
const got = await later();
const names = Object.getOwnPropertyNames(globalThis);
[got, g0 + g11, [].extra, names.slice(names.indexOf('add')).join()].join(' ')`},
	{name: "few names", shared: true, src: `globalThis.one = 1;
const got = await later();
[got, one, Object.keys(globalThis).join()].join(' ')`},
	{name: "symbol", src: `globalThis[Symbol.for('s')] = 's';
globalThis.after = 2;
const got = await later();
[got, globalThis[Symbol.for('s')], after, Object.getOwnPropertySymbols(globalThis).length, Object.keys(globalThis).join()].join(' ')`},
}

// TestRestoreAddedGlobals restores snapshots whose global object (and Array.prototype) have
// properties added: the keys keep their order and are found, restores of the same names
// share the global object's keys without seeing each other's changes, and the programs end
// as they do without a restore. It runs before the parallel tests (which could take the
// global object's entries of added keys between two restores).
func TestRestoreAddedGlobals(t *testing.T) {
	for _, tt := range addedGlobalsPrograms {
		t.Run(tt.name, func(t *testing.T) {
			want := runAddedGlobals(t, tt.src, nil, 0)
			for _, format := range []int{snapshotFormat, snapshotFormat2} {
				vm, h := newHostVM(t, tt.src)
				st, err := vm.Run(context.Background(), RunOptions{})
				require.NoError(t, err)
				require.Equal(t, StatusWaiting, st)
				data, err := vm.snapshot(format)
				require.NoError(t, err)
				a, err := Restore(data, Config{Host: &testHost{}})
				require.NoError(t, err)
				b, err := Restore(data, Config{Host: &testHost{}})
				require.NoError(t, err)
				for _, restored := range []*VM{a, b} {
					require.Equal(t, globalKeys(vm.realm.Global), globalKeys(restored.realm.Global), "format %d", format)
					requireKeysFound(t, restored.realm.Global)
					requireKeysFound(t, restored.realm.ArrayPrototype)
				}
				ka, kb := a.realm.Global.props.keys, b.realm.Global.props.keys
				require.Equal(t, tt.shared, unsafe.SliceData(ka) == unsafe.SliceData(kb), "format %d: keys shared", format)

				// a change to one restored global object is not seen by the other
				ga, gb := a.realm.Global, b.realm.Global
				ga.props.add(strKey("onlyA"), Property{value: Number(1), flags: propDefault})
				ga.props.remove(strKey("add"))
				require.Equal(t, globalKeys(vm.realm.Global), globalKeys(gb))
				require.Equal(t, -1, gb.props.find(strKey("onlyA")))
				require.GreaterOrEqual(t, gb.props.find(strKey("add")), 0)
				require.Equal(t, -1, ga.props.find(strKey("add")))
				requireKeysFound(t, ga)
				requireKeysFound(t, gb)

				require.Equal(t, want, runAddedGlobals(t, tt.src, b, h.pending[0]), "format %d", format)
			}
		})
	}
}

// runAddedGlobals runs src to the end (in a new VM when vm is nil, else going on with vm,
// which waits on its call of later, host promise id), answering later with 7, and returns
// the result.
func runAddedGlobals(t *testing.T, src string, vm *VM, id uint64) string {
	t.Helper()
	if vm == nil {
		var h *testHost
		vm, h = newHostVM(t, src)
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusWaiting, st)
		require.Len(t, h.pending, 1)
		id = h.pending[0]
	}
	require.NoError(t, vm.SettleHostPromise(id, true, Number(7)))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm.Result()
	require.False(t, thrown, vm.ToGoString(v))
	return vm.ToGoString(v)
}

// globalKeys lists the keys of o, in order.
func globalKeys(o *Object) string {
	var b strings.Builder
	for _, k := range o.props.keys {
		b.WriteString(k.String())
		b.WriteByte(',')
	}
	return b.String()
}

// requireKeysFound checks that every key of o is found at its position.
func requireKeysFound(t *testing.T, o *Object) {
	t.Helper()
	for i, k := range o.props.keys {
		require.Equal(t, i, o.props.find(k), "key %s", k)
	}
}

// TestRestoreAddedGlobalRepeated restores a format-1 snapshot whose "add" list names a key
// twice, and one the global object has from the start: as with "set", the later entry
// replaces the property in place, and the keys stay unique.
func TestRestoreAddedGlobalRepeated(t *testing.T) {
	t.Parallel()
	vm, _ := newHostVM(t, "globalThis.one = 1; await later(); one")
	_, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	data, err := vm.SnapshotFormat1()
	require.NoError(t, err)
	text := string(data)
	require.Equal(t, 1, strings.Count(text, `["one",1]]`))
	text = strings.Replace(text, `["one",1]]`, `["one",1],["one",2],["Math",3]]`, 1)
	restored, err := Restore([]byte(text), Config{Host: &testHost{}})
	require.NoError(t, err)
	g := restored.realm.Global
	require.Equal(t, globalKeys(vm.realm.Global), globalKeys(g))
	requireKeysFound(t, g)
	one, err := restored.Get(restored.Global(), "one")
	require.NoError(t, err)
	require.Equal(t, 2.0, one.NumberValue())
	math, err := restored.Get(restored.Global(), "Math")
	require.NoError(t, err)
	require.Equal(t, 3.0, math.NumberValue())
}

// TestSharedAddedKeysPerBuiltin adds the same name to the frozen keys of more built-ins than
// a shared table of entries would hold: each built-in keeps its own list, so that adding the
// name again to any of them returns the list made the first time.
func TestSharedAddedKeysPerBuiltin(t *testing.T) {
	tmpl := templateRealm()
	added := []PropertyKey{strKey("addedPerBuiltin")}
	var builtins [][]PropertyKey
	for i := 1; i < tmpl.objs.len() && len(builtins) < 80; i++ {
		if keys := tmpl.objs.at(i).props.keys; len(keys) > 0 {
			builtins = append(builtins, keys)
		}
	}
	require.Len(t, builtins, 80)
	first := make([][]PropertyKey, len(builtins))
	for i, keys := range builtins {
		first[i] = sharedAddedKeys(keys, added)
		require.Equal(t, append(append([]PropertyKey{}, keys...), added...), first[i])
	}
	for i, keys := range builtins {
		again := sharedAddedKeys(keys, added)
		require.True(t, unsafe.SliceData(first[i]) == unsafe.SliceData(again), "built-in %d", i)
	}
	// a prefix of a built-in's keys is not its keys: copied
	prefix := builtins[0][: len(builtins[0])-1 : len(builtins[0])-1]
	if len(prefix) > 0 {
		a, b := sharedAddedKeys(prefix, added), sharedAddedKeys(prefix, added)
		require.False(t, unsafe.SliceData(a) == unsafe.SliceData(b))
	}
}

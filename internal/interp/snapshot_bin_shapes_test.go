package interp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFormat2SharedShapesStayApart runs programs that change objects of one shape after
// restores (objects restored from format 2 share the keys of their shape): deleting, adding
// and redefining a property of one object leaves the others as they were.
func TestFormat2SharedShapesStayApart(t *testing.T) {
	t.Parallel()
	wide := make([]string, 12) // more keys than a map scans without an index
	for i := range wide {
		wide[i] = fmt.Sprintf("k%d: %d", i, i)
	}
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"delete from one", `const a = {x: 1, y: 2, z: 3}, b = {x: 4, y: 5, z: 6}; delete a.y; Object.keys(a).join() + '|' + Object.keys(b).join() + '|' + b.y`, "x,z|x,y,z|5"},
		{"delete the last key", `const a = {x: 1, y: 2}, b = {x: 3, y: 4}; delete b.y; delete a.x; Object.keys(a).join() + '|' + Object.keys(b).join()`, "y|x"},
		{"add to one", `const a = {x: 1}, b = {x: 2}; a.w = 9; b.v = 8; Object.keys(a).join() + '|' + Object.keys(b).join()`, "x,w|x,v"},
		{"redefine in one", `const a = {x: 1, y: 2}, b = {x: 3, y: 4}; Object.defineProperty(a, 'x', {enumerable: false}); a.y = 7; Object.keys(a).join() + '|' + Object.keys(b).join() + '|' + b.y`, "y|x,y|4"},
		{"many of one shape", `const rs = []; for (let i = 0; i < 30; i++) rs.push({id: i, name: 'n' + i}); for (let i = 0; i < 30; i += 3) delete rs[i].name; rs.filter(r => 'name' in r).length + ':' + rs.map(r => r.id).reduce((s, v) => s + v)`, "20:435"},
		{"wide shape", `const a = {` + strings.Join(wide, ", ") + `}, b = {...a}; delete a.k3; b.extra = 1; a.k11 = 0; [Object.keys(a).length, Object.keys(b).length, 'k3' in a, 'k3' in b, b.k11, a.k11].join()`, "11,13,false,true,11,0"},
		{"symbol keys", `const s = Symbol('s'); const a = {[s]: 1, x: 2}, b = {[s]: 3, x: 4}; delete a[s]; [s in a, b[s], Object.keys(a).join()].join()`, "false,3,x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, snaps := runWithSnapshots(t, tt.src, 1)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
			require.Positive(t, snaps)
		})
	}
}

// TestFormat2ShapeSharesKeys checks that restored objects of one shape share their keys, and
// objects of another shape (other names, or the same names in another order) do not.
func TestFormat2ShapeSharesKeys(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	p, err := Compile(`globalThis.a = {x: 1, y: 2}; globalThis.b = {x: 3, y: 4}; globalThis.c = {y: 5, x: 6}; await null`)
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	_, err = vm.Run(context.Background(), RunOptions{MaxSteps: 1000})
	require.NoError(t, err)
	data, err := vm.Snapshot()
	require.NoError(t, err)
	got, err := Restore(data, Config{})
	require.NoError(t, err)
	obj := func(name string) *Object {
		v, err := got.Get(got.Global(), name)
		require.NoError(t, err)
		return v.asObject()
	}
	a, b, c := obj("a"), obj("b"), obj("c")
	require.Same(t, &a.props.keys[0], &b.props.keys[0])
	require.NotSame(t, &a.props.keys[0], &c.props.keys[0])
	require.NotSame(t, &a.props.props[0], &b.props.props[0])
}

// TestFormat2ManyShapesShareKeys restores objects of more shapes than the decoder keeps in
// front of its shape table, interleaved: the objects of each shape share one slice of keys,
// whether the decoder finds the shape in front of the table or in it, and keep their values.
func TestFormat2ManyShapesShareKeys(t *testing.T) {
	t.Parallel()
	const shapes = 3 * recentShapes
	vm := New(Config{})
	p, err := Compile(fmt.Sprintf(`globalThis.objs = [];
for (let round = 0; round < 3; round++)
  for (let s = 0; s < %d; s++) objs.push({['k' + s]: round, ['m' + (s %% 5)]: s});
await null`, shapes))
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	_, err = vm.Run(context.Background(), RunOptions{MaxSteps: 100000})
	require.NoError(t, err)
	data, err := vm.Snapshot()
	require.NoError(t, err)
	for range 2 { // the second restore with a decoder from the pool
		got, err := Restore(data, Config{})
		require.NoError(t, err)
		v, err := got.Get(got.Global(), "objs")
		require.NoError(t, err)
		objs := v.asObject().elems
		require.Len(t, objs, 3*shapes)
		for i, ov := range objs {
			o, round, s := ov.asObject(), i/shapes, i%shapes
			require.Equal(t, fmt.Sprintf("k%d,m%d,", s, s%5), globalKeys(o), "object %d", i)
			require.Equal(t, float64(round), o.props.props[0].value.NumberValue())
			require.Equal(t, float64(s), o.props.props[1].value.NumberValue())
			if round > 0 {
				require.Same(t, &objs[s].asObject().props.keys[0], &o.props.keys[0], "object %d", i)
			}
		}
	}
}

// TestFormat2DuplicateKeysFail restores snapshots whose string table names one key twice
// (an entry rewritten to the text of another): an object of such a shape fails to decode,
// with few keys and with more than a map scans without an index.
func TestFormat2DuplicateKeysFail(t *testing.T) {
	t.Parallel()
	for _, keys := range []int{2, 12} {
		t.Run(fmt.Sprint(keys), func(t *testing.T) {
			t.Parallel()
			props := make([]string, keys)
			for i := range props {
				props[i] = fmt.Sprintf("q%c: %d", 'a'+i, i)
			}
			vm := New(Config{})
			p, err := Compile(`globalThis.o = {` + strings.Join(props, ", ") + `}; await null`)
			require.NoError(t, err)
			require.NoError(t, vm.Start(p))
			_, err = vm.Run(context.Background(), RunOptions{MaxSteps: 1000})
			require.NoError(t, err)
			data, err := vm.Snapshot()
			require.NoError(t, err)
			_, err = Restore(data, Config{})
			require.NoError(t, err)
			// the table entry of the last name (length 2, ASCII) becomes the first name
			last := []byte{2 << 2, 'q', byte('a' + keys - 1)}
			at := strings.Index(string(data), string(last))
			require.Positive(t, at)
			data[at+2] = 'a'
			_, err = Restore(data, Config{})
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLiveHeapSize(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	base := vm.liveHeapSize(nil)

	// garbage is not counted
	for i := 0; i < 1000; i++ {
		vm.newArray(make([]Value, 100))
	}
	require.Equal(t, base, vm.liveHeapSize(nil))

	// a reachable array of 10,000 numbers counts its storage
	arr := vm.newArray(make([]Value, 10_000))
	vm.createDataProperty(vm.realm.Global, strKey("keep"), objectValue(arr))
	withArr := vm.liveHeapSize(nil)
	require.GreaterOrEqual(t, withArr-base, int64(10_000*valueSize))

	// a rope built by 1,000 appends counts about its length once, not quadratically
	s := emptyString
	for i := 0; i < 1000; i++ {
		s = concatStrings(s, newASCII("0123456789"))
	}
	arr.elems[0] = stringValue(s)
	arr.elems[1] = stringValue(s)
	withRope := vm.liveHeapSize(nil)
	grew := withRope - withArr
	require.Greater(t, grew, int64(10_000))
	require.Less(t, grew, int64(10_000+1000*2*stringBaseSize+1000))

	// roots reported by the execution engine are walked
	obj := objectFrom(vm, "other", stringValue(newASCII(string(make([]byte, 5000)))))
	without := vm.liveHeapSize(nil)
	viaRoot := vm.liveHeapSize(func(w *heapWalker) { w.value(objectValue(obj)) })
	require.Greater(t, viaRoot-without, int64(5000))
}

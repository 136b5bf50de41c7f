package interp

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestAddrSet(t *testing.T) {
	t.Parallel()
	strs := make([]jsString, 10_000)
	s := newAddrSet(0)
	for i := range strs {
		require.True(t, s.add(unsafe.Pointer(&strs[i])), "new address %d", i)
	}
	require.Equal(t, len(strs), s.len())
	for i := range strs {
		require.False(t, s.add(unsafe.Pointer(&strs[i])), "address %d again", i)
	}
	require.Equal(t, len(strs), s.len())
	require.LessOrEqual(t, 4*s.len(), 3*len(s.slots), "at most 3/4 full")

	// sized for n, it holds n without growing
	sized := newAddrSet(len(strs))
	slots := len(sized.slots)
	for i := range strs {
		sized.add(unsafe.Pointer(&strs[i]))
	}
	require.Equal(t, slots, len(sized.slots))
}

// The walk's sets are sized from the previous walk.
func TestLiveHeapSizeSizesItsSets(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	arr := vm.newArray(nil)
	vm.createDataProperty(vm.realm.Global, strKey("keep"), objectValue(arr))
	for i := range 1000 {
		arr.elems = append(arr.elems, objectValue(vm.newArray(nil)), stringValue(newASCII(string(make([]byte, 40+i)))))
	}
	first := vm.liveHeapSize(nil)
	require.GreaterOrEqual(t, vm.walkHint.objs, 1001)
	require.GreaterOrEqual(t, vm.walkHint.strs, 1000)
	require.Equal(t, first, vm.liveHeapSize(nil))
}

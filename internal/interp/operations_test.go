package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHostileInputsFailCleanly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(vm *VM) error
		want string // thrown error name
	}{
		{"deep chain of native iterator helpers", func(vm *VM) error {
			it := arrayIter(vm, 1, 2, 3)
			for i := 0; i < 3*maxNativeDepth; i++ {
				it = mustCall(t, vm, "Iterator.prototype.take", it, Number(10))
			}
			_, err := callIntrinsic(vm, "Iterator.prototype.toArray", it)
			return err
		}, "RangeError"},
		{"keys of a huge String wrapper", func(vm *VM) error {
			big := stringValue(newASCII(strings.Repeat("x", maxDenseLength+1)))
			_, err := callIntrinsic(vm, "Object.keys", undefinedValue, objectValue(vm.toObject(big)))
			return err
		}, "RangeError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			err := tt.run(vm)
			require.Equal(t, tt.want, thrownName(vm, err))
			require.Zero(t, vm.nativeDepth, "depth restored after the exception")
		})
	}
}

func TestSnapshotJSONDeepNesting(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	vm := newTestVM(t)
	_, err := decodeRootsInto(vm, []byte(`{"x":`+deep+`,"heap":{}}`))
	require.ErrorIs(t, err, ErrSnapshotCorrupt)
	nested := strings.Repeat(`{"t":"native","d":["Object.keys",`, 10_000)
	data := `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[{"c":"Function","f":3,"s":` + nested + `]}]}}`
	_, err = decodeRootsInto(vm, []byte(data))
	require.ErrorIs(t, err, ErrSnapshotCorrupt)
}

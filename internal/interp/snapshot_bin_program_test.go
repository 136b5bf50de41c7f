package interp

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFormat2PackedProgram restores format-2 snapshots whose program the process does not
// hold: the "program" member is inflated and compiled, or rebuilt from its compiled code when
// this compiler compiles the source otherwise; the next restore finds the program by the
// member's bytes.
func TestFormat2PackedProgram(t *testing.T) {
	resume := func(t *testing.T, data []byte, h *testHost) *VM {
		t.Helper()
		vm, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		again, err := vm.Snapshot()
		require.NoError(t, err)
		require.Equal(t, data, again)
		require.NoError(t, vm.SettleHostPromise(h.pending[0], true, Number(1)))
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown)
		require.Equal(t, "42,x1,1", vm.ToGoString(v))
		return vm
	}
	snapshot := func(t *testing.T) ([]byte, *testHost) {
		t.Helper()
		h := &testHost{}
		data, err := waitingVMIn(t, New(Config{Host: h}), upgradeProgram).Snapshot()
		require.NoError(t, err)
		require.Equal(t, 2, SnapshotFormatOf(data))
		return data, h
	}

	t.Run("compiled here", func(t *testing.T) {
		data, h := snapshot(t)
		withProgramCache(t)
		vm := resume(t, data, h)
		vm2, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		require.Same(t, vm.exec.program, vm2.exec.program)
	})

	t.Run("rebuilt from its compiled code", func(t *testing.T) {
		data, h := snapshot(t)
		other := otherCompilation(t, upgradeProgram)
		withProgramCache(t, other)
		vm := resume(t, data, h)
		require.NotSame(t, other, vm.exec.program)
		require.NotEqual(t, other.CodeFingerprint(), vm.exec.program.CodeFingerprint())
		vm2, err := Restore(data, Config{Host: h})
		require.NoError(t, err)
		require.Same(t, vm.exec.program, vm2.exec.program)
	})
}

// TestFormat2PackedProgramBounded refuses a "program" member that claims more inflated bytes
// than it can hold, or inflates to other than it claims, before using it.
func TestFormat2PackedProgramBounded(t *testing.T) {
	p, err := Compile(`1 + 2`)
	require.NoError(t, err)
	packed := p.packedBin()
	n, stream := binary.Uvarint(packed)
	q, c, err := unpackProgram(packed)
	require.NoError(t, err)
	require.Equal(t, p.quoted(), q)
	require.Equal(t, p.compiledBin(), c)

	tests := map[string][]byte{
		"a size past the bound":           append(binary.AppendUvarint(nil, maxPackedProgram+1), packed[stream:]...),
		"more than DEFLATE can expand to": append(binary.AppendUvarint(nil, 1<<20), packed[stream:]...),
		"more than it inflates to":        append(binary.AppendUvarint(nil, n+1), packed[stream:]...),
		"less than it inflates to":        append(binary.AppendUvarint(nil, n-1), packed[stream:]...),
		"no stream":                       binary.AppendUvarint(nil, 10),
		"empty":                           nil,
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := unpackProgram(data)
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

// TestFormat2UnknownMinor refuses a format-2 snapshot of a later minor version.
func TestFormat2UnknownMinor(t *testing.T) {
	t.Parallel()
	data, err := mixedHeapVM(t, 1).Snapshot()
	require.NoError(t, err)
	// "minor" is the second member: its value is the token after its name's.
	r := openBin(data)
	r.beginObject()
	for first := true; r.more(first); first = false {
		if r.key() == "minor" {
			require.Equal(t, byte(binSmall|binMinor), data[r.pos])
			data = bytes.Clone(data)
			data[r.pos] = binSmall | (binMinor + 1)
			break
		}
		r.skip()
	}
	_, err = Restore(data, Config{})
	require.ErrorIs(t, err, ErrSnapshotUnsupported)
}

// TestFormat2SmallHeapSize keeps the snapshot of a small heap within twice the JSON of its
// live data: the program is written compressed, common object shapes as a token.
func TestFormat2SmallHeapSize(t *testing.T) {
	t.Parallel()
	data, err := mixedHeapVM(t, 14).Snapshot()
	require.NoError(t, err)
	require.LessOrEqual(t, len(data), 2*mixedHeapJSONBytes(t, 14))
}

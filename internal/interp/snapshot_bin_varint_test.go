package interp

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinUvarint reads uvarints of every length, alone (at the end of the data) and followed
// by a byte, and fails on truncated ones.
func TestBinUvarint(t *testing.T) {
	t.Parallel()
	for _, u := range []uint64{0, 1, 127, 128, 300, 16383, 16384, 1 << 21, 1<<40 + 5, 1<<64 - 1} {
		enc := binary.AppendUvarint(nil, u)
		for _, tail := range [][]byte{nil, {binEnd}} {
			r := &jsonReader{data: append(append([]byte{}, enc...), tail...), bin: true}
			require.Equal(t, u, r.uvarint())
			require.NoError(t, r.err)
			require.Equal(t, len(enc), r.pos)
		}
		if len(enc) > 1 {
			r := &jsonReader{data: enc[:len(enc)-1], bin: true}
			r.uvarint()
			require.ErrorIs(t, r.err, ErrSnapshotCorrupt, "truncated %d", u)
		}
	}
}

package interp

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStringBuilder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(b *stringBuilder)
		want  []uint16
	}{
		{"ascii", func(b *stringBuilder) { b.writeGo("abc") }, []uint16{'a', 'b', 'c'}},
		{"widens", func(b *stringBuilder) { b.writeGo("a"); b.writeRune('😀'); b.writeUnit('z') }, []uint16{'a', 0xD83D, 0xDE00, 'z'}},
		{"js strings", func(b *stringBuilder) {
			b.writeString(newASCII("x"))
			b.writeString(newUTF16([]uint16{0xD800}))
		}, []uint16{'x', 0xD800}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b stringBuilder
			tt.build(&b)
			require.Equal(t, len(tt.want), b.len())
			require.True(t, b.string().Equals(newUTF16(append([]uint16(nil), tt.want...))))
		})
	}
}

// unitsFrom turns fuzz bytes into UTF-16 code units (pairs of bytes).
func unitsFrom(data []byte) []uint16 {
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(data[2*i:])
	}
	return u
}

// FuzzStringEncodings checks that every UTF-16 string, lone surrogates included, survives the
// property-key form (WTF-8) and the snapshot JSON form, and that ropes flatten to the same
// units.
func FuzzStringEncodings(f *testing.F) {
	f.Add([]byte{'a', 0, 0x00, 0xD8, 'b', 0})
	f.Add([]byte{0x3D, 0xD8, 0x00, 0xDE})
	f.Add([]byte{0x00, 0xDC, 0x00, 0xD8})
	f.Fuzz(func(t *testing.T, data []byte) {
		u := unitsFrom(data)
		s := newUTF16(append([]uint16(nil), u...))
		require.True(t, newStringFromGo(s.wtf8()).Equals(s), "wtf8 round trip")
		w := &jsonWriter{}
		w.jsString(s)
		r := &jsonReader{data: w.buf}
		back := r.jsString()
		require.NoError(t, r.err)
		require.True(t, back.Equals(s), "json round trip of %q", w.buf)
		half := len(u) / 2
		rope := concatStrings(newUTF16(append([]uint16(nil), u[:half]...)), newUTF16(append([]uint16(nil), u[half:]...)))
		require.Equal(t, s.Len(), rope.Len())
		require.True(t, rope.Equals(s))
		require.Equal(t, 0, rope.Compare(s))
	})
}

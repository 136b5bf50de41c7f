package interp

import (
	"encoding/binary"
	"strings"
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

// TestIndexOfForms checks indexOf on every pairing of ASCII, wide and rope strings against a
// unit-by-unit search.
func TestIndexOfForms(t *testing.T) {
	t.Parallel()
	naive := func(s, t *jsString, from int) int {
		for i := max(from, 0); i+t.Len() <= s.Len(); i++ {
			ok := true
			for j := 0; j < t.Len() && ok; j++ {
				ok = s.At(i+j) == t.At(j)
			}
			if ok {
				return i
			}
		}
		return -1
	}
	wideASCII := func(s string) *jsString { // ASCII content held in the wide form
		u := make([]uint16, len(s))
		for i := range s {
			u[i] = uint16(s[i])
		}
		return newFlatUTF16(u)
	}
	haystacks := []*jsString{
		newASCII("abcababcab"),
		newStringFromGo("ab¨cab¨0¨cabé"),
		wideASCII("xxabcabca"),
		concatStrings(newStringFromGo(strings.Repeat("é¨a", 30)), newASCII(strings.Repeat("ab", 40))),
	}
	needles := []*jsString{
		newASCII("a"), newASCII("ab"), newASCII("cab"), newStringFromGo("¨"), newStringFromGo("¨c"),
		newStringFromGo("é¨a"), newStringFromGo("aé"), wideASCII("ab"), wideASCII("ca"), newASCII("zz"),
		concatStrings(newStringFromGo("¨a"), newASCII(strings.Repeat("x", 70))),
	}
	for hi, s := range haystacks {
		for ni, n := range needles {
			for from := -1; from <= s.Len()+1; from++ {
				require.Equal(t, naive(s, n, from), s.indexOf(n, from), "haystack %d needle %d from %d", hi, ni, from)
			}
		}
	}
}

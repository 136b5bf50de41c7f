package jsregexp

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// astralSamples are the supplementary code points testdata/sets.json reports on.
var astralSamples = []rune{0x10400, 0x10428, 0x1F600, 0x1D400, 0x20000, 0xE0001, 0x10FFFF, 0x16E40, 0x16E60, 0x1E900, 0x1E922}

// TestCharacterSetsMatchNode checks, for every BMP code unit, that one-character patterns
// (classes, escapes, case-insensitive literals) match exactly the units node 20 matches.
func TestCharacterSetsMatchNode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/sets.json")
	require.NoError(t, err)
	var cases []struct {
		P      string   `json:"p"`
		F      string   `json:"f"`
		Ranges [][2]int `json:"ranges"`
		Astral []rune   `json:"astral"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	for _, tt := range cases {
		t.Run("/"+tt.P+"/"+tt.F, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFlags(tt.F)
			require.NoError(t, err)
			re, err := Compile(utf16.Encode([]rune("^"+tt.P+"$")), f)
			require.NoError(t, err)
			want := make([]bool, 0x10000)
			for _, r := range tt.Ranges {
				for c := r[0]; c <= r[1]; c++ {
					want[c] = true
				}
			}
			in := []uint16{0}
			for c := range 0x10000 {
				in[0] = uint16(c)
				m, err := re.Exec(in, 0, time.Time{})
				if err != nil || want[c] != (m != nil) {
					t.Fatalf("U+%04X: node matches %v, got match %v (err %v)", c, want[c], m != nil, err)
				}
			}
			if f.unicodeMode() {
				for _, cp := range astralSamples {
					m, err := re.Exec(utf16.Encode([]rune{cp}), 0, time.Time{})
					require.NoError(t, err)
					require.Equal(t, slices.Contains(tt.Astral, cp), m != nil, "U+%X", cp)
				}
			}
		})
	}
}

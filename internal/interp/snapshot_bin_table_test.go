package interp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinTableEntries fills a string table past several growths of its hash table, with
// every kind of entry, each text also added again through a different Go string of the same
// contents: equal texts of one kind share an entry, and the document's table reads back as
// the texts in order. A reset empties it for the next document, whatever its size, and does
// not keep the hash table of a large document after a small one.
func TestBinTableEntries(t *testing.T) {
	t.Parallel()
	type text struct {
		s     string   // Go text, or
		units []uint16 // UTF-16 code units (not all ASCII)
	}
	var texts []text
	for i := range 3000 {
		switch i % 4 {
		case 0:
			texts = append(texts, text{s: fmt.Sprintf("k%d", i)})
		case 1:
			texts = append(texts, text{s: fmt.Sprintf("é%d", i)})
		case 2:
			texts = append(texts, text{units: []uint16{0xd800, uint16(i)}}) // a lone surrogate
		case 3:
			texts = append(texts, text{s: strings.Repeat("x", i%300)})
		}
	}
	texts = append(texts, text{s: ""})
	var tab binTable
	for _, size := range []int{len(texts), 10, len(texts)} { // a large document, a small one, a large one
		small := tab.n > 0 && tab.n <= 10
		tab.reset()
		if small {
			require.LessOrEqual(t, len(tab.slots), 4*binSlotsFor(10), "a small document's reset keeps a large hash table")
		}
		want := map[int]text{}
		for _, x := range texts[:size] {
			add := func() int {
				if x.units != nil {
					return tab.units(append([]uint16(nil), x.units...))
				}
				return tab.goString(strings.Clone(x.s))
			}
			i := add()
			require.Equal(t, i, add(), "the same text again: %q%v", x.s, x.units)
			if prev, ok := want[i]; ok {
				require.Equal(t, prev, x, "entry %d", i)
			}
			want[i] = x
		}
		require.Equal(t, len(want), tab.n)
		r := openBin(tab.appendDoc(nil, nil))
		require.NoError(t, r.err)
		require.Len(t, r.strs, tab.n)
		for i, x := range want {
			got := r.binJS(r.strs[i])
			if x.units != nil {
				require.Equal(t, x.units, got.flatUnits(), "entry %d", i)
			} else {
				require.Equal(t, x.s, got.wtf8(), "entry %d", i)
			}
		}
	}
}

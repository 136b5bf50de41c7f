package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// binSlotDoc writes internal slot entries as a format-2 document (a list of them), each
// {name: tag, "d": data} with data a primitive 7 ("prim"), Math.random's state ["1","2"]
// ("mathRandom") or else the console's state [the length of the tag].
func binSlotDoc(entries ...[2]string) []byte {
	var tab binTable
	w := &jsonWriter{tab: &tab}
	w.beginArray()
	for _, e := range entries {
		w.beginObject()
		w.key(e[0])
		w.string(e[1])
		w.key("d")
		switch e[1] {
		case "prim":
			w.int(7)
		case "mathRandom":
			w.beginArray()
			w.string("1")
			w.string("2")
			w.endArray()
		default:
			w.beginArray()
			w.int(int64(len(e[1])))
			w.endArray()
		}
		w.endObject()
	}
	w.endArray()
	return tab.appendDoc(nil, w.buf)
}

// TestFormat2SlotsByIndex reads format-2 internal slots through the path that remembers the
// string-table indices of the names and of the last tag: slots of alternating types each get
// their own type, the special tags ("prim") and entries that are not slots go the general way,
// which reads the first and rejects the second.
func TestFormat2SlotsByIndex(t *testing.T) {
	t.Parallel()
	decode := func(doc []byte) ([]any, error) {
		d := New(Config{}).newHeapDecoder()
		defer d.release()
		r := openBin(doc)
		require.NoError(t, r.err)
		var out []any
		r.beginArray()
		for first := true; r.more(first); first = false {
			out = append(out, d.slot(r))
		}
		return out, r.err
	}

	got, err := decode(binSlotDoc(
		[2]string{"t", "console"}, [2]string{"t", "console"}, [2]string{"t", "prim"},
		[2]string{"t", "console"}, [2]string{"t", "mathRandom"}, [2]string{"t", "console"}))
	require.NoError(t, err)
	require.Len(t, got, 6)
	for _, i := range []int{0, 1, 3, 5} {
		require.IsType(t, &consoleState{}, got[i], "entry %d", i)
		require.Equal(t, len("console"), got[i].(*consoleState).indent, "entry %d", i)
	}
	require.Equal(t, Number(7), got[2])
	require.Equal(t, &mathRandomState{S0: 1, S1: 2}, got[4])
	require.NotSame(t, got[0], got[1])

	_, err = decode(binSlotDoc([2]string{"t", "console"}, [2]string{"x", "console"}))
	require.ErrorIs(t, err, ErrSnapshotCorrupt, "a slot whose tag is not named t")
	_, err = decode(binSlotDoc([2]string{"t", "no such type"}))
	require.ErrorIs(t, err, ErrSnapshotCorrupt, "an unknown slot type")
}

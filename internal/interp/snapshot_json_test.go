package interp

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSnapshotReencodeIdentical restores each snapshot of the round-trip programs (taken at
// several points of their runs) and snapshots the restored VM again, in each format: the two
// documents must be byte for byte the same, so the reader loses nothing the writer wrote.
// Snapshotting the same VM twice gives the same bytes too (the encoding is deterministic).
func TestSnapshotReencodeIdentical(t *testing.T) {
	t.Parallel()
	for _, format := range []int{snapshotFormat, snapshotFormat2} {
		for _, tt := range snapshotPrograms {
			t.Run(fmt.Sprintf("format=%d/%s", format, tt.name), func(t *testing.T) {
				t.Parallel()
				p, err := Compile(tt.src)
				require.NoError(t, err)
				vm := New(Config{})
				require.NoError(t, vm.Start(p))
				checked := 0
				for step := 0; step < 400; step++ {
					st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 3})
					require.NoError(t, err)
					first, err := vm.snapshot(format)
					require.NoError(t, err)
					require.Equal(t, format, SnapshotFormatOf(first))
					again, err := vm.snapshot(format)
					require.NoError(t, err)
					require.Equal(t, string(first), string(again), "snapshot twice after %d runs", step)
					restored, err := Restore(first, Config{})
					require.NoError(t, err)
					second, err := restored.snapshot(format)
					require.NoError(t, err)
					require.Equal(t, string(first), string(second), "after %d runs", step)
					checked++
					if st == StatusDone {
						break
					}
				}
				require.Positive(t, checked)
			})
		}
	}
}

// TestSnapshotReencodeMixedHeap checks the same on the benchmark's heap of mixed data, and
// that a snapshot restored from one format and written in the other says the same.
func TestSnapshotReencodeMixedHeap(t *testing.T) {
	t.Parallel()
	vm := mixedHeapVM(t, 300)
	for _, format := range []int{snapshotFormat, snapshotFormat2} {
		first, err := vm.snapshot(format)
		require.NoError(t, err)
		restored, err := Restore(first, Config{})
		require.NoError(t, err)
		second, err := restored.snapshot(format)
		require.NoError(t, err)
		require.Equal(t, string(first), string(second))
		other := snapshotFormat + snapshotFormat2 - format
		crossed, err := restored.snapshot(other)
		require.NoError(t, err)
		direct, err := vm.snapshot(other)
		require.NoError(t, err)
		require.Equal(t, string(direct), string(crossed), "format %d read back, written as %d", format, other)
	}
}

// TestAppendJSONFloat compares the number writer with strconv's 'g' shortest form, which
// format 1 documents were written with.
func TestAppendJSONFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    float64
	}{
		{name: "zero", f: 0},
		{name: "one", f: 1},
		{name: "minus one", f: -1},
		{name: "below 1e6", f: 999999},
		{name: "below -1e6", f: -999999},
		{name: "1e6", f: 1e6},
		{name: "-1e6", f: -1e6},
		{name: "digits above 1e6", f: 1234567},
		{name: "trailing zeros", f: 1230000},
		{name: "1e15", f: 1e15},
		{name: "2^53 - 1", f: 1<<53 - 1},
		{name: "2^53", f: 1 << 53},
		{name: "-(2^53 - 1)", f: -(1<<53 - 1)},
		{name: "1e21", f: 1e21},
		{name: "half", f: 0.5},
		{name: "third", f: -1.0 / 3},
		{name: "tiny", f: 5e-324},
		{name: "large fraction", f: 1234567.5},
		{name: "max", f: math.MaxFloat64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := strconv.AppendFloat(nil, tt.f, 'g', -1, 64)
			require.Equal(t, string(want), string(appendJSONFloat(nil, tt.f)))
		})
	}
	t.Run("integers across magnitudes", func(t *testing.T) {
		t.Parallel()
		for e := 0; e < 16; e++ {
			base := math.Pow(10, float64(e))
			for _, f := range []float64{base, base + 1, base * 7, base*9 + 3, -base, -(base + 1)} {
				want := strconv.AppendFloat(nil, f, 'g', -1, 64)
				require.Equal(t, string(want), string(appendJSONFloat(nil, f)), "%v", f)
			}
		}
	})
}

// TestSnapshotJSONSkip checks skip over nested containers and strings with escaped quotes
// and brackets, and its errors.
func TestSnapshotJSONSkip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		rest    string
		wantErr bool
	}{
		{name: "nested", in: `{"a":[1,{"b":"]}"}],"c":{}} ,1`, rest: ` ,1`},
		{name: "escaped quote", in: `["x\"]", "\\"]x`, rest: `x`},
		{name: "string", in: `"a\"b"x`, rest: `x`},
		{name: "number", in: `-1.5e3,`, rest: `,`},
		{name: "literal", in: `null]`, rest: `]`},
		{name: "mismatched", in: `[1}`, wantErr: true},
		{name: "unterminated", in: `[1,[2]`, wantErr: true},
		{name: "unterminated string", in: `["abc]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &jsonReader{data: []byte(tt.in)}
			r.skip()
			if tt.wantErr {
				require.ErrorIs(t, r.err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, r.err)
			require.Equal(t, tt.rest, string(r.data[r.pos:]))
		})
	}
}

package interp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// format2Seeds returns real format-2 snapshots: the round-trip programs at a few points of
// their runs, and the benchmark's mixed heap waiting on a host call.
func format2Seeds(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, tt := range snapshotPrograms {
		p, err := Compile(tt.src)
		require.NoError(tb, err)
		vm := New(Config{})
		require.NoError(tb, vm.Start(p))
		for step := 0; step < 3; step++ {
			st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 7})
			require.NoError(tb, err)
			data, err := vm.Snapshot()
			require.NoError(tb, err)
			out = append(out, data)
			if st == StatusDone {
				break
			}
		}
	}
	data, err := mixedHeapVM(tb, 3).Snapshot()
	require.NoError(tb, err)
	return append(out, data)
}

// TestFormat2TruncatedFails cuts a real format-2 snapshot at every length: each prefix fails
// with an error (no panic), and the full snapshot restores.
func TestFormat2TruncatedFails(t *testing.T) {
	t.Parallel()
	data, err := mixedHeapVM(t, 2).Snapshot()
	require.NoError(t, err)
	require.Equal(t, 2, SnapshotFormatOf(data))
	for n := range len(data) {
		_, err := Restore(data[:n], Config{})
		require.Error(t, err, "prefix of %d of %d bytes", n, len(data))
	}
	_, err = Restore(data, Config{})
	require.NoError(t, err)
	_, err = Restore(append(data[:len(data):len(data)], 0), Config{})
	require.ErrorIs(t, err, ErrSnapshotCorrupt, "a byte after the snapshot")
}

// TestFormat2CorruptBytes changes every byte of a real format-2 snapshot in turn: the restore
// either fails with an error or gives a VM that can be snapshotted again; it never panics.
func TestFormat2CorruptBytes(t *testing.T) {
	t.Parallel()
	data, err := mixedHeapVM(t, 1).Snapshot()
	require.NoError(t, err)
	bad := make([]byte, len(data))
	for i := range data {
		for _, b := range []byte{data[i] ^ 0x01, data[i] ^ 0x80, 0xff} {
			copy(bad, data)
			bad[i] = b
			restoreOrFail(t, bad)
		}
	}
}

// restoreOrFail restores data; what restores must snapshot again.
func restoreOrFail(t *testing.T, data []byte) {
	t.Helper()
	vm, err := Restore(data, Config{})
	if err != nil {
		return
	}
	if _, err := vm.Snapshot(); err != nil && !errors.Is(err, ErrSnapshotUnsupported) {
		t.Fatalf("a restored snapshot does not encode: %v", err)
	}
}

// TestFormat2BoundsCounts checks that counts in a format-2 snapshot are bounded by the input:
// a string table or byte string claiming more than the rest fails before allocating.
func TestFormat2BoundsCounts(t *testing.T) {
	t.Parallel()
	tests := map[string][]byte{
		"string table count":    {binMarker, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"string entry length":   {binMarker, 1, 0xfc, 0xff, 0xff, 0xff, 0x0f},
		"not ASCII":             {binMarker, 1, 1 << 2, 0xc3, binObject, binEnd},
		"bytes length":          {binMarker, 1, 6 << 2, 's', 'o', 'u', 'r', 'c', 'e', binObject, binString, 0, binBytes, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"empty":                 {binMarker},
		"no members":            {binMarker, 0, binObject, binEnd},
		"unterminated document": {binMarker, 0, binObject},
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Restore(data, Config{})
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

// TestFormat2TableASCII checks the string table's ASCII entries, short ones (read with the
// bytes after them) and long: an entry with a byte of 0x80 or more fails, wherever it is in
// the entry, and the bytes after an entry do not count.
func TestFormat2TableASCII(t *testing.T) {
	t.Parallel()
	goEntry := []byte{7<<2 | binStrGo, 0xc3, 0xa9, 0xc3, 0xa9, 0xc3, 0xa9, 0xc3} // not ASCII, not checked
	table := func(entries ...[]byte) []byte {
		data := []byte{binMarker, byte(len(entries))}
		for _, e := range entries {
			data = append(data, e...)
		}
		return append(data, binObject, binEnd)
	}
	ascii := func(text ...byte) []byte { return append([]byte{byte(len(text)) << 2}, text...) }
	tests := []struct {
		name string
		data []byte
		ok   bool
	}{
		{name: "short before high bytes", data: table(ascii('a', 'b'), goEntry), ok: true},
		{name: "short at the end", data: table(goEntry, ascii('a', 'b')), ok: true},
		{name: "empty before high bytes", data: table(ascii(), goEntry), ok: true},
		{name: "seven bytes", data: table(ascii('a', 'b', 'c', 'd', 'e', 'f', 'g'), goEntry), ok: true},
		{name: "long", data: table(ascii('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'), goEntry), ok: true},
		{name: "short, first byte", data: table(ascii(0xc3, 'b'), goEntry)},
		{name: "short, last byte", data: table(ascii('a', 0xff), goEntry)},
		{name: "seven, last byte", data: table(ascii('a', 'b', 'c', 'd', 'e', 'f', 0x80), goEntry)},
		{name: "short at the end, high byte", data: table(goEntry, ascii('a', 0x80))},
		{name: "long, high byte", data: table(ascii('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 0x80), goEntry)},
	}
	for _, tt := range tests {
		r := openBin(tt.data)
		if tt.ok {
			require.NoError(t, r.err, tt.name)
			require.Len(t, r.strs, 2, tt.name)
			continue
		}
		require.ErrorIs(t, r.err, ErrSnapshotCorrupt, tt.name)
		require.ErrorContains(t, r.err, "is not ASCII", tt.name)
	}
}

// TestFormat2UnknownFormat refuses a binary document of another format number.
func TestFormat2UnknownFormat(t *testing.T) {
	t.Parallel()
	data := []byte{binMarker, 1, 6 << 2, 'f', 'o', 'r', 'm', 'a', 't', binObject, binString, 0, binSmall | 3, binEnd}
	_, err := Restore(data, Config{})
	require.ErrorIs(t, err, ErrSnapshotUnsupported)
}

// FuzzRestoreFormat2 restores arbitrary bytes seeded with real format-2 snapshots: no panic,
// and what restores snapshots again.
//
// The seeds are kilobytes long, so the fuzzer's minimization of each new interesting input
// runs to its limit (-fuzzminimizetime, 60s by default), during which its execution count does
// not move although the worker keeps executing inputs (thousands a second). Fuzz with a
// smaller limit to keep it exploring:
//
//	go test -run XXX -fuzz FuzzRestoreFormat2 -fuzzminimizetime 200x ./internal/interp/
func FuzzRestoreFormat2(f *testing.F) {
	for _, s := range format2Seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		restoreOrFail(t, data)
	})
}

// TestFormat2ClassNames restores, in format 2, objects of many classes in turn (more than the
// decoder remembers by string-table index), each several times: every object keeps its class.
func TestFormat2ClassNames(t *testing.T) {
	t.Parallel()
	src := `const make = [() => [], () => new Map(), () => new Set(), () => new Date(0), () => new Error('e'),
  () => /x/g, () => new Boolean(true), () => new Number(1), () => new String('s'), () => Promise.resolve(),
  () => new WeakMap(), () => function () {}, () => new URL('https://example.com/'), () => ({})];
const objs = [];
for (let i = 0; i < 3; i++) for (const m of make) objs.push(m());
await later();
objs.map(o => Object.prototype.toString.call(o).slice(8, -1)).join()`
	want := runAddedGlobals(t, src, nil, 0)
	vm, h := newHostVM(t, src)
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusWaiting, st)
	data, err := vm.snapshot(snapshotFormat2)
	require.NoError(t, err)
	for range 2 { // the second restore with a decoder from the pool
		restored, err := Restore(data, Config{Host: &testHost{}})
		require.NoError(t, err)
		require.Equal(t, want, runAddedGlobals(t, src, restored, h.pending[0]))
	}
}

package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestObjectIDTable(t *testing.T) {
	t.Parallel()
	slab := func(n int) []*Object {
		objs := make([]Object, n)
		out := make([]*Object, n)
		for i := range objs {
			out[i] = &objs[i]
		}
		return out
	}
	single := func(n int) []*Object {
		out := make([]*Object, n)
		for i := range out {
			out[i] = &Object{}
		}
		return out
	}
	tests := []struct {
		name    string
		objs    []*Object
		epoch   uint32 // the table's epoch before the first encoding
		reserve int    // chunks reserved before the first encoding
	}{
		{name: "none", objs: nil},
		{name: "one", objs: single(1)},
		{name: "adjacent in one slab", objs: slab(3000)},
		{name: "allocated one by one", objs: single(5000)},
		{name: "slab and single mixed", objs: append(slab(700), single(700)...)},
		{name: "epoch wraps around", objs: slab(100), epoch: math.MaxUint32 - 1},
		{name: "reserved", objs: single(2000), reserve: 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			objs := tt.objs
			tab := objectIDTable{epoch: tt.epoch}
			tab.reserve(tt.reserve)
			require.GreaterOrEqual(t, cap(tab.cells), tt.reserve*objectIDChunkCells)
			require.GreaterOrEqual(t, len(tab.dir), 2*tt.reserve)
			// several encodings on the same table: each starts from no ids at all
			for round := range 3 {
				tab.reset()
				require.NotZero(t, tab.epoch)
				// ids are handed out in order of first sight; each round meets the objects
				// in another order, some twice
				want := map[*Object]int{}
				for k := range 2 * len(objs) {
					o := objs[(k*7919+round*31)%len(objs)]
					id, added := tab.lookupOrAdd(o, len(want))
					if prev, seen := want[o]; seen {
						require.False(t, added)
						require.Equal(t, prev, id)
						continue
					}
					require.True(t, added, "object %d in round %d", k, round)
					require.Equal(t, len(want), id)
					want[o] = id
				}
				require.Len(t, want, len(objs))
				for _, o := range objs {
					id, added := tab.lookupOrAdd(o, -1)
					require.False(t, added)
					require.Equal(t, want[o], id)
				}
			}
		})
	}
}

func TestNodeIDTable(t *testing.T) {
	t.Parallel()
	// records of 8 bytes side by side share cells; records of no size share one address
	small := make([]testCounter, 300)
	var records []slotCodec
	for i := range small {
		records = append(records, &small[i])
	}
	records = append(records, &envRecord{}, &envRecord{}, &textEncoderData{}, &resolvedFlag{})
	var tab nodeIDTable
	for round := range 3 {
		tab.reset()
		var queue []slotCodec
		want := map[slotCodec]int{}
		for k := range 2 * len(records) {
			n := records[(k*7919+round*31)%len(records)]
			id := tab.lookupOrAdd(n, &queue)
			if prev, seen := want[n]; seen {
				require.Equal(t, prev, id)
				continue
			}
			require.Equal(t, len(want), id, "record %d in round %d", k, round)
			want[n] = id
		}
		require.Len(t, queue, len(want))
		for n, id := range want {
			require.True(t, n == queue[id], "record %d in the queue", id)
			require.Equal(t, id, tab.lookupOrAdd(n, &queue))
		}
		require.NotEmpty(t, tab.others, "records sharing a cell")
	}
}

// TestObjectIDTableForgetsOldChunks checks that a table used for a large heap and then for
// small ones shrinks back, and still gives correct ids.
func TestObjectIDTableForgetsOldChunks(t *testing.T) {
	t.Parallel()
	big := make([]Object, 20_000) // about 270 chunks
	var tab objectIDTable
	tab.reset()
	for i := range big {
		id, added := tab.lookupOrAdd(&big[i], i)
		require.True(t, added)
		require.Equal(t, i, id)
	}
	bigChunks := tab.chunks
	require.Greater(t, bigChunks, 200)
	small := []*Object{&big[5], &big[6], &Object{}}
	for round := range 3 {
		tab.reset()
		for i, o := range small {
			id, added := tab.lookupOrAdd(o, i)
			require.True(t, added, "round %d", round)
			require.Equal(t, i, id)
			id, added = tab.lookupOrAdd(o, -1)
			require.False(t, added)
			require.Equal(t, i, id)
		}
		if round > 0 {
			require.LessOrEqual(t, tab.chunks, 64+4*len(small), "round %d", round)
		}
	}
	// the same table serves a large heap again
	tab.reset()
	for i := range big {
		id, added := tab.lookupOrAdd(&big[i], i)
		require.True(t, added)
		require.Equal(t, i, id)
	}
	require.Equal(t, bigChunks, tab.used)
}

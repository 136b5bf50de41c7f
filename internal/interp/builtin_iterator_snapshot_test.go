package interp

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProposalCasesUnderSnapshots reruns the chunks/windows, includes/join, zip/zipKeyed,
// allKeyed/allSettledKeyed and Error.prototype.stack programs with the VM snapshotted and
// restored into a new VM every 7 instructions, so helper buffers, zip state and keyed
// combinator state all go through the snapshot codec mid-iteration.
func TestProposalCasesUnderSnapshots(t *testing.T) {
	t.Parallel()
	var all []jsCase
	for _, cases := range [][]jsCase{chunkingCases, includesJoinCases, zipCases, promiseKeyedCases} {
		all = append(all, cases...)
	}
	for _, tt := range all {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, _ := runWithSnapshots(t, tt.src, 7)
			if thrown {
				name, _, _ := strings.Cut(got, ":")
				got = "throws " + name
			}
			require.Equal(t, tt.want, got, tt.src)
		})
	}
}

// TestProposalSuspendedRun suspends a run on host calls while a zip, a zipKeyed, a chunks
// and a windows helper are part-consumed and while an allKeyed and an allSettledKeyed wait
// on a host promise; each suspension is snapshotted and restored into a new VM, and the run
// finishes with the same result as one that was never suspended.
func TestProposalSuspendedRun(t *testing.T) {
	t.Parallel()
	src := show + `
const z = Iterator.zip([gen(4), 'abcd'.split('').values()], {mode: 'longest'});
const zk = Iterator.zipKeyed({n: gen(3), s: ['x', 'y']}, {mode: 'longest', padding: {s: '-'}});
const c = [10, 20, 30, 40, 50].values().chunks(2);
const w = gen(5).windows(3);
const out = [show(z.next().value), JSON.stringify(zk.next().value), show(c.next().value), show(w.next().value)];
c.next(); // the chunk buffer is empty again; the next chunk is partial
out.push(await later());
out.push(show([...z]), JSON.stringify([...zk]), show([...c]), show([...w]));
const keyed = Promise.allKeyed({host: later(), two: 2, three: Promise.resolve(3)});
const settled = Promise.allSettledKeyed({host: later(), bad: Promise.reject('no')});
out.push(JSON.stringify(await keyed), JSON.stringify(await settled));
out.join(' ')`
	want := `[0,a] {"n":0,"s":"x"} [10,20] [0,1,2] 7 [[1,b],[2,c],[3,d]] [{"n":1,"s":"y"},{"n":2,"s":"-"}] [[50]] [[1,2,3],[2,3,4]] ` +
		`{"host":"first","two":2,"three":3} {"host":{"status":"rejected","reason":"second"},"bad":{"status":"rejected","reason":"no"}}`
	settle := func(vm *VM, id uint64) {
		switch id {
		case 1:
			require.NoError(t, vm.SettleHostPromise(id, true, Number(7)))
		case 2:
			require.NoError(t, vm.SettleHostPromise(id, true, asciiValue("first")))
		default:
			require.NoError(t, vm.SettleHostPromise(id, false, asciiValue("second")))
		}
	}
	for _, suspend := range []bool{false, true} {
		vm, h := newHostVM(t, src)
		suspensions := 0
		for {
			st, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			if st == StatusDone {
				break
			}
			require.Equal(t, StatusWaiting, st)
			if suspend {
				data, err := vm.Snapshot()
				require.NoError(t, err)
				vm, err = Restore(data, Config{Host: h})
				require.NoError(t, err)
				suspensions++
			}
			for _, id := range vm.pendingHostPromises() {
				settle(vm, id)
			}
		}
		v, thrown := vm.Result()
		require.False(t, thrown, vm.ToGoString(v))
		require.Equal(t, want, vm.ToGoString(v), "suspended: %v", suspend)
		if suspend {
			require.Equal(t, 2, suspensions)
		}
	}
}

// TestProposalSnapshotsRejectCorruptState checks that the zip and keyed combinator codecs
// refuse inconsistent state instead of restoring it, and accept the same shapes when they
// are consistent.
func TestProposalSnapshotsRejectCorruptState(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		obj  string
		ok   bool
	}{
		{"zip consistent", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[1,false,false,false,[null],[1],[]]}}`, true},
		{"zipKeyed consistent", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[0,true,true,false,[null],[1],["a"]]}}`, true},
		{"keyed combinator consistent", `{"p":null,"f":1,"s":{"t":"keyedCombinator","d":[["a"],[1],1,null,false]}}`, true},
		{"zip mode out of range", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[7,false,false,false,[],[],[]]}}`, false},
		{"zip padding shorter than inputs", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[1,false,false,false,[null],[],[]]}}`, false},
		{"zip keys without keyed", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[0,false,false,false,[null],[1],["a"]]}}`, false},
		{"zipKeyed key not a property key", `{"c":"Iterator","p":null,"f":1,"s":{"t":"iteratorZip","d":[0,true,false,false,[null],[1],[5]]}}`, false},
		{"keyed combinator lengths differ", `{"p":null,"f":1,"s":{"t":"keyedCombinator","d":[["a","b"],[1],1,null,false]}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			data := `{"heap":{"syms":[],"intr":[],"n":1,"nodes":[],"objs":[` + tt.obj + `]},"roots":[{"#":0}]}`
			_, err := decodeRootsInto(vm, []byte(data))
			if tt.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrSnapshotCorrupt)
		})
	}
}

package interp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// TestJSONReaderFloat checks that numbers read back bit for bit as strconv reads them, on
// the fast path (up to 15 digits, small exponents) and off it.
func TestJSONReaderFloat(t *testing.T) {
	t.Parallel()
	texts := []string{
		"0", "-0", "7", "-7", "0.5", "-0.3333333333333333", "1.6666666666666667", "0.1",
		"0.000001", "1e21", "1e-7", "-1.25e+3", "2.5E-3", "123456789012345", "1234567890123456",
		"9007199254740993", "9007199254740992", "0.9007199254740993", "0.3333333333333333", "1234567890123456789", "12345678901234567890", "5e-324", "1.7976931348623157e308", "1e22", "1e23", "1e-22",
		"123456789012345e-10", "0.000000000000000000001", "100", "4.35", "1e-400", "01", "1.",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		texts = append(texts, strconv.FormatFloat(f, 'g', -1, 64))
		texts = append(texts, strconv.FormatFloat(float64(rng.IntN(1e6))/float64(1+rng.IntN(1e4)), 'g', -1, 64))
	}
	for _, tt := range texts {
		want, err := strconv.ParseFloat(tt, 64)
		require.NoError(t, err, tt)
		r := &jsonReader{data: []byte(tt + ",")}
		got := r.float()
		require.NoError(t, r.err, tt)
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), "%s: got %v want %v", tt, got, want)
		require.Equal(t, len(tt), r.pos, tt)
	}
}

func TestJSONReaderNumberErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		int  bool
	}{
		{name: "two points", text: "1..2"},
		{name: "double sign", text: "--1"},
		{name: "bare exponent", text: "1e"},
		{name: "no digits", text: "-"},
		{name: "letters", text: "x"},
		{name: "fraction as integer", text: "1.5", int: true},
		{name: "exponent as integer", text: "1e3", int: true},
		{name: "sign only integer", text: "-", int: true},
		{name: "integer overflow", text: "99999999999999999999", int: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &jsonReader{data: []byte(tt.text + "]")}
			if tt.int {
				r.int()
			} else {
				r.float()
			}
			require.ErrorIs(t, r.err, ErrSnapshotCorrupt)
		})
	}
}

func TestJSONReaderInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int64
	}{
		{text: "0", want: 0}, {text: "-5", want: -5}, {text: "1234567890123", want: 1234567890123},
		{text: "007", want: 7},
	}
	for _, tt := range tests {
		r := &jsonReader{data: []byte(tt.text + "}")}
		require.Equal(t, tt.want, r.int(), tt.text)
		require.NoError(t, r.err)
		require.Equal(t, len(tt.text), r.pos)
	}
}

// TestDecodeString checks the strings the heap decoder reads: plain, escaped, non-ASCII,
// lone surrogates, and the errors of malformed text.
func TestDecodeString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		json  string
		want  []uint16
		ascii bool
		fails bool
	}{
		{name: "plain", json: `"hello"`, want: utf16.Encode([]rune("hello")), ascii: true},
		{name: "empty", json: `""`, want: nil, ascii: true},
		{name: "escapes", json: `"a\"b\\c\/d\be\ff\ng\rh\ti"`, want: utf16.Encode([]rune("a\"b\\c/d\be\ff\ng\rh\ti")), ascii: true},
		{name: "ascii escape", json: `"\u0041\u007a"`, want: []uint16{'A', 'z'}, ascii: true},
		{name: "utf-8", json: `"é€"`, want: []uint16{0xe9, 0x20ac}},
		{name: "escaped non-ascii", json: `"\u00E9x"`, want: []uint16{0xe9, 'x'}},
		{name: "astral", json: `"😀!"`, want: []uint16{0xd83d, 0xde00, '!'}},
		{name: "lone surrogate", json: `"\ud800z"`, want: []uint16{0xd800, 'z'}},
		{name: "invalid utf-8", json: "\"a\xffb\"", want: []uint16{'a', 0xfffd, 'b'}},
		{name: "long non-ascii", json: `"` + repeatString("é", 600) + `"`, want: repeatUnits(0xe9, 600)},
		{name: "control character", json: "\"a\nb\"", fails: true},
		{name: "bad escape", json: `"a\xb"`, fails: true},
		{name: "short unicode escape", json: `"\u12"`, fails: true},
		{name: "bad hex", json: `"\u12g4"`, fails: true},
		{name: "unterminated", json: `"abc`, fails: true},
		{name: "unterminated escape", json: `"abc\"`, fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := New(Config{}).newHeapDecoder()
			defer d.release()
			r := &jsonReader{data: []byte(tt.json)}
			s := d.str(r)
			if tt.fails {
				require.ErrorIs(t, r.err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, r.err)
			require.Equal(t, len(tt.json), r.pos)
			require.Equal(t, tt.ascii, s.isASCII)
			require.Equal(t, len(tt.want), s.Len())
			got := s.flat().units()
			if len(tt.want) == 0 {
				require.Empty(t, got)
				return
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func repeatString(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func repeatUnits(u uint16, n int) []uint16 {
	out := make([]uint16, n)
	for i := range out {
		out[i] = u
	}
	return out
}

// TestDecodeSharesStrings checks which decoded strings share one string: short and long
// equal strings do, and the memory charge of decoding the same snapshot again (with a
// decoder from the pool) is the same.
func TestDecodeSharesStrings(t *testing.T) {
	t.Parallel()
	vm, _ := newHostVM(t, `globalThis.a = ['tag', 'tag', 'x'.repeat(100), 'x'.repeat(100), 'y'.repeat(300), 'y'.repeat(300), 'é'.repeat(300), 'é'.repeat(300)];
await later(); a.length`)
	_, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	for _, format := range []int{snapshotFormat, snapshotFormat2} {
		data, err := vm.snapshot(format)
		require.NoError(t, err)
		var charges []int64
		for range 3 {
			restored, err := Restore(data, Config{})
			require.NoError(t, err)
			charges = append(charges, restored.allocated)
			av, err := restored.Get(restored.Global(), "a")
			require.NoError(t, err)
			a := av.asObject()
			require.Len(t, a.elems, 8)
			str := func(i int) *jsString { return a.elems[i].str() }
			require.Same(t, str(0), str(1), "short strings")
			if format == snapshotFormat {
				require.NotSame(t, str(2), str(3), "middle-sized strings are not looked up")
			} else {
				require.Same(t, str(2), str(3), "format 2 stores each string once")
			}
			require.Equal(t, str(2).flat().ascii, str(3).flat().ascii)
			require.Same(t, str(4), str(5), "long strings")
			require.Same(t, str(6), str(7), "long non-ASCII strings")
		}
		require.Equal(t, charges[0], charges[1])
		require.Equal(t, charges[0], charges[2])
	}
}

// TestDecodeSharesNoStringAcrossRestores checks that the decoder's string cache, kept with
// the pooled decoder, is emptied between restores (of heaps with few and with many short
// strings): each restored VM has its own strings.
func TestDecodeSharesNoStringAcrossRestores(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			vm, _ := newHostVM(t, fmt.Sprintf(`globalThis.a = Array.from({length: %d}, (_, i) => 's' + i);
await later(); a.length`, n))
			_, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			data, err := vm.Snapshot()
			require.NoError(t, err)
			strs := func() []*jsString {
				restored, err := Restore(data, Config{})
				require.NoError(t, err)
				av, err := restored.Get(restored.Global(), "a")
				require.NoError(t, err)
				var out []*jsString
				for _, v := range av.asObject().elems {
					out = append(out, v.str())
				}
				return out
			}
			first, second := strs(), strs()
			require.Len(t, first, n)
			for i := range first {
				require.Equal(t, first[i].flat().ascii, second[i].flat().ascii)
				require.NotSame(t, first[i], second[i], "string %d shared between restores", i)
			}
		})
	}
}

// TestDecodeStringTableNotStale checks the table of string values by index that a pooled
// decoder keeps for format 2: restores of two snapshots whose string tables have the same
// layout but other texts, in turn, each get their own strings, and a decoder back in the
// pool holds no string of the heap it decoded.
func TestDecodeStringTableNotStale(t *testing.T) {
	snapshotOf := func(prefix string) []byte {
		vm, _ := newHostVM(t, fmt.Sprintf(`globalThis.a = Array.from({length: 20}, (_, i) => '%s' + i);
await later(); a.length`, prefix))
		_, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		data, err := vm.snapshot(snapshotFormat2)
		require.NoError(t, err)
		return data
	}
	datas := [][]byte{snapshotOf("p"), snapshotOf("q")}
	var last []*jsString
	for round := range 6 {
		prefix := "pq"[round%2 : round%2+1]
		restored, err := Restore(datas[round%2], Config{})
		require.NoError(t, err)
		av, err := restored.Get(restored.Global(), "a")
		require.NoError(t, err)
		elems := av.asObject().elems
		require.Len(t, elems, 20)
		for i, v := range elems {
			require.Equal(t, fmt.Sprintf("%s%d", prefix, i), v.str().flat().ascii, "round %d", round)
			if last != nil {
				require.NotSame(t, last[i], v.str(), "string %d shared between restores", i)
			}
		}
		last = last[:0]
		for _, v := range elems {
			last = append(last, v.str())
		}
		d := decoderPool.Get().(*heapDecoder)
		for i, s := range d.binStrs[:cap(d.binStrs)] {
			require.Nil(t, s, "entry %d of a pooled decoder's string table", i)
		}
		decoderPool.Put(d)
	}
}

// TestDecodeLargeLists round-trips programs whose arrays and objects are larger than the
// decoder's slabs, next to small ones cut from the same storage, and then grows them all:
// every list must have its own storage.
func TestDecodeLargeLists(t *testing.T) {
	t.Parallel()
	src := `
const big = []; for (let i = 0; i < 3000; i++) big.push(i * 0.5);
const smalls = []; for (let i = 0; i < 300; i++) smalls.push([i, 's' + i]);
const dict = {}; for (let i = 0; i < 1500; i++) dict['k' + i] = i;
const objs = []; for (let i = 0; i < 200; i++) objs.push({a: i, b: 'v' + i});
for (const a of smalls) a.push('x');
for (const o of objs) o.c = o.a * 2;
big.push(-1);
dict.extra = 1;
let sum = 0; for (const o of objs) sum += o.c;
[big.length, big[2999], big[3000], smalls[5].join(), smalls[6].join(), smalls[299].join(),
 Object.keys(dict).length, dict.k1499, dict.extra, sum, objs[7].b].join('|')`
	want, wantThrown := runProgram(t, src)
	require.False(t, wantThrown, want)
	got, thrown, snaps := runWithSnapshots(t, src, 2000)
	require.False(t, thrown, got)
	require.Equal(t, want, got)
	require.Greater(t, snaps, 10)
}

// TestJSONReaderSkipAndCount checks the bracket-matching scans: skip passes over a value
// (brackets and quotes inside strings ignored), countRest counts the entries left in the
// enclosing list.
func TestJSONReaderSkipAndCount(t *testing.T) {
	t.Parallel()
	deep := func(n int) string {
		s := ""
		for range n {
			s += "["
		}
		for range n {
			s += "]"
		}
		return s
	}
	tests := []struct {
		name  string
		json  string
		fails bool
	}{
		{name: "object", json: `{"a":["]",{"b":"\"}"}],"c":1}`},
		{name: "escaped backslashes", json: `["a\\\\",["\\"]]`},
		{name: "nested", json: deep(500)},
		{name: "too deep", json: deep(600), fails: true},
		{name: "mismatched", json: `[1,{"a":2]]`, fails: true},
		{name: "unterminated", json: `[1,[2]`, fails: true},
		{name: "unterminated string", json: `["abc]`, fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &jsonReader{data: []byte(tt.json + ",0")}
			r.skip()
			if tt.fails {
				require.ErrorIs(t, r.err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, r.err)
			require.Equal(t, len(tt.json), r.pos)
		})
	}
	counts := []struct {
		json string
		at   int
		want int
	}{
		{json: `[1,2,3]`, at: 1, want: 2},
		{json: `[1,2,3]`, at: 2, want: 2},
		{json: `[1,2,3]`, at: 5, want: 0},
		{json: `[[1,2],"a,]\",b",{"x":[3,4]},5]`, at: 1, want: 3},
		{json: `[]`, at: 1, want: 0},
	}
	for _, tt := range counts {
		r := &jsonReader{data: []byte(tt.json), pos: tt.at}
		require.Equal(t, tt.want, r.countRest(), "%s at %d", tt.json, tt.at)
		require.Equal(t, tt.at, r.pos)
	}
}

// TestHasSpecialByte checks the eight-byte test of stringRaw against the byte table, for
// every byte value at every position of a word of plain bytes.
func TestHasSpecialByte(t *testing.T) {
	t.Parallel()
	for pos := range 8 {
		for c := range 256 {
			word := []byte("abcdefgh")
			word[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(word[i])
			}
			require.Equal(t, !plainString[c], hasSpecialByte(x), "byte %#x at %d", c, pos)
		}
	}
}

// TestRestoreReservesFrameStack checks the value stack of a restored VM: each frame has the
// room pushFrame reserved for it, so the run goes on without growing the stack under a frame.
func TestRestoreReservesFrameStack(t *testing.T) {
	t.Parallel()
	p, err := Compile("function f(n) { const a = [n, n + 1, n + 2]; return n === 0 ? a.length : f(n - 1) + a[0] } f(30)")
	require.NoError(t, err)
	vm := New(Config{})
	require.NoError(t, vm.Start(p))
	deepest := 0
	for {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: 7})
		require.NoError(t, err)
		if st == StatusDone {
			break
		}
		data, err := vm.Snapshot()
		require.NoError(t, err)
		vm, err = Restore(data, Config{})
		require.NoError(t, err)
		ex := &vm.exec
		deepest = max(deepest, len(ex.frames))
		for _, f := range ex.frames {
			require.GreaterOrEqual(t, len(ex.stack), f.base+frameNeed(f.code))
		}
		require.GreaterOrEqual(t, len(ex.stack), ex.sp)
	}
	require.Greater(t, deepest, 20)
	v, thrown := vm.Result()
	require.False(t, thrown)
	require.Equal(t, 3.0+30*31/2, v.NumberValue())
}

// TestDecodeReferences checks object and record references read on the fast path and off it
// (spaces, other tags), and the ids out of range.
func TestDecodeReferences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		json  string
		obj   int // expected object id, -1 for none
		fails bool
	}{
		{name: "compact", json: `{"#":1}`, obj: 1},
		{name: "spaces", json: `{ "#" : 1 }`, obj: 1},
		{name: "leading zero", json: `{"#":01}`, obj: 1},
		{name: "out of range", json: `{"#":2}`, fails: true},
		{name: "long id", json: `{"#":1234567890123}`, fails: true},
		{name: "not a number", json: `{"#":x}`, fails: true},
		{name: "undefined", json: `{"u":1}`, obj: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := New(Config{}).newHeapDecoder()
			defer d.release()
			d.pool, d.objIntr, d.nObjs = make([]Object, 2), make([]uint32, 2), 2
			objs := d.pool
			d.nodes = []slotCodec{&envRecord{}}
			r := &jsonReader{data: []byte(tt.json + "]")}
			v := d.value(r)
			if tt.fails {
				require.ErrorIs(t, r.err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, r.err)
			require.Equal(t, len(tt.json), r.pos)
			if tt.obj < 0 {
				require.Equal(t, KindUndefined, v.kind)
				return
			}
			require.Same(t, &objs[tt.obj], v.asObject())
		})
	}
	for _, tt := range []struct {
		json  string
		fails bool
	}{{json: `{"@":0}`}, {json: `{ "@": 0 }`}, {json: `{"@":1}`, fails: true}, {json: `null`}} {
		d := New(Config{}).newHeapDecoder()
		d.nodes = []slotCodec{&envRecord{}}
		r := &jsonReader{data: []byte(tt.json + "]")}
		n := d.node(r)
		if tt.fails {
			require.ErrorIs(t, r.err, ErrSnapshotCorrupt, tt.json)
			continue
		}
		require.NoError(t, r.err, tt.json)
		require.Equal(t, len(tt.json), r.pos, tt.json)
		if tt.json == "null" {
			require.Nil(t, n)
		} else {
			require.Same(t, d.nodes[0], n)
		}
		d.release()
	}
}

// TestDecodeRecordOrder checks records that refer to records further on in the list (read
// ahead when met) and back, and references past the end of the list.
func TestDecodeRecordOrder(t *testing.T) {
	t.Parallel()
	heap := func(nodes string) string {
		return `{"syms":[],"intr":[],"n":0,"nodes":[` + nodes + `],"objs":[]}`
	}
	env := func(parent string, slot int) string {
		return `{"t":"env","d":[` + parent + `,[` + strconv.Itoa(slot) + `,"]}[\"{"]]}`
	}
	tests := []struct {
		name    string
		nodes   string
		parents []int // parent record of each record, -1 for none
		fails   bool
	}{
		{name: "forward and back", nodes: env(`{"@":2}`, 0) + "," + env("null", 1) + "," + env(`{"@":3}`, 2) + "," +
			env("null", 3) + "," + env(`{"@":0}`, 4), parents: []int{2, -1, 3, -1, 0}},
		{name: "to the last", nodes: env(`{"@":3}`, 0) + "," + env(`{"@":3}`, 1) + "," + env(`{ "@" : 3 }`, 2) + "," +
			env(`{"@":1}`, 3), parents: []int{3, 3, 3, 1}},
		{name: "to itself", nodes: env(`{"@":0}`, 0), parents: []int{0}},
		{name: "past the end", nodes: env(`{"@":2}`, 0) + "," + env("null", 1), fails: true},
		{name: "into a broken record", nodes: env(`{"@":1}`, 0) + `,{"t":"env","d":[null,[1]}`, fails: true},
		{name: "unknown type ahead", nodes: env(`{"@":1}`, 0) + `,{"t":"nope","d":1}`, fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := New(Config{}).newHeapDecoder()
			err := d.readHeap(&jsonReader{data: []byte(heap(tt.nodes))})
			if tt.fails {
				require.ErrorIs(t, err, ErrSnapshotCorrupt)
				return
			}
			require.NoError(t, err)
			require.Len(t, d.nodes, len(tt.parents))
			for i, want := range tt.parents {
				e := d.nodes[i].(*envRecord)
				require.Len(t, e.slots, 2, "record %d", i)
				require.Equal(t, float64(i), e.slots[0].num, "record %d", i)
				require.Equal(t, `]}["{`, e.slots[1].str().String(), "record %d", i)
				if want < 0 {
					require.Nil(t, e.parent, "record %d", i)
					continue
				}
				require.Same(t, d.nodes[want], e.parent, "record %d", i)
			}
			d.release()
		})
	}
}

// TestJSONReaderGoString checks strings read as Go text: plain, escaped ASCII (a program's
// source) and non-ASCII with a lone surrogate (kept as WTF-8).
func TestJSONReaderGoString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		json string
		want string
	}{
		{json: `"plain"`, want: "plain"},
		{json: `""`, want: ""},
		{json: `"a\nb\t\"c\"\\"`, want: "a\nb\t\"c\"\\"},
		{json: `"é\u00e9"`, want: "éé"},
		{json: `"x\ud800"`, want: "x\xed\xa0\x80"},
	}
	for _, tt := range tests {
		r := &jsonReader{data: []byte(tt.json)}
		require.Equal(t, tt.want, r.goString(), tt.json)
		require.NoError(t, r.err)
		require.Equal(t, len(tt.json), r.pos)
	}
}

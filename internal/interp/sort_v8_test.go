package interp

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The sort tests below run the same generated programs in node and in the interpreter and
// compare, case by case, the sorted array and every comparator call (its arguments, in
// order). Programs depend on V8's exact call sequence whenever the comparator is
// inconsistent or has side effects, so only node can say what the right answer is.

// sortCase is one sort to run: the method, the elements (sortUndefined and sortHole
// encode undefined and holes), the comparator kind (see sortHarness; negative for none),
// its seed, and the number of the call that throws (0 for none).
type sortCase struct {
	M string    `json:"m"`
	E []float64 `json:"e,omitempty"`
	K int       `json:"k"`
	S uint32    `json:"s"`
	T int       `json:"t"`
}

const (
	sortUndefined = -1
	sortHole      = -2
)

// sortHarness runs the cases of the array CASES. Elements are key*1000+index, so that
// stability shows in the result, and the comparators compare keys. Each case yields
// [threw, number of calls, two hashes of the call sequence, the receiver afterwards, the
// result when it is not the receiver, the full call log when asked]. Comparator kinds:
// 0 consistent ascending, 1 a > b, 2 a < b, 3 always -1, 4 always 1, 5 always 0, 6 random,
// 7 consistent with random wrong answers, 8 consistent descending, 9 consistent through NaN,
// numeric strings, fractions and valueOf objects (NaN answers at random); -1 is no
// comparator, -2 no comparator on objects whose toString calls are recorded as (value, 0).
const sortHarness = `
const STOP = {stop: true};
function note(rec, a, b, throwAt) {
  rec.n++;
  rec.h1 = Math.imul(Math.imul(rec.h1 ^ a, 16777619) ^ b, 16777619);
  rec.h2 = (Math.imul(rec.h2, 31) + a * 7 + b) | 0;
  if (rec.log) rec.log.push(a, b);
  if (rec.n === throwAt) throw STOP;
}
function makeCmp(kind, seed, rec, throwAt) {
  let s = (seed >>> 0) || 1;
  const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const key = v => Math.floor(v / 1000);
  return function (a, b) {
    note(rec, a, b, throwAt);
    switch (kind) {
      case 0: return key(a) - key(b);
      case 1: return key(a) > key(b);
      case 2: return key(a) < key(b);
      case 3: return -1;
      case 4: return 1;
      case 5: return 0;
      case 6: return rnd() % 3 - 1;
      case 7: return rnd() % 8 === 0 ? (rnd() % 2 ? 1 : -1) : key(a) - key(b);
      case 8: return key(b) - key(a);
      case 9: {
        const d = key(a) - key(b), r = rnd() % 5;
        return r === 0 ? NaN : r === 1 ? String(d) : r === 2 ? d / 3 : r === 3 ? {valueOf: () => d} : d;
      }
    }
  };
}
function enc(a) {
  const out = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    out.push(!(i in a) ? -2 : x === undefined ? -1 : typeof x === 'object' ? x.v : x);
  }
  return out;
}
function runCase(c, full) {
  c.e = c.a < 0 ? [] : ARRS[c.a];
  const rec = {n: 0, h1: -2128831035, h2: 0, log: full ? [] : null};
  let a;
  if (c.m.startsWith('ta-')) {
    a = Int32Array.from(c.e);
  } else {
    a = [];
    a.length = c.e.length;
    for (let i = 0; i < c.e.length; i++) if (c.e[i] !== -2) a[i] = c.e[i] === -1 ? undefined : c.e[i];
  }
  if (c.k === -2) {
    // no comparator, elements whose string conversion is logged (every third one stays a number)
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (typeof v === 'number' && v % 3 !== 0) a[i] = {v, toString() { note(rec, v, 0, c.t); return String(Math.floor(v / 1000)); }};
    }
  }
  const cmp = c.k < 0 ? undefined : makeCmp(c.k, c.s, rec, c.t);
  let res, threw = false;
  try {
    res = c.m.endsWith('toSorted') ? a.toSorted(cmp) : a.sort(cmp);
  } catch (e) {
    if (e !== STOP) throw e;
    threw = true;
  }
  return [threw, rec.n, rec.h1, rec.h2, enc(a), res === undefined || res === a ? null : enc(res), rec.log];
}
`

// sortOutcome is runCase's answer for one case.
type sortOutcome struct {
	Threw    bool
	Calls    int
	H1, H2   int32
	Receiver []float64
	Result   []float64
	Log      []float64
}

func (o *sortOutcome) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 7 {
		return fmt.Errorf("outcome has %d fields", len(raw))
	}
	for i, dst := range []any{&o.Threw, &o.Calls, &o.H1, &o.H2, &o.Receiver, &o.Result, &o.Log} {
		if err := json.Unmarshal(raw[i], dst); err != nil {
			return err
		}
	}
	return nil
}

// sortProgram is a program whose completion value (printed by node) is the JSON of the
// outcomes of cases, with full call logs when full.
func sortProgram(t *testing.T, cases []sortCase, full, forNode bool) string {
	t.Helper()
	// cases share their element arrays: the program lists each once
	type progCase struct {
		sortCase
		A int `json:"a"`
	}
	var arrs [][]float64
	index := map[*float64]int{}
	js := make([]progCase, len(cases))
	for i, c := range cases {
		c.E = slices.Clip(c.E)
		k := -1
		if len(c.E) > 0 {
			var ok bool
			if k, ok = index[&c.E[0]]; !ok {
				k = len(arrs)
				index[&c.E[0]] = k
				arrs = append(arrs, c.E)
			}
		}
		js[i] = progCase{c, k}
		js[i].E = nil
	}
	data, err := json.Marshal(js)
	require.NoError(t, err)
	arrData, err := json.Marshal(arrs)
	require.NoError(t, err)
	expr := fmt.Sprintf("JSON.stringify(CASES.map(c => runCase(c, %v)))", full)
	if forNode {
		expr = "console.log(" + expr + ")"
	}
	return sortHarness + "const ARRS = " + string(arrData) + ";\nconst CASES = " + string(data) + ";\n" + expr + ";\n"
}

// nodeOrSkip returns the path of node, skipping the test when it is not installed.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the sort call sequences are checked against node (V8) only where it is installed")
	}
	return p
}

// nodeSortOutcomes runs cases in node.
func nodeSortOutcomes(t *testing.T, node string, cases []sortCase, full bool) []sortOutcome {
	t.Helper()
	file := filepath.Join(t.TempDir(), "sort.js")
	require.NoError(t, os.WriteFile(file, []byte(sortProgram(t, cases, full, true)), 0o600))
	out, err := exec.Command(node, file).Output()
	require.NoError(t, err)
	var res []sortOutcome
	require.NoError(t, json.Unmarshal(out, &res))
	require.Len(t, res, len(cases))
	return res
}

// interpSortOutcomes runs cases in the interpreter.
func interpSortOutcomes(t *testing.T, cases []sortCase, full bool) []sortOutcome {
	t.Helper()
	out := evalJS(t, sortProgram(t, cases, full, false))
	var res []sortOutcome
	require.NoError(t, json.Unmarshal([]byte(out), &res), "%.300s", out)
	require.Len(t, res, len(cases))
	return res
}

// sortKeys returns n keys in one of the patterns the sorts are tried on.
func sortKeys(rng *rand.Rand, pattern string, n int) []int {
	keys := make([]int, n)
	if n == 0 {
		return keys
	}
	switch pattern {
	case "random", "undefined":
		for i := range keys {
			keys[i] = rng.IntN(4*n + 1)
		}
	case "few":
		for i := range keys {
			keys[i] = rng.IntN(4)
		}
	case "equal":
	case "sorted":
		for i := range keys {
			keys[i] = i
		}
	case "reversed":
		for i := range keys {
			keys[i] = n - i
		}
	case "sorted_last_low":
		for i := range keys {
			keys[i] = i + 1
		}
		keys[n-1] = 0
	case "sorted_dups":
		for i := range keys {
			keys[i] = i / 3
		}
	case "nearly_sorted":
		for i := range keys {
			keys[i] = i
		}
		for range 1 + n/50 {
			i, j := rng.IntN(n), rng.IntN(n)
			keys[i], keys[j] = keys[j], keys[i]
		}
	case "runs":
		for i := 0; i < n; {
			l := min(n-i, 1+rng.IntN(90))
			base, desc := rng.IntN(2*n+1), rng.IntN(3) == 0
			for j := range l {
				if desc {
					keys[i+j] = base + l - j
				} else {
					keys[i+j] = base + j
				}
			}
			i += l
		}
	case "organ":
		for i := range keys {
			keys[i] = min(i, n-i)
		}
	case "sawtooth":
		for i := range keys {
			keys[i] = i % 37
		}
	default:
		panic(pattern)
	}
	return keys
}

var (
	sortLengths  = []int{0, 1, 2, 3, 4, 7, 10, 16, 31, 32, 33, 63, 64, 65, 66, 96, 100, 127, 128, 129, 150, 200, 255, 256, 257, 300, 383, 400, 500, 511, 512, 513, 600}
	sortPatterns = []string{"random", "few", "equal", "sorted", "reversed", "sorted_last_low", "sorted_dups", "nearly_sorted", "runs", "organ", "sawtooth", "undefined"}
)

// sortComparatorKinds is the number of comparator kinds of sortHarness.
const sortComparatorKinds = 10

// genSortCases returns the cases for the methods given: every comparator kind on every
// length and pattern, plus (for the Array methods) the default order, plus a comparator
// that throws part way. typed leaves out the undefined pattern (typed arrays hold numbers).
func genSortCases(seed uint64, methods []string, typed bool) []sortCase {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var cases []sortCase
	for _, n := range sortLengths {
		for _, p := range sortPatterns {
			if typed && p == "undefined" {
				continue
			}
			keys := sortKeys(rng, p, n)
			elems := make([]float64, n)
			for i, k := range keys {
				elems[i] = float64(k*1000 + i)
				if p == "undefined" {
					switch r := rng.IntN(20); {
					case r < 2:
						elems[i] = sortUndefined
					case r == 2:
						elems[i] = sortHole
					}
				}
			}
			method := func() string { return methods[rng.IntN(len(methods))] }
			for k := range sortComparatorKinds {
				cases = append(cases, sortCase{M: method(), E: elems, K: k, S: rng.Uint32()})
			}
			if !typed {
				cases = append(cases, sortCase{M: method(), E: elems, K: -1}, sortCase{M: method(), E: elems, K: -2})
				if n >= 2 {
					cases = append(cases, sortCase{M: method(), E: elems, K: -2, T: 1 + rng.IntN(2*n*bitsLen(n))})
				}
			}
			if n >= 2 {
				limit := n * (bitsLen(n) + 1)
				kind := []int{0, 1, 6, 7}[rng.IntN(4)]
				cases = append(cases, sortCase{M: method(), E: elems, K: kind, S: rng.Uint32(), T: 1 + rng.IntN(limit)})
			}
		}
	}
	return cases
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// compareSortOutcomes fails for each case where got differs from node's want; for a
// differing call sequence it reruns the case with full logs in both to show where the
// calls part.
func compareSortOutcomes(t *testing.T, cases []sortCase, want, got []sortOutcome, rerun func(sortCase) (want, got sortOutcome)) {
	t.Helper()
	failures := 0
	for i, c := range cases {
		w, g := want[i], got[i]
		sameCalls := w.Calls == g.Calls && w.H1 == g.H1 && w.H2 == g.H2 && w.Threw == g.Threw
		if sameCalls && slices.Equal(w.Receiver, g.Receiver) && slices.Equal(w.Result, g.Result) {
			continue
		}
		failures++
		if failures > 5 {
			continue
		}
		desc := fmt.Sprintf("case %d: %s of %d elements, comparator %d (seed %d, throws at call %d)", i, c.M, len(c.E), c.K, c.S, c.T)
		if !sameCalls {
			fw, fg := rerun(c)
			j := 0
			for j < len(fw.Log) && j < len(fg.Log) && fw.Log[j] == fg.Log[j] {
				j++
			}
			j &^= 1
			t.Errorf("%s: comparator calls differ from node's at call %d: node %v, interp %v (node made %d calls, interp %d)",
				desc, j/2+1, fw.Log[j:min(j+6, len(fw.Log))], fg.Log[j:min(j+6, len(fg.Log))], w.Calls, g.Calls)
			continue
		}
		t.Errorf("%s: same calls, different arrays:\nnode   %v %v\ninterp %v %v", desc, w.Receiver, w.Result, g.Receiver, g.Result)
	}
	if failures > 5 {
		t.Errorf("%d of %d cases differ in all", failures, len(cases))
	}
}

// countSortCalls sums the comparator calls of outcomes.
func countSortCalls(outs []sortOutcome) int {
	n := 0
	for _, o := range outs {
		n += o.Calls
	}
	return n
}

// TestArraySortMatchesNode checks Array.prototype.sort and toSorted against node on
// thousands of arrays, with consistent, inconsistent, random, throwing and absent
// comparators: same arrays afterwards, same comparator calls in the same order.
func TestArraySortMatchesNode(t *testing.T) {
	t.Parallel()
	node := nodeOrSkip(t)
	cases := genSortCases(1, []string{"sort", "toSorted"}, false)
	want := nodeSortOutcomes(t, node, cases, false)
	got := interpSortOutcomes(t, cases, false)
	compareSortOutcomes(t, cases, want, got, func(c sortCase) (sortOutcome, sortOutcome) {
		one := []sortCase{c}
		return nodeSortOutcomes(t, node, one, true)[0], interpSortOutcomes(t, one, true)[0]
	})
	threw := 0
	for _, o := range want {
		if o.Threw {
			threw++
		}
	}
	t.Logf("%d cases, %d comparator calls, %d comparators threw", len(cases), countSortCalls(want), threw)
}

// TestTypedArraySortMatchesNode checks %TypedArray%.prototype.sort and toSorted against
// node like TestArraySortMatchesNode does for arrays.
func TestTypedArraySortMatchesNode(t *testing.T) {
	t.Parallel()
	node := nodeOrSkip(t)
	cases := genSortCases(2, []string{"ta-sort", "ta-toSorted"}, true)
	want := nodeSortOutcomes(t, node, cases, false)
	got := interpSortOutcomes(t, cases, false)
	compareSortOutcomes(t, cases, want, got, func(c sortCase) (sortOutcome, sortOutcome) {
		one := []sortCase{c}
		return nodeSortOutcomes(t, node, one, true)[0], interpSortOutcomes(t, one, true)[0]
	})
	t.Logf("%d cases, %d comparator calls", len(cases), countSortCalls(want))
}

// v8SortSign is SortCompare's sign for the answer r of a comparator of sortHarness.
func v8SortSign(r float64) int {
	switch {
	case r < 0:
		return -1
	case r > 0:
		return 1
	}
	return 0 // also NaN
}

// goSortComparator is sortHarness's comparator kind in Go, recording calls as it does, for
// testing the sorts without the interpreter. It panics with errSortStop on the throwing call.
func goSortComparator(c sortCase, out *sortOutcome, full bool) func(a, b float64) int {
	s := c.S
	if s == 0 {
		s = 1
	}
	rnd := func() uint32 {
		s ^= s << 13
		s ^= s >> 17
		s ^= s << 5
		return s
	}
	key := func(v float64) float64 { return math.Floor(v / 1000) }
	h1 := uint32(2166136261)
	var h2 uint32
	out.H1 = int32(h1)
	return func(a, b float64) int {
		out.Calls++
		h1 = ((h1^uint32(int32(a)))*16777619 ^ uint32(int32(b))) * 16777619
		h2 = h2*31 + uint32(int64(a*7+b))
		out.H1, out.H2 = int32(h1), int32(h2)
		if full {
			out.Log = append(out.Log, a, b)
		}
		if out.Calls == c.T {
			panic(errSortStop)
		}
		d := key(a) - key(b)
		switch c.K {
		case 0:
			return v8SortSign(d)
		case 1:
			return min(1, max(0, v8SortSign(d)))
		case 2:
			return min(1, max(0, -v8SortSign(d)))
		case 3:
			return -1
		case 4:
			return 1
		case 5:
			return 0
		case 6:
			return int(rnd()%3) - 1
		case 7:
			if rnd()%8 == 0 {
				if rnd()%2 != 0 {
					return 1
				}
				return -1
			}
			return v8SortSign(d)
		case 8:
			return -v8SortSign(d)
		case 9:
			if rnd()%5 == 0 {
				return 0
			}
			return v8SortSign(d)
		}
		panic(c.K)
	}
}

var errSortStop = fmt.Errorf("comparator stopped")

// goSortOutcome sorts c's elements (numbers only) with sort and goSortComparator like
// runCase does for a typed array.
func goSortOutcome(c sortCase, full bool, sort func(a []float64, cmp func(x, y float64) int)) (out sortOutcome) {
	a := slices.Clone(c.E)
	work := slices.Clone(a)
	defer func() {
		if r := recover(); r != nil {
			if r != errSortStop {
				panic(r)
			}
			out.Threw = true
			out.Receiver = a
		}
	}()
	sort(work, goSortComparator(c, &out, full))
	if strings.HasSuffix(c.M, "toSorted") {
		out.Receiver, out.Result = a, work
	} else {
		out.Receiver = work
	}
	return out
}

// TestV8TypedArrayMergeSortMatchesNode checks v8TypedArrayMergeSort against
// %TypedArray%.prototype.sort and toSorted in node, with the comparators of sortHarness
// written in Go.
func TestV8TypedArrayMergeSortMatchesNode(t *testing.T) {
	t.Parallel()
	node := nodeOrSkip(t)
	cases := genSortCases(2, []string{"ta-sort", "ta-toSorted"}, true)
	want := nodeSortOutcomes(t, node, cases, false)
	got := make([]sortOutcome, len(cases))
	for i, c := range cases {
		got[i] = goSortOutcome(c, false, v8TypedArrayMergeSort[float64])
	}
	compareSortOutcomes(t, cases, want, got, func(c sortCase) (sortOutcome, sortOutcome) {
		return nodeSortOutcomes(t, node, []sortCase{c}, true)[0], goSortOutcome(c, true, v8TypedArrayMergeSort[float64])
	})
	t.Logf("%d cases, %d comparator calls", len(cases), countSortCalls(want))
}

// TestV8TimSortSurvivesInconsistentComparators sorts long slices with random and mostly
// consistent comparators: TimSort must stay within bounds and produce a permutation of its
// input whatever the comparator answers, and with a consistent one agree with a stable sort.
func TestV8TimSortSurvivesInconsistentComparators(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{65, 200, 1000, 5000, 20000} {
		for _, noise := range []int{0, 2, 10, 100} {
			type item struct{ key, pos int }
			in := make([]item, n)
			for i := range in {
				in[i] = item{rng.IntN(n/4 + 1), i}
				if rng.IntN(3) == 0 && i > 0 {
					in[i].key = in[i-1].key + 1 // runs, for galloping
				}
			}
			got := slices.Clone(in)
			v8TimSort(got, func(x, y item) int {
				if noise > 0 && rng.IntN(noise) == 0 {
					return rng.IntN(3) - 1
				}
				return x.key - y.key
			})
			sortByPos := func(s []item) []item {
				s = slices.Clone(s)
				slices.SortFunc(s, func(x, y item) int { return x.pos - y.pos })
				return s
			}
			require.Equal(t, in, sortByPos(got), "n=%d noise=%d: not a permutation", n, noise)
			if noise == 0 {
				want := slices.Clone(in)
				slices.SortStableFunc(want, func(x, y item) int { return x.key - y.key })
				require.Equal(t, want, got, "n=%d", n)
			}
		}
	}
}

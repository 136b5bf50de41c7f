package jsmath

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// v8Case is one line of testdata/v8.txt.gz: a function, its arguments and V8's result.
type v8Case struct {
	name string
	args []float64
	want float64
}

// loadV8Cases reads testdata/v8.txt.gz (see testdata/gen.js).
func loadV8Cases(t testing.TB) []v8Case {
	f, err := os.Open("testdata/v8.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []v8Case
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			t.Fatalf("bad line %q", sc.Text())
		}
		nums := make([]float64, len(fields)-1)
		for i, h := range fields[1:] {
			b, err := strconv.ParseUint(h, 16, 64)
			if err != nil {
				t.Fatalf("bad line %q: %v", sc.Text(), err)
			}
			nums[i] = math.Float64frombits(b)
		}
		cases = append(cases, v8Case{fields[0], nums[:len(nums)-1], nums[len(nums)-1]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// impl is an implementation of the functions in the test data, by name.
type impl map[string]func(args []float64) float64

func unary(f func(float64) float64) func([]float64) float64 {
	return func(a []float64) float64 { return f(a[0]) }
}

func binary(f func(float64, float64) float64) func([]float64) float64 {
	return func(a []float64) float64 { return f(a[0], a[1]) }
}

// jsmathImpl is this package.
var jsmathImpl = impl{
	"sin": unary(Sin), "cos": unary(Cos), "tan": unary(Tan),
	"asin": unary(Asin), "acos": unary(Acos), "atan": unary(Atan), "atan2": binary(Atan2),
	"exp": unary(Exp), "expm1": unary(Expm1),
	"log": unary(Log), "log1p": unary(Log1p), "log2": unary(Log2), "log10": unary(Log10),
	"sinh": unary(Sinh), "cosh": unary(Cosh), "tanh": unary(Tanh),
	"asinh": unary(Asinh), "acosh": unary(Acosh), "atanh": unary(Atanh),
	"cbrt": unary(Cbrt), "pow": binary(Pow),
	// Go's math already computes these as V8 does; the data checks that it stays so.
	"sqrt":   unary(math.Sqrt),
	"fround": unary(func(x float64) float64 { return float64(float32(x)) }),
	"hypot":  func(a []float64) float64 { return Hypot(a...) },
}

// sameFloat reports whether a and b have the same bits, or are both NaN (V8 does not
// preserve NaN payloads and neither does the interpreter).
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

// mismatches counts, per function, the cases where im differs from V8 and how many cases
// there are, and describes the first few differences.
func mismatches(cases []v8Case, im impl) (bad, total map[string]int, examples []string) {
	bad, total = map[string]int{}, map[string]int{}
	for _, c := range cases {
		f := im[c.name]
		if f == nil {
			continue
		}
		total[c.name]++
		if got := f(c.args); !sameFloat(got, c.want) {
			bad[c.name]++
			if bad[c.name] <= 5 {
				examples = append(examples, fmt.Sprintf("%s%v = %v (%#016x), V8 gives %v (%#016x)",
					c.name, c.args, got, math.Float64bits(got), c.want, math.Float64bits(c.want)))
			}
		}
	}
	return bad, total, examples
}

// TestV8 compares every result of the package with V8's, bit for bit.
func TestV8(t *testing.T) {
	cases := loadV8Cases(t)
	bad, total, examples := mismatches(cases, jsmathImpl)
	for _, e := range examples {
		t.Error(e)
	}
	for name, n := range total {
		if bad[name] > 0 {
			t.Errorf("%s: %d of %d results differ from V8", name, bad[name], n)
		}
	}
	for _, c := range cases {
		if jsmathImpl[c.name] == nil {
			t.Fatalf("no implementation of %s", c.name)
		}
	}
}

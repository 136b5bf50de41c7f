package numconv

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// negZero is -0; the tables below compare bits so the sign of zero is checked.
var negZero = math.Copysign(0, -1)

// requireSameNumber asserts that got is want, treating NaN as equal to NaN and -0 as distinct.
func requireSameNumber(t *testing.T, want, got float64) {
	t.Helper()
	if math.IsNaN(want) {
		require.True(t, math.IsNaN(got), "want NaN, got %v", got)
		return
	}
	require.Equal(t, math.Float64bits(want), math.Float64bits(got), "want %v, got %v", want, got)
}

// The expectations of these tables were produced by node 20 (Number(s), parseFloat(s),
// parseInt(s, radix)).

func TestParseNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want float64
	}{
		{name: "\"\"", in: "", want: 0},
		{name: "\" \"", in: " ", want: 0},
		{name: "\"  12  \"", in: "  12  ", want: 12},
		{name: "\"\u00a0\ufeff\u2028\u3000 42 \\n\\t\"", in: "\u00a0\ufeff\u2028\u3000 42 \n\t", want: 42},
		{name: "\"1e3\"", in: "1e3", want: 1000},
		{name: "\"1E+3\"", in: "1E+3", want: 1000},
		{name: "\"-1e-3\"", in: "-1e-3", want: -0.001},
		{name: "\".5\"", in: ".5", want: 0.5},
		{name: "\"5.\"", in: "5.", want: 5},
		{name: "\"+.5\"", in: "+.5", want: 0.5},
		{name: "\"-.5e1\"", in: "-.5e1", want: -5},
		{name: "\".\"", in: ".", want: math.NaN()},
		{name: "\"+\"", in: "+", want: math.NaN()},
		{name: "\"-\"", in: "-", want: math.NaN()},
		{name: "\"e5\"", in: "e5", want: math.NaN()},
		{name: "\"1e\"", in: "1e", want: math.NaN()},
		{name: "\"1e+\"", in: "1e+", want: math.NaN()},
		{name: "\"0x1F\"", in: "0x1F", want: 31},
		{name: "\"0X1f\"", in: "0X1f", want: 31},
		{name: "\"-0x10\"", in: "-0x10", want: math.NaN()},
		{name: "\"+0x10\"", in: "+0x10", want: math.NaN()},
		{name: "\"0x\"", in: "0x", want: math.NaN()},
		{name: "\"0b101\"", in: "0b101", want: 5},
		{name: "\"0B2\"", in: "0B2", want: math.NaN()},
		{name: "\"0o17\"", in: "0o17", want: 15},
		{name: "\"0o8\"", in: "0o8", want: math.NaN()},
		{name: "\"Infinity\"", in: "Infinity", want: math.Inf(1)},
		{name: "\"-Infinity\"", in: "-Infinity", want: math.Inf(-1)},
		{name: "\"+Infinity\"", in: "+Infinity", want: math.Inf(1)},
		{name: "\"infinity\"", in: "infinity", want: math.NaN()},
		{name: "\"inf\"", in: "inf", want: math.NaN()},
		{name: "\"NaN\"", in: "NaN", want: math.NaN()},
		{name: "\"1_000\"", in: "1_000", want: math.NaN()},
		{name: "\"1,000\"", in: "1,000", want: math.NaN()},
		{name: "\"12abc\"", in: "12abc", want: math.NaN()},
		{name: "\"0x1.8p1\"", in: "0x1.8p1", want: math.NaN()},
		{name: "\"00012\"", in: "00012", want: 12},
		{name: "\"-0\"", in: "-0", want: negZero},
		{name: "\"0.0000001\"", in: "0.0000001", want: 1e-7},
		{name: "\"1.7976931348623159e308\"", in: "1.7976931348623159e308", want: math.Inf(1)},
		{name: "\"2e308\"", in: "2e308", want: math.Inf(1)},
		{name: "\"1e-400\"", in: "1e-400", want: 0},
		{name: "\"4.9e-324\"", in: "4.9e-324", want: 5e-324},
		{name: "\"2.4703282292062328e-324\"", in: "2.4703282292062328e-324", want: 5e-324},
		{name: "\"0x1fffffffffffff1\"", in: "0x1fffffffffffff1", want: 144115188075855860},
		{name: "\"0x20000000000001\"", in: "0x20000000000001", want: 9007199254740992},
		{name: "\"0x20000000000003\"", in: "0x20000000000003", want: 9007199254740996},
		{name: "\"123456789012345678901234567890\"", in: "123456789012345678901234567890", want: 1.2345678901234568e+29},
		{name: "\"\u20001\u200a\"", in: "\u20001\u200a", want: 1},
		{name: "\"\u180e1\"", in: "\u180e1", want: math.NaN()},
		{name: "\"1\u0085\"", in: "1\u0085", want: math.NaN()},
		{name: "\" 0b11 \"", in: " 0b11 ", want: 3},
		{name: "\"0.1e-0\"", in: "0.1e-0", want: 0.1},
		{name: "\"1ee3\"", in: "1ee3", want: math.NaN()},
		{name: "\"--1\"", in: "--1", want: math.NaN()},
		{name: "\"9007199254740993\"", in: "9007199254740993", want: 9007199254740992},
		{name: "\"0.30000000000000004\"", in: "0.30000000000000004", want: 0.30000000000000004},
		{name: "\"1.\"", in: "1.", want: 1},
		{name: "\"00x1\"", in: "00x1", want: math.NaN()},
		{name: "\"3.14abc\"", in: "3.14abc", want: math.NaN()},
		{name: "\"  -.5x\"", in: "  -.5x", want: math.NaN()},
		{name: "\"Infinityx\"", in: "Infinityx", want: math.NaN()},
		{name: "\"-Infinit\"", in: "-Infinit", want: math.NaN()},
		{name: "\"1e1000\"", in: "1e1000", want: math.Inf(1)},
		{name: "\"-1e-1000\"", in: "-1e-1000", want: negZero},
		{name: "\".e1\"", in: ".e1", want: math.NaN()},
		{name: "\"0e0\"", in: "0e0", want: 0},
		{name: "\"0.e-5\"", in: "0.e-5", want: 0},
		{name: "\"\u0661\u0662\"", in: "\u0661\u0662", want: math.NaN()},
		{name: "\"1\u00a0\"", in: "1\u00a0", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSameNumber(t, tt.want, ParseNumber(tt.in))
		})
	}
}

func TestParseFloatPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want float64
	}{
		{name: "\"\"", in: "", want: math.NaN()},
		{name: "\" \"", in: " ", want: math.NaN()},
		{name: "\"  12  \"", in: "  12  ", want: 12},
		{name: "\"\u00a0\ufeff\u2028\u3000 42 \\n\\t\"", in: "\u00a0\ufeff\u2028\u3000 42 \n\t", want: 42},
		{name: "\"1e3\"", in: "1e3", want: 1000},
		{name: "\"1E+3\"", in: "1E+3", want: 1000},
		{name: "\"-1e-3\"", in: "-1e-3", want: -0.001},
		{name: "\".5\"", in: ".5", want: 0.5},
		{name: "\"5.\"", in: "5.", want: 5},
		{name: "\"+.5\"", in: "+.5", want: 0.5},
		{name: "\"-.5e1\"", in: "-.5e1", want: -5},
		{name: "\".\"", in: ".", want: math.NaN()},
		{name: "\"+\"", in: "+", want: math.NaN()},
		{name: "\"-\"", in: "-", want: math.NaN()},
		{name: "\"e5\"", in: "e5", want: math.NaN()},
		{name: "\"1e\"", in: "1e", want: 1},
		{name: "\"1e+\"", in: "1e+", want: 1},
		{name: "\"0x1F\"", in: "0x1F", want: 0},
		{name: "\"0X1f\"", in: "0X1f", want: 0},
		{name: "\"-0x10\"", in: "-0x10", want: negZero},
		{name: "\"+0x10\"", in: "+0x10", want: 0},
		{name: "\"0x\"", in: "0x", want: 0},
		{name: "\"0b101\"", in: "0b101", want: 0},
		{name: "\"0B2\"", in: "0B2", want: 0},
		{name: "\"0o17\"", in: "0o17", want: 0},
		{name: "\"0o8\"", in: "0o8", want: 0},
		{name: "\"Infinity\"", in: "Infinity", want: math.Inf(1)},
		{name: "\"-Infinity\"", in: "-Infinity", want: math.Inf(-1)},
		{name: "\"+Infinity\"", in: "+Infinity", want: math.Inf(1)},
		{name: "\"infinity\"", in: "infinity", want: math.NaN()},
		{name: "\"inf\"", in: "inf", want: math.NaN()},
		{name: "\"NaN\"", in: "NaN", want: math.NaN()},
		{name: "\"1_000\"", in: "1_000", want: 1},
		{name: "\"1,000\"", in: "1,000", want: 1},
		{name: "\"12abc\"", in: "12abc", want: 12},
		{name: "\"0x1.8p1\"", in: "0x1.8p1", want: 0},
		{name: "\"00012\"", in: "00012", want: 12},
		{name: "\"-0\"", in: "-0", want: negZero},
		{name: "\"0.0000001\"", in: "0.0000001", want: 1e-7},
		{name: "\"1.7976931348623159e308\"", in: "1.7976931348623159e308", want: math.Inf(1)},
		{name: "\"2e308\"", in: "2e308", want: math.Inf(1)},
		{name: "\"1e-400\"", in: "1e-400", want: 0},
		{name: "\"4.9e-324\"", in: "4.9e-324", want: 5e-324},
		{name: "\"2.4703282292062328e-324\"", in: "2.4703282292062328e-324", want: 5e-324},
		{name: "\"0x1fffffffffffff1\"", in: "0x1fffffffffffff1", want: 0},
		{name: "\"0x20000000000001\"", in: "0x20000000000001", want: 0},
		{name: "\"0x20000000000003\"", in: "0x20000000000003", want: 0},
		{name: "\"123456789012345678901234567890\"", in: "123456789012345678901234567890", want: 1.2345678901234568e+29},
		{name: "\"\u20001\u200a\"", in: "\u20001\u200a", want: 1},
		{name: "\"\u180e1\"", in: "\u180e1", want: math.NaN()},
		{name: "\"1\u0085\"", in: "1\u0085", want: 1},
		{name: "\" 0b11 \"", in: " 0b11 ", want: 0},
		{name: "\"0.1e-0\"", in: "0.1e-0", want: 0.1},
		{name: "\"1ee3\"", in: "1ee3", want: 1},
		{name: "\"--1\"", in: "--1", want: math.NaN()},
		{name: "\"9007199254740993\"", in: "9007199254740993", want: 9007199254740992},
		{name: "\"0.30000000000000004\"", in: "0.30000000000000004", want: 0.30000000000000004},
		{name: "\"1.\"", in: "1.", want: 1},
		{name: "\"00x1\"", in: "00x1", want: 0},
		{name: "\"3.14abc\"", in: "3.14abc", want: 3.14},
		{name: "\"  -.5x\"", in: "  -.5x", want: -0.5},
		{name: "\"Infinityx\"", in: "Infinityx", want: math.Inf(1)},
		{name: "\"-Infinit\"", in: "-Infinit", want: math.NaN()},
		{name: "\"1e1000\"", in: "1e1000", want: math.Inf(1)},
		{name: "\"-1e-1000\"", in: "-1e-1000", want: negZero},
		{name: "\".e1\"", in: ".e1", want: math.NaN()},
		{name: "\"0e0\"", in: "0e0", want: 0},
		{name: "\"0.e-5\"", in: "0.e-5", want: 0},
		{name: "\"\u0661\u0662\"", in: "\u0661\u0662", want: math.NaN()},
		{name: "\"1\u00a0\"", in: "1\u00a0", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSameNumber(t, tt.want, ParseFloatPrefix(tt.in))
		})
	}
}

func TestParseIntRadix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		radix int
		want  float64
	}{
		{name: "\"\"/0", in: "", radix: 0, want: math.NaN()},
		{name: "\" \"/0", in: " ", radix: 0, want: math.NaN()},
		{name: "\"  12  \"/0", in: "  12  ", radix: 0, want: 12},
		{name: "\"\u00a0\ufeff\u2028\u3000 42 \\n\\t\"/0", in: "\u00a0\ufeff\u2028\u3000 42 \n\t", radix: 0, want: 42},
		{name: "\"1e3\"/0", in: "1e3", radix: 0, want: 1},
		{name: "\"1E+3\"/0", in: "1E+3", radix: 0, want: 1},
		{name: "\"-1e-3\"/0", in: "-1e-3", radix: 0, want: -1},
		{name: "\".5\"/0", in: ".5", radix: 0, want: math.NaN()},
		{name: "\"5.\"/0", in: "5.", radix: 0, want: 5},
		{name: "\"+.5\"/0", in: "+.5", radix: 0, want: math.NaN()},
		{name: "\"-.5e1\"/0", in: "-.5e1", radix: 0, want: math.NaN()},
		{name: "\".\"/0", in: ".", radix: 0, want: math.NaN()},
		{name: "\"+\"/0", in: "+", radix: 0, want: math.NaN()},
		{name: "\"-\"/0", in: "-", radix: 0, want: math.NaN()},
		{name: "\"e5\"/0", in: "e5", radix: 0, want: math.NaN()},
		{name: "\"1e\"/0", in: "1e", radix: 0, want: 1},
		{name: "\"1e+\"/0", in: "1e+", radix: 0, want: 1},
		{name: "\"0x1F\"/0", in: "0x1F", radix: 0, want: 31},
		{name: "\"0X1f\"/0", in: "0X1f", radix: 0, want: 31},
		{name: "\"-0x10\"/0", in: "-0x10", radix: 0, want: -16},
		{name: "\"+0x10\"/0", in: "+0x10", radix: 0, want: 16},
		{name: "\"0x\"/0", in: "0x", radix: 0, want: math.NaN()},
		{name: "\"0b101\"/0", in: "0b101", radix: 0, want: 0},
		{name: "\"0B2\"/0", in: "0B2", radix: 0, want: 0},
		{name: "\"0o17\"/0", in: "0o17", radix: 0, want: 0},
		{name: "\"0o8\"/0", in: "0o8", radix: 0, want: 0},
		{name: "\"Infinity\"/0", in: "Infinity", radix: 0, want: math.NaN()},
		{name: "\"-Infinity\"/0", in: "-Infinity", radix: 0, want: math.NaN()},
		{name: "\"+Infinity\"/0", in: "+Infinity", radix: 0, want: math.NaN()},
		{name: "\"infinity\"/0", in: "infinity", radix: 0, want: math.NaN()},
		{name: "\"inf\"/0", in: "inf", radix: 0, want: math.NaN()},
		{name: "\"NaN\"/0", in: "NaN", radix: 0, want: math.NaN()},
		{name: "\"1_000\"/0", in: "1_000", radix: 0, want: 1},
		{name: "\"1,000\"/0", in: "1,000", radix: 0, want: 1},
		{name: "\"12abc\"/0", in: "12abc", radix: 0, want: 12},
		{name: "\"0x1.8p1\"/0", in: "0x1.8p1", radix: 0, want: 1},
		{name: "\"00012\"/0", in: "00012", radix: 0, want: 12},
		{name: "\"-0\"/0", in: "-0", radix: 0, want: negZero},
		{name: "\"0.0000001\"/0", in: "0.0000001", radix: 0, want: 0},
		{name: "\"1.7976931348623159e308\"/0", in: "1.7976931348623159e308", radix: 0, want: 1},
		{name: "\"2e308\"/0", in: "2e308", radix: 0, want: 2},
		{name: "\"1e-400\"/0", in: "1e-400", radix: 0, want: 1},
		{name: "\"4.9e-324\"/0", in: "4.9e-324", radix: 0, want: 4},
		{name: "\"2.4703282292062328e-324\"/0", in: "2.4703282292062328e-324", radix: 0, want: 2},
		{name: "\"0x1fffffffffffff1\"/0", in: "0x1fffffffffffff1", radix: 0, want: 144115188075855860},
		{name: "\"0x20000000000001\"/0", in: "0x20000000000001", radix: 0, want: 9007199254740992},
		{name: "\"0x20000000000003\"/0", in: "0x20000000000003", radix: 0, want: 9007199254740996},
		{name: "\"123456789012345678901234567890\"/0", in: "123456789012345678901234567890", radix: 0, want: 1.2345678901234568e+29},
		{name: "\"\u20001\u200a\"/0", in: "\u20001\u200a", radix: 0, want: 1},
		{name: "\"\u180e1\"/0", in: "\u180e1", radix: 0, want: math.NaN()},
		{name: "\"1\u0085\"/0", in: "1\u0085", radix: 0, want: 1},
		{name: "\" 0b11 \"/0", in: " 0b11 ", radix: 0, want: 0},
		{name: "\"0.1e-0\"/0", in: "0.1e-0", radix: 0, want: 0},
		{name: "\"1ee3\"/0", in: "1ee3", radix: 0, want: 1},
		{name: "\"--1\"/0", in: "--1", radix: 0, want: math.NaN()},
		{name: "\"9007199254740993\"/0", in: "9007199254740993", radix: 0, want: 9007199254740992},
		{name: "\"0.30000000000000004\"/0", in: "0.30000000000000004", radix: 0, want: 0},
		{name: "\"1.\"/0", in: "1.", radix: 0, want: 1},
		{name: "\"00x1\"/0", in: "00x1", radix: 0, want: 0},
		{name: "\"3.14abc\"/0", in: "3.14abc", radix: 0, want: 3},
		{name: "\"  -.5x\"/0", in: "  -.5x", radix: 0, want: math.NaN()},
		{name: "\"Infinityx\"/0", in: "Infinityx", radix: 0, want: math.NaN()},
		{name: "\"-Infinit\"/0", in: "-Infinit", radix: 0, want: math.NaN()},
		{name: "\"1e1000\"/0", in: "1e1000", radix: 0, want: 1},
		{name: "\"-1e-1000\"/0", in: "-1e-1000", radix: 0, want: -1},
		{name: "\".e1\"/0", in: ".e1", radix: 0, want: math.NaN()},
		{name: "\"0e0\"/0", in: "0e0", radix: 0, want: 0},
		{name: "\"0.e-5\"/0", in: "0.e-5", radix: 0, want: 0},
		{name: "\"\u0661\u0662\"/0", in: "\u0661\u0662", radix: 0, want: math.NaN()},
		{name: "\"1\u00a0\"/0", in: "1\u00a0", radix: 0, want: 1},
		{name: "\"0x1F\"/16", in: "0x1F", radix: 16, want: 31},
		{name: "\"0x1F\"/0", in: "0x1F", radix: 0, want: 31},
		{name: "\"0x1F\"/10", in: "0x1F", radix: 10, want: 0},
		{name: "\"1F\"/16", in: "1F", radix: 16, want: 31},
		{name: "\"zz\"/36", in: "zz", radix: 36, want: 1295},
		{name: "\"ZZ\"/36", in: "ZZ", radix: 36, want: 1295},
		{name: "\"101\"/2", in: "101", radix: 2, want: 5},
		{name: "\"102\"/2", in: "102", radix: 2, want: 2},
		{name: "\"777\"/8", in: "777", radix: 8, want: 511},
		{name: "\"8\"/8", in: "8", radix: 8, want: math.NaN()},
		{name: "\"  -ff\"/16", in: "  -ff", radix: 16, want: -255},
		{name: "\"12\"/1", in: "12", radix: 1, want: math.NaN()},
		{name: "\"12\"/37", in: "12", radix: 37, want: math.NaN()},
		{name: "\"12\"/-1", in: "12", radix: -1, want: math.NaN()},
		{name: "\"123456789012345678901234567890\"/10", in: "123456789012345678901234567890", radix: 10, want: 1.2345678901234568e+29},
		{name: "\"123456789012345678901234567890\"/7", in: "123456789012345678901234567890", radix: 7, want: 22875},
		{name: "\"zzzzzzzzzzzzzzzzzzzz\"/36", in: "zzzzzzzzzzzzzzzzzzzz", radix: 36, want: 1.3367494538843734e+31},
		{name: "\"fffffffffffffffffff\"/16", in: "fffffffffffffffffff", radix: 16, want: 7.555786372591432e+22},
		{name: "\"111111111111111111111111111111111111111/2", in: "1111111111111111111111111111111111111111111111111111111111111111111111", radix: 2, want: 1.1805916207174113e+21},
		{name: "\"111111111111111111111111111111111111111/3", in: "11111111111111111111111111111111111111111111111111111111", radix: 3, want: 2.616738165136803e+26},
		{name: "\"0.5\"/10", in: "0.5", radix: 10, want: 0},
		{name: "\"1e3\"/10", in: "1e3", radix: 10, want: 1},
		{name: "\"-0\"/10", in: "-0", radix: 10, want: negZero},
		{name: "\"0x\"/16", in: "0x", radix: 16, want: math.NaN()},
		{name: "\"\"/10", in: "", radix: 10, want: math.NaN()},
		{name: "\"+\"/10", in: "+", radix: 10, want: math.NaN()},
		{name: "\"999999999999999999999999999999999999999/10", in: "9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999", radix: 10, want: math.Inf(1)},
		{name: "\"000000000000000000000000000000000000000/10", in: "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007", radix: 10, want: 7},
		{name: "\"0b11\"/0", in: "0b11", radix: 0, want: 0},
		{name: "\"0o11\"/0", in: "0o11", radix: 0, want: 0},
		{name: "\"123abc\"/5", in: "123abc", radix: 5, want: 38},
		{name: "\"\u3000 77\"/0", in: "\u3000 77", radix: 0, want: 77},
		{name: "\"z\"/35", in: "z", radix: 35, want: math.NaN()},
		{name: "\"Infinity\"/10", in: "Infinity", radix: 10, want: math.NaN()},
		{name: "\"5e-7\"/0", in: "5e-7", radix: 0, want: 5},
		{name: "\"9007199254740993\"/10", in: "9007199254740993", radix: 10, want: 9007199254740992},
		{name: "\"18014398509481987\"/16", in: "18014398509481987", radix: 16, want: 27675808853647696000},
		{name: "\"aaaaaaaaaaaaaaaaaa\"/11", in: "aaaaaaaaaaaaaaaaaa", radix: 11, want: 5559917313492231000},
		{name: "\"123456701234567012345670\"/8", in: "123456701234567012345670", radix: 8, want: 770996035962450600000},
		{name: "\"1000000000000000000000001\"/32", in: "1000000000000000000000001", radix: 32, want: 1.329227995784916e+36},
		{name: "leading zeros do not shift V8's chunks/36", in: "-099999999999999999999a", radix: 36, want: -1.2374480658815343e+32},
		{name: "leading zeros then word/36", in: "00oz5fInfinity", radix: 36, want: 3287438015607840000},
		{name: "\"0X10\"/16", in: "0X10", radix: 16, want: 16},
		{name: "\"-0x10\"/0", in: "-0x10", radix: 0, want: -16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSameNumber(t, tt.want, ParseIntRadix(tt.in, tt.radix))
		})
	}
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"", " 12 ", "0x1F", "-1.5e-7", "Infinity", ".5", "1e", "0b2", "\u30001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := ParseNumber(s)
		// Whatever parses must print back to something that parses to the same value.
		if !math.IsNaN(v) {
			require.Equal(t, v, ParseNumber(FormatNumber(v)))
		}
		_ = ParseFloatPrefix(s)
		_ = ParseIntRadix(s, 0)
		_ = ParseIntRadix(s, 7)
	})
}

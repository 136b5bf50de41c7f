package numconv

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The expectations of these tables were produced by node 20 (String(x), x.toFixed(d),
// x.toPrecision(p), x.toExponential(d), x.toString(radix)); testdata/node_corpus.json holds
// several hundred more.

func TestFormatNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{name: "zero", in: 0, want: "0"},
		{name: "negative zero", in: negZero, want: "0"},
		{name: "NaN", in: math.NaN(), want: "NaN"},
		{name: "infinity", in: math.Inf(1), want: "Infinity"},
		{name: "minus infinity", in: math.Inf(-1), want: "-Infinity"},
		{name: "integer", in: 123, want: "123"},
		{name: "max safe", in: 9007199254740991, want: "9007199254740991"},
		{name: "below 1e21", in: 999999999999999900000, want: "999999999999999900000"},
		{name: "1e21", in: 1e21, want: "1e+21"},
		{name: "1e-7", in: 1e-7, want: "1e-7"},
		{name: "1.5e-7", in: 1.5e-7, want: "1.5e-7"},
		{name: "0.000001", in: 0.000001, want: "0.000001"},
		{name: "0.1+0.2", in: 0.30000000000000004, want: "0.30000000000000004"},
		{name: "min value", in: 5e-324, want: "5e-324"},
		{name: "max value", in: 1.7976931348623157e308, want: "1.7976931348623157e+308"},
		{name: "negative fraction", in: -123.456, want: "-123.456"},
		{name: "2**64", in: 1 << 64, want: "18446744073709552000"},
		{name: "1e23", in: 1e23, want: "1e+23"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, FormatNumber(tt.in))
		})
	}
}

func TestToFixed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     float64
		digits int
		want   string
	}{
		{name: "1.005/2", in: 1.005, digits: 2, want: "1.00"},
		{name: "1.45/1", in: 1.45, digits: 1, want: "1.4"},
		{name: "0.5/0", in: 0.5, digits: 0, want: "1"},
		{name: "1.5/0", in: 1.5, digits: 0, want: "2"},
		{name: "2.5/0", in: 2.5, digits: 0, want: "3"},
		{name: "-2.5/0", in: -2.5, digits: 0, want: "-3"},
		{name: "-0/2", in: negZero, digits: 2, want: "0.00"},
		{name: "-1e-10/2", in: -1e-10, digits: 2, want: "-0.00"},
		{name: "1e21/2", in: 1e21, digits: 2, want: "1e+21"},
		{name: "-1e21/3", in: -1e21, digits: 3, want: "-1e+21"},
		{name: "123.456/10", in: 123.456, digits: 10, want: "123.4560000000"},
		{name: "0.000001/7", in: 0.000001, digits: 7, want: "0.0000010"},
		{name: "1e20/2", in: 1e20, digits: 2, want: "100000000000000000000.00"},
		{name: "NaN/2", in: math.NaN(), digits: 2, want: "NaN"},
		{name: "Infinity/1", in: math.Inf(1), digits: 1, want: "Infinity"},
		{name: "-Infinity/0", in: math.Inf(-1), digits: 0, want: "-Infinity"},
		{name: "5e-324/100", in: 5e-324, digits: 100, want: "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
		{name: "0.1/20", in: 0.1, digits: 20, want: "0.10000000000000000555"},
		{name: "999.995/2", in: 999.995, digits: 2, want: "1000.00"},
		{name: "1.7976931348623157e308/0", in: 1.7976931348623157e308, digits: 0, want: "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, ToFixed(tt.in, tt.digits))
		})
	}
}

func TestToPrecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   float64
		p    int
		want string
	}{
		{name: "1.25/2", in: 1.25, p: 2, want: "1.3"},
		{name: "2.5/1", in: 2.5, p: 1, want: "3"},
		{name: "123.456/2", in: 123.456, p: 2, want: "1.2e+2"},
		{name: "123.456/3", in: 123.456, p: 3, want: "123"},
		{name: "123.456/4", in: 123.456, p: 4, want: "123.5"},
		{name: "0.000001/2", in: 0.000001, p: 2, want: "0.0000010"},
		{name: "0.0000001/2", in: 0.0000001, p: 2, want: "1.0e-7"},
		{name: "1e21/1", in: 1e21, p: 1, want: "1e+21"},
		{name: "1e21/22", in: 1e21, p: 22, want: "1000000000000000000000"},
		{name: "-0/3", in: negZero, p: 3, want: "0.00"},
		{name: "0/1", in: 0, p: 1, want: "0"},
		{name: "NaN/1", in: math.NaN(), p: 1, want: "NaN"},
		{name: "-Infinity/5", in: math.Inf(-1), p: 5, want: "-Infinity"},
		{name: "5e-324/3", in: 5e-324, p: 3, want: "4.94e-324"},
		{name: "1e23/1", in: 1e23, p: 1, want: "1e+23"},
		{name: "9.5/1", in: 9.5, p: 1, want: "1e+1"},
		{name: "0.00001234/2", in: 0.00001234, p: 2, want: "0.000012"},
		{name: "123456/5", in: 123456, p: 5, want: "1.2346e+5"},
		{name: "123456/6", in: 123456, p: 6, want: "123456"},
		{name: "1.7976931348623157e308/100", in: 1.7976931348623157e308, p: 100, want: "1.797693134862315708145274237317043567980705675258449965989174768031572607800285387605895586327668782e+308"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, ToPrecision(tt.in, tt.p))
		})
	}
}

func TestToExponential(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     float64
		digits int
		want   string
	}{
		{name: "1.25/1", in: 1.25, digits: 1, want: "1.3e+0"},
		{name: "1.35/1", in: 1.35, digits: 1, want: "1.4e+0"},
		{name: "0/-1", in: 0, digits: -1, want: "0e+0"},
		{name: "0/2", in: 0, digits: 2, want: "0.00e+0"},
		{name: "-0/0", in: negZero, digits: 0, want: "0e+0"},
		{name: "123456/-1", in: 123456, digits: -1, want: "1.23456e+5"},
		{name: "123456/2", in: 123456, digits: 2, want: "1.23e+5"},
		{name: "0.000123/-1", in: 0.000123, digits: -1, want: "1.23e-4"},
		{name: "1e21/0", in: 1e21, digits: 0, want: "1e+21"},
		{name: "-5e-324/-1", in: -5e-324, digits: -1, want: "-5e-324"},
		{name: "-5e-324/3", in: -5e-324, digits: 3, want: "-4.941e-324"},
		{name: "NaN/2", in: math.NaN(), digits: 2, want: "NaN"},
		{name: "Infinity/-1", in: math.Inf(1), digits: -1, want: "Infinity"},
		{name: "0.1/20", in: 0.1, digits: 20, want: "1.00000000000000005551e-1"},
		{name: "1.7976931348623157e308/-1", in: 1.7976931348623157e308, digits: -1, want: "1.7976931348623157e+308"},
		{name: "9.99/1", in: 9.99, digits: 1, want: "1.0e+1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, ToExponential(tt.in, tt.digits))
		})
	}
}

func TestFormatRadix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    float64
		radix int
		want  string
	}{
		{name: "255/16", in: 255, radix: 16, want: "ff"},
		{name: "-255.5/2", in: -255.5, radix: 2, want: "-11111111.1"},
		{name: "0.5/2", in: 0.5, radix: 2, want: "0.1"},
		{name: "0.1/3", in: 0.1, radix: 3, want: "0.0022002200220022002200220022002201"},
		{name: "123.456/36", in: 123.456, radix: 36, want: "3f.gez4w97ry"},
		{name: "1e21/7", in: 1e21, radix: 7, want: "5135235413265003022600000"},
		{name: "-0/2", in: negZero, radix: 2, want: "0"},
		{name: "NaN/16", in: math.NaN(), radix: 16, want: "NaN"},
		{name: "Infinity/36", in: math.Inf(1), radix: 36, want: "Infinity"},
		{name: "2**64/2", in: 1 << 64, radix: 2, want: "10000000000000000000000000000000000000000000000000000000000000000"},
		{name: "0.1/2", in: 0.1, radix: 2, want: "0.0001100110011001100110011001100110011001100110011001101"},
		{name: "1/3/3", in: 1.0 / 3, radix: 3, want: "0.1"},
		{name: "5e-324/2", in: 5e-324, radix: 2, want: "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001"},
		{name: "1e-7/36", in: 1e-7, radix: 36, want: "0.000061oezo085tl"},
		{name: "1.7976931348623157e308/36", in: 1.7976931348623157e308, radix: 36, want: "1a1e4vngaiqo0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
		{name: "3.9999999999999996/4", in: 3.9999999999999996, radix: 4, want: "3.33333333333333333333333332"},
		{name: "4.35/8", in: 4.35, radix: 8, want: "4.26314631463146314"},
		{name: "1234.5678/10", in: 1234.5678, radix: 10, want: "1234.5678"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, FormatRadix(tt.in, tt.radix))
		})
	}
}

func BenchmarkFormatNumber(b *testing.B) {
	inputs := []float64{0, 42, -1.5, 0.30000000000000004, 123456.789, 1e21, 5e-324, math.Pi}
	for b.Loop() {
		for _, f := range inputs {
			_ = FormatNumber(f)
		}
	}
}

func BenchmarkParseNumber(b *testing.B) {
	inputs := []string{"0", "42", "-1.5", "0.30000000000000004", " 123456.789 ", "1e21", "0x1F"}
	for b.Loop() {
		for _, s := range inputs {
			_ = ParseNumber(s)
		}
	}
}

func TestAppendNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		prefix string
		in     float64
		want   string
	}{
		{name: "keeps prefix", prefix: "x=", in: 1.5, want: "x=1.5"},
		{name: "negative exponent form", prefix: "", in: -1.5e-7, want: "-1.5e-7"},
		{name: "integer", prefix: "[", in: 42, want: "[42"},
		{name: "large", prefix: "", in: 1.7976931348623157e308, want: "1.7976931348623157e+308"},
		{name: "NaN", prefix: "v:", in: math.NaN(), want: "v:NaN"},
		{name: "negative infinity", prefix: "", in: math.Inf(-1), want: "-Infinity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, string(AppendNumber([]byte(tt.prefix), tt.in)))
		})
	}
}

package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// tenth is a variable so that 0.1+0.2 is computed in float64, not as an exact constant.
var tenth = 0.1

func TestNumberToString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"zero", 0, "0"},
		{"negzero", math.Copysign(0, -1), "0"},
		{"sum", tenth + 2*tenth, "0.30000000000000004"},
		{"1e21", 1e21, "1e+21"},
		{"big int", 1e20, "100000000000000000000"},
		{"1e-7", 1e-7, "1e-7"},
		{"small", 0.000001, "0.000001"},
		{"1.5e-7", 1.5e-7, "1.5e-7"},
		{"neg", -123.456, "-123.456"},
		{"nan", math.NaN(), "NaN"},
		{"inf", math.Inf(-1), "-Infinity"},
		{"max", math.MaxFloat64, "1.7976931348623157e+308"},
		{"min", 5e-324, "5e-324"},
		{"2^53", 9007199254740992, "9007199254740992"},
		{"1.2e22", 1.2e22, "1.2e+22"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, numberToString(tt.in))
		})
	}
}

func TestStringToNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want float64
	}{
		{"empty", "  ", 0},
		{"int", " 42\n", 42},
		{"hex", "0x1F", 31},
		{"bin", "0b101", 5},
		{"float", "1.5e3", 1500},
		{"dot", ".5", 0.5},
		{"inf", "-Infinity", math.Inf(-1)},
		{"junk", "12px", math.NaN()},
		{"inf lower", "infinity", math.NaN()},
		{"underscore", "1_0", math.NaN()},
		{"hex float", "0x1p3", math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := stringToNumber(newStringFromGo(tt.in))
			if math.IsNaN(tt.want) {
				require.True(t, math.IsNaN(got), "got %v", got)
				return
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestToInt32(t *testing.T) {
	t.Parallel()
	require.Equal(t, int32(-1), toInt32(4294967295))
	require.Equal(t, int32(0), toInt32(math.NaN()))
	require.Equal(t, int32(-2147483648), toInt32(2147483648))
	require.Equal(t, int32(3), toInt32(3.9))
	require.Equal(t, int32(0), toInt32(math.Inf(1)))
}

func TestStrings(t *testing.T) {
	t.Parallel()
	emoji := newStringFromGo("a😀")
	require.Equal(t, 3, emoji.Len())
	require.Equal(t, uint16(0xD83D), emoji.At(1))
	lone := newUTF16([]uint16{'x', 0xD800})
	require.Equal(t, "x\uFFFD", lone.String())
	// WTF-8 round trip keeps the lone surrogate
	require.True(t, newStringFromGo(lone.wtf8()).Equals(lone))
	// ropes
	s := emptyString
	for i := 0; i < 1000; i++ {
		s = concatStrings(s, newASCII("ab"))
	}
	require.Equal(t, 2000, s.Len())
	require.Equal(t, uint16('b'), s.At(1999))
	require.Equal(t, 3, s.indexOf(newASCII("ba"), 2))
	mixed := concatStrings(s, emoji)
	require.Equal(t, 2003, mixed.Len())
	require.Equal(t, -1, newASCII("a").Compare(mixed))
	require.Equal(t, 1, newASCII("b").Compare(mixed))
	require.True(t, mixed.substring(2000, 2003).Equals(emoji))
}

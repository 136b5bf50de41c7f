package jsdate

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	nan    = math.NaN()
	posInf = math.Inf(1)
)

func requireSame(t *testing.T, want, got float64) {
	t.Helper()
	if math.IsNaN(want) {
		require.True(t, math.IsNaN(got), "want NaN, got %v", got)
		return
	}
	require.Equal(t, math.Float64bits(want), math.Float64bits(got), "want %v, got %v", want, got)
}

func TestMakeDay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name              string
		year, month, date float64
		want              float64
	}{
		{name: "epoch", year: 1970, month: 0, date: 1, want: 0},
		{name: "month overflow", year: 1970, month: 12, date: 1, want: 365},
		{name: "negative month", year: 1971, month: -12, date: 1, want: 0},
		{name: "date zero is previous day", year: 1970, month: 0, date: 0, want: -1},
		{name: "fractions truncate", year: 1970.9, month: 0.9, date: 1.9, want: 0},
		{name: "leap day 2000", year: 2000, month: 1, date: 29, want: 11016},
		{name: "year zero", year: 0, month: 0, date: 1, want: -719528},
		{name: "NaN year", year: nan, month: 0, date: 1, want: nan},
		{name: "infinite date", year: 1970, month: 0, date: posInf, want: nan},
		{name: "absurd year", year: 1e300, month: 0, date: 1, want: nan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSame(t, tt.want, MakeDay(tt.year, tt.month, tt.date))
		})
	}
}

func TestMakeFullYear(t *testing.T) {
	t.Parallel()
	// Date.UTC(y, 0) in node 20 gives the year: 0 -> 1900, 99.9 -> 1999, -0.5 -> 1900.
	tests := []struct {
		name string
		in   float64
		want float64
	}{
		{name: "zero", in: 0, want: 1900},
		{name: "two digits", in: 99.9, want: 1999},
		{name: "negative fraction truncates to zero", in: -0.5, want: 1900},
		{name: "hundred unchanged", in: 100, want: 100},
		{name: "negative unchanged", in: -1, want: -1},
		{name: "four digits unchanged", in: 2024, want: 2024},
		{name: "NaN", in: nan, want: nan},
		{name: "infinity unchanged", in: posInf, want: posInf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSame(t, tt.want, MakeFullYear(tt.in))
		})
	}
}

func TestMakeTimeDateClip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{name: "make time", got: MakeTime(1, 2, 3, 4), want: 3723004},
		{name: "make time truncates", got: MakeTime(1.5, 0, 0, 0.9), want: 3600000},
		{name: "make time negative", got: MakeTime(-1, 0, 0, 0), want: -3600000},
		{name: "make time NaN", got: MakeTime(0, nan, 0, 0), want: nan},
		{name: "make time infinite", got: MakeTime(posInf, 0, 0, 0), want: nan},
		{name: "make date", got: MakeDate(1, 5), want: 86400005},
		{name: "make date NaN", got: MakeDate(nan, 0), want: nan},
		{name: "make date overflow", got: MakeDate(1e306, 0), want: nan},
		{name: "clip max", got: TimeClip(8.64e15), want: 8.64e15},
		{name: "clip past max", got: TimeClip(8.64e15 + 1), want: nan},
		{name: "clip min", got: TimeClip(-8.64e15), want: -8.64e15},
		{name: "clip truncates", got: TimeClip(-1.5), want: -1},
		{name: "clip negative zero", got: TimeClip(math.Copysign(0, -1)), want: 0},
		{name: "clip infinity", got: TimeClip(posInf), want: nan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireSame(t, tt.want, tt.got)
		})
	}
}

func TestFormatsOfNaN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fn   func(float64) string
	}{
		{name: "toString", fn: ToString},
		{name: "toDateString", fn: ToDateString},
		{name: "toTimeString", fn: ToTimeString},
		{name: "toUTCString", fn: ToUTCString},
		{name: "toISOString", fn: ToISOString},
		{name: "toLocaleString", fn: ToLocaleString},
		{name: "toLocaleDateString", fn: ToLocaleDateString},
		{name: "toLocaleTimeString", fn: ToLocaleTimeString},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, InvalidDate, tt.fn(nan))
		})
	}
}

func TestFormatExample(t *testing.T) {
	t.Parallel()
	// new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) under TZ=UTC in node 20.
	tv := TimeClip(MakeDate(MakeDay(2024, 0, 2), MakeTime(3, 4, 5, 6)))
	require.Equal(t, "Tue Jan 02 2024 03:04:05 GMT+0000 (Coordinated Universal Time)", ToString(tv))
	require.Equal(t, "Tue Jan 02 2024", ToDateString(tv))
	require.Equal(t, "03:04:05 GMT+0000 (Coordinated Universal Time)", ToTimeString(tv))
	require.Equal(t, "Tue, 02 Jan 2024 03:04:05 GMT", ToUTCString(tv))
	require.Equal(t, "2024-01-02T03:04:05.006Z", ToISOString(tv))
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2024-01-02T03:04:05.678Z", "Jan 2 2020", "(((", "+275760-09-13", "1/2/3 4:5:6 pm GMT+1", "--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Parse(s)
		if math.IsNaN(v) {
			return
		}
		// Whatever parses is a valid time value whose ISO form parses back to it.
		require.Equal(t, v, TimeClip(v))
		require.Equal(t, v, Parse(ToISOString(v)))
	})
}

func BenchmarkParse(b *testing.B) {
	inputs := []string{"2024-01-02T03:04:05.678Z", "Tue Jan 02 2024 03:04:05 GMT+0000 (Coordinated Universal Time)", "Jan 2 2020"}
	for b.Loop() {
		for _, s := range inputs {
			_ = Parse(s)
		}
	}
}

func BenchmarkToISOString(b *testing.B) {
	for b.Loop() {
		_ = ToISOString(1704164645678)
	}
}

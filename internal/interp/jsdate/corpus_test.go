package jsdate

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpus is testdata/corpus.json, produced by node 20 with TZ=UTC; null stands for NaN.
type corpus struct {
	Parse []struct {
		S string   `json:"s"`
		T *float64 `json:"t"`
	} `json:"parse"`
	Format []struct {
		T      float64 `json:"t"`
		String string  `json:"string"`
		Date   string  `json:"date"`
		Time   string  `json:"time"`
		UTC    string  `json:"utc"`
		ISO    string  `json:"iso"`
		Locale string  `json:"locale"`
		LDate  string  `json:"localeDate"`
		LTime  string  `json:"localeTime"`
		Fields []int   `json:"fields"`
	} `json:"format"`
	Make []struct {
		Args [7]float64 `json:"args"`
		T    *float64   `json:"t"`
	} `json:"make"`
}

func loadCorpus(t *testing.T) corpus {
	t.Helper()
	data, err := os.ReadFile("testdata/corpus.json")
	require.NoError(t, err)
	var c corpus
	require.NoError(t, json.Unmarshal(data, &c))
	return c
}

// requireTime asserts a time value, nil meaning NaN.
func requireTime(t *testing.T, want *float64, got float64) {
	t.Helper()
	if want == nil {
		require.True(t, math.IsNaN(got), "want NaN, got %v", got)
		return
	}
	require.Equal(t, *want, got)
}

func TestParseNodeCorpus(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	require.Greater(t, len(c.Parse), 2000)
	for _, tt := range c.Parse {
		t.Run(tt.S, func(t *testing.T) {
			t.Parallel()
			requireTime(t, tt.T, Parse(tt.S))
		})
	}
}

func TestFormatNodeCorpus(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	for _, tt := range c.Format {
		t.Run(ToISOString(tt.T), func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.String, ToString(tt.T), "toString")
			require.Equal(t, tt.Date, ToDateString(tt.T), "toDateString")
			require.Equal(t, tt.Time, ToTimeString(tt.T), "toTimeString")
			require.Equal(t, tt.UTC, ToUTCString(tt.T), "toUTCString")
			require.Equal(t, tt.ISO, ToISOString(tt.T), "toISOString")
			require.Equal(t, tt.Locale, ToLocaleString(tt.T), "toLocaleString")
			require.Equal(t, tt.LDate, ToLocaleDateString(tt.T), "toLocaleDateString")
			require.Equal(t, tt.LTime, ToLocaleTimeString(tt.T), "toLocaleTimeString")
			y, mon, d, h, mi, s, ms, wd := Fields(tt.T)
			require.Equal(t, tt.Fields, []int{y, mon, d, h, mi, s, ms, wd}, "fields")
			// The printed forms parse back to the same second, except for years below 100,
			// which V8's legacy parser (and so Parse) reads as 19xx/20xx or, when negative,
			// rejects.
			if y >= 100 {
				require.Equal(t, math.Floor(tt.T/1000)*1000, Parse(tt.String), "parse toString")
				require.Equal(t, math.Floor(tt.T/1000)*1000, Parse(tt.UTC), "parse toUTCString")
			} else if y < 0 {
				require.True(t, math.IsNaN(Parse(tt.String)), "parse toString")
			}
			require.Equal(t, tt.T, Parse(tt.ISO), "parse toISOString")
		})
	}
}

func TestMakeNodeCorpus(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	for _, tt := range c.Make {
		a := tt.Args
		t.Run(ToISOString(TimeClip(MakeDate(MakeDay(a[0], a[1], a[2]), MakeTime(a[3], a[4], a[5], a[6])))), func(t *testing.T) {
			t.Parallel()
			got := TimeClip(MakeDate(MakeDay(a[0], a[1], a[2]), MakeTime(a[3], a[4], a[5], a[6])))
			requireTime(t, tt.T, got)
		})
	}
}

package numconv

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusCase is one number of testdata/node_corpus.json with node 20's outputs for it.
type corpusCase struct {
	Bits  string            `json:"bits"`
	Str   string            `json:"str"`
	Radix map[string]string `json:"radix"`
	Fixed map[string]string `json:"fixed"`
	Prec  map[string]string `json:"prec"`
	Exp   map[string]string `json:"exp"`
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	data, err := os.ReadFile("testdata/node_corpus.json")
	require.NoError(t, err)
	var cases []corpusCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.Greater(t, len(cases), 400)
	return cases
}

func TestNodeCorpus(t *testing.T) {
	t.Parallel()
	for _, tt := range loadCorpus(t) {
		bits, err := strconv.ParseUint(tt.Bits, 16, 64)
		require.NoError(t, err)
		f := math.Float64frombits(bits)
		t.Run(tt.Bits, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.Str, FormatNumber(f), "toString")
			for k, want := range tt.Radix {
				r, _ := strconv.Atoi(k)
				require.Equal(t, want, FormatRadix(f, r), "toString(%d)", r)
			}
			for k, want := range tt.Fixed {
				d, _ := strconv.Atoi(k)
				require.Equal(t, want, ToFixed(f, d), "toFixed(%d)", d)
			}
			for k, want := range tt.Prec {
				p, _ := strconv.Atoi(k)
				require.Equal(t, want, ToPrecision(f, p), "toPrecision(%d)", p)
			}
			for k, want := range tt.Exp {
				d, _ := strconv.Atoi(k)
				require.Equal(t, want, ToExponential(f, d), "toExponential(%d)", d)
			}
			// Every shortest form parses back to the same value (-0 prints as "0").
			require.Equal(t, math.Abs(f), math.Abs(ParseNumber(tt.Str)), "round trip")
		})
	}
}

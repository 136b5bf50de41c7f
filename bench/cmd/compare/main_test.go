package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/codemode/codemode/bench"
	"github.com/stretchr/testify/require"
)

// fakeEngine answers every script with a fixed value, or an error.
type fakeEngine struct {
	name  string
	value string
	err   error
}

func (f fakeEngine) Name() string { return f.name }

func (f fakeEngine) Run(context.Context, string) (string, error) { return f.value, f.err }

func TestCompare(t *testing.T) {
	t.Parallel()
	scripts := []bench.Script{
		{Name: "alpha", Source: "a", Expected: "1"},
		{Name: "beta", Source: "b", Expected: "1"},
		{Name: "gamma", Source: "c", Expected: "2"},
	}
	tests := []struct {
		name       string
		filter     string
		ours       bench.Engine
		wantNames  []string
		wantFailed int
		wantLines  []string
	}{
		{
			name: "all agree except a wrong value", ours: fakeEngine{name: "ours", value: "1"},
			wantNames: []string{"alpha", "beta"}, wantFailed: 1,
			wantLines: []string{"gamma", "geomean ratio vs goja: "},
		},
		{
			name: "filter", filter: "^al", ours: fakeEngine{name: "ours", value: "1"},
			wantNames: []string{"alpha"}, wantLines: []string{"alpha"},
		},
		{
			name: "ours fails everywhere", ours: fakeEngine{name: "ours", err: errors.New("boom")},
			wantNames: []string{}, wantFailed: 3, wantLines: []string{"geomean ratio vs goja: n/a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			goja := fakeEngine{name: "goja", value: "1"}
			var stdout, stderr strings.Builder
			rep, failed := compare(context.Background(), scripts, regexp.MustCompile(tt.filter), 3, tt.ours, goja, &stdout, &stderr)
			require.Equal(t, tt.wantFailed, failed)
			names := []string{}
			for _, b := range rep.Benchmarks {
				names = append(names, b.Name)
				require.Positive(t, b.OursNS)
				require.Positive(t, b.GojaNS)
				require.InDelta(t, float64(b.OursNS)/float64(b.GojaNS), b.Ratio, 1e-9)
			}
			require.Equal(t, tt.wantNames, names)
			for _, l := range tt.wantLines {
				require.Contains(t, stdout.String(), l)
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			require.True(t, strings.HasPrefix(lines[len(lines)-1], "geomean ratio vs goja: "))
		})
	}
}

func TestWriteReport(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "r.json")
	rep := report{Benchmarks: []entry{{Name: "fib", OursNS: 50, GojaNS: 100, Ratio: 0.5}}, Geomean: 0.5}
	require.NoError(t, writeReport(file, rep))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.JSONEq(t, `{"benchmarks":[{"name":"fib","ours_ns":50,"goja_ns":100,"ratio":0.5}],"geomean":0.5}`, string(data))
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &raw))
	require.Len(t, raw, 2)
}

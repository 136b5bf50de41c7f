package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codemode/codemode/bench"
	"github.com/stretchr/testify/require"
)

// fakeLibEngine answers every program with a fixed output and time per call, or an error.
type fakeLibEngine struct {
	name    string
	output  string
	perCall time.Duration
	err     error
}

func (f fakeLibEngine) Name() string { return f.name }

func (f fakeLibEngine) RunLib(_ context.Context, _ string, iterations int) (bench.LibRun, error) {
	return bench.LibRun{Output: f.output, Elapsed: time.Duration(iterations) * f.perCall, Load: 10 * f.perCall}, f.err
}

func TestCompareLibs(t *testing.T) {
	t.Parallel()
	progs := []bench.Program{
		{Library: bench.Library{Name: "alpha", Version: "1.0.0", Iterations: 4}, Expected: "{}"},
		{Library: bench.Library{Name: "beta", Version: "2.0.0", Iterations: 2, Needs: "typed arrays"}, Expected: "{}"},
	}
	tests := []struct {
		name         string
		ours         bench.LibEngine
		wantFailed   int
		wantRatio    float64
		wantFailures int
	}{
		{name: "all pass", ours: fakeLibEngine{name: "ours", output: "{}", perCall: 3 * time.Millisecond}, wantRatio: 1.5},
		{
			name: "ours fails", ours: fakeLibEngine{name: "ours", err: errors.New("Uint8Array is not defined")},
			wantFailed: 1, wantFailures: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			engines := [3]bench.LibEngine{
				tt.ours,
				fakeLibEngine{name: "goja", output: "{}", perCall: 2 * time.Millisecond},
				fakeLibEngine{name: "node-jitless", output: "{}", perCall: time.Millisecond},
			}
			var stdout, stderr strings.Builder
			rep, failed := compareLibs(context.Background(), progs, regexp.MustCompile(""), 3, engines, &stdout, &stderr)
			require.Equal(t, tt.wantFailed, failed, "only alpha counts: beta is marked as needing a feature")
			require.Len(t, rep.Failures, tt.wantFailures)
			require.Len(t, rep.Benchmarks, 2)
			for _, b := range rep.Benchmarks {
				require.Equal(t, int64(2*time.Millisecond), b.GojaNS, "per call, not per run")
				require.Equal(t, int64(time.Millisecond), b.NodeJitlessNS)
				require.Equal(t, int64(20*time.Millisecond), b.GojaLoadNS, "load times are not divided")
				require.InDelta(t, tt.wantRatio, b.Ratio, 1e-9)
				require.InDelta(t, 2*tt.wantRatio, b.RatioNodeJitless, 1e-9)
			}
			require.InDelta(t, tt.wantRatio, rep.Geomean, 1e-9)
			require.InDelta(t, 2*tt.wantRatio, rep.GeomeanNodeJitless, 1e-9)
			out := stdout.String()
			require.Contains(t, out, "alpha")
			require.Contains(t, out, "geomean ratio vs goja: ")
			require.Contains(t, out, "geomean ratio vs node --jitless: ")
			require.Contains(t, out, "load (compile and evaluate the library, median):")
			if tt.wantFailed > 0 {
				require.Contains(t, out, "fails")
				require.Contains(t, stderr.String(), "Uint8Array is not defined")
				require.Contains(t, out, "geomean ratio vs goja: n/a")
			}
		})
	}
}

func TestCompareLibsWrongOutput(t *testing.T) {
	t.Parallel()
	progs := []bench.Program{{Library: bench.Library{Name: "alpha", Iterations: 1}, Expected: "{\"a\": 1}"}}
	engines := [3]bench.LibEngine{
		fakeLibEngine{name: "ours", output: "{\"a\": 2}", perCall: time.Millisecond},
		fakeLibEngine{name: "goja", output: "{\"a\": 1}", perCall: time.Millisecond},
		fakeLibEngine{name: "node-jitless", output: "{\"a\": 1}", perCall: time.Millisecond},
	}
	var stdout, stderr strings.Builder
	rep, failed := compareLibs(context.Background(), progs, regexp.MustCompile(""), 1, engines, &stdout, &stderr)
	require.Equal(t, 1, failed)
	require.Equal(t, "ours", rep.Failures[0].Engine)
	require.Contains(t, rep.Failures[0].Error, "wrong value")
	require.Zero(t, rep.Benchmarks[0].Ratio)
}

// TestRunLibsSet runs the real library set for one small library on the real engines.
func TestRunLibsSet(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", bench.LibsDir)
	set, err := bench.LoadLibraries(dir)
	require.NoError(t, err)
	if !set.Fetched() {
		t.Skip("library files are not installed: run bench/libs/fetch.sh (npm ci) first")
	}
	out := filepath.Join(t.TempDir(), "libs.json")
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"-set", "libs", "-libs", dir, "-runs", "1", "-filter", "^mustache$", "-json", out}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "mustache")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	for _, key := range []string{`"node_jitless_ns"`, `"ratio_node_jitless"`, `"geomean_node_jitless"`, `"failures"`, `"ours_load_ns"`} {
		require.Contains(t, string(data), key)
	}
}

package bench

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestScriptsLoad(t *testing.T) {
	t.Parallel()
	scripts, err := Scripts()
	require.NoError(t, err)
	names := make([]string, 0, len(scripts))
	for _, s := range scripts {
		names = append(names, s.Name)
		require.Contains(t, s.Source, "function main(")
		require.NotEmpty(t, s.Expected)
	}
	require.Equal(t, []string{
		"arith_loop", "await_loop", "closures", "destructuring_spread", "exceptions", "fib",
		"json_roundtrip", "map_set", "promise_chain", "property_access", "regex_exec",
		"sort_comparator", "string_concat", "string_join",
	}, names)
}

// TestGojaScripts checks that goja computes node's value for every script.
func TestGojaScripts(t *testing.T) {
	t.Parallel()
	scripts, err := Scripts()
	require.NoError(t, err)
	for _, s := range scripts {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, Check(context.Background(), Goja{}, s))
		})
	}
}

// TestOursScripts checks that codemode's interpreter computes node's value for every script.
func TestOursScripts(t *testing.T) {
	t.Parallel()
	scripts, err := Scripts()
	require.NoError(t, err)
	for _, s := range scripts {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, Check(context.Background(), Ours{}, s))
		})
	}
}

func TestGojaErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		wantErr error
	}{
		{name: "rejected", source: "async function main() { throw new Error('no'); }", wantErr: ErrScriptFailed},
		{name: "pending", source: "function main() { return new Promise(function () {}); }", wantErr: ErrNotFinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Goja{}.Run(context.Background(), tt.source)
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
}

func TestOursRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		want    string
		wantErr error
	}{
		{name: "value", source: "function main() { return 6 * 7; }", want: "42"},
		{name: "array", source: "function main() { return [1, 2, 3]; }", want: "1,2,3"},
		{name: "async", source: "async function main() { const v = await Promise.resolve(20); return v + 1; }", want: "21"},
		{name: "thrown", source: "function main() { throw new TypeError('no'); }", wantErr: ErrScriptFailed},
		{name: "rejected", source: "async function main() { await null; throw new RangeError('r'); }", wantErr: ErrScriptFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Ours{}.Run(context.Background(), tt.source)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestCheckWrongValue(t *testing.T) {
	t.Parallel()
	err := Check(context.Background(), Goja{}, Script{Name: "x", Source: "function main() { return 1; }", Expected: "2"})
	require.ErrorIs(t, err, ErrWrongValue)
}

func TestMedian(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []time.Duration
		want time.Duration
	}{
		{name: "empty", want: 0},
		{name: "odd", in: []time.Duration{5, 1, 3}, want: 3},
		{name: "even", in: []time.Duration{4, 1, 2, 3}, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, Median(tt.in))
		})
	}
}

func TestGeomean(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 2.0, Geomean([]float64{1, 4}), 1e-12)
	require.InDelta(t, 1.0, Geomean([]float64{0.5, 2}), 1e-12)
	require.True(t, math.IsNaN(Geomean(nil)))
}

// BenchmarkScripts times every script on every available engine:
// go test -bench Scripts -run '^$'.
func BenchmarkScripts(b *testing.B) {
	scripts, err := Scripts()
	require.NoError(b, err)
	engines := []Engine{Ours{}, Goja{}}
	for _, e := range engines {
		for _, s := range scripts {
			b.Run(e.Name()+"/"+s.Name, func(b *testing.B) {
				for b.Loop() {
					if _, err := e.Run(context.Background(), s.Source); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

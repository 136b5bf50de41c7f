package main

import (
	"context"
	"strings"
	"testing"

	"github.com/codemode/codemode/bench"
	"github.com/stretchr/testify/require"
)

func TestParseSizes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    []int
		wantErr bool
	}{
		{name: "default", in: "20000,40000,80000", want: []int{20000, 40000, 80000}},
		{name: "spaces", in: " 10, 20 ", want: []int{10, 20}},
		{name: "not a number", in: "10,x", wantErr: true},
		{name: "zero", in: "0", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseSizes(tt.in)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestConcatScriptOnGoja(t *testing.T) {
	t.Parallel()
	got, err := bench.Goja{}.Run(context.Background(), concatScript(1234))
	require.NoError(t, err)
	require.Equal(t, "1234", got)
}

func TestRunPrintsRows(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"-n", "100,200", "-runs", "1"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	out := stdout.String()
	require.Contains(t, out, "goja")
	require.Regexp(t, `goja\s+100\s`, out)
	require.Regexp(t, `goja\s+200\s`, out)
	require.Contains(t, out, "growth: ")
}

package interp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRuntimeErrorPositionsMatchNode runs programs that throw and compares where the error is
// located, and its text, with node's stack for the same file (testdata/errorpos/cases.json,
// made by scripts/error-positions.py from programs.json): undeclared names and
// uninitialised bindings, property reads and writes, calls of non-functions, built-ins
// refusing their arguments, constructors, parameters' defaults and thrown errors.
func TestRuntimeErrorPositionsMatchNode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "errorpos", "cases.json"))
	require.NoError(t, err)
	var cases []struct {
		Src          string
		Line, Column int
		Error        string
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	require.GreaterOrEqual(t, len(cases), 30)
	for _, c := range cases {
		p, err := CompileScript(c.Src)
		require.NoError(t, err, c.Src)
		vm := New(Config{})
		require.NoError(t, vm.Start(p))
		_, err = vm.Run(t.Context(), RunOptions{})
		require.NoError(t, err)
		v, thrown := vm.Result()
		require.True(t, thrown, c.Src)
		name, msg, line, col := vm.DescribeError(v)
		if line != c.Line || col != c.Column {
			t.Errorf("%q: %s: %s at %d:%d, node: %d:%d", c.Src, name, msg, line, col, c.Line, c.Column)
		}
	}
}

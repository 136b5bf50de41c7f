package run

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// envRoundTrip is CODEMODE_ROUNDTRIP=1: this package's tests then run every program with
// Options.RoundTrip (CI runs the suite both ways).
var envRoundTrip = os.Getenv("CODEMODE_ROUNDTRIP") == "1"

// testOptions returns o with RoundTrip set as the environment asks.
func testOptions(o Options) Options {
	o.RoundTrip = o.RoundTrip || envRoundTrip
	return o
}

// With Options.RoundTrip the run is saved and restored as it goes: a state over
// roundtripScaleBytes is saved less often than every roundtripSteps instructions, which only
// a save can have decided. Without it nothing is saved.
func TestRoundTripOption(t *testing.T) {
	t.Parallel()
	const src = `const big = []; for (let i = 0; i < 3000; i++) big.push('item ' + i); big.length`
	for _, on := range []bool{false, true} {
		rt, err := New(Options{RoundTrip: on})
		require.NoError(t, err)
		e, err := rt.Execute(context.Background(), src, ExecOptions{})
		require.NoError(t, err)
		res, done := e.Result()
		require.True(t, done)
		require.True(t, res.OK, "%+v", res.Error)
		require.JSONEq(t, `3000`, string(res.Value))
		if on || buildRoundTrip {
			require.Greater(t, e.roundtripEvery, int64(roundtripSteps), "the run was saved")
		} else {
			require.Equal(t, int64(roundtripSteps), e.roundtripEvery, "the run was never saved")
		}
	}
}

// Production code does not read CODEMODE_ROUNDTRIP: only tests set the option from it.
func TestRoundTripIsNotReadFromTheEnvironment(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		require.NotContains(t, string(data), `"CODEMODE_ROUNDTRIP"`, path)
		return nil
	})
	require.NoError(t, err)
}

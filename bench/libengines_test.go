package bench

import (
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// libEngines are the engines a library runs on; node only when installed.
func libEngines(t *testing.T) []LibEngine {
	engines := []LibEngine{Ours{}, Goja{}}
	if _, err := exec.LookPath("node"); err == nil {
		engines = append(engines, Node{Jitless: true})
	} else {
		t.Log("node is not installed: the node engine is not tested")
	}
	return engines
}

func TestRunLib(t *testing.T) {
	t.Parallel()
	// The program sees the strict-mode wrapper (this is undefined), a module object from the
	// prelude and none of node's own globals.
	text := Prelude + `module.exports.f = function (x) { return x * 2; };
var calls = 0;
function main() {
  calls++;
  return { v: module.exports.f(21), strict: this === undefined, process: typeof process, calls: calls, list: [1, "a", null] };
}`
	for _, e := range libEngines(t) {
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			r, err := e.RunLib(context.Background(), text, 3)
			require.NoError(t, err)
			require.Equal(t, "{\n \"v\": 42,\n \"strict\": true,\n \"process\": \"undefined\",\n \"calls\": 1,\n \"list\": [\n  1,\n  \"a\",\n  null\n ]\n}", r.Output)
			require.Positive(t, r.Elapsed)
			require.Positive(t, r.Load)
		})
	}
}

func TestRunLibErrors(t *testing.T) {
	t.Parallel()
	for _, e := range libEngines(t) {
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			_, err := e.RunLib(context.Background(), "function main() { throw new Error('no'); }", 0)
			require.ErrorIs(t, err, ErrScriptFailed)
			require.ErrorContains(t, err, "no")
		})
	}
}

func TestCheckLib(t *testing.T) {
	t.Parallel()
	p := Program{Library: Library{Name: "x"}, Text: "function main() { return 1; }", Expected: "2"}
	require.ErrorIs(t, CheckLib(context.Background(), Ours{}, p), ErrWrongValue)
	p.Expected = ""
	require.ErrorIs(t, CheckLib(context.Background(), Ours{}, p), ErrNoExpectedOutput)
	p.Expected = "1"
	require.NoError(t, CheckLib(context.Background(), Ours{}, p))
}

func TestFirstDifference(t *testing.T) {
	t.Parallel()
	require.Equal(t, `at byte 2: got "abX", want "abc"`, firstDifference("abX", "abc"))
	require.Equal(t, `at byte 2: got "ab", want "abc"`, firstDifference("ab", "abc"))
}

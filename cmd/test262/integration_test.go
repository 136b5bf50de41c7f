package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTreeOnInterpreter runs the fake test262 tree on the real interpreter: passing,
// failing, negative (parse and runtime), raw, async and skipped tests.
func TestTreeOnInterpreter(t *testing.T) {
	t.Parallel()
	eng, err := newEngine()
	require.NoError(t, err)
	paths, err := selectTests(treeRoot, "")
	require.NoError(t, err)
	r := newRunner(treeRoot, eng)
	r.maxSteps = 10_000_000
	for _, res := range r.runAll(context.Background(), paths) {
		t.Run(res.Path, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, treeOutcomes[res.Path], res.Status, res.Message)
		})
	}
}

package tsstrip

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJavaScriptLeftAlone: the front end strips only programs that are not
// JavaScript, but the walker should not see TypeScript in JavaScript either:
// Strip leaves every program of the differential corpus (JavaScript) as it is.
func TestJavaScriptLeftAlone(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../run/testdata/corpus/*.js")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		out, changed, err := Strip(src)
		require.NoError(t, err, f)
		require.False(t, changed, f)
		require.Equal(t, string(src), string(out), f)
	}
}

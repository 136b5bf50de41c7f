package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCompileTypeScript: a TypeScript program compiles; the program keeps
// the text as written (snapshots embed it and restore compiles it again),
// and compiling it twice gives the same code, as restore requires.
func TestCompileTypeScript(t *testing.T) {
	t.Parallel()
	const src = "const n: number = 41;\ntype T = { v: number };\nreturn ({ v: n + 1 } as T).v"
	p, err := Compile(src)
	require.NoError(t, err)
	require.Equal(t, src, p.Source())
	q, err := Compile(src)
	require.NoError(t, err)
	require.Equal(t, p.CodeFingerprint(), q.CodeFingerprint())

	_, err = Compile("\n  // nothing\n")
	var d *Diagnostic
	require.ErrorAs(t, err, &d)
	require.Equal(t, "ParseError", d.Kind)
	require.Equal(t, "source is empty", d.Message)
}

package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCodeFingerprint(t *testing.T) {
	t.Parallel()
	compile := func(src string) *Program {
		t.Helper()
		p, err := Compile(src)
		require.NoError(t, err)
		return p
	}
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{name: "same source", a: "const x = 1; x + 1", b: "const x = 1; x + 1", same: true},
		{name: "whitespace and comments compile alike", a: "const x = 1; x + 1", b: "const  x = 1 // one\n x + 1", same: true},
		{name: "another constant", a: "const x = 1; x + 1", b: "const x = 1; x + 2", same: false},
		{name: "another operator", a: "let x = 1; x + 1", b: "let x = 1; x - 1", same: false},
		{name: "another function layout", a: "function f(a) { return a }", b: "function f(a, b) { return a }", same: false},
		{name: "another string", a: "'a'", b: "'b'", same: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fa, fb := compile(tt.a).CodeFingerprint(), compile(tt.b).CodeFingerprint()
			require.Len(t, fa, 32)
			if tt.same {
				require.Equal(t, fa, fb)
			} else {
				require.NotEqual(t, fa, fb)
			}
		})
	}
}

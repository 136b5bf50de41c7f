package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
)

func TestPath(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"add", "add"},
		{"resolve-library-id", "resolve_library_id"},
		{"github.list issues", "github.list_issues"},
		{"2fa", "_2fa"},
		{"a..b", "a._.b"},
		{".x", "_.x"},
		{"__proto__", "__proto___"},
		{"get$", "get$"},
		{"café", "caf_"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Path(tt.name)
			require.Equal(t, tt.want, got)
			require.NoError(t, run.ValidatePath(got))
		})
	}
}

func TestPathsUnique(t *testing.T) {
	for _, tt := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"distinct", []string{"a", "b"}, []string{"a", "b"}},
		{"same normal form", []string{"a-b", "a_b", "a b"}, []string{"a_b", "a_b_2", "a_b_3"}},
		{"nested namespace", []string{"x.a", "x.a.b"}, []string{"x.a", "x_2.a.b"}},
		{"tool then namespace", []string{"a", "a.b"}, []string{"a", "a_2.b"}},
		{"namespace then tool", []string{"a.b", "a"}, []string{"a.b", "a_2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, paths(tt.names))
		})
	}
}

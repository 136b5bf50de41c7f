package syntax

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseAcceptsAsyncBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{name: "top-level await", src: "const x = await f();\nx"},
		{name: "top-level return", src: "return 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, ModeAsyncBody)
			require.NoError(t, err)
			require.True(t, p.Strict)
			require.NotNil(t, p.AST)
		})
	}
}

func TestParseErrorPosition(t *testing.T) {
	t.Parallel()
	_, err := Parse("let a = 1;\nlet b = (;", ModeAsyncBody)
	var e *Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, KindParseError, e.Kind)
	require.Equal(t, 2, e.Line)
	require.Equal(t, 10, e.Column)
}

package syntax

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBigIntLiterals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src   string
		valid bool
	}{
		{"x = 10n", true},
		{"x = 0n", true},
		{"x = 0x1fn + 0o7n + 0b1n", true},
		{"x = 1_000n", true},
		{"x = { 1n: 2 }", true},
		{"x = 01n", false},
		{"x = 1.5n", false},
		{"x = 1e3n", false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, ModeAsyncBody)
			if tt.valid {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindParseError, e.Kind, e.Error())
		})
	}
}

package jsregexp

import (
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// The expectations are node 20's new RegExp(pattern).source.
func TestEscapeSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "empty", in: "", want: "(?:)"},
		{name: "slash", in: "/", want: "\\/"},
		{name: "slash inside", in: "a/b", want: "a\\/b"},
		{name: "escaped slash", in: "\\/", want: "\\/"},
		{name: "slash in class", in: "[/]", want: "[/]"},
		{name: "newline", in: "\n", want: "\\n"},
		{name: "carriage return", in: "\r", want: "\\r"},
		{name: "line separator", in: "\u2028", want: "\\u2028"},
		{name: "paragraph separator", in: "\u2029", want: "\\u2029"},
		{name: "escaped newline", in: "a\\\nb", want: "a\\nb"},
		{name: "escaped bracket then slash", in: "\\[/", want: "\\[\\/"},
		{name: "escaped backslash then slash", in: "x\\\\/y", want: "x\\\\\\/y"},
		{name: "slashes around class", in: "/[/]/", want: "\\/[/]\\/"},
		{name: "escaped bracket in class", in: "[\\]/]/", want: "[\\]/]\\/"},
		{name: "plain", in: "a+b", want: "a+b"},
		{name: "astral", in: "😀/", want: "😀\\/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := EscapeSource(utf16.Encode([]rune(tt.in)))
			require.Equal(t, tt.want, string(utf16.Decode(got)))
			// The escaped source compiles to an expression with the same groups.
			_, err := Compile(got, Flags{})
			require.NoError(t, err)
		})
	}
}

package syntax

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegExpLiteralModifiers checks the early errors of pattern modifier groups in regular
// expression literals, and that valid modifier groups parse.
func TestRegExpLiteralModifiers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		message string // "" when the program is valid
	}{
		{name: "add", src: "x = /(?i:a)b/"},
		{name: "remove", src: "x = /(?-i:a)b/i"},
		{name: "add and remove", src: "x = /(?ms-i:^.)/u"},
		{name: "empty removal", src: "x = /(?s-:.)/"},
		{name: "nested", src: "x = /(?i:a(?-i:b))/g"},
		{name: "repeated flag", src: "x = /(?ii:a)/", message: "Repeated flag in flag group"},
		{name: "repeated removed flag", src: "x = /(?-ss:a)/", message: "Repeated flag in flag group"},
		{name: "added and removed", src: "x = /(?m-m:a)/", message: "Repeated flag in flag group"},
		{name: "both empty", src: "x = /(?-:a)/", message: "Invalid flag group"},
		{name: "unknown flag", src: "x = /(?iy:a)/", message: "Invalid flag group"},
		{name: "uppercase flag", src: "x = /(?I:a)/", message: "Invalid group"},
		{name: "escaped flag", src: "x = /(?\\u{69}:a)/u", message: "Invalid group"},
		{name: "no colon", src: "x = /(?i)a/", message: "Invalid group"},
		{name: "two dashes", src: "x = /(?i-s-m:a)/", message: "Multiple dashes in flag group"},
		{name: "in a nested function", src: "function f() { return /(?s-s:a)/ }", message: "Repeated flag in flag group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, ModeAsyncBody)
			if tt.message == "" {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindParseError, e.Kind, e.Error())
			require.Contains(t, e.Message, tt.message)
		})
	}
}

// TestRegExpLiteralGrammar checks that literals get the same grammar checks as the RegExp
// constructor, beyond what the engine itself rejects.
func TestRegExpLiteralGrammar(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		message string // "" when the program is valid
	}{
		{name: "duplicate group name", src: "x = /(?<a>x)(?<a>y)/", message: "Duplicate capture group name"},
		{name: "named reference to nothing", src: "x = /(?<a>x)\\k<b>/", message: "Invalid named capture referenced"},
		{name: "annex B braces", src: "x = /a{|]/"},
		{name: "legacy octal escape", src: "x = /\\1(a)\\8/"},
		{name: "lone surrogate pair halves", src: "x = /\\ud800[\\udc00-\\udfff]/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, ModeAsyncBody)
			if tt.message == "" {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindParseError, e.Kind, e.Error())
			require.Contains(t, e.Message, tt.message)
		})
	}
}

package syntax

import (
	"errors"
	"fmt"
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

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		mode Mode
		line int
		col  int
	}{
		{name: "unexpected token", src: "let a = 1;\nlet b = (;", line: 2, col: 10},
		{name: "columns count UTF-16 units", src: "s = '😀' +;", line: 1, col: 11},
		{name: "top-level return in script", src: "return 1", mode: ModeScript, line: 1, col: 1},
		{name: "unterminated string", src: "x = 'abc", line: 1, col: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.src, tt.mode)
			var e *Error
			require.True(t, errors.As(err, &e), "got %v", err)
			require.Equal(t, KindParseError, e.Kind)
			require.Equal(t, tt.line, e.Line, e.Error())
			require.Equal(t, tt.col, e.Column, e.Error())
			require.Contains(t, e.Error(), fmt.Sprintf("(line %d, column %d)", tt.line, tt.col))
		})
	}
}

func TestStrict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		mode Mode
		want bool
	}{
		{name: "async body is always strict", src: "x = 1", mode: ModeAsyncBody, want: true},
		{name: "script without directive", src: "x = 1", mode: ModeScript, want: false},
		{name: "script with directive", src: "'use strict'; x = 1", mode: ModeScript, want: true},
		{name: "directive after another directive", src: "'a'\n\"use strict\"", mode: ModeScript, want: true},
		{name: "use strict after a statement is no directive", src: "x = 1; 'use strict'", mode: ModeScript, want: false},
		{name: "escaped use strict is no directive", src: "'use\\x20strict'", mode: ModeScript, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, tt.mode)
			require.NoError(t, err)
			require.Equal(t, tt.want, p.Strict)
		})
	}
}

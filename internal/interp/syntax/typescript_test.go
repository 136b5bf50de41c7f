package syntax

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

func TestEmptyProgram(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"", "   ", "\n\n\t", "// nothing\n", "/* a */ /* b */", "#!/usr/bin/env node\n"} {
		_, err := Parse(src, ModeAsyncBody)
		var se *Error
		require.True(t, errors.As(err, &se), "%q: %v", src, err)
		require.Equal(t, KindParseError, se.Kind, "%q", src)
		require.Equal(t, "source is empty", se.Message, "%q", src)
	}
	// a script (test262) may be empty; a program with an empty statement is not empty
	_, err := Parse("", ModeScript)
	require.NoError(t, err)
	_, err = Parse(";", ModeAsyncBody)
	require.NoError(t, err)
}

func TestTypeScriptUnsupported(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"enum", "const x: number = 1\nenum Color { Red, Green }", 2, 1, "enum"},
		{"const enum", "let a: string\n  const enum E { A = 1 }", 2, 9, "enum"},
		{"exported enum", "type T = 1\nexport enum E { A }", 2, 8, "enum"},
		{"namespace with values", "const a: number = 1\nnamespace NS { export const x = 1 }", 2, 1, "namespace"},
		{"module with values", "let a: number\nmodule M { const y = 2 }", 2, 1, "namespace"},
		{"parameter property", "class P {\n  constructor(private x: number) {}\n}", 2, 15, "parameter properties"},
		{"readonly parameter property", "class P { constructor(public a: string, readonly b: number) {} }", 1, 23, "parameter properties"},
		{"class decorator", "let n: number = 1\n@sealed\nclass C {}", 2, 1, "decorators"},
		{"member decorator", "class C {\n  x: number = 1\n  @log m() {}\n}", 3, 3, "decorators"},
		{"parameter decorator", "class C { m(@inject a: string) {} }", 1, 13, "decorators"},
		{"import equals", "let a: number\nimport fs = require(\"fs\")", 2, 1, "import x ="},
		{"export equals", "const a: number = 1\nexport = a", 2, 1, "export ="},
		{"enum after code on a long line", "const s: string = 'ü'; enum E { A }", 1, 24, "enum"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.src, ModeAsyncBody)
			var se *Error
			require.True(t, errors.As(err, &se), "%v", err)
			require.Equal(t, KindUnsupportedSyntax, se.Kind, "%v", se)
			require.Contains(t, se.Message, tc.msg)
			require.Equal(t, [2]int{tc.line, tc.col}, [2]int{se.Line, se.Column}, "%v", se)
		})
	}
}

// TestTypeScriptParseErrorPositions: an error in a TypeScript program is
// reported where the author wrote it.
func TestTypeScriptParseErrorPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		line, col int
	}{
		{"after annotations", "const a: number = 1\nconst b: string = )", 2, 19},
		{"after a multi-byte string type", "type A = \"éé\"; let x: A = (", 1, 28},
		{"export is still refused", "const a: number = 1\nexport const x = 1", 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.src, ModeAsyncBody)
			var se *Error
			require.True(t, errors.As(err, &se), "%v", err)
			require.Equal(t, [2]int{tc.line, tc.col}, [2]int{se.Line, se.Column}, "%v", se)
		})
	}
}

// TestJavaScriptNotStripped: a program that parses as JavaScript keeps
// JavaScript's reading even where TypeScript reads it otherwise.
func TestJavaScriptNotStripped(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"const f = 1, T = 2, x = 3; f < T > (x)",
		"let as = 1; as",
		"let type = 1, x = 2\ntype\nx = 3",
		"const a = b\n!c",
	} {
		p, err := Parse(src, ModeAsyncBody)
		require.NoError(t, err, src)
		require.Equal(t, src, p.Source)
		plain, err := js.Parse(parse.NewInputString(src), js.Options{Inline: true})
		require.NoError(t, err)
		require.Equal(t, plain.JSString(), p.AST.JSString(), src)
	}
}

// TestTypeScriptArrowDefaults: a typed arrow whose parameter defaults hold
// literals parses once blanked, through the same workaround as JavaScript.
func TestTypeScriptArrowDefaults(t *testing.T) {
	t.Parallel()
	p, err := Parse("const f = ({ w: [x] = [4] }: { w?: number[] }): number => x;\ng()", ModeAsyncBody)
	require.NoError(t, err)
	call := nthNode(t, p.AST, "*js.CallExpr", 0)
	require.Equal(t, Position{Line: 2, Column: 1}, p.Pos(call))
}

// TestTypeScriptPrograms: TypeScript texts that parse once blanked, with the
// position of their last statement unchanged.
func TestTypeScriptPrograms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		line, col int // where the last statement starts
	}{
		{"hashbang", "#!/usr/bin/env -S node --experimental-strip-types\nconst x: number = 1\nx", 3, 1},
		{"CRLF line ends", "type A = {\r\n  a: number\r\n}\r\nconst v: A = { a: 1 }\r\n  v", 5, 3},
		{"wide characters before", "const s: string = '😀😀'; let n: number = s.length; n", 1, 53},
		{"type named like a property", "const h = { type: 'x' as const }; const t: string = h.type as string; t", 1, 71},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tc.src, ModeAsyncBody)
			require.NoError(t, err)
			require.Equal(t, tc.src, p.Source)
			last := p.AST.List[len(p.AST.List)-1]
			require.Equal(t, Position{Line: tc.line, Column: tc.col}, p.Pos(last))
		})
	}
}

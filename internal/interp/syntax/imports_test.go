package syntax

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tdewolff/parse/v2/js"
)

// Import declarations are cut out of the source and put at the front of the program, at the
// position of their import keyword; every other node keeps its position.
func TestImportDeclarations(t *testing.T) {
	t.Parallel()
	src := "const a = 1\nimport fs, { readFile as rf, \"x-y\" as xy, } from \"node:fs\";  f(a)\nimport * as u from 'util'\nimport 'url'\nreturn a"
	p, err := Parse(src, ModeAsyncBody)
	require.NoError(t, err)
	var got []string
	var pos []Position
	for _, s := range p.AST.List {
		pos = append(pos, p.Pos(s))
		if imp, ok := s.(*js.ImportStmt); ok {
			got = append(got, ImportModule(imp))
			for _, b := range ImportBindings(imp) {
				got = append(got, b.Imported+">"+b.Local)
			}
			continue
		}
		got = append(got, s.String())
	}
	require.Equal(t, []string{
		"node:fs", "default>fs", "readFile>rf", "x-y>xy",
		"util", "*>u",
		"url",
		"Decl(const Binding(a = 1))", "Stmt(f(a))", "Stmt(return a)",
	}, got)
	require.Equal(t, []Position{{2, 1}, {3, 1}, {4, 1}, {1, 1}, {2, 62}, {5, 1}}, pos)
}

// A malformed declaration is a ParseError at its import keyword.
func TestMalformedImport(t *testing.T) {
	t.Parallel()
	_, err := Parse("let x\nimport { a as } from 'b'", ModeAsyncBody)
	var se *Error
	require.ErrorAs(t, err, &se)
	require.Equal(t, KindParseError, se.Kind)
	require.Equal(t, []int{2, 1}, []int{se.Line, se.Column})
}

// A classic script (ModeScript, as test262 runs them) has no import declarations.
func TestNoImportsInScripts(t *testing.T) {
	t.Parallel()
	_, err := Parse("import fs from 'fs'", ModeScript)
	var se *Error
	require.ErrorAs(t, err, &se)
	require.Equal(t, KindUnsupportedSyntax, se.Kind)
}

package syntax

import (
	"errors"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/tsstrip"
)

// parseTypeScript is tried on a program (ModeAsyncBody) that does not parse
// as JavaScript: tsstrip blanks its TypeScript-only text, keeping every
// offset, and the blanked text is parsed. It returns a nil AST when nothing
// was blanked (the JavaScript parse error stands). When the blanked text
// does not parse either, its error is returned: the program is TypeScript,
// and the error is where its JavaScript goes wrong, at the original
// position. Syntax tsstrip refuses is an UnsupportedSyntax.
func parseTypeScript(source string, lines *lineTable) (*buffer, *js.AST, error) {
	b := newBuffer(source).b // with a hashbang line turned into a comment
	out, changed, err := tsstrip.Strip(b)
	if err != nil {
		var te *tsstrip.Error
		if errors.As(err, &te) {
			pos := lines.position(te.Offset)
			return nil, nil, &Error{Kind: KindUnsupportedSyntax, Message: "TypeScript " + te.Message, Line: pos.Line, Column: pos.Column}
		}
		return nil, nil, &Error{Kind: KindParseError, Message: err.Error()}
	}
	if !changed {
		return nil, nil, nil
	}
	buf := newBufferBytes(out)
	ast, perr := parseJS(buf, js.Options{Inline: true})
	if perr != nil {
		// the blanked text may meet the parser's arrow-default bug too
		if fixed, fixedAST := reparseArrowDefaults(string(out)); fixedAST != nil {
			return fixed, fixedAST, nil
		}
		if uerr := moduleSyntaxIn(newBufferBytes(append([]byte(nil), out...)), lines); uerr != nil {
			return nil, nil, uerr
		}
		var pe *parse.Error
		if errors.As(perr, &pe) {
			// tdewolff counts columns in runes of the blanked text, where a
			// blanked character is one space per byte: go through the offset
			off := newLineTable(string(out)).offsetOf(pe.Line, pe.Column)
			pos := lines.position(off)
			return nil, nil, &Error{Kind: KindParseError, Message: pe.Message, Line: pos.Line, Column: pos.Column}
		}
		return nil, nil, convertParseError(perr, lines)
	}
	return buf, ast, nil
}

// stripThenCutImports reads source as a TypeScript program with import declarations: its
// types blanked (positions kept), then its value imports cut (imports.go). ok is false when
// source has no types, or the result still does not parse: the caller reports the error.
func stripThenCutImports(source string, lines *lineTable) (text string, buf *buffer, ast *js.AST, imports []importDecl, ok bool) {
	out, changed, serr := tsstrip.Strip(newBuffer(source).b)
	if serr != nil || !changed {
		return "", nil, nil, nil, false
	}
	text = string(out)
	buf = newBuffer(text)
	ast, err := parseJS(buf, js.Options{Inline: true})
	if err != nil {
		cut, decls, cerr := cutImports(text, err, lines)
		if cerr != nil || len(decls) == 0 {
			return "", nil, nil, nil, false
		}
		text, imports = cut, decls
		buf = newBuffer(text)
		if ast, err = parseJS(buf, js.Options{Inline: true}); err != nil {
			return "", nil, nil, nil, false
		}
	}
	return text, buf, ast, imports, true
}

// isEmpty reports whether a program has no statements: empty, or only
// whitespace and comments. Such a program is refused rather than run to an
// undefined result, which would hide a program lost on its way.
func isEmpty(ast *js.AST) bool {
	for _, s := range ast.List {
		if _, ok := s.(*js.Comment); !ok {
			return false
		}
	}
	return true
}

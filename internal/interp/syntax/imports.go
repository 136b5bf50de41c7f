package syntax

import (
	"bytes"
	"errors"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Import declarations.
//
// A program is the body of an async function, which tdewolff parses in its
// Inline mode; that mode has no import declarations (only modules have them,
// and a module cannot return at its top level). So an inline parse that fails
// at an import declaration has the declaration cut out: its bytes become the
// statements "0;0;" and spaces (line breaks are kept, so every other offset,
// line and column stays what it was), the declaration alone is parsed as a
// module, and the inline parse is run again. The declarations end up at the front of the program's
// statement list, where the compiler initialises their bindings before the
// program's first statement runs (imports are hoisted). Export declarations
// stay unsupported.

// maxImports bounds the declarations cut out of one program (each costs a parse).
const maxImports = 64

// importDecl is a declaration cut out of the source, and where it started.
type importDecl struct {
	stmt *js.ImportStmt
	off  int
}

// cutImports blanks the import declarations the inline parse of source fails
// at, until it fails elsewhere or succeeds. It returns the text to parse (each
// declaration replaced by two statements "0;" and spaces) and the declarations
// in source order; no declarations when the first failure (err) is not at one.
// A declaration that is not well formed is an *Error.
func cutImports(source string, err error, lines *lineTable) (string, []importDecl, error) {
	text := []byte(source)
	var decls []importDecl
	for range maxImports {
		off, ok := importAt(text, err, lines)
		if !ok {
			break
		}
		end, stmt, perr := readImport(text, off)
		if perr != nil {
			pos := lines.position(off)
			return "", nil, &Error{Kind: KindParseError, Message: perr.Error(), Line: pos.Line, Column: pos.Column}
		}
		// The declaration becomes two statements "0;" and spaces: where they land in the
		// tree tells whether the declaration was at the top level (addImports). (Empty
		// statements cannot tell: they have no identity, and a statement before may take a
		// semicolon as its own.)
		copy(text[off:], "0;0;")
		for i := off + len("0;0;"); i < end; i++ {
			if text[i] != '\n' && text[i] != '\r' {
				text[i] = ' '
			}
		}
		decls = append(decls, importDecl{stmt: stmt, off: off})
		if _, err = parseJS(newBufferBytes(bytes.Clone(text)), js.Options{Inline: true}); err == nil {
			break
		}
	}
	// The parse fails at the first declaration left, so decls are in source order.
	return string(text), decls, nil
}

// importAt returns the offset of the import keyword the parse error err is
// at: tdewolff reports the token after it ("import fs ..." fails at fs).
func importAt(text []byte, err error, lines *lineTable) (int, bool) {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return 0, false
	}
	off := lines.offsetOf(pe.Line, pe.Column)
	if off < 0 || off > len(text) {
		return 0, false
	}
	before := bytes.TrimRight(text[:off], " \t\r\n")
	if !bytes.HasSuffix(before, []byte("import")) || len(before) == len(text[:off]) {
		return 0, false
	}
	start := len(before) - len("import")
	if start > 0 {
		if c := before[start-1]; c == '.' || c == '$' || c == '_' || c == '\\' || c >= 0x80 ||
			('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			return 0, false
		}
	}
	return start, true
}

// errBadImport is returned for text at an import keyword that is no import declaration.
var errBadImport = errors.New("malformed import declaration")

// readImport finds the end of the import declaration at off (its module
// string and an optional semicolon) and parses it as a module.
func readImport(text []byte, off int) (int, *js.ImportStmt, error) {
	l := js.NewLexer(parse.NewInputBytes(bytes.Clone(text[off:])))
	pos := 0
	next := func() (js.TokenType, int) {
		for {
			tt, data := l.Next()
			pos += len(data)
			switch tt {
			case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
				continue
			}
			return tt, pos
		}
	}
	if tt, _ := next(); tt != js.ImportToken {
		return 0, nil, errBadImport
	}
	end := -1
	prev := js.ImportToken
	for range 1000 {
		tt, p := next()
		if tt == js.ErrorToken || tt == js.SemicolonToken {
			return 0, nil, errBadImport
		}
		if tt == js.StringToken && (prev == js.ImportToken || prev == js.FromToken) {
			end = p
			break
		}
		prev = tt
	}
	if end < 0 {
		return 0, nil, errBadImport
	}
	if tt, p := next(); tt == js.SemicolonToken {
		end = p
	}
	ast, err := js.Parse(parse.NewInputBytes(bytes.Clone(text[off:off+end])), js.Options{})
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			return 0, nil, errors.New(pe.Message)
		}
		return 0, nil, err
	}
	if len(ast.List) != 1 {
		return 0, nil, errBadImport
	}
	stmt, ok := ast.List[0].(*js.ImportStmt)
	if !ok {
		return 0, nil, errBadImport
	}
	return off + end, stmt, nil
}

// addImports replaces the statements standing for the declarations cut out of
// the source (cutImports) by the declarations, moved to the front of the
// program's statement list (imports are hoisted), each at the position of its
// import keyword. A declaration was at the top level when both its statements
// are in the top-level list; otherwise (the body of an if, a block, a
// function) it is an UnsupportedSyntax error.
func (p *Program) addImports(decls []importDecl) error {
	marks := map[int]bool{}
	for _, d := range decls {
		marks[d.off], marks[d.off+2] = true, true
		p.pos.start[d.stmt] = d.off
	}
	list := make([]js.IStmt, 0, len(p.AST.List))
	for _, d := range decls {
		list = append(list, d.stmt)
	}
	top := map[int]bool{}
	for _, s := range p.AST.List {
		if e, ok := s.(*js.ExprStmt); ok {
			if off, known := p.pos.start[e]; known && marks[off] && isZero(e) {
				top[off] = true
				continue
			}
		}
		list = append(list, s)
	}
	for _, d := range decls {
		if !top[d.off] || !top[d.off+2] {
			pos := p.lines.position(d.off)
			return &Error{Kind: KindUnsupportedSyntax, Line: pos.Line, Column: pos.Column,
				Message: "import declarations are only supported at the top level of a program"}
		}
	}
	p.AST.List = list
	return nil
}

// isZero reports whether s is the statement "0".
func isZero(s *js.ExprStmt) bool {
	lit, ok := s.Value.(*js.LiteralExpr)
	return ok && string(lit.Data) == "0"
}

// ImportBinding is one name an import declaration binds: Local, bound to the
// export Imported of the module ("default" for a default import, "*" for a
// namespace import).
type ImportBinding struct {
	Imported, Local string
}

// ImportBindings lists the names stmt binds, in source order.
func ImportBindings(stmt *js.ImportStmt) []ImportBinding {
	var out []ImportBinding
	if stmt.Default != nil {
		out = append(out, ImportBinding{Imported: "default", Local: identifierName(stmt.Default)})
	}
	for _, a := range stmt.List {
		if a.Binding == nil {
			continue // the parser's marker of a trailing comma
		}
		imported := string(a.Binding)
		if a.Name != nil {
			imported = string(a.Name)
		}
		if len(imported) >= 2 && (imported[0] == '"' || imported[0] == '\'') {
			imported = imported[1 : len(imported)-1]
		}
		out = append(out, ImportBinding{Imported: imported, Local: identifierName(a.Binding)})
	}
	return out
}

// ImportModule returns the module specifier of stmt, unquoted.
func ImportModule(stmt *js.ImportStmt) string {
	m := string(stmt.Module)
	if len(m) >= 2 {
		m = m[1 : len(m)-1]
	}
	return m
}

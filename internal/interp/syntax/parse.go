package syntax

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Mode selects how a source text is parsed.
type Mode int

const (
	// ModeAsyncBody parses a program as the body of an async function in
	// strict mode: top-level await and return are allowed.
	ModeAsyncBody Mode = iota
	// ModeScript parses a classic script (as test262 runs them): no
	// top-level await or return; strict only with a "use strict" directive.
	ModeScript
)

// Position is a 1-based line and column in the source; the zero value means
// unknown. Column counts UTF-16 code units from the start of the line (as V8
// and node report it; for text in the Basic Multilingual Plane this is the
// character count).
type Position struct {
	Line, Column int
}

// Program is a parsed, checked program.
type Program struct {
	// AST is the tree produced by tdewolff/parse; its byte slices point into
	// a private copy of Source.
	AST *js.AST
	// Source is the program text as given to Parse.
	Source string
	// Strict reports strict mode: always true for ModeAsyncBody; for
	// ModeScript, true when the script starts with a "use strict" directive.
	Strict bool

	lines *lineTable
	pos   positions
}

// Parse parses source in the given mode, recovers node positions and runs
// the early-error and supported-language checks. Every failure is an *Error
// (Kind KindParseError or KindUnsupportedSyntax).
func Parse(source string, mode Mode) (*Program, error) {
	buf := newBuffer(source)
	lines := newLineTable(source)
	ast, err := parseJS(buf, js.Options{Inline: true})
	text := source // the source with its import declarations blanked (imports.go)
	var imports []importDecl
	if err != nil && mode == ModeAsyncBody { // a classic script has no import declarations
		var cerr error
		text, imports, cerr = cutImports(source, err, lines)
		if cerr == nil && len(imports) > 0 {
			buf = newBuffer(text)
			ast, err = parseJS(buf, js.Options{Inline: true})
		}
		if cerr != nil || err != nil {
			// A TypeScript program: strip its types first (its type-only imports with them),
			// then cut the value imports that remain.
			if st, sbuf, sast, simports, ok := stripThenCutImports(source, lines); ok {
				text, imports, buf, ast, err, cerr = st, simports, sbuf, sast, nil, nil
			}
			if cerr != nil {
				return nil, cerr
			}
		}
	}
	if err != nil {
		if uerr := moduleSyntax(text, lines); uerr != nil {
			return nil, uerr
		}
		fixed, fixedAST := reparseArrowDefaults(text)
		if fixedAST == nil && mode == ModeAsyncBody {
			var terr error
			fixed, fixedAST, terr = parseTypeScript(text, lines)
			if terr != nil {
				return nil, terr
			}
		}
		if fixedAST == nil {
			return nil, convertParseError(err, lines)
		}
		buf, ast = fixed, fixedAST
	}
	if mode == ModeAsyncBody && isEmpty(ast) {
		return nil, &Error{Kind: KindParseError, Message: "source is empty"}
	}
	p := &Program{
		AST:    ast,
		Source: source,
		Strict: mode == ModeAsyncBody || hasUseStrict(ast.List),
		lines:  lines,
		pos:    computePositions(ast, buf),
	}
	if len(imports) > 0 {
		if err := p.addImports(imports); err != nil {
			return nil, err
		}
	}
	if p.pos.errOff >= 0 {
		pos := lines.position(p.pos.errOff)
		return nil, &Error{Kind: KindParseError, Message: p.pos.errMsg, Line: pos.Line, Column: pos.Column}
	}
	if err := check(ast, mode, p.Strict, p.pos, lines); err != nil {
		return nil, err
	}
	return p, nil
}

// Pos returns where node starts, or the zero Position when unknown. Nodes
// are keyed by pointer: statements, expressions (*js.CallExpr, *js.DotExpr,
// *js.BinaryExpr, ...), bindings, functions and classes. Identifier uses
// (*js.Var) have no position of their own, since all uses of a variable
// share one *js.Var; use the enclosing expression instead.
func (p *Program) Pos(node js.INode) Position {
	if !isPointer(node) {
		return Position{}
	}
	off, ok := p.pos.start[node]
	if !ok {
		return Position{}
	}
	return p.lines.position(off)
}

// Text returns the byte offsets [start, end) in Source of the text of a function, method,
// arrow function or class node, as Function.prototype.toString returns it; ok is false when
// unknown.
func (p *Program) Text(node js.INode) (start, end int, ok bool) {
	if !isPointer(node) {
		return 0, 0, false
	}
	r, ok := p.pos.text[node]
	return r[0], r[1], ok
}

// ErrorPos returns where V8 reports a run-time error raised by node: the
// property name of a dot access, the '[' of an index access, for a call the
// property name of a method callee, the start of an identifier callee and
// the '(' of any other callee, the template of a tagged template, the
// operator of a unary, binary or assignment expression, and otherwise the
// start of the node (as Pos).
func (p *Program) ErrorPos(node js.INode) Position {
	if !isPointer(node) {
		return Position{}
	}
	if off, ok := p.pos.op[node]; ok {
		return p.lines.position(off)
	}
	return p.Pos(node)
}

// TrailingHoles returns the number of elisions that end the array binding
// pattern n ([a,,] and [,] have one; [a,] has none): tdewolff keeps the holes
// before an element in n.List but drops those after the last one, and
// each of them still steps the iterator.
func (p *Program) TrailingHoles(n *js.BindingArray) int {
	return p.pos.holes[n]
}

// Shorthand reports whether the object literal property p was written as a
// bare name ({a} or {a = 1}), which tdewolff stores like {a: a}.
func (p *Program) Shorthand(prop *js.Property) bool {
	return p.pos.shorthand[prop]
}

// parseJS runs the tdewolff parser over buf. A panic inside the parser is
// reported as an error rather than crashing the caller.
func parseJS(buf *buffer, opts js.Options) (ast *js.AST, err error) {
	defer func() {
		if r := recover(); r != nil {
			ast, err = nil, fmt.Errorf("%w: %v", errParserPanic, r)
		}
	}()
	return js.Parse(parse.NewInputBytes(buf.b), opts)
}

// moduleSyntax explains a parse failure caused by import or export
// declarations: when the source parses as a module, it returns an
// UnsupportedSyntax error at the first such declaration, else nil.
func moduleSyntax(source string, lines *lineTable) error {
	if !strings.Contains(source, "import") && !strings.Contains(source, "export") {
		return nil
	}
	return moduleSyntaxIn(newBuffer(source), lines)
}

// moduleSyntaxIn is moduleSyntax over a buffer whose offsets are those of
// the source lines describes.
func moduleSyntaxIn(buf *buffer, lines *lineTable) error {
	ast, err := parseJS(buf, js.Options{})
	if err != nil {
		return nil
	}
	pos := computePositions(ast, buf)
	for _, s := range ast.List {
		switch s.(type) {
		case *js.ImportStmt:
			// An import declaration left in the text could not be cut out (imports.go): it is
			// not at the program's top level.
			c := &checker{pos: pos, lines: lines}
			c.unsupported(s, "import declarations are only supported at the top level of a program")
			return c.err
		case *js.ExportStmt:
			c := &checker{pos: pos, lines: lines}
			c.stmt(s)
			return c.err
		}
	}
	return nil
}

// IdentPos returns where the identifier v is used as a direct operand of
// parent (for example the zz of the BinaryExpr 1 + zz, the f of the
// CallExpr f(), or the x of the ExprStmt x;), or the zero Position when
// unknown. When parent uses v twice, the first use is returned. This is
// where V8 reports a ReferenceError for an undeclared name.
func (p *Program) IdentPos(parent js.INode, v *js.Var) Position {
	if !isPointer(parent) || v == nil {
		return Position{}
	}
	off, ok := p.pos.ident[identKey{parent, v}]
	if !ok {
		return Position{}
	}
	return p.lines.position(off)
}

// hasUseStrict reports whether the directive prologue of list contains an
// exact "use strict" directive.
func hasUseStrict(list []js.IStmt) bool {
	for _, s := range list {
		switch n := s.(type) {
		case *js.DirectivePrologueStmt:
			return true
		case *js.ExprStmt:
			lit, ok := n.Value.(*js.LiteralExpr)
			if !ok || lit.TokenType != js.StringToken {
				return false
			}
			if d := string(lit.Data); d == `"use strict"` || d == `'use strict'` {
				return true
			}
		case *js.Comment:
		default:
			return false
		}
	}
	return false
}

func convertParseError(err error, lines *lineTable) error {
	var pe *parse.Error
	if errors.As(err, &pe) {
		pos := lines.position(lines.offsetOf(pe.Line, pe.Column))
		return &Error{Kind: KindParseError, Message: pe.Message, Line: pos.Line, Column: pos.Column}
	}
	return &Error{Kind: KindParseError, Message: fmt.Sprintf("parse: %v", err)}
}

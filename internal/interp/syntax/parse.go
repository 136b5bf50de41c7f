package syntax

import (
	"errors"
	"fmt"

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
// unknown. Column counts UTF-16 code units, as V8 reports it.
type Position struct {
	Line, Column int
}

// Program is a parsed, checked program.
type Program struct {
	// AST is the tree produced by tdewolff/parse; its byte slices point into Source.
	AST *js.AST
	// Source is the program text as given to Parse.
	Source string
	// Strict reports strict mode: always true for ModeAsyncBody; for
	// ModeScript, true when the script starts with a "use strict" directive.
	Strict bool

	pos map[js.INode]int // node -> byte offset in Source
}

// Parse parses source in the given mode and runs the early-error checks.
// Every failure is an *Error.
func Parse(source string, mode Mode) (*Program, error) {
	ast, err := js.Parse(parse.NewInputString(source), js.Options{Inline: mode == ModeAsyncBody})
	if err != nil {
		return nil, convertParseError(err)
	}
	return &Program{AST: ast, Source: source, Strict: mode == ModeAsyncBody}, nil
}

// Pos returns where node starts, or the zero Position when unknown.
func (p *Program) Pos(node js.INode) Position {
	return Position{}
}

func convertParseError(err error) error {
	var pe *parse.Error
	if errors.As(err, &pe) {
		return &Error{Kind: KindParseError, Message: pe.Message, Line: pe.Line, Column: pe.Column}
	}
	return &Error{Kind: KindParseError, Message: fmt.Sprintf("parse: %v", err)}
}

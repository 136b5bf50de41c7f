package syntax

import (
	"errors"
	"fmt"
)

// errParserPanic marks a panic inside the tdewolff parser, reported as a
// ParseError.
var errParserPanic = errors.New("parser failure")

// Error kinds reported in Error.Kind.
const (
	// KindParseError is a malformed program or an ECMAScript early error
	// (a SyntaxError in JavaScript terms).
	KindParseError = "ParseError"
	// KindUnsupportedSyntax is valid JavaScript outside the supported language.
	KindUnsupportedSyntax = "UnsupportedSyntax"
)

// Error is a front-end failure. Kind is KindParseError (SyntaxError class:
// malformed program or early error) or KindUnsupportedSyntax (valid
// JavaScript outside the language). Line and Column are 1-based; zero means
// unknown. Column counts UTF-16 code units from the start of the line, as V8
// reports it.
type Error struct {
	Kind    string
	Message string
	Line    int
	Column  int
}

// Error formats the error as "Kind: message (line L, column C)".
func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Kind, e.Message)
	}
	return fmt.Sprintf("%s: %s (line %d, column %d)", e.Kind, e.Message, e.Line, e.Column)
}

package interp

import "fmt"

// Diagnostic is an error that ends a run (or a compile) with a kind from the
// language definition: ParseError, UnsupportedSyntax, TimeoutExceeded,
// MemoryLimitExceeded, ExecutionFailure, InvalidDataValue, ... Line and Column
// are 1-based; zero means unknown.
type Diagnostic struct {
	Kind    string
	Message string
	Line    int
	Column  int
}

// Error formats the diagnostic as "Kind: message (line L, column C)".
func (d *Diagnostic) Error() string {
	if d.Line == 0 {
		return fmt.Sprintf("%s: %s", d.Kind, d.Message)
	}
	return fmt.Sprintf("%s: %s (line %d, column %d)", d.Kind, d.Message, d.Line, d.Column)
}

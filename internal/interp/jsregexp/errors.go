package jsregexp

import "errors"

var (
	// ErrTimeout is returned by Exec when the deadline passes before the match finishes.
	ErrTimeout = errors.New("regexp: match timed out")
	// ErrInputTooLarge is returned by Exec for inputs longer than MaxInput code units.
	ErrInputTooLarge = errors.New("regexp: input too large")
	// ErrBacktrackLimit is returned by Exec when the match needs more backtracking state than
	// MaxBacktrackSlots allows; JavaScript engines report it as a stack overflow.
	ErrBacktrackLimit = errors.New("regexp: backtracking stack exhausted")
)

// FlagsError is returned by ParseFlags for an unknown or repeated flag, or u together with v.
// The interpreter throws it as a SyntaxError.
type FlagsError struct {
	Flags string // the flags as written
}

// Error returns V8's message for the error.
func (e *FlagsError) Error() string {
	return "Invalid flags supplied to RegExp constructor '" + e.Flags + "'"
}

// SyntaxError is returned by Compile for a pattern that is not a valid JavaScript regular
// expression under its flags. The interpreter throws it as a SyntaxError with Error() as message.
type SyntaxError struct {
	Source  string // the pattern as written (lone surrogates replaced by U+FFFD)
	Flags   string // canonical flags, "dgimsuvy" order
	Message string // V8's description, e.g. "Unterminated group"
}

// Error returns the message in V8's form: "Invalid regular expression: /src/flags: message".
func (e *SyntaxError) Error() string {
	return "Invalid regular expression: /" + e.Source + "/" + e.Flags + ": " + e.Message
}

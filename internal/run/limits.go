package run

import (
	"errors"
	"fmt"
)

// ErrInvalidLimit is wrapped by every *LimitError.
var ErrInvalidLimit = errors.New("invalid limit")

// Limits bounds what one run may use. Zero means no limit for every field;
// negative values are invalid. The JSON names are those of the HTTP API.
type Limits struct {
	// TimeoutMs is the active running time of the run in milliseconds,
	// summed across resumes (time spent suspended does not count).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// MaxToolCalls is the number of host calls (tools and search) the run may
	// make, counted across resumes.
	MaxToolCalls int64 `json:"maxToolCalls,omitempty"`
	// MaxOutputBytes bounds the Result's value and logs in bytes of JSON;
	// beyond it the output is truncated in band (see Result.LimitOutput).
	MaxOutputBytes int64 `json:"maxOutputBytes,omitempty"`
	// MaxMemoryBytes bounds the interpreter's heap accounting (strings,
	// arrays, objects) in bytes.
	MaxMemoryBytes int64 `json:"maxMemoryBytes,omitempty"`
	// MaxSnapshotBytes bounds the size of a suspended run's state in bytes;
	// a larger snapshot fails the suspend without harming the run.
	MaxSnapshotBytes int64 `json:"maxSnapshotBytes,omitempty"`
}

// LimitError reports an invalid limit.
type LimitError struct {
	// Field is the JSON name of the limit ("maxToolCalls").
	Field string
	// Value is the value given.
	Value int64
}

// Error reads "invalid limit: maxToolCalls is -1; limits are 0 (no limit) or
// positive".
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s is %d; limits are 0 (no limit) or positive", ErrInvalidLimit, e.Field, e.Value)
}

// Unwrap returns ErrInvalidLimit.
func (e *LimitError) Unwrap() error { return ErrInvalidLimit }

// Validate returns a *LimitError naming the first negative field.
func (l Limits) Validate() error {
	fields := []struct {
		name  string
		value int64
	}{
		{"timeoutMs", l.TimeoutMs},
		{"maxToolCalls", l.MaxToolCalls},
		{"maxOutputBytes", l.MaxOutputBytes},
		{"maxMemoryBytes", l.MaxMemoryBytes},
		{"maxSnapshotBytes", l.MaxSnapshotBytes},
	}
	for _, f := range fields {
		if f.value < 0 {
			return &LimitError{Field: f.name, Value: f.value}
		}
	}
	return nil
}

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

// DefaultCeilings are the largest limits a worker grants one run unless configured otherwise:
// 1 hour of active time, 10,000 tool calls, 16 MiB of output, 512 MiB of heap and 16 MiB of
// snapshot. A run's own limits may lower them, never raise or lift them.
var DefaultCeilings = Limits{
	TimeoutMs:        60 * 60 * 1000,
	MaxToolCalls:     10_000,
	MaxOutputBytes:   16 << 20,
	MaxMemoryBytes:   512 << 20,
	MaxSnapshotBytes: 16 << 20,
}

// Within returns l held to the ceilings: every field above its ceiling, or zero (no limit),
// takes the ceiling's value. A zero ceiling field holds nothing.
func (l Limits) Within(ceil Limits) Limits {
	capped := func(v, c int64) int64 {
		if c > 0 && (v <= 0 || v > c) {
			return c
		}
		return v
	}
	return Limits{
		TimeoutMs:        capped(l.TimeoutMs, ceil.TimeoutMs),
		MaxToolCalls:     capped(l.MaxToolCalls, ceil.MaxToolCalls),
		MaxOutputBytes:   capped(l.MaxOutputBytes, ceil.MaxOutputBytes),
		MaxMemoryBytes:   capped(l.MaxMemoryBytes, ceil.MaxMemoryBytes),
		MaxSnapshotBytes: capped(l.MaxSnapshotBytes, ceil.MaxSnapshotBytes),
	}
}

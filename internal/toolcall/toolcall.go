// Package toolcall is the vocabulary of one tool call, shared by the runtime (internal/run),
// the tool protocol's client (internal/toolset), the durable service (internal/durable) and its
// API (internal/api): a call's identity and idempotency key, how a call ended (Outcome), and a
// tool's own failure (ToolError). It imports nothing of the project's, so that each of those
// packages can use it without depending on another (the protocol client, notably, not on the
// interpreter).
package toolcall

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Call identifies one host call of a run. Every call of a run (tool calls and search) gets the
// next CallID, starting at 1; Key is Key(RunID, CallID) and is what toolsets use to deduplicate
// retried or repeated calls.
type Call struct {
	// RunID is the id of the run making the call.
	RunID string
	// CallID is the call's sequence number within the run, from 1.
	CallID int64
	// Key is "<RunID>:<CallID>", stable across retries and resumes.
	Key string
	// Path is the registered dotted path of the tool called ("math.add").
	Path string
}

// Key returns the idempotency key of call callID of run runID: "<runID>:<callID>". A run
// re-driven after a crash makes the same calls under the same keys.
func Key(runID string, callID int64) string {
	return runID + ":" + strconv.FormatInt(callID, 10)
}

// Outcome is how a call ended: a value, or an error the program sees as a thrown Error. Its JSON
// form, stored by the durable service and posted to its API for durable calls, is
// {"ok":true,"value":X} or {"ok":false,"error":{"message":"..."}}.
type Outcome struct {
	// OK is true when the call succeeded with Value.
	OK bool `json:"ok"`
	// Value is the output of a successful call.
	Value json.RawMessage `json:"value,omitempty"`
	// Error says why the call failed when OK is false.
	Error *OutcomeError `json:"error,omitempty"`
}

// OutcomeError is the failure of a call; the program sees a thrown Error with Message.
type OutcomeError struct {
	// Message is the error message the program sees.
	Message string `json:"message"`
}

// ErrInvalidOutcome is wrapped by errors about malformed outcomes.
var ErrInvalidOutcome = errors.New("invalid outcome")

// Validate reports whether the outcome is well formed: a success carries no error, a failure
// carries an error and no value.
func (o Outcome) Validate() error {
	if o.OK {
		if o.Error != nil {
			return fmt.Errorf("%w: a successful outcome has no error", ErrInvalidOutcome)
		}
		return nil
	}
	if o.Error == nil {
		return fmt.Errorf("%w: a failed outcome needs an error", ErrInvalidOutcome)
	}
	if len(o.Value) > 0 {
		return fmt.Errorf("%w: a failed outcome has no value", ErrInvalidOutcome)
	}
	return nil
}

// ToolError is a tool's own failure (a toolset's 200 {"error"} or 4xx answer, a built-in
// tool's refusal): the program sees a thrown Error with Message (uncaught, it ends the run with
// a ToolFailure diagnostic).
type ToolError struct {
	// Message is the error message the program sees.
	Message string
}

// Error returns the message.
func (e *ToolError) Error() string { return e.Message }

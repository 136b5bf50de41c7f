package runtools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

// Approval returns the built-in durable tool approvals.request {reason} →
// {approved, by?}: Start returns the handle {"approvalId": <call key>} and
// the outcome arrives from outside (Attach returns run.ErrNotAttachable), as
// a person answers through the API.
func Approval() run.Tool {
	return run.Tool{
		Path:        "approvals.request",
		Description: "Ask a person to approve; the run waits (suspended) for the answer",
		Input:       json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","minLength":1}},"required":["reason"]}`),
		Output:      json.RawMessage(`{"type":"object","properties":{"approved":{"type":"boolean"},"by":{"type":"string"}},"required":["approved"]}`),
		Durable:     approvalTool{},
	}
}

type approvalTool struct{}

var _ run.Durable = approvalTool{}

// Start returns the approval's handle.
func (approvalTool) Start(_ context.Context, _ json.RawMessage, call toolcall.Call) (run.Started, error) {
	h, err := json.Marshal(map[string]string{"approvalId": call.Key})
	if err != nil {
		return run.Started{}, fmt.Errorf("approvals.request: encode handle: %w", err)
	}
	return run.Started{Handle: h}, nil
}

// Attach returns run.ErrNotAttachable.
func (approvalTool) Attach(context.Context, json.RawMessage, toolcall.Call) (toolcall.Outcome, error) {
	return toolcall.Outcome{}, run.ErrNotAttachable
}

// Cancel has nothing to undo: an unanswered approval simply lapses.
func (approvalTool) Cancel(context.Context, json.RawMessage, toolcall.Call) error { return nil }

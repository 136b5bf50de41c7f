package runtools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

// MaxSleep caps the duration of one time.sleep call.
const MaxSleep = 30 * 24 * time.Hour

// sleepInput is the input of time.sleep.
type sleepInput struct {
	Ms int64 `json:"ms"`
}

// sleepHandle names a sleep in progress: the instant it ends and its
// length, so Attach after a resume in another process needs nothing else.
type sleepHandle struct {
	Until time.Time `json:"until"`
	Ms    int64     `json:"ms"`
}

// Sleep returns the built-in durable tool time.sleep {ms} → {slept}. Start
// returns a handle holding the wake-up instant (from now, the clock; nil
// means time.Now), so a run may suspend across the wait; Attach waits in
// process until that instant (or ctx ends); Cancel has nothing to undo.
// ms must be 0..MaxSleep.
func Sleep(now func() time.Time) run.Tool {
	if now == nil {
		now = time.Now
	}
	return run.Tool{
		Path:        "time.sleep",
		Description: "Wait ms milliseconds (durable: the run may be suspended meanwhile)",
		Input:       json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":%d}},"required":["ms"],"additionalProperties":false}`, MaxSleep.Milliseconds())),
		Output:      json.RawMessage(`{"type":"object","properties":{"slept":{"type":"integer"}},"required":["slept"]}`),
		Durable:     &sleepTool{now: now},
	}
}

type sleepTool struct {
	now func() time.Time
}

var _ run.Durable = (*sleepTool)(nil)

// Start records the wake-up instant; a zero sleep is done at once.
func (s *sleepTool) Start(_ context.Context, input json.RawMessage, _ toolcall.Call) (run.Started, error) {
	var in sleepInput
	if err := json.Unmarshal(input, &in); err != nil {
		return run.Started{}, &toolcall.ToolError{Message: "time.sleep: input must be {ms: integer}"}
	}
	if in.Ms < 0 || in.Ms > MaxSleep.Milliseconds() {
		return run.Started{}, &toolcall.ToolError{Message: fmt.Sprintf("time.sleep: ms must be 0..%d", MaxSleep.Milliseconds())}
	}
	if in.Ms == 0 {
		return run.Started{Done: true, Output: json.RawMessage(`{"slept":0}`)}, nil
	}
	h, err := json.Marshal(sleepHandle{Until: s.now().Add(time.Duration(in.Ms) * time.Millisecond).UTC(), Ms: in.Ms})
	if err != nil {
		return run.Started{}, fmt.Errorf("time.sleep: encode handle: %w", err)
	}
	return run.Started{Handle: h}, nil
}

// Attach waits until the handle's instant, then succeeds with {slept}.
func (s *sleepTool) Attach(ctx context.Context, handle json.RawMessage, _ toolcall.Call) (toolcall.Outcome, error) {
	var h sleepHandle
	if err := json.Unmarshal(handle, &h); err != nil || h.Until.IsZero() {
		return toolcall.Outcome{}, fmt.Errorf("time.sleep: malformed handle %s", handle)
	}
	if wait := h.Until.Sub(s.now()); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return toolcall.Outcome{}, ctx.Err()
		case <-t.C:
		}
	}
	return toolcall.Outcome{OK: true, Value: json.RawMessage(fmt.Sprintf(`{"slept":%d}`, h.Ms))}, nil
}

// Cancel has nothing to undo.
func (s *sleepTool) Cancel(context.Context, json.RawMessage, toolcall.Call) error { return nil }

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

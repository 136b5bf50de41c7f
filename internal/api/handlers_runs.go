package api

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

func (h *handlers) waitFor(seconds *gen.Wait) time.Duration {
	if seconds == nil || *seconds <= 0 {
		return 0
	}
	return min(time.Duration(float64(*seconds)*float64(time.Second)), h.cfg.MaxWait)
}

// idempotencyKey is the Idempotency-Key header's value ("" without one), refused (400) when
// it could not be stored.
func idempotencyKey(header *string) (string, error) {
	if header == nil {
		return "", nil
	}
	if err := storableText(field{"Idempotency-Key", *header}); err != nil {
		return "", err
	}
	return *header, nil
}

// maxIDLength bounds the run and schedule ids of paths (api/openapi.yaml's maxLength of the
// RunID and ScheduleID parameters): they are UUIDs, 36 characters as the API writes them. The
// spec's validation refuses a longer one (400); the store would take some longer spellings
// (urn:uuid:...) for a UUID that PostgreSQL does not read.
const maxIDLength = 36

// CreateRun implements gen.StrictServerInterface.
func (h *handlers) CreateRun(ctx context.Context, req gen.CreateRunRequestObject) (gen.CreateRunResponseObject, error) {
	body := req.Body
	if err := fewToolsets(body.Toolsets); err != nil {
		return nil, err
	}
	text := []field{{"code", body.Code}}
	if body.Toolsets != nil {
		for _, name := range *body.Toolsets {
			text = append(text, field{"toolsets", name})
		}
	}
	if body.Webhook != nil {
		text = append(text, field{"webhook.url", body.Webhook.Url})
		if body.Webhook.Secret != nil {
			text = append(text, field{"webhook.secret", *body.Webhook.Secret})
		}
	}
	if err := storableText(text...); err != nil {
		return nil, err
	}
	key, err := idempotencyKey(req.Params.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	if body.Webhook != nil {
		if err := httpURLs(field{"webhook.url", body.Webhook.Url}); err != nil {
			return nil, err
		}
	}
	if body.Webhook != nil && body.Webhook.Secret != nil {
		if err := usableSecret("webhook.secret", *body.Webhook.Secret); err != nil {
			return nil, err
		}
	}
	n := durable.NewRun{Code: body.Code}
	if body.Input != nil {
		n.Input = *body.Input
	}
	if body.Toolsets != nil {
		n.Toolsets = *body.Toolsets
	}
	if body.Limits != nil {
		raw, err := h.limitsJSON(*body.Limits)
		if err != nil {
			return nil, err
		}
		n.Limits = raw
	}
	if body.Webhook != nil {
		n.Webhook = &durable.Webhook{URL: body.Webhook.Url}
		if body.Webhook.Secret != nil {
			n.Webhook.Secret = *body.Webhook.Secret
		}
	}
	n.IdempotencyKey = key
	run, created, err := h.store.CreateRunWait(ctx, n, h.waitFor(req.Params.Wait), func(status string) bool {
		return status == durable.StatusSuspended || durable.IsFinal(status)
	})
	if err != nil {
		return nil, err
	}
	if !created {
		return gen.CreateRun200JSONResponse(toRun(run)), nil
	}
	return gen.CreateRun201JSONResponse(toRun(run)), nil
}

// checkLimits refuses limits outside 1 to the workers' ceilings.
// limitsJSON checks a run's limits against the ceilings and encodes them as stored.
func (h *handlers) limitsJSON(l gen.Limits) (json.RawMessage, error) {
	if err := h.checkLimits(l); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("encode limits: %w", err)
	}
	return raw, nil
}

func (h *handlers) checkLimits(l gen.Limits) error {
	ceil := h.cfg.LimitCeilings
	for _, f := range []struct {
		name  string
		value *int64
		max   int64
	}{
		{"timeoutMs", l.TimeoutMs, ceil.TimeoutMs},
		{"maxToolCalls", l.MaxToolCalls, ceil.MaxToolCalls},
		{"maxOutputBytes", l.MaxOutputBytes, ceil.MaxOutputBytes},
		{"maxMemoryBytes", l.MaxMemoryBytes, ceil.MaxMemoryBytes},
	} {
		if f.value != nil && (*f.value < 1 || *f.value > f.max) {
			return fmt.Errorf("%w: limits.%s is %d; allowed range is 1 to %d", errBadRequest, f.name, *f.value, f.max)
		}
	}
	return nil
}

// GetRun implements gen.StrictServerInterface.
func (h *handlers) GetRun(ctx context.Context, req gen.GetRunRequestObject) (gen.GetRunResponseObject, error) {
	var (
		run durable.Run
		err error
	)
	if wait := h.waitFor(req.Params.Wait); wait > 0 {
		run, err = h.store.WaitRunChange(ctx, req.Id, wait)
	} else {
		run, err = h.store.GetRun(ctx, req.Id)
	}
	if err != nil {
		return nil, err
	}
	out, err := h.withLineage(ctx, toRun(run), run.Lineage)
	if err != nil {
		return nil, err
	}
	return gen.GetRun200JSONResponse(out), nil
}

// ListRuns implements gen.StrictServerInterface.
func (h *handlers) ListRuns(ctx context.Context, req gen.ListRunsRequestObject) (gen.ListRunsResponseObject, error) {
	p := req.Params
	f := durable.ListFilter{CreatedAfter: p.CreatedAfter}
	if p.Status != nil {
		f.Status = string(*p.Status)
	}
	if p.Toolset != nil {
		f.Toolset = *p.Toolset
	}
	if p.Schedule != nil {
		f.Schedule = *p.Schedule
	}
	if p.Limit != nil {
		f.Limit = *p.Limit
	}
	if p.Cursor != nil {
		f.Cursor = *p.Cursor
	}
	runs, next, err := h.store.ListRuns(ctx, f)
	if err != nil {
		return nil, err
	}
	out := gen.RunList{Runs: make([]gen.Run, 0, len(runs))}
	for _, r := range runs {
		out.Runs = append(out.Runs, toRun(r))
	}
	if next != "" {
		out.Next = &next
	}
	return gen.ListRuns200JSONResponse(out), nil
}

// ListCalls implements gen.StrictServerInterface.
func (h *handlers) ListCalls(ctx context.Context, req gen.ListCallsRequestObject) (gen.ListCallsResponseObject, error) {
	calls, err := h.store.ListCalls(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	out := gen.CallList{Calls: make([]gen.Call, 0, len(calls))}
	for _, c := range calls {
		out.Calls = append(out.Calls, toCall(c))
	}
	return gen.ListCalls200JSONResponse(out), nil
}

// PostOutcome implements gen.StrictServerInterface.
func (h *handlers) PostOutcome(ctx context.Context, req gen.PostOutcomeRequestObject) (gen.PostOutcomeResponseObject, error) {
	if !req.Body.Ok && req.Body.Error == nil {
		return nil, fmt.Errorf("%w: error is required when ok is false", errBadRequest)
	}
	if req.Body.Ok && req.Body.Error != nil {
		return nil, fmt.Errorf("%w: error must be absent when ok is true", errBadRequest)
	}
	// A failed outcome with a value was stored, and then refused by the worker resuming the
	// run, which could never resume.
	if !req.Body.Ok && req.Body.Value != nil {
		return nil, fmt.Errorf("%w: value must be absent when ok is false", errBadRequest)
	}
	o, err := fromOutcome(*req.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: value: %w", errBadRequest, err)
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadRequest, err)
	}
	recorded, err := h.store.RecordOutcome(ctx, req.Id, req.CallId, o)
	if err != nil {
		return nil, err
	}
	if recorded == durable.OutcomeDuplicate {
		return gen.PostOutcome200JSONResponse{RunId: req.Id, CallId: req.CallId, Status: gen.Duplicate}, nil
	}
	return gen.PostOutcome202JSONResponse{RunId: req.Id, CallId: req.CallId, Status: gen.Recorded}, nil
}

// CancelRun implements gen.StrictServerInterface.
func (h *handlers) CancelRun(ctx context.Context, req gen.CancelRunRequestObject) (gen.CancelRunResponseObject, error) {
	run, err := h.store.CancelRun(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return gen.CancelRun200JSONResponse(toRun(run)), nil
}

// ListEvents implements gen.StrictServerInterface. With "Accept: text/event-stream" the events
// are streamed (eventStream), continuing after the after parameter or else Last-Event-ID.
func (h *handlers) ListEvents(ctx context.Context, req gen.ListEventsRequestObject) (gen.ListEventsResponseObject, error) {
	after, limit := int64(0), 1000
	if req.Params.LastEventID != nil && wantsStream(ctx) {
		after = *req.Params.LastEventID
	}
	if req.Params.After != nil {
		after = *req.Params.After
	}
	if req.Params.Limit != nil {
		limit = *req.Params.Limit
	}
	if wantsStream(ctx) {
		// The run must exist before the stream's 200 is sent.
		if _, _, err := h.store.EventsSince(ctx, req.Id, after, 0); err != nil {
			return nil, err
		}
		return eventStream{ctx: ctx, store: h.store, runID: req.Id, after: after}, nil
	}
	events, err := h.store.ListEvents(ctx, req.Id, after, limit)
	if err != nil {
		return nil, err
	}
	out := gen.EventList{Events: make([]gen.Event, 0, len(events))}
	for _, e := range events {
		out.Events = append(out.Events, toEvent(e))
	}
	return gen.ListEvents200JSONResponse(out), nil
}

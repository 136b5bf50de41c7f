package api

import (
	"context"
	"fmt"
	"math"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// RetryRun implements gen.StrictServerInterface.
func (h *handlers) RetryRun(ctx context.Context, req gen.RetryRunRequestObject) (gen.RetryRunResponseObject, error) {
	key, err := idempotencyKey(req.Params.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	run, created, err := h.store.RetryRun(ctx, req.Id, key)
	if err != nil {
		return nil, err
	}
	out, err := h.withLineage(ctx, toRun(run), run.Lineage)
	if err != nil {
		return nil, err
	}
	if !created {
		return gen.RetryRun200JSONResponse(out), nil
	}
	return gen.RetryRun201JSONResponse(out), nil
}

// ForkRun implements gen.StrictServerInterface.
func (h *handlers) ForkRun(ctx context.Context, req gen.ForkRunRequestObject) (gen.ForkRunResponseObject, error) {
	code := ""
	if req.Body.Code != nil {
		code = *req.Body.Code
		if err := storableText(field{"code", code}); err != nil {
			return nil, err
		}
	}
	point, err := forkPoint(req.Body)
	if err != nil {
		return nil, err
	}
	key, err := idempotencyKey(req.Params.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	run, _, created, err := h.store.ForkRun(ctx, req.Id, point, code, key)
	if err != nil {
		return nil, err
	}
	out, err := h.withLineage(ctx, toRun(run), run.Lineage)
	if err != nil {
		return nil, err
	}
	if !created {
		return gen.ForkRun200JSONResponse(out), nil
	}
	return gen.ForkRun201JSONResponse(out), nil
}

// forkPoint is the fork point a request names: exactly one of fromSnapshot and afterCall.
func forkPoint(body *gen.ForkRunJSONRequestBody) (durable.ForkPoint, error) {
	switch {
	case body.FromSnapshot != nil && body.AfterCall != nil:
		return durable.ForkPoint{}, fmt.Errorf("%w: give fromSnapshot or afterCall, not both", errBadRequest)
	case body.AfterCall != nil:
		// Call ids and snapshot seqs are PostgreSQL integers: a larger one names nothing.
		if int64(*body.AfterCall) > math.MaxInt32 {
			return durable.ForkPoint{}, fmt.Errorf("%w: there is no call %d", durable.ErrForkPointNotFound, *body.AfterCall)
		}
		return durable.ForkPoint{AfterCall: *body.AfterCall}, nil
	case body.FromSnapshot != nil:
		if int64(*body.FromSnapshot) > math.MaxInt32 {
			return durable.ForkPoint{}, fmt.Errorf("%w: there is no snapshot %d", durable.ErrForkPointNotFound, *body.FromSnapshot)
		}
		return durable.ForkPoint{Snapshot: *body.FromSnapshot}, nil
	default:
		return durable.ForkPoint{}, fmt.Errorf("%w: give the fork point, fromSnapshot or afterCall", errBadRequest)
	}
}

// withLineage adds the run's lineage, when it has one, to a run as the API shows it: the one
// read with the run when it was (durable.Run.Lineage), else read now.
func (h *handlers) withLineage(ctx context.Context, r gen.Run, known *durable.Lineage) (gen.Run, error) {
	if known != nil {
		r.Lineage = toLineage(*known)
		return r, nil
	}
	l, err := h.store.RunLineage(ctx, r.Id)
	if err != nil {
		return r, err
	}
	r.Lineage = toLineage(l)
	return r, nil
}

// toLineage is a lineage as the API shows it; nil when the run has none.
func toLineage(l durable.Lineage) *gen.Lineage {
	var out gen.Lineage
	some := false
	if l.RetriedFrom != "" {
		out.RetriedFrom, some = &l.RetriedFrom, true
	}
	if l.ForkedFrom != "" {
		out.ForkedFrom, out.ReplayedCalls, some = &l.ForkedFrom, &l.ReplayedCalls, true
		if l.ForkedAfterCall > 0 {
			out.AfterCall = &l.ForkedAfterCall
		} else {
			out.FromSnapshot = &l.ForkedFromSeq
		}
	}
	if l.ScheduleID != "" {
		out.ScheduleId, out.ScheduledFor, some = &l.ScheduleID, l.ScheduledFor, true
	}
	if len(l.Derived) > 0 {
		out.Derived, some = &l.Derived, true
	}
	if !some {
		return nil
	}
	return &out
}

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// scheduleTicksShown is how many of its latest ticks GET /v1/schedules/{id} shows.
const scheduleTicksShown = 20

// CreateSchedule implements gen.StrictServerInterface.
func (h *handlers) CreateSchedule(ctx context.Context, req gen.CreateScheduleRequestObject) (gen.CreateScheduleResponseObject, error) {
	body := req.Body
	if err := fewToolsets(body.Toolsets); err != nil {
		return nil, err
	}
	if err := storableText(scheduleText(&body.Code, body.Toolsets, body.Cron, body.Every, body.Timezone)...); err != nil {
		return nil, err
	}
	n := durable.NewSchedule{Code: body.Code}
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
	every, err := checkTiming(body.Cron, body.Every, body.Timezone)
	if err != nil {
		return nil, err
	}
	if body.Cron != nil {
		n.Cron = *body.Cron
	}
	if every != nil {
		n.Every = *every
	}
	if body.Timezone != nil {
		n.Timezone = *body.Timezone
	}
	if body.Overlap != nil {
		n.Overlap = string(*body.Overlap)
	}
	sc, err := h.store.CreateSchedule(ctx, n)
	if err != nil {
		return nil, err
	}
	return gen.CreateSchedule201JSONResponse(toSchedule(sc)), nil
}

// checkTiming refuses what the durable layer would read otherwise than meant in a schedule's
// cron, every and timezone (nil: not given), and returns every parsed.
func checkTiming(cron, every, timezone *string) (*time.Duration, error) {
	if cron != nil {
		// The cron library reads "@every" intervals under a second (negative ones included)
		// as one second; refuse them as every is refused.
		if rest, ok := strings.CutPrefix(strings.TrimSpace(*cron), "@every "); ok {
			if every, err := time.ParseDuration(strings.TrimSpace(rest)); err == nil && every < durable.MinEvery {
				return nil, fmt.Errorf("%w: cron %q: the interval must be at least %s", errBadRequest, *cron, durable.MinEvery)
			}
		}
	}
	// Go reads "Local" as the process's own zone, which differs from server to server.
	if timezone != nil && *timezone == "Local" {
		return nil, fmt.Errorf("%w: timezone \"Local\" is not an IANA time zone (such as Europe/Paris or UTC)", errBadRequest)
	}
	if every == nil {
		return nil, nil
	}
	d, err := time.ParseDuration(*every)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("%w: every %q is not a duration such as 90s, 5m or 1h30m", errBadRequest, *every)
	}
	return &d, nil
}

// scheduleText lists the text fields of a schedule's request, which must be storable.
func scheduleText(code *string, toolsets *[]string, cron, every, timezone *string) []field {
	var text []field
	if code != nil {
		text = append(text, field{"code", *code})
	}
	if toolsets != nil {
		for _, name := range *toolsets {
			text = append(text, field{"toolsets", name})
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"cron", cron}, {"every", every}, {"timezone", timezone}} {
		if f.v != nil {
			text = append(text, field{f.name, *f.v})
		}
	}
	return text
}

// UpdateSchedule implements gen.StrictServerInterface.
func (h *handlers) UpdateSchedule(ctx context.Context, req gen.UpdateScheduleRequestObject) (gen.UpdateScheduleResponseObject, error) {
	body := req.Body
	if err := fewToolsets(body.Toolsets); err != nil {
		return nil, err
	}
	if err := storableText(scheduleText(body.Code, body.Toolsets, body.Cron, body.Every, body.Timezone)...); err != nil {
		return nil, err
	}
	if body.Cron != nil && body.Every != nil {
		return nil, fmt.Errorf("%w: give at most one of cron and every", errBadRequest)
	}
	every, err := checkTiming(body.Cron, body.Every, body.Timezone)
	if err != nil {
		return nil, err
	}
	ch := durable.ScheduleChange{Code: body.Code, Toolsets: body.Toolsets, Cron: body.Cron, Every: every, Timezone: body.Timezone,
		ClearInput: setToNull(ctx, "input"), AllToolsets: setToNull(ctx, "toolsets")}
	if body.Input != nil {
		ch.Input = *body.Input
	}
	if body.Limits != nil {
		raw, err := h.limitsJSON(*body.Limits)
		if err != nil {
			return nil, err
		}
		ch.Limits = raw
	}
	if body.Overlap != nil {
		o := string(*body.Overlap)
		ch.Overlap = &o
	}
	sc, err := h.store.UpdateSchedule(ctx, req.Id, ch)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSchedule200JSONResponse(toSchedule(sc)), nil
}

// ListSchedules implements gen.StrictServerInterface.
func (h *handlers) ListSchedules(ctx context.Context, req gen.ListSchedulesRequestObject) (gen.ListSchedulesResponseObject, error) {
	limit, cursor := 0, ""
	if req.Params.Limit != nil {
		limit = *req.Params.Limit
	}
	if req.Params.Cursor != nil {
		cursor = *req.Params.Cursor
	}
	page, next, err := h.store.ListSchedules(ctx, limit, cursor)
	if err != nil {
		return nil, err
	}
	out := gen.ScheduleList{Schedules: make([]gen.Schedule, 0, len(page))}
	for _, sc := range page {
		out.Schedules = append(out.Schedules, toSchedule(sc))
	}
	if next != "" {
		out.Next = &next
	}
	return gen.ListSchedules200JSONResponse(out), nil
}

// GetSchedule implements gen.StrictServerInterface.
func (h *handlers) GetSchedule(ctx context.Context, req gen.GetScheduleRequestObject) (gen.GetScheduleResponseObject, error) {
	sc, err := h.store.GetSchedule(ctx, req.Id, scheduleTicksShown)
	if err != nil {
		return nil, err
	}
	out := toSchedule(sc)
	ticks := make([]gen.ScheduleTick, 0, len(sc.Ticks))
	for _, t := range sc.Ticks {
		gt := gen.ScheduleTick{Tick: t.Tick}
		if t.RunID != "" {
			gt.RunId = &t.RunID
		}
		if t.Skipped != "" {
			gt.Skipped = &t.Skipped
		}
		ticks = append(ticks, gt)
	}
	out.Ticks = &ticks
	return gen.GetSchedule200JSONResponse(out), nil
}

// DeleteSchedule implements gen.StrictServerInterface.
func (h *handlers) DeleteSchedule(ctx context.Context, req gen.DeleteScheduleRequestObject) (gen.DeleteScheduleResponseObject, error) {
	if err := h.store.DeleteSchedule(ctx, req.Id); err != nil {
		return nil, err
	}
	return gen.DeleteSchedule204Response{}, nil
}

// PauseSchedule implements gen.StrictServerInterface.
func (h *handlers) PauseSchedule(ctx context.Context, req gen.PauseScheduleRequestObject) (gen.PauseScheduleResponseObject, error) {
	sc, err := h.store.PauseSchedule(ctx, req.Id, true)
	if err != nil {
		return nil, err
	}
	return gen.PauseSchedule200JSONResponse(toSchedule(sc)), nil
}

// ResumeSchedule implements gen.StrictServerInterface.
func (h *handlers) ResumeSchedule(ctx context.Context, req gen.ResumeScheduleRequestObject) (gen.ResumeScheduleResponseObject, error) {
	sc, err := h.store.PauseSchedule(ctx, req.Id, false)
	if err != nil {
		return nil, err
	}
	return gen.ResumeSchedule200JSONResponse(toSchedule(sc)), nil
}

func toSchedule(sc durable.Schedule) gen.Schedule {
	out := gen.Schedule{
		Id: sc.ID, Code: sc.Code, Timezone: sc.Timezone, Overlap: gen.ScheduleOverlap(sc.Overlap), Paused: sc.Paused,
		NextTick: sc.NextTick, CreatedAt: sc.CreatedAt, UpdatedAt: sc.UpdatedAt,
	}
	_ = json.Unmarshal(sc.Limits, &out.Limits)
	if sc.Toolsets != nil {
		ts := sc.Toolsets
		out.Toolsets = &ts
	}
	if sc.Input != nil {
		in := json.RawMessage(sc.Input)
		out.Input = &in
	}
	if sc.Cron != "" {
		c := sc.Cron
		out.Cron = &c
	}
	if sc.Every != 0 {
		e := sc.Every.String()
		out.Every = &e
	}
	return out
}

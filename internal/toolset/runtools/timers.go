package runtools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
)

// MaxSleep caps how far away a timer may end: time.sleep's ms and time.sleepUntil's instant
// (from now). A year is longer than any sensible wait, and short enough that a typo (a
// timestamp given as ms) fails at once instead of parking a run for decades.
const MaxSleep = 365 * 24 * time.Hour

// TimeNamespace is the namespace of the built-in timers, tools.time.
const TimeNamespace = "time"

// The paths of the built-in timers.
const (
	SleepPath      = "time.sleep"
	SleepUntilPath = "time.sleepUntil"
)

// TimerConfig configures the built-in timers.
type TimerConfig struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Suspend makes a timer's outcome arrive from outside (Attach returns
	// run.ErrNotAttachable): the run suspends while it sleeps and something else (the
	// service's timer job) posts the outcome at the instant (TimerWake). Without it the
	// timer waits in process, as codemode eval does.
	Suspend bool
}

// Timers returns the built-in durable tools time.sleep {ms} → {slept} and time.sleepUntil
// {at} → {at}, and the namespace describing them.
func Timers(cfg TimerConfig) ([]run.Tool, []run.Namespace) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	t := &timerTool{cfg: cfg}
	return []run.Tool{
			{
				Path:        SleepPath,
				Description: "Wait ms milliseconds (at most a year); the run is suspended meanwhile",
				Input:       json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":%d}},"required":["ms"],"additionalProperties":false}`, MaxSleep.Milliseconds())),
				Output:      json.RawMessage(`{"type":"object","properties":{"slept":{"type":"integer"}},"required":["slept"]}`),
				Durable:     t,
			},
			{
				Path:        SleepUntilPath,
				Description: "Wait until the instant at (ISO 8601 with a time zone, at most a year away); at once when it has passed",
				Input:       json.RawMessage(`{"type":"object","properties":{"at":{"type":"string","minLength":1}},"required":["at"],"additionalProperties":false}`),
				Output:      json.RawMessage(`{"type":"object","properties":{"at":{"type":"string"}},"required":["at"]}`),
				Durable:     t,
			},
		}, []run.Namespace{{Path: TimeNamespace,
			Description: "Durable timers: sleep, or sleep until an instant; a sleeping run holds no worker"}}
}

// Sleep returns the built-in time.sleep alone, waiting in process (see Timers); now nil
// means time.Now.
func Sleep(now func() time.Time) run.Tool {
	tools, _ := Timers(TimerConfig{Now: now})
	return tools[0]
}

// OverridesTimers reports whether tools (of toolsets to be mounted) replace the built-in
// timers: any tool under tools.time does. A toolset registered or mounted under the name
// time is the explicit choice to replace them; the built-ins are then left out entirely.
func OverridesTimers(tools []run.Tool) bool {
	for _, t := range tools {
		if t.Path == TimeNamespace || strings.HasPrefix(t.Path, TimeNamespace+".") {
			return true
		}
	}
	return false
}

// isoMillis is how time.sleepUntil writes its instant: as JavaScript's Date.toISOString
// does, so a program can compare it with one.
const isoMillis = "2006-01-02T15:04:05.000Z"

// timerHandle names a timer in progress: the instant it ends and the output it then gives,
// so a process that did not start it (a resumed run, the service's timer job) needs nothing
// else.
type timerHandle struct {
	Until  time.Time       `json:"until"`
	Output json.RawMessage `json:"output"`
}

type timerTool struct {
	cfg TimerConfig
}

var _ run.Durable = (*timerTool)(nil)

// Start works out the instant; a timer already due is done at once.
func (t *timerTool) Start(_ context.Context, input json.RawMessage, call toolcall.Call) (run.Started, error) {
	now := t.cfg.Now()
	var (
		until  time.Time
		output json.RawMessage
	)
	switch call.Path {
	case SleepUntilPath:
		var in struct {
			At string `json:"at"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return run.Started{}, &run.InvalidInputError{Message: "time.sleepUntil: input must be {at: string}"}
		}
		at, err := ParseInstant(in.At)
		if err != nil {
			return run.Started{}, &run.InvalidInputError{Message: "time.sleepUntil: " + err.Error()}
		}
		if at.Sub(now) > MaxSleep {
			return run.Started{}, &run.InvalidInputError{Message: fmt.Sprintf("time.sleepUntil: %s is more than %s away (the most a timer may wait)", in.At, MaxSleep)}
		}
		until = at.UTC()
		output, _ = json.Marshal(map[string]string{"at": until.Format(isoMillis)})
	default:
		var in struct {
			Ms int64 `json:"ms"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return run.Started{}, &run.InvalidInputError{Message: "time.sleep: input must be {ms: integer}"}
		}
		if in.Ms < 0 || in.Ms > MaxSleep.Milliseconds() {
			return run.Started{}, &run.InvalidInputError{Message: fmt.Sprintf("time.sleep: ms must be 0..%d", MaxSleep.Milliseconds())}
		}
		until = now.Add(time.Duration(in.Ms) * time.Millisecond).UTC()
		output = json.RawMessage(fmt.Sprintf(`{"slept":%d}`, in.Ms))
	}
	if !until.After(now) {
		return run.Started{Done: true, Output: output}, nil
	}
	h, err := json.Marshal(timerHandle{Until: until, Output: output})
	if err != nil {
		return run.Started{}, fmt.Errorf("%s: encode handle: %w", call.Path, err)
	}
	return run.Started{Handle: h}, nil
}

// Attach waits until the handle's instant, then succeeds with its output; with
// TimerConfig.Suspend it returns run.ErrNotAttachable instead.
func (t *timerTool) Attach(ctx context.Context, handle json.RawMessage, _ toolcall.Call) (toolcall.Outcome, error) {
	if t.cfg.Suspend {
		return toolcall.Outcome{}, run.ErrNotAttachable
	}
	until, output, err := TimerWake(handle)
	if err != nil {
		return toolcall.Outcome{}, err
	}
	if wait := until.Sub(t.cfg.Now()); wait > 0 {
		tm := time.NewTimer(wait)
		defer tm.Stop()
		select {
		case <-ctx.Done():
			return toolcall.Outcome{}, ctx.Err()
		case <-tm.C:
		}
	}
	return toolcall.Outcome{OK: true, Value: output}, nil
}

// Cancel has nothing to undo: a timer whose run ended is simply never answered.
func (t *timerTool) Cancel(context.Context, json.RawMessage, toolcall.Call) error { return nil }

// TimerWake reads the handle of a built-in timer: the instant it ends and the output the
// call then succeeds with.
func TimerWake(handle json.RawMessage) (time.Time, json.RawMessage, error) {
	var h timerHandle
	if err := json.Unmarshal(handle, &h); err != nil || h.Until.IsZero() || len(h.Output) == 0 {
		return time.Time{}, nil, fmt.Errorf("timer: malformed handle %s", handle)
	}
	return h.Until, h.Output, nil
}

// IsTimer reports whether path is one of the built-in timers.
func IsTimer(path string) bool { return path == SleepPath || path == SleepUntilPath }

// ParseInstant reads an ISO 8601 instant with a time zone: RFC 3339
// ("2026-12-01T18:00:00Z", "2026-12-01T19:00:00.5+01:00"), also with a space for the T.
func ParseInstant(s string) (time.Time, error) {
	v := strings.Replace(s, " ", "T", 1)
	if at, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return at, nil
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 instant with a time zone (e.g. 2026-12-01T18:00:00Z)", s)
}

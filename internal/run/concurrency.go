package run

import (
	"fmt"

	"github.com/codemode/codemode/internal/toolcall"
)

// The calls of one run that execute at once are capped (Options.MaxConcurrentCalls); the
// others wait in Execution.queue, in call order. A queued call is a made call: it has its
// call id and key, counts against maxToolCalls, and the journal has recorded it; only its
// tool has not been called yet.

// belowCallCap reports whether one more call may execute now.
func (e *Execution) belowCallCap() bool {
	max := e.rt.opts.MaxConcurrentCalls
	return max < 0 || e.executing < max
}

// received accounts for a settlement taken from settledCh.
func (e *Execution) received(s settlement) {
	e.inflight--
	if s.executed {
		e.executing--
	}
}

// startQueued starts queued calls while the cap allows, except during a drain: a draining run
// starts nothing new, and its queued calls start when it resumes.
func (e *Execution) startQueued() {
	for len(e.queue) > 0 && e.belowCallCap() && !e.draining() && e.state != StateDone {
		c := e.queue[0]
		e.queue = e.queue[1:]
		if c.status != CallRunning {
			continue
		}
		tool, ok := e.rt.toolbox.Lookup(c.Path)
		if !ok {
			e.host.fail(c, KindUnknownTool, (&UnknownToolError{Path: c.Path, Suggestion: e.rt.toolbox.Suggest(c.Path)}).Error())
			continue
		}
		e.host.execute(tool, c)
	}
}

// resumeCalls continues, at the start of a resumed drive, the calls the saved state had in
// flight: durable work awaited in process is attached again, and calls that were executing or
// queued when the state was saved (a checkpoint taken while they ran, then a crash; or a drain
// that held queued calls back) are made again under the same call id and key, unless the
// journal has their outcome or handle by now.
func (e *Execution) resumeCalls() error {
	reattach, restart := e.reattach, e.restart
	e.reattach, e.restart = nil, nil
	for _, c := range reattach {
		e.attach(c)
	}
	for _, c := range restart {
		if e.journal != nil {
			rec, err := e.journal.CallStarted(e.host.callCtx, c.Call, c.input, c.durable)
			if err != nil {
				return fmt.Errorf("record call %s: %w", c.Key, err)
			}
			switch {
			case rec.Outcome != nil:
				c.queued = false
				e.ready = append(e.ready, settlement{call: c, outcome: *rec.Outcome, kind: kindReplayed})
				continue
			case rec.Handle != nil:
				c.queued = false
				c.status = CallPending
				c.handle = rec.Handle
				e.ready = append(e.ready, settlement{call: c, pending: true, handle: rec.Handle, attach: true, kind: kindReplayed})
				continue
			}
		}
		tool, ok := e.rt.toolbox.Lookup(c.Path)
		if !ok {
			c.queued = false
			e.ready = append(e.ready, settlement{call: c, kind: KindUnknownTool, outcome: toolcall.Outcome{OK: false,
				Error: &toolcall.OutcomeError{Message: (&UnknownToolError{Path: c.Path, Suggestion: e.rt.toolbox.Suggest(c.Path)}).Error()}}})
			continue
		}
		c.queued = false
		e.host.start(tool, c)
	}
	return nil
}

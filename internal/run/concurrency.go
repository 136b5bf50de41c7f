package run

import (
	"fmt"
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
			e.failUnknownTool(c)
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
			if e.replay(c, rec) {
				continue
			}
		}
		c.queued = false
		tool, ok := e.rt.toolbox.Lookup(c.Path)
		if !ok {
			e.failUnknownTool(c)
			continue
		}
		e.host.start(tool, c)
	}
	return nil
}

// replay settles c from the journal's record of it (a re-drive): its stored outcome, or the
// handle of its durable work still pending. It reports whether the journal knew the call.
func (e *Execution) replay(c *callState, rec Recorded) bool {
	switch {
	case rec.Outcome != nil:
		c.queued = false
		e.ready = append(e.ready, settlement{call: c, outcome: *rec.Outcome, kind: kindReplayed})
		return true
	case rec.Handle != nil:
		c.queued = false
		c.status = CallPending
		c.handle = rec.Handle
		e.ready = append(e.ready, settlement{call: c, pending: true, handle: rec.Handle, attach: true, kind: kindReplayed})
		return true
	}
	return false
}

// failUnknownTool fails c, whose path names no tool, with the nearest tool suggested.
func (e *Execution) failUnknownTool(c *callState) {
	e.host.fail(c, KindUnknownTool, (&UnknownToolError{Path: c.Path, Suggestion: e.rt.toolbox.Suggest(c.Path)}).Error())
}

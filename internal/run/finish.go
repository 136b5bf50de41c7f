package run

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/interp/syntax"
	"github.com/codemode/codemode/internal/jsontext"
)

// cancelTimeout bounds how long a run that ends waits for durable starts still in flight, and,
// without a journal, how long cancelling durable work at its tool may take.
const cancelTimeout = 5 * time.Second

// catchableKinds are the diagnostic kinds a program can catch as an Error with that "kind";
// uncaught, they end the run with a diagnostic of their kind.
var catchableKinds = map[Kind]bool{
	KindToolFailure:       true,
	KindUnknownTool:       true,
	KindInvalidToolInput:  true,
	KindInvalidToolOutput: true,
	KindInvalidDataValue:  true,
}

// finish builds the Result of a program that ended (returned or threw).
func (e *Execution) finish() {
	v, thrown := e.vm.Result()
	if thrown {
		e.finishWithError(e.diagnosticFromThrown(v))
		return
	}
	res := &Result{OK: true}
	value, err := e.valueJSON(v)
	var ex *interp.Exception
	if errors.As(err, &ex) {
		// a BigInt: the TypeError JSON.stringify throws, as if the program had thrown it
		e.finishWithError(e.diagnosticFromThrown(ex.Value))
		return
	}
	if err != nil {
		e.finishWithError(&Diagnostic{Kind: KindInvalidDataValue, Message: "the program's result cannot be copied as JSON: " + dataErrorText(err)})
		return
	}
	res.Value = value
	e.result = res
	e.complete()
}

// valueJSON copies the program's result as JSON; undefined becomes null. Like every document
// leaving the program, its text is well-formed (lone surrogates become U+FFFD; see jsontext).
func (e *Execution) valueJSON(v interp.Value) ([]byte, error) {
	if v.IsUndefined() {
		return []byte("null"), nil
	}
	out, err := e.vm.ToData(v, MaxValueDepth, "result")
	if err != nil {
		return nil, err
	}
	return jsontext.WellFormed(out), nil
}

// finishWithError ends the run with a diagnostic.
func (e *Execution) finishWithError(d *Diagnostic) {
	e.result = &Result{OK: false, Error: d}
	e.complete()
}

// complete adds what every Result carries: logs, warnings, calls; cancels leftover work.
//
// Work still running when the program returns is interrupted without a warning of its own
// (its call's status says cancelled): a program may leave work behind on purpose, the loser of
// a Promise.race for one. What the host hears about is what the program could not have
// handled: a call that had already failed, reported as the rejection it was, and a time limit
// that ran out while the leftover work was being stopped (a TimeoutExceeded warning, first).
func (e *Execution) complete() {
	res := e.result
	if res.OK && e.vm != nil {
		e.settleArrived()
	}
	if e.vm != nil {
		for _, r := range e.vm.UnhandledRejections() {
			kind, msg, line, col := e.describe(r)
			e.warnings = append(e.warnings, Warning{Kind: kind, Message: "unhandled rejection from an un-awaited promise: " + msg, Line: line, Column: col})
		}
	}
	leftover := e.interruptLeftovers()
	if left, limited := e.remaining(); res.OK && leftover && limited && left <= 0 {
		e.warnings = append([]Warning{{Kind: KindTimeoutExceeded, Message: fmt.Sprintf(
			"the program returned, but background work was still running at the time limit of %d ms and was interrupted; await every promise you start",
			e.limits.TimeoutMs)}}, e.warnings...)
	}
	res.Warnings = e.warnings
	res.Logs = e.logs
	res.ToolCalls = make([]ToolCallRecord, len(e.calls))
	for i, c := range e.calls {
		res.ToolCalls[i] = c.record()
	}
	if !res.OK {
		res.Warnings = nil
	}
	limitMessages(res, e.limits.MaxOutputBytes)
	res.LimitOutput(e.limits.MaxOutputBytes)
	e.state = StateDone
	if e.cancelAll != nil {
		e.cancelAll()
	}
}

// awaitDurableStarts waits (at most cancelTimeout) for durable work whose start is still in
// flight, so that work started for a program that has already returned gets its handle and can
// be cancelled at its tool. A journaled run records each such handle (Journal.CallPending), so
// that its host knows the call is pending and cancels it; a journal error is the drive's
// (host.journalErr).
// pendAfterReturn records a durable start that answered after the program returned: the call
// is pending with its handle, and a journal learns it, so that its host cancels the work.
func (e *Execution) pendAfterReturn(s settlement) {
	s.call.status = CallPending
	s.call.handle = s.handle
	if e.journal != nil && e.host.journalErr == nil {
		if err := e.journal.CallPending(e.host.callCtx, s.call.Call, s.handle); err != nil {
			e.host.journalErr = fmt.Errorf("record pending call %s: %w", s.call.Key, err)
		}
	}
}

func (e *Execution) awaitDurableStarts() {
	starting := func() bool {
		for _, c := range e.calls {
			if c.status == CallRunning && c.durable && !c.queued {
				return true
			}
		}
		return false
	}
	if e.inflight == 0 {
		return
	}
	timeout := time.After(cancelTimeout)
	for e.inflight > 0 && starting() {
		select {
		case s := <-e.settledCh:
			e.received(s)
			if s.ext == nil && s.pending && s.call.status == CallRunning {
				e.pendAfterReturn(s)
			}
		case <-timeout:
			return
		}
	}
}

// settleArrived hands the program the outcomes that arrived before it returned but that it had
// not taken yet: a call that failed then is an unhandled rejection (unless the program attached
// a handler), not work interrupted. Nothing of the program runs any more; the promises only
// settle.
func (e *Execution) settleArrived() {
	for more := true; more && e.inflight > 0; {
		select {
		case s := <-e.settledCh:
			e.received(s)
			e.ready = append(e.ready, s)
		default:
			more = false
		}
	}
	batch := e.ready
	e.ready = nil
	for _, s := range batch {
		if s.ext != nil {
			if err := e.settleExt(context.Background(), s.ext); err != nil {
				e.rt.opts.Logger.Warn("settle extension call after the program returned", "run_id", e.runID, "call", s.ext.call.Name, "error", err)
			}
			continue
		}
		if s.pending || (s.call.status != CallRunning && s.call.status != CallPending) {
			// started durable work stays pending; it is cancelled below
			if s.pending && s.call.status == CallRunning {
				e.pendAfterReturn(s)
			}
			continue
		}
		if err := e.settle(context.Background(), s.call, s); err != nil {
			e.rt.opts.Logger.Warn("settle call after the program returned", "run_id", e.runID, "key", s.call.Key, "error", err)
		}
	}
}

// interruptLeftovers cancels calls still running or pending when the program ended and reports
// whether there were any. Durable work is cancelled at its tool by exactly one party: a run
// without a journal cancels it here, in process (codemode eval has nobody else to do it); a
// journaled run leaves it to its host, which owns the calls it recorded pending (the durable
// service cancels them from a job once the run's end is stored, so the drive never waits on a
// toolset's cancel).
func (e *Execution) interruptLeftovers() bool {
	e.awaitDurableStarts()
	leftover := false
	for _, c := range e.calls {
		if c.status != CallRunning && c.status != CallPending {
			continue
		}
		leftover = true
		if c.status == CallPending && c.handle != nil && e.journal == nil {
			if tool, ok := e.rt.toolbox.Lookup(c.Path); ok && tool.Durable != nil {
				ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
				if err := tool.Durable.Cancel(ctx, c.handle, c.Call); err != nil {
					e.rt.opts.Logger.Warn("cancel durable call", "run_id", e.runID, "key", c.Key, "error", err)
				}
				cancel()
			}
		}
		c.status = CallCancelled
	}
	return leftover
}

// describe classifies a thrown or rejected value: its kind, message and position.
func (e *Execution) describe(v interp.Value) (Kind, string, int, int) {
	name, msg, line, col := e.vm.DescribeError(v)
	kind := KindExecutionFailure
	if v.IsObject() {
		if k, err := e.vm.Get(v, "kind"); err == nil && k.IsString() {
			if kk := Kind(e.vm.ToGoString(k)); catchableKinds[kk] {
				kind = kk
			}
		}
	}
	text := msg
	if kind == KindExecutionFailure && name != "" {
		text = name + ": " + msg
	}
	return kind, withPosition(text, line, col), line, col
}

// diagnosticFromThrown makes the diagnostic of an uncaught exception.
func (e *Execution) diagnosticFromThrown(v interp.Value) *Diagnostic {
	kind, msg, line, col := e.describe(v)
	if kind == KindExecutionFailure {
		msg = "uncaught " + msg
	}
	d := &Diagnostic{Kind: kind, Message: msg, Line: line, Column: col}
	for _, f := range e.vm.ErrorStack(v) {
		d.Stack = append(d.Stack, StackFrame{Function: f.Function, Line: f.Line, Column: f.Column})
	}
	return d
}

// diagnosticFromRunError converts an error of interp's Run (a limit, a host diagnostic).
func (e *Execution) diagnosticFromRunError(err error) *Diagnostic {
	var d *interp.Diagnostic
	if errors.As(err, &d) {
		if d.Kind == string(KindTimeoutExceeded) && e.limits.TimeoutMs > 0 {
			return timeoutDiagnostic(e.limits.TimeoutMs)
		}
		return &Diagnostic{Kind: Kind(d.Kind), Message: withPosition(d.Message, d.Line, d.Column), Line: d.Line, Column: d.Column}
	}
	return &Diagnostic{Kind: KindExecutionFailure, Message: err.Error()}
}

// diagnosticOf converts a compile error.
func diagnosticOf(err error) *Diagnostic {
	var se *syntax.Error
	if errors.As(err, &se) {
		return &Diagnostic{Kind: Kind(se.Kind), Message: withPosition(se.Message, se.Line, se.Column), Line: se.Line, Column: se.Column}
	}
	var d *interp.Diagnostic
	if errors.As(err, &d) {
		return &Diagnostic{Kind: Kind(d.Kind), Message: withPosition(d.Message, d.Line, d.Column), Line: d.Line, Column: d.Column}
	}
	return &Diagnostic{Kind: KindParseError, Message: err.Error()}
}

// withPosition appends "(line L, column C)" when the position is known.
func withPosition(msg string, line, col int) string {
	if line <= 0 {
		return msg
	}
	return fmt.Sprintf("%s (line %d, column %d)", msg, line, col)
}

// limitMessages cuts the diagnostic's and the warnings' messages to maxBytes each (0 = no
// limit), ending a cut message with the truncation marker: a program that throws an error with
// a huge message must not get around maxOutputBytes.
func limitMessages(res *Result, maxBytes int64) {
	if maxBytes <= 0 {
		return
	}
	if res.Error != nil {
		res.Error.Message = cutMessage(res.Error.Message, maxBytes)
	}
	for i := range res.Warnings {
		res.Warnings[i].Message = cutMessage(res.Warnings[i].Message, maxBytes)
	}
}

// cutMessage returns msg when it fits in maxBytes, else its start (on a UTF-8 boundary) and
// the truncation marker, at most max(maxBytes, len(marker)) bytes in all.
func cutMessage(msg string, maxBytes int64) string {
	if int64(len(msg)) <= maxBytes {
		return msg
	}
	n := int(maxBytes) - len(truncationMarker)
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	return msg[:n] + truncationMarker
}

// dataErrorText is the reason a value could not be copied out of the program, without the
// diagnostic kind the caller states itself.
func dataErrorText(err error) string {
	var d *interp.Diagnostic
	if errors.As(err, &d) {
		return d.Message
	}
	return err.Error()
}

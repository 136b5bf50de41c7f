package run

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Kind names a diagnostic (a run's failure) or a warning.
type Kind string

// Diagnostic and warning kinds, as docs/language.md describes them.
const (
	// KindParseError: the program does not parse.
	KindParseError Kind = "ParseError"
	// KindUnsupportedSyntax: the program uses syntax left out on purpose
	// (eval, with, import, ...).
	KindUnsupportedSyntax Kind = "UnsupportedSyntax"
	// KindUnknownTool: the program called a path that is not a tool.
	KindUnknownTool Kind = "UnknownTool"
	// KindInvalidToolInput: a tool input failed its schema; the tool was not
	// called.
	KindInvalidToolInput Kind = "InvalidToolInput"
	// KindInvalidToolOutput: a tool output failed its schema.
	KindInvalidToolOutput Kind = "InvalidToolOutput"
	// KindInvalidDataValue: a value crossing the boundary cannot be copied
	// as JSON (too deep, a cycle, a function).
	KindInvalidDataValue Kind = "InvalidDataValue"
	// KindToolCallLimitExceeded: the run made more calls than maxToolCalls.
	KindToolCallLimitExceeded Kind = "ToolCallLimitExceeded"
	// KindTimeoutExceeded: the run ran longer than timeoutMs.
	KindTimeoutExceeded Kind = "TimeoutExceeded"
	// KindMemoryLimitExceeded: the run's heap grew past maxMemoryBytes.
	KindMemoryLimitExceeded Kind = "MemoryLimitExceeded"
	// KindToolFailure: a tool failed and the program did not catch it.
	KindToolFailure Kind = "ToolFailure"
	// KindExecutionFailure: the program threw (or hit a fixed cap).
	KindExecutionFailure Kind = "ExecutionFailure"
	// KindSnapshotTooLarge: the run had to be saved (suspended on durable calls, or yielded by
	// a durable host) and its state exceeds maxSnapshotBytes. Run by itself, Suspend only
	// reports ErrSnapshotTooLarge; the durable service ends the run with this kind, since its
	// state cannot change until it is saved and resumed.
	KindSnapshotTooLarge Kind = "SnapshotTooLarge"
	// KindTruncated is a warning only: the output was cut to maxOutputBytes.
	KindTruncated Kind = "Truncated"
)

// Diagnostic says why a run failed: {kind, message, line?, column?}. Line
// and Column are 1-based and 0 when unknown (then omitted from JSON).
type Diagnostic struct {
	// Kind is one of the Kind constants.
	Kind Kind `json:"kind"`
	// Message is readable and names the line and column when known.
	Message string `json:"message"`
	// Line is the 1-based source line, 0 when unknown.
	Line int `json:"line,omitempty"`
	// Column is the 1-based source column, 0 when unknown.
	Column int `json:"column,omitempty"`
	// Stack is, for an uncaught error the program made, the frames that made it, innermost
	// first, as the error's stack lists them.
	Stack []StackFrame `json:"stack,omitempty"`
}

// StackFrame is one frame of a Diagnostic's stack.
type StackFrame struct {
	// Function is the function's name; empty for the program itself and anonymous functions.
	Function string `json:"function,omitempty"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// Error returns "Kind: message".
func (d *Diagnostic) Error() string { return string(d.Kind) + ": " + d.Message }

// Warning is something a successful or failed run reports without failing:
// an unawaited rejection, background work interrupted, truncated output.
type Warning struct {
	// Kind is the kind of the warning (a Kind constant, KindTruncated for
	// truncation, the rejection's kind for an unawaited rejection).
	Kind Kind `json:"kind"`
	// Message describes the warning.
	Message string `json:"message"`
	// Line is the 1-based source line, 0 when unknown.
	Line int `json:"line,omitempty"`
	// Column is the 1-based source column, 0 when unknown.
	Column int `json:"column,omitempty"`
}

// CallStatus is the state of one host call, as in the HTTP API's calls.
type CallStatus string

// Call statuses.
const (
	// CallRunning: the call is in flight.
	CallRunning CallStatus = "running"
	// CallPending: durable work started and its outcome has not arrived.
	CallPending CallStatus = "pending"
	// CallSucceeded: the call returned a value.
	CallSucceeded CallStatus = "succeeded"
	// CallFailed: the call failed (tool error, schema violation, denied by
	// a hook, unknown tool).
	CallFailed CallStatus = "failed"
	// CallCancelled: the call was still running or pending when the run
	// ended, and was interrupted or cancelled.
	CallCancelled CallStatus = "cancelled"
)

// ToolCallRecord is one host call of a run, in the Result's toolCalls list
// (in call order). JSON: {"callId","key","path","status","durable"?,
// "durationMs"?,"error"?}.
type ToolCallRecord struct {
	// CallID is the call's sequence number in the run, from 1.
	CallID int64 `json:"callId"`
	// Key is "<runId>:<callId>".
	Key string `json:"key"`
	// Path is the registered dotted tool path ("math.add"), or "search" for
	// the search built-in.
	Path string `json:"path"`
	// Status is the call's state when the Result was made.
	Status CallStatus `json:"status"`
	// Durable is true for calls to durable tools.
	Durable bool `json:"durable,omitempty"`
	// DurationMs is the wall time from start to settlement in milliseconds;
	// nil while unsettled or when not measured (a replayed outcome).
	DurationMs *int64 `json:"durationMs,omitempty"`
	// Error is the failure message of a failed call.
	Error string `json:"error,omitempty"`
}

// Result is the outcome of a run. Its JSON shape is
// {"ok":true,"value":V,"logs"?,"warnings"?,"truncated"?,"toolCalls":[...]}
// or {"ok":false,"error":{kind,message,line?,column?},"logs"?,"toolCalls":[...]}.
type Result struct {
	// OK is true when the program returned a value.
	OK bool `json:"ok"`
	// Value is the program's result as JSON (nil marshals as null).
	Value json.RawMessage `json:"value,omitempty"`
	// Error is the diagnostic of a failed run.
	Error *Diagnostic `json:"error,omitempty"`
	// Logs are the console lines, in order.
	Logs []string `json:"logs,omitempty"`
	// Warnings are in the order they arose.
	Warnings []Warning `json:"warnings,omitempty"`
	// Truncated is true when output was cut to maxOutputBytes.
	Truncated bool `json:"truncated,omitempty"`
	// ToolCalls lists every host call of the run, in call order.
	ToolCalls []ToolCallRecord `json:"toolCalls"`
}

type resultOK struct {
	OK        bool             `json:"ok"`
	Value     json.RawMessage  `json:"value"`
	Logs      []string         `json:"logs,omitempty"`
	Warnings  []Warning        `json:"warnings,omitempty"`
	Truncated bool             `json:"truncated,omitempty"`
	ToolCalls []ToolCallRecord `json:"toolCalls"`
}

type resultFail struct {
	OK        bool             `json:"ok"`
	Error     *Diagnostic      `json:"error"`
	Logs      []string         `json:"logs,omitempty"`
	ToolCalls []ToolCallRecord `json:"toolCalls"`
}

// MarshalJSON writes the shape documented on Result: a success always has
// "value" (null when nil) and no "error"; a failure has "error" and neither
// "value", "warnings" nor "truncated". "toolCalls" is always an array.
func (r Result) MarshalJSON() ([]byte, error) {
	calls := r.ToolCalls
	if calls == nil {
		calls = []ToolCallRecord{}
	}
	if r.OK {
		v := r.Value
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		return json.Marshal(resultOK{OK: true, Value: v, Logs: r.Logs, Warnings: r.Warnings, Truncated: r.Truncated, ToolCalls: calls})
	}
	d := r.Error
	if d == nil {
		d = &Diagnostic{Kind: KindExecutionFailure, Message: "run failed"}
	}
	return json.Marshal(resultFail{OK: false, Error: d, Logs: r.Logs, ToolCalls: calls})
}

// truncationMarker ends a value cut by LimitOutput.
const truncationMarker = "…[truncated]"

// LimitOutput cuts the Result to maxBytes (0 = no limit) and reports whether
// it cut anything. The budget covers the JSON of the value plus the JSON
// strings of the log lines. The value is served first: a value over the
// budget becomes a JSON string holding the start of its JSON text followed
// by "…[truncated]". The log lines then fit in what remains, in order; the
// first line that does not fit and all after it are replaced by one line
// "…[N log lines truncated]". Warnings have a budget of their own, maxBytes
// of their JSON, so that a large value cannot crowd out what went wrong: they
// are kept in order while they fit, and the rest are left out. When anything
// was cut, Truncated is set and one KindTruncated warning, saying what was
// cut, ends the warnings (for successful runs only; a failed run shows the
// log marker alone).
func (r *Result) LimitOutput(maxBytes int64) bool {
	if maxBytes <= 0 {
		return false
	}
	cut := false
	used := int64(0)
	if r.OK {
		if int64(len(r.Value)) > maxBytes {
			r.Value = truncateValue(r.Value, maxBytes)
			cut = true
		}
		used = int64(len(r.Value))
	}
	for i, line := range r.Logs {
		q, _ := json.Marshal(line)
		n := int64(len(q))
		if used+n > maxBytes {
			dropped := len(r.Logs) - i
			r.Logs = append(r.Logs[:i:i], fmt.Sprintf("…[%d log lines truncated]", dropped))
			cut = true
			break
		}
		used += n
	}
	droppedWarnings := 0
	if r.OK {
		warned := int64(0)
		for i, w := range r.Warnings {
			q, _ := json.Marshal(w)
			if warned+int64(len(q)) > maxBytes {
				droppedWarnings = len(r.Warnings) - i
				r.Warnings = r.Warnings[:i:i]
				cut = true
				break
			}
			warned += int64(len(q))
		}
	}
	if cut && r.OK {
		r.Truncated = true
		msg := fmt.Sprintf("output truncated to maxOutputBytes (%d bytes)", maxBytes)
		if droppedWarnings > 0 {
			msg += fmt.Sprintf("; %d more warnings left out", droppedWarnings)
		}
		r.Warnings = append(r.Warnings, Warning{Kind: KindTruncated, Message: msg})
	}
	return cut
}

// truncateValue returns a JSON string of at most maxBytes (or just the
// marker when maxBytes is smaller than it) holding the start of value's text.
func truncateValue(value json.RawMessage, maxBytes int64) json.RawMessage {
	text := string(value)
	n := int(maxBytes) - len(truncationMarker) - 2
	for {
		if n < 0 {
			n = 0
		}
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		out, _ := json.Marshal(text[:n] + truncationMarker)
		if int64(len(out)) <= maxBytes || n == 0 {
			return out
		}
		n -= int(int64(len(out)) - maxBytes)
	}
}

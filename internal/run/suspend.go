package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/toolcall"
)

// StateFormat is the version of the run's header written by Suspend (SavedState.Header). The
// interpreter's own snapshot (SavedState.VM) carries its own format number. Readers for every older
// version are kept (see decodeState): format 1 is the one-document form, the header's members
// and the interpreter's state as member "vm" of one JSON object, written before the state came
// in two parts.
const StateFormat = 2

// ErrNotSuspendable is returned by Suspend when the run is done or still has inline work.
var ErrNotSuspendable = errors.New("run cannot be suspended")

// ErrSnapshotTooLarge is wrapped when a state exceeds maxSnapshotBytes; the run is unharmed.
var ErrSnapshotTooLarge = errors.New("snapshot exceeds maxSnapshotBytes")

// SnapshotError reports a state or outcome that Resume cannot use.
type SnapshotError struct {
	// Message says what is wrong.
	Message string
}

// Error returns "SnapshotError: <message>".
func (e *SnapshotError) Error() string { return "SnapshotError: " + e.Message }

// PendingCall is a durable call a suspended run waits on.
type PendingCall struct {
	// Key is "<runId>:<callId>".
	Key string `json:"key"`
	// CallID is the call's number in the run.
	CallID int64 `json:"callId"`
	// Path is the tool's dotted path.
	Path string `json:"path"`
	// Args is the tool's input.
	Args json.RawMessage `json:"args"`
	// Handle is what the tool answered when the work started.
	Handle json.RawMessage `json:"handle"`
}

// SavedState is a saved run in two parts, stored side by side and neither parsed out of the other.
type SavedState struct {
	// Header is the run's own bookkeeping, versioned JSON (StateFormat): its id, limits, next
	// call id, active time, calls, logs and warnings. Empty in a state of the one-document
	// form (format 1), which VM then holds whole.
	Header []byte
	// VM is the interpreter's snapshot (interp.VM.Snapshot), or the whole one-document state
	// when Header is empty.
	VM []byte
}

// Len is the state's size in bytes, both parts.
func (s SavedState) Len() int { return len(s.Header) + len(s.VM) }

// Suspension is a saved run: State resumes it (Runtime.Resume), Pending lists what it waits on.
type Suspension struct {
	// State is the whole run.
	State SavedState
	// Pending are the durable calls whose outcomes the run waits for, in call order.
	Pending []PendingCall
}

// runState is a decoded state: the header's members and the interpreter's state.
type runState struct {
	runStateHead
	VM json.RawMessage `json:"vm"`
}

// runStateHead is the header (SavedState.Header) of format 2, and the members of a format 1
// document besides "vm".
type runStateHead struct {
	Format     int             `json:"format"`
	RunID      string          `json:"runId"`
	Limits     Limits          `json:"limits"`
	NextCallID int64           `json:"nextCallId"`
	ActiveMs   float64         `json:"activeMs"`
	Calls      []callStateJSON `json:"calls"`
	Logs       []string        `json:"logs,omitempty"`
	Warnings   []Warning       `json:"warnings,omitempty"`
	// ExtValues are the values holding functions that extensions returned (extension_state.go).
	ExtValues    []extValueJSON `json:"extValues,omitempty"`
	NextExtValue int64          `json:"nextExtValue,omitempty"`
}

// callStateJSON is one call in the header.
type callStateJSON struct {
	CallID     int64           `json:"callId"`
	Key        string          `json:"key"`
	Path       string          `json:"path"`
	PromiseID  uint64          `json:"promiseId,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	Durable    bool            `json:"durable,omitempty"`
	Status     CallStatus      `json:"status"`
	Handle     json.RawMessage `json:"handle,omitempty"`
	DurationMs *int64          `json:"durationMs,omitempty"`
	Error      string          `json:"error,omitempty"`
	External   bool            `json:"external,omitempty"`
	Queued     bool            `json:"queued,omitempty"`
}

// Suspend saves a suspended or yielded run. The Execution stays usable: a failed Suspend (a
// state over maxSnapshotBytes, or one an extension's Encode fails on, ErrExtensionState)
// harms nothing.
func (e *Execution) Suspend() (*Suspension, error) {
	if e.state != StateSuspended && e.state != StateYielded {
		return nil, fmt.Errorf("%w: it is %s", ErrNotSuspendable, e.state)
	}
	if e.inflight > 0 || len(e.ready) > 0 {
		var running []string
		for _, c := range e.calls {
			if c.status == CallRunning || (c.status == CallPending && !c.external) {
				running = append(running, fmt.Sprintf("%s (call %d)", AccessPath(c.Path), c.CallID))
			}
		}
		for _, name := range e.extInFlight() {
			running = append(running, name+" (extension call)")
		}
		return nil, fmt.Errorf("%w: calls still running in process: %v", ErrNotSuspendable, running)
	}
	state, err := e.encode()
	if err != nil {
		return nil, err
	}
	if max := e.limits.MaxSnapshotBytes; max > 0 && int64(state.Len()) > max {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrSnapshotTooLarge, state.Len(), max)
	}
	return &Suspension{State: state, Pending: e.Pending()}, nil
}

// encode writes the run's whole state: its header and the interpreter's snapshot.
func (e *Execution) encode() (SavedState, error) {
	extValues, err := e.encodeExtValues()
	if err != nil {
		return SavedState{}, err
	}
	vmState, err := e.vm.Snapshot()
	if err != nil {
		return SavedState{}, fmt.Errorf("snapshot interpreter: %w", err)
	}
	active := e.activeUsed
	if e.state != StateSuspended && e.state != StateYielded && !e.driveStart.IsZero() {
		active += time.Since(e.driveStart)
	}
	st := runStateHead{
		Format: StateFormat, RunID: e.runID, Limits: e.limits, NextCallID: e.nextCallID,
		ActiveMs: float64(active) / float64(time.Millisecond),
		Logs:     e.logs, Warnings: e.warnings,
		ExtValues: extValues, NextExtValue: e.nextExtValue,
	}
	for _, c := range e.calls {
		st.Calls = append(st.Calls, callStateJSON{
			CallID: c.CallID, Key: c.Key, Path: c.Path, PromiseID: c.promiseID, Input: c.input,
			Durable: c.durable, Status: c.status, Handle: c.handle, DurationMs: c.duration,
			Error: c.errMsg, External: c.external, Queued: c.queued,
		})
	}
	head, err := json.Marshal(st)
	if err != nil {
		return SavedState{}, fmt.Errorf("encode run state: %w", err)
	}
	return SavedState{Header: head, VM: vmState}, nil
}

// decodeState reads a state of any known format. The interpreter's state is left to
// interp.Restore, which validates it.
func decodeState(state SavedState) (*runState, error) {
	if len(state.Header) == 0 {
		return decodeOneDocument(state.VM)
	}
	var st runState
	if err := json.Unmarshal(state.Header, &st.runStateHead); err != nil {
		var head struct {
			Format int `json:"format"`
		}
		if json.Unmarshal(state.Header, &head) != nil {
			return nil, &SnapshotError{Message: "state header is not JSON: " + err.Error()}
		}
		if head.Format != 2 {
			return nil, unknownFormat(head.Format)
		}
		return nil, &SnapshotError{Message: "malformed state header: " + err.Error()}
	}
	if st.Format != 2 {
		return nil, unknownFormat(st.Format)
	}
	st.VM = state.VM
	return checkState(&st)
}

// decodeOneDocument reads a state of format 1: one JSON document, the header's members and the
// interpreter's state as member "vm".
func decodeOneDocument(data []byte) (*runState, error) {
	var st runState
	if err := json.Unmarshal(data, &st); err != nil {
		var head struct {
			Format int `json:"format"`
		}
		if json.Unmarshal(data, &head) != nil {
			return nil, &SnapshotError{Message: "state is not JSON: " + err.Error()}
		}
		if head.Format != 1 {
			return nil, unknownFormat(head.Format)
		}
		return nil, &SnapshotError{Message: "malformed state: " + err.Error()}
	}
	if st.Format != 1 {
		return nil, unknownFormat(st.Format)
	}
	return checkState(&st)
}

// checkState checks a decoded state's required members.
func checkState(st *runState) (*runState, error) {
	if st.RunID == "" || interp.SnapshotFormatOf(st.VM) == 0 {
		return nil, &SnapshotError{Message: "malformed state: runId and vm are required"}
	}
	return st, nil
}

func unknownFormat(format int) error {
	return &SnapshotError{Message: fmt.Sprintf("unknown state format %d (this build reads 1..%d)", format, StateFormat)}
}

// OutcomeFor is the outcome of one pending call, by key.
type OutcomeFor struct {
	// Key is the pending call's "<runId>:<callId>".
	Key string `json:"key"`
	// Outcome is how the call ended.
	Outcome toolcall.Outcome `json:"outcome"`
}

// Resume continues a suspended run from its state with the outcomes that have arrived, which may
// be any subset of its pending calls: calls without an outcome stay pending and the run may
// suspend again. An outcome for a key that is not pending, or a malformed state, is a
// *SnapshotError. The run keeps its limits, call ids and active-time budget.
func (r *Runtime) Resume(ctx context.Context, state SavedState, outcomes []OutcomeFor, opts ExecOptions) (*Execution, error) {
	st, err := decodeState(state)
	if err != nil {
		return nil, err
	}
	e, err := r.restoreState(st, opts)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*callState{}
	for _, c := range e.calls {
		if c.status == CallPending {
			byKey[c.Key] = c
		}
	}
	seen := map[string]bool{}
	for _, o := range outcomes {
		c, ok := byKey[o.Key]
		if !ok {
			return nil, &SnapshotError{Message: fmt.Sprintf("no pending call has key %q", o.Key)}
		}
		if seen[o.Key] {
			return nil, &SnapshotError{Message: fmt.Sprintf("two outcomes for key %q", o.Key)}
		}
		if err := o.Outcome.Validate(); err != nil {
			return nil, &SnapshotError{Message: fmt.Sprintf("outcome for %q: %v", o.Key, err)}
		}
		seen[o.Key] = true
		// The host recorded these outcomes before handing them over: they are not journaled again.
		e.ready = append(e.ready, settlement{call: c, outcome: o.Outcome, kind: kindReplayed})
	}
	// Pending work that can be awaited in process is attached again, and calls in flight
	// when the state was saved are made again, when the drive begins (resumeCalls).
	for _, c := range e.calls {
		switch {
		case c.status == CallPending && !seen[c.Key] && !c.external:
			e.reattach = append(e.reattach, c)
		case c.status == CallRunning:
			e.restart = append(e.restart, c)
		}
	}
	if err := e.drive(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// restore rebuilds the execution from a decoded state.
func (e *Execution) restore(st *runState) error {
	if err := e.restoreExtValues(st.ExtValues, st.NextExtValue); err != nil {
		return err
	}
	vm, err := interp.Restore(st.VM, e.vmConfig())
	if err != nil {
		return &SnapshotError{Message: "interpreter state: " + err.Error()}
	}
	e.vm = vm
	e.nextCallID = st.NextCallID
	e.activeUsed = time.Duration(st.ActiveMs * float64(time.Millisecond))
	e.logs = st.Logs
	e.logBytes = 0
	if e.onLog != nil {
		for _, line := range e.logs {
			e.logBytes += jsonStringLen(line)
		}
	}
	e.warnings = st.Warnings
	e.calls = make([]*callState, 0, len(st.Calls))
	e.byPromise = map[uint64]*callState{}
	for _, j := range st.Calls {
		c := &callState{
			Call:      toolcall.Call{RunID: e.runID, CallID: j.CallID, Key: j.Key, Path: j.Path},
			promiseID: j.PromiseID, input: j.Input, durable: j.Durable, status: j.Status,
			handle: j.Handle, duration: j.DurationMs, errMsg: j.Error, external: j.External,
			queued: j.Queued,
		}
		e.calls = append(e.calls, c)
		if c.status == CallPending || c.status == CallRunning {
			e.byPromise[c.promiseID] = c
		}
	}
	sort.Slice(e.calls, func(i, j int) bool { return e.calls[i].CallID < e.calls[j].CallID })
	return nil
}

// roundtripSteps is how many instructions run between saves in roundtrip mode, for states up to
// roundtripScaleBytes; larger states are saved proportionally less often.
const (
	roundtripSteps      = 300
	roundtripScaleBytes = 16 << 10
)

// roundtrip saves the interpreter and restores it into a fresh one, as a resume in another
// process would (the execution's own bookkeeping goes through the header too).
func (e *Execution) roundtrip() error {
	state, err := e.encode()
	if errors.Is(err, ErrExtensionState) {
		return nil // a state that cannot be saved is not restored either: the run goes on
	}
	if err != nil {
		return fmt.Errorf("roundtrip encode: %w", err)
	}
	// Saving costs time in proportion to the state: large states are saved less often, so that
	// a program with a big heap is not slowed quadratically.
	e.roundtripEvery = roundtripSteps * (1 + int64(state.Len())/roundtripScaleBytes)
	st, err := decodeState(state)
	if err != nil {
		return fmt.Errorf("roundtrip decode: %w", err)
	}
	live, active := e.calls, e.activeUsed
	if err := e.restore(st); err != nil {
		return fmt.Errorf("roundtrip restore: %w", err)
	}
	e.activeUsed = active
	// Calls in flight keep their goroutines: carry their live records over by call id.
	byID := map[int64]*callState{}
	for _, c := range live {
		byID[c.CallID] = c
	}
	for i, c := range e.calls {
		if old, ok := byID[c.CallID]; ok {
			e.calls[i] = old
			if old.status == CallPending || old.status == CallRunning {
				e.byPromise[old.promiseID] = old
			}
		}
	}
	return nil
}

// PendingOf lists the durable calls a saved state waits on, without resuming it.
func PendingOf(state SavedState) ([]PendingCall, error) {
	st, err := decodeState(state)
	if err != nil {
		return nil, err
	}
	var out []PendingCall
	for _, c := range st.Calls {
		if c.Status == CallPending {
			out = append(out, PendingCall{Key: c.Key, CallID: c.CallID, Path: c.Path, Args: c.Input, Handle: c.Handle})
		}
	}
	return out, nil
}

// restoreState makes the execution of a decoded state with the resume's options.
func (r *Runtime) restoreState(st *runState, opts ExecOptions) (*Execution, error) {
	if opts.RunID != "" && opts.RunID != st.RunID {
		return nil, &SnapshotError{Message: fmt.Sprintf("state belongs to run %s, not %s", st.RunID, opts.RunID)}
	}
	opts.RunID = st.RunID
	limits := st.Limits
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	e := r.newExecution(opts, limits)
	if err := e.restore(st); err != nil {
		return nil, err
	}
	return e, nil
}

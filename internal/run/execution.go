package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"time"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/jsontext"
	"github.com/codemode/codemode/internal/toolcall"
)

// State says where an Execution stands after Execute or Resume returned.
type State int

const (
	// StateDone: the program finished; Result holds its Result.
	StateDone State = iota + 1
	// StateSuspended: the program waits only on durable calls whose outcomes must arrive from
	// outside the process; Suspend saves it.
	StateSuspended
	// StateYielded: the run stopped at a safe point because ExecOptions.Drain was closed;
	// Suspend saves it, and a Resume with no outcomes continues it.
	StateYielded
)

// String names the state.
func (s State) String() string {
	switch s {
	case StateDone:
		return "done"
	case StateSuspended:
		return "suspended"
	case StateYielded:
		return "yielded"
	}
	return "unknown"
}

// MaxValueDepth is how deeply values crossing the tool boundary may nest.
const MaxValueDepth = 32

// Execution is one run of a program: made by Runtime.Execute or Runtime.Resume, which drive it
// until it finishes or can only wait for outside outcomes. An Execution is not safe for
// concurrent use.
type Execution struct {
	rt      *Runtime
	runID   string
	limits  Limits
	journal Journal
	drain   <-chan struct{}
	source  string

	vm    *interp.VM
	host  *host
	state State

	nextCallID int64
	calls      []*callState
	byPromise  map[uint64]*callState
	logs       []string
	logBytes   int64 // the logs' size as JSON strings (see ExecOptions.OnLog)
	onLog      func(LogLine)
	warnings   []Warning

	activeUsed time.Duration // active time of earlier drives (resumes)
	driveStart time.Time

	settledCh chan settlement // results of calls made in goroutines; made by the first (launch)
	ready     []settlement    // results known without waiting (journal replays, search)
	inflight  int             // goroutines that will send on settledCh
	executing int             // calls whose tool is executing (Execute or Durable.Start), at most Options.MaxConcurrentCalls
	queue     []*callState    // calls made past the cap, in call order, waiting to execute
	restart   []*callState    // calls in flight when the resumed state was saved: made again when the drive begins
	reattach  []*callState    // durable work awaited in process when the resumed state was saved
	cancelAll context.CancelFunc

	result *Result

	extCalls     map[uint64]string // asynchronous extension calls in progress: their names by promise id
	extValues    map[int64]*extValue
	nextExtValue int64

	roundtripEvery int64 // roundtrip mode: instructions between saves (grows with the state's size)

	checkpoint     CheckpointPolicy
	lastCheckpoint time.Time // when the drive last stored a checkpoint, or began
	uncheckpointed int64     // bytes of outcomes settled since then
}

// callState is the execution's record of one host call.
type callState struct {
	toolcall.Call
	promiseID uint64
	input     json.RawMessage
	durable   bool
	status    CallStatus
	handle    json.RawMessage
	started   time.Time
	duration  *int64
	errMsg    string
	external  bool // pending durable work whose outcome must come from outside
	queued    bool // made past the concurrency cap and not executing yet (Execution.queue)
}

// settlement is how one call ended, reported to the driver.
type settlement struct {
	call    *callState
	outcome toolcall.Outcome
	kind    Kind // the error kind the program sees when !outcome.OK (ToolFailure, InvalidToolOutput, ...)
	// pending is set instead of an outcome when durable work started and answered with handle.
	pending bool
	handle  json.RawMessage
	// executed is set on the settlement of a tool's execution (Execute or Durable.Start),
	// which frees a place under the concurrency cap.
	executed bool
	// attach asks the driver to wait in process for the pending work.
	attach bool
	// ext, when set, is an extension call's end instead (call is nil then).
	ext *extOutcome
}

// Execute compiles source and runs it until it finishes or can only wait for outcomes of durable
// work that must arrive from outside (then Suspend saves it). A compile error is not an error of
// Execute: the Execution is done with a ParseError or UnsupportedSyntax Result. Errors are
// reserved for misuse (invalid limits) and journal failures.
func (r *Runtime) Execute(ctx context.Context, source string, opts ExecOptions) (*Execution, error) {
	limits, err := r.limitsFor(opts)
	if err != nil {
		return nil, err
	}
	e := r.newExecution(opts, limits)
	e.source = source
	prog, err := interp.CompileShared(source) // the same program is often run many times
	if err != nil {
		e.finishWithError(diagnosticOf(err))
		return e, nil
	}
	e.vm = interp.New(e.vmConfig())
	e.host.install(e.vm)
	if d := e.installInput(opts.Input); d != nil {
		e.finishWithError(d)
		return e, nil
	}
	if err := e.vm.Start(prog); err != nil {
		return nil, fmt.Errorf("start program: %w", err)
	}
	if err := e.drive(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

func (r *Runtime) newExecution(opts ExecOptions, limits Limits) *Execution {
	id := opts.RunID
	if id == "" {
		id = newRunID()
	}
	e := &Execution{
		rt:         r,
		runID:      id,
		limits:     limits,
		journal:    opts.Journal,
		checkpoint: opts.Checkpoint,
		drain:      opts.Drain,
		onLog:      opts.OnLog,
		byPromise:  map[uint64]*callState{},

		roundtripEvery: roundtripSteps,
	}
	e.host = &host{e: e}
	return e
}

// launch accounts for a goroutine about to be started that will send its result on
// settledCh, which the first one makes (a run that makes no call in a goroutine never needs it).
func (e *Execution) launch() {
	e.inflight++
	if e.settledCh == nil {
		e.settledCh = make(chan settlement, 16)
	}
}

// newRunID returns a random run id.
func newRunID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "run_" + hex.EncodeToString(b[:])
}

func (e *Execution) vmConfig() interp.Config {
	return interp.Config{
		Host: e.host,
		Log:  e.log,
		Now:  e.rt.opts.Clock,
		// Math.random's seed: from the runtime's generator (seeded by the system, unpredictable),
		// which costs no system call per run
		RandomSeed:     mathrand.Uint64(),
		MaxMemoryBytes: e.limits.MaxMemoryBytes,
		Modules:        e.rt.exts.names,
	}
}

// log receives the program's console lines.
func (e *Execution) log(level, text string) {
	e.logs = append(e.logs, text)
	if e.onLog == nil {
		return
	}
	before := e.logBytes
	e.logBytes += jsonStringLen(text)
	switch max := e.limits.MaxOutputBytes; {
	case max <= 0 || e.logBytes <= max:
		e.onLog(LogLine{Level: level, Text: text, At: e.rt.opts.Clock()})
	case before <= max: // the first line past the cap stands for all the rest
		e.onLog(LogLine{Level: "warn", Text: fmt.Sprintf("…[log lines past maxOutputBytes (%d bytes) are not recorded as events]", max),
			At: e.rt.opts.Clock(), Truncated: true})
	}
}

// jsonStringLen is the length of text as a JSON string, the measure of LimitOutput.
func jsonStringLen(text string) int64 {
	q, _ := json.Marshal(text)
	return int64(len(q))
}

// RunID returns the run's id.
func (e *Execution) RunID() string { return e.runID }

// State returns where the execution stands.
func (e *Execution) State() State { return e.state }

// Result returns the run's Result once it is done (ok false before).
func (e *Execution) Result() (*Result, bool) {
	if e.state != StateDone {
		return nil, false
	}
	return e.result, true
}

// Pending lists the durable calls the run waits on, in call order.
func (e *Execution) Pending() []PendingCall {
	var out []PendingCall
	for _, c := range e.calls {
		if c.status == CallPending {
			out = append(out, PendingCall{Key: c.Key, CallID: c.CallID, Path: c.Path, Args: c.input, Handle: c.handle})
		}
	}
	return out
}

// remaining returns the active time left, and false when there is no time limit.
func (e *Execution) remaining() (time.Duration, bool) {
	if e.limits.TimeoutMs <= 0 {
		return 0, false
	}
	used := e.activeUsed + time.Since(e.driveStart)
	return time.Duration(e.limits.TimeoutMs)*time.Millisecond - used, true
}

// drive runs the program until it is done, suspended or yielded.
func (e *Execution) drive(parent context.Context) (err error) {
	e.driveStart = time.Now()
	e.lastCheckpoint = e.driveStart // the interval counts from where the drive began
	defer func() { e.activeUsed += time.Since(e.driveStart) }()
	defer func() {
		// A run that ended records the durable starts that answered after the program returned
		// (awaitDurableStarts); a failure to record one is the drive's failure.
		if err == nil && e.state == StateDone && e.host.journalErr != nil {
			err = e.host.journalErr
		}
	}()
	ctx := parent
	if left, ok := e.remaining(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, left)
		defer cancel()
	}
	callCtx, cancelCalls := context.WithCancel(context.WithoutCancel(parent))
	e.cancelAll = cancelCalls
	defer func() {
		if e.state == StateDone {
			cancelCalls()
		}
	}()
	e.host.callCtx = callCtx
	e.host.driveCtx = ctx
	if err := e.resumeCalls(); err != nil {
		return err
	}
	for {
		if err := e.applyReady(ctx); err != nil {
			return err
		}
		steps := int64(0)
		if e.draining() {
			steps = 1
		} else if e.rt.opts.RoundTrip {
			steps = e.roundtripEvery
		}
		st, err := e.runVM(ctx, steps)
		if err != nil {
			if e.host.journalErr != nil {
				return e.host.journalErr
			}
			if ctx.Err() != nil && parent.Err() == nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("run %s: %w", e.runID, err)
			}
			if parent.Err() != nil && !isDeadline(err) {
				return fmt.Errorf("run %s interrupted: %w", e.runID, parent.Err())
			}
			e.finishWithError(e.diagnosticFromRunError(err))
			return nil
		}
		if e.host.journalErr != nil {
			return e.host.journalErr
		}
		switch st {
		case interp.StatusDone:
			e.finish()
			return nil
		case interp.StatusPaused:
			if e.draining() && e.inflight == 0 && len(e.ready) == 0 {
				e.state = StateYielded
				return nil
			}
			if e.rt.opts.RoundTrip {
				if err := e.roundtrip(); err != nil {
					return err
				}
			}
			continue
		}
		// StatusWaiting: settle what is ready, else wait for a goroutine, else suspend.
		if len(e.ready) > 0 {
			continue
		}
		if e.inflight == 0 && len(e.queue) > 0 {
			// Only a drain holds queued calls back: the run yields with them, and they start
			// when it resumes.
			if e.draining() {
				e.state = StateYielded
				return nil
			}
			e.startQueued()
			continue
		}
		if e.inflight == 0 {
			if e.hasExternalPending() {
				e.state = StateSuspended
				return nil
			}
			e.finishWithError(&Diagnostic{Kind: KindExecutionFailure,
				Message: "the program waits on a promise that can never settle"})
			return nil
		}
		if e.rt.opts.RoundTrip {
			if err := e.roundtrip(); err != nil {
				return err
			}
		}
		select {
		case s := <-e.settledCh:
			e.received(s)
			e.ready = append(e.ready, s)
			e.startQueued()
		case <-ctx.Done():
			if parent.Err() != nil {
				return fmt.Errorf("run %s interrupted: %w", e.runID, parent.Err())
			}
			e.finishWithError(timeoutDiagnostic(e.limits.TimeoutMs))
			return nil
		}
	}
}

func (e *Execution) draining() bool {
	if e.drain == nil {
		return false
	}
	select {
	case <-e.drain:
		return true
	default:
		return false
	}
}

func isDeadline(err error) bool {
	var d *interp.Diagnostic
	return errors.As(err, &d) && d.Kind == string(KindTimeoutExceeded)
}

func timeoutDiagnostic(ms int64) *Diagnostic {
	return &Diagnostic{Kind: KindTimeoutExceeded, Message: fmt.Sprintf("the run exceeded its time limit of %d ms", ms)}
}

func (e *Execution) hasExternalPending() bool {
	for _, c := range e.calls {
		if c.status == CallPending && c.external {
			return true
		}
	}
	return false
}

// applyReady hands the settled calls to the program, records them and checkpoints.
func (e *Execution) applyReady(ctx context.Context) error {
	if len(e.ready) == 0 {
		return nil
	}
	batch := e.ready
	e.ready = nil
	// Only outcomes the drive got from its tools make a batch worth a checkpoint: those it was
	// handed from the journal (a re-drive's replay, the posted outcomes a resume starts with)
	// are stored already, and a re-drive gets them again from there.
	settledAny := false
	for _, s := range batch {
		if s.ext != nil {
			if err := e.settleExt(ctx, s.ext); err != nil {
				return fmt.Errorf("settle extension call %s: %w", s.ext.call.Name, err)
			}
			continue
		}
		c := s.call
		if s.pending {
			known := c.status == CallPending
			c.status = CallPending
			c.handle = s.handle
			c.external = !s.attach
			if e.journal != nil && !s.replayed() && !known {
				if err := e.journal.CallPending(ctx, c.Call, s.handle); err != nil {
					return fmt.Errorf("record pending call %s: %w", c.Key, err)
				}
			}
			if s.attach {
				e.attach(c)
			}
			continue
		}
		if err := e.settle(ctx, c, s); err != nil {
			return err
		}
		if !s.replayed() {
			settledAny = true
			e.uncheckpointed += int64(len(s.outcome.Value))
			if s.outcome.Error != nil {
				e.uncheckpointed += int64(len(s.outcome.Error.Message))
			}
		}
	}
	if settledAny && e.journal != nil && e.checkpoint.due(time.Since(e.lastCheckpoint), e.uncheckpointed) {
		return e.storeCheckpoint(ctx)
	}
	return nil
}

// storeCheckpoint saves the run through the journal. A state that extensions keep from
// being saved (calls in progress, an Encode that fails) is not checkpointed this time: the
// run goes on, and a later checkpoint or the suspend stores it.
func (e *Execution) storeCheckpoint(ctx context.Context) error {
	state, err := e.encodeChecked()
	if errors.Is(err, ErrExtensionState) {
		e.rt.opts.Logger.Warn("checkpoint skipped", "run", e.runID, "reason", err.Error())
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := e.journal.Checkpoint(ctx, state); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	e.lastCheckpoint, e.uncheckpointed = time.Now(), 0
	return nil
}

// replayed reports whether the settlement came from the journal (already recorded).
func (s settlement) replayed() bool { return s.kind == kindReplayed }

// kindReplayed marks settlements taken from the journal; the program sees them as if the tool
// had answered.
const kindReplayed Kind = "replayed"

// settle resolves or rejects the call's promise with its outcome.
func (e *Execution) settle(ctx context.Context, c *callState, s settlement) error {
	now := time.Now()
	if !c.started.IsZero() {
		d := now.Sub(c.started).Milliseconds()
		c.duration = &d
	}
	o := s.outcome
	// The program sees a tool's output as it is recorded: well-formed text (see jsontext), so
	// a re-drive that replays the recorded outcome gives it the same value.
	o.Value = jsontext.WellFormed(o.Value)
	kind := s.kind
	if o.OK {
		if err := e.rt.toolbox.ValidateOutput(c.Path, o.Value); err != nil && c.Path != searchPath {
			o = toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: err.Error()}}
			kind = KindInvalidToolOutput
		}
	}
	if e.journal != nil && s.kind != kindReplayed {
		if err := e.journal.CallSettled(ctx, c.Call, o); err != nil {
			return fmt.Errorf("record settled call %s: %w", c.Key, err)
		}
	}
	if kind == kindReplayed || kind == "" {
		kind = KindToolFailure
	}
	if o.OK {
		c.status = CallSucceeded
		v, err := e.vm.FromJSON(orNull(o.Value))
		if err != nil {
			o = toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "tool output is not valid JSON: " + err.Error()}}
			kind = KindInvalidToolOutput
		} else {
			if err := e.vm.SettleHostPromise(c.promiseID, true, v); err != nil {
				return fmt.Errorf("settle call %s: %w", c.Key, err)
			}
		}
	}
	if !o.OK {
		c.status = CallFailed
		c.errMsg = o.Error.Message
		errVal := e.host.newKindError(kind, o.Error.Message)
		if err := e.vm.SettleHostPromise(c.promiseID, false, errVal); err != nil {
			return fmt.Errorf("settle call %s: %w", c.Key, err)
		}
	}
	delete(e.byPromise, c.promiseID)
	if h := e.rt.opts.Hooks.AfterCall; h != nil {
		h(ctx, c.Call, c.record())
	}
	return nil
}

func orNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// attach waits in process for started durable work.
func (e *Execution) attach(c *callState) {
	tool, ok := e.rt.toolbox.Lookup(c.Path)
	if !ok || tool.Durable == nil {
		c.external = true
		return
	}
	e.launch()
	ctx := e.host.callCtx
	go func() {
		out, err := tool.Durable.Attach(ctx, c.handle, c.Call)
		switch {
		case errors.Is(err, ErrNotAttachable):
			e.settledCh <- settlement{call: c, pending: true, handle: c.handle}
		case err != nil:
			e.settledCh <- settlement{call: c, outcome: failure(err)}
		default:
			e.settledCh <- settlement{call: c, outcome: out}
		}
	}()
}

// record renders a call for the Result's toolCalls.
func (c *callState) record() ToolCallRecord {
	return ToolCallRecord{CallID: c.CallID, Key: c.Key, Path: c.Path, Status: c.status,
		Durable: c.durable, DurationMs: c.duration, Error: c.errMsg}
}

func failure(err error) toolcall.Outcome {
	return toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: err.Error()}}
}

// Calls lists every host call of the run so far, in call order.
func (e *Execution) Calls() []ToolCallRecord {
	out := make([]ToolCallRecord, len(e.calls))
	for i, c := range e.calls {
		out[i] = c.record()
	}
	return out
}

// Logs returns the program's console lines so far.
func (e *Execution) Logs() []string { return e.logs }

// runVM runs the interpreter for up to steps steps (0: no bound). A Go panic out of the
// interpreter (an interpreter bug, not the program's fault) is turned into an error so that one
// run's failure ends that run with an ExecutionFailure and never the host process.
func (e *Execution) runVM(ctx context.Context, steps int64) (st interp.Status, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = interp.StatusDone, fmt.Errorf("internal interpreter error: %v", r)
		}
	}()
	return e.vm.Run(ctx, interp.RunOptions{MaxSteps: steps, Pause: e.drain})
}

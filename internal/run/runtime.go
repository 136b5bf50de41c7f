package run

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/toolcall"
)

// Options configures a Runtime. The zero value is a runtime with no tools and no limits.
type Options struct {
	// Tools are the host tools programs can call as tools.<path>(input).
	Tools []Tool
	// Namespaces describe dotted prefixes of tool paths (for catalogs and search).
	Namespaces []Namespace
	// Extensions are globals of the host's own that programs call directly (see Extension).
	Extensions []Extension
	// Limits apply to every run unless ExecOptions.Limits overrides them. Zero fields mean no
	// limit.
	Limits Limits
	// Hooks run around every host call.
	Hooks Hooks
	// Clock is the program's clock (Date.now, new Date). Default time.Now. Time limits are
	// measured on the process's monotonic clock regardless.
	Clock func() time.Time
	// Logger receives the runtime's own logs (not the program's console). Default: discard.
	Logger *slog.Logger
	// RoundTrip, for tests, saves every run to bytes and restores it into a brand-new
	// interpreter at every host-call boundary and every few hundred instructions, as a resume
	// in another process would: state a snapshot forgets shows up as a wrong result. It makes
	// runs far slower. The test suites set it when CODEMODE_ROUNDTRIP=1 (docs/architecture.md).
	RoundTrip bool
	// MaxConcurrentCalls caps the tool calls of one run that execute at once: 0 means
	// DefaultMaxConcurrentCalls, a negative value no cap. Calls past the cap wait in a queue in
	// call order; they have their call ids and keys, count against maxToolCalls and are
	// journaled when made, and start as earlier calls finish. A run saved with queued calls
	// (a drain) starts them when it resumes.
	MaxConcurrentCalls int
}

// DefaultMaxConcurrentCalls is the default of Options.MaxConcurrentCalls.
const DefaultMaxConcurrentCalls = 8

// buildRoundTrip turns RoundTrip on in every runtime of a binary built with the
// codemode_roundtrip build tag: the end-to-end tests build the service's binaries so when
// CODEMODE_ROUNDTRIP=1. Release binaries cannot turn it on.
var buildRoundTrip = false

// Hooks run around every host call: tool calls and search (BeforeCall, AfterCall), and
// extension calls (ExtensionBefore, ExtensionAfter).
type Hooks struct {
	// BeforeCall runs before the call is made. A non-nil error denies the call: the program sees
	// a thrown Error with the error's message, and the tool is not called.
	BeforeCall func(ctx context.Context, call toolcall.Call, input json.RawMessage) error
	// AfterCall runs once the call has settled (succeeded, failed or was cancelled).
	AfterCall func(ctx context.Context, call toolcall.Call, record ToolCallRecord)
	// ExtensionBefore runs before an extension function is called, on the goroutine driving
	// the run. A non-nil error denies the call: a synchronous call throws, an asynchronous
	// call's promise rejects, with an Error "call denied: <message>".
	ExtensionBefore func(ctx context.Context, call ExtensionCall) error
	// ExtensionAfter runs once an extension call has ended (on the goroutine driving the run),
	// with the function's result, or the error the program sees (the function's, a denial, or
	// a result that could not be copied into the program).
	ExtensionAfter func(ctx context.Context, call ExtensionCall, result any, err error)
}

// Runtime runs programs against a fixed set of tools. It is safe for concurrent use: every
// Execute and Resume makes an independent Execution.
type Runtime struct {
	toolbox *Toolbox
	catalog []Descriptor
	exts    *extensionSet
	globals *interp.HostGlobals // tools and search, installed in every run
	opts    Options
}

// New checks the options and makes a Runtime. Invalid limits, tool paths or schemas are errors,
// and so are extensions that would shadow a global or each other (see Extension).
func New(opts Options) (*Runtime, error) {
	if err := opts.Limits.Validate(); err != nil {
		return nil, err
	}
	box, err := NewToolbox(opts.Tools, opts.Namespaces)
	if err != nil {
		return nil, err
	}
	exts, err := newExtensionSet(opts.Extensions)
	if err != nil {
		return nil, err
	}
	globals, err := hostGlobals(box)
	if err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	opts.RoundTrip = opts.RoundTrip || buildRoundTrip
	if opts.MaxConcurrentCalls == 0 {
		opts.MaxConcurrentCalls = DefaultMaxConcurrentCalls
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runtime{toolbox: box, catalog: box.Catalog(), exts: exts, globals: globals, opts: opts}, nil
}

// Catalog lists the runtime's tools with their TypeScript signatures, sorted by path.
func (r *Runtime) Catalog() []Descriptor { return r.catalog }

// Toolbox returns the runtime's tools.
func (r *Runtime) Toolbox() *Toolbox { return r.toolbox }

// ExecOptions configures one run.
type ExecOptions struct {
	// RunID names the run; call keys are "<RunID>:<callId>". Generated when empty.
	RunID string
	// Limits, when non-nil, replace the runtime's limits for this run.
	Limits *Limits
	// Journal, when set, records every call and checkpoint (a durable host).
	Journal Journal
	// Checkpoint says how often a journaled run stores a checkpoint after settled calls. The
	// zero policy checkpoints after every settled batch.
	Checkpoint CheckpointPolicy
	// Drain, when closed, asks the run to stop at the next safe point once no inline call is in
	// flight; the Execution then ends Yielded and can be suspended.
	Drain <-chan struct{}
	// Input, when set, is JSON the program reads as the global input (a copy of its own, made
	// when the program starts; it is part of the run's state from then on). Without it, input
	// is undefined. Execute only: a resumed run has the input it started with.
	Input json.RawMessage
	// OnLog, when set, receives each console line as the program writes it, so that a host can
	// publish it before the run ends (the Result's logs hold them all again). Lines stop once
	// the run's lines add up to more than MaxOutputBytes (as JSON strings, the measure of the
	// Result's logs): the line that crosses it is replaced by one LogLine with Truncated set,
	// and later lines are not passed. A resumed run counts the lines of its earlier drives.
	OnLog func(LogLine)
}

// LogLine is a console line as ExecOptions.OnLog receives it.
type LogLine struct {
	// Level is the console method: log, info, warn, error, debug or trace.
	Level string
	// Text is the line.
	Text string
	// At is when the program wrote it (the runtime's clock).
	At time.Time
	// Truncated marks the line standing for every line past MaxOutputBytes.
	Truncated bool
}

// CheckpointPolicy bounds what checkpoints cost a journaled run. A drive checkpoints after a
// batch of calls settled by their tools only when Interval of active time has passed since
// its last checkpoint (or since the drive began, from a snapshot or from the source), or when
// the outcomes settled since then add up to Bytes. A zero field is no threshold, and the zero
// policy checkpoints after every such batch. A run of quick calls that is over within
// Interval of its drive's start thus writes no checkpoint. A batch of outcomes the drive was
// handed from the journal (a re-drive's replayed calls, the posted outcomes a resume starts
// with) is no progress and no reason to checkpoint: they are stored, and a re-drive gets them
// again. A run that must stop (suspend, yield, finish) is saved whatever the policy.
//
// Skipping checkpoints loses nothing: every settled outcome is recorded through
// Journal.CallSettled before the program sees it, so a re-drive from an older checkpoint (or
// from the source) runs the program again from there and gets each call it repeats answered
// by Journal.CallStarted from the journal, without calling the tool again. A re-drive thus
// replays at most Interval of active time and Bytes of outcomes.
type CheckpointPolicy struct {
	Interval time.Duration
	Bytes    int64
}

// due reports whether a checkpoint is due after elapsed active time and bytes of outcomes.
func (p CheckpointPolicy) due(elapsed time.Duration, bytes int64) bool {
	if p.Interval <= 0 && p.Bytes <= 0 {
		return true
	}
	return (p.Interval > 0 && elapsed >= p.Interval) || (p.Bytes > 0 && bytes >= p.Bytes)
}

// Journal lets a durable host record a run's calls and checkpoints, and answer calls that were
// already made before a crash. Its methods are called from the goroutine driving the run, in
// call order. A journaled run leaves the cancelling of durable work still pending when
// it ends to the host, which was told of each such call through CallPending; only a run without
// a journal cancels it at its tool itself.
type Journal interface {
	// CallStarted is called before a call is made. When the call's key is already known (the
	// run is being re-driven after a crash) it returns the stored state: an outcome is used
	// instead of calling the tool again; a handle means the durable call is pending and is not
	// started again. For a new call it returns a zero Recorded.
	CallStarted(ctx context.Context, call toolcall.Call, input json.RawMessage, durable bool) (Recorded, error)
	// CallSettled records the outcome of a call made inline (or attached in process).
	CallSettled(ctx context.Context, call toolcall.Call, outcome toolcall.Outcome) error
	// CallPending records that durable work started and answered with handle.
	CallPending(ctx context.Context, call toolcall.Call, handle json.RawMessage) error
	// Checkpoint stores the run's state at a safe point after settled calls.
	Checkpoint(ctx context.Context, state SavedState) error
}

// Recorded is what a Journal already knows about a call; the zero value means nothing.
type Recorded struct {
	// Outcome is the stored outcome of a settled call, or nil.
	Outcome *toolcall.Outcome
	// Handle is the handle of a durable call still pending, or nil.
	Handle json.RawMessage
}

// limitsFor returns the limits of one run.
func (r *Runtime) limitsFor(o ExecOptions) (Limits, error) {
	if o.Limits == nil {
		return r.opts.Limits, nil
	}
	if err := o.Limits.Validate(); err != nil {
		return Limits{}, fmt.Errorf("run limits: %w", err)
	}
	return *o.Limits, nil
}

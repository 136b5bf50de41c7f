package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/codemode/codemode/internal/toolcall"
)

// Engine runs code-mode programs for the worker. It is the seam between the durable service and
// the runtime (internal/run): the worker owns leases, storage and jobs; the engine owns the
// interpreter and the tool calls. An implementation must be safe for concurrent use by several
// runs at once.
//
// Both methods drive the program until it finishes, suspends (every promise it waits on is a
// pending durable call) or yields. Cancellation of ctx means "drain": the worker is stopping
// or the drive's time slice (WorkerConfig.DriveTimeout) is over. The engine then lets calls in
// flight settle (it must not abort them merely because ctx ended; use
// context.WithoutCancel for them, with their own timeouts), stops at the next safe point and
// returns Yielded with a snapshot; the run continues in a new job from that snapshot. Every tool call goes through the Host so it is recorded; a Host
// method returning ErrLeaseLost means another driver owns the run now: the engine must stop at
// once and return that error. A Start or Resume error is retried by the run's job, except one
// wrapping ErrPermanent or toolcall.ErrInvalidOutcome, which fails the run at once (the run's
// stored data is at fault), and ErrReplayDiverged, which fails it with an ExecutionFailure.
type Engine interface {
	// Start runs spec.Code from the beginning.
	Start(ctx context.Context, spec RunSpec, host Host) (Outcome, error)
	// Resume continues from snapshot (bytes earlier returned in an Outcome or given to
	// Host.Checkpoint). settled holds the outcomes posted for durable calls since the program
	// last saw them; the engine applies those its snapshot still waits on and ignores others.
	Resume(ctx context.Context, spec RunSpec, snapshot Snapshot, settled []Settled, host Host) (Outcome, error)
	// CancelCall asks the call's toolset to cancel the durable work of a call left pending
	// when its run ended (it returned or failed past it, or was cancelled). The worker's
	// call.cancel job calls it once per such call, after the run's end is stored: the drive
	// never waits for it. An error is retried by the job with River's backoff, except one
	// wrapping ErrPermanent (the toolset refused the cancel for good).
	CancelCall(ctx context.Context, c CallCancel) error
}

// RunSpec is what the engine needs to run one program.
type RunSpec struct {
	// RunID is the run's id; call keys are "<RunID>:<callId>".
	RunID string
	// Code is the program's source.
	Code string
	// Limits is the run's limits object as posted ({"timeoutMs", "maxToolCalls",
	// "maxOutputBytes", "maxMemoryBytes"}; absent fields take the runtime's defaults).
	Limits json.RawMessage
	// Toolsets are the toolsets the program may call, mounted under their names.
	Toolsets []Toolset
	// Input is the JSON the program reads as the global input; nil: none was given.
	Input json.RawMessage
}

// Host is the engine's view of the store for one leased run. Every method writes under the
// run's lease and fails with ErrLeaseLost when a newer driver holds it.
type Host interface {
	// CallStarted records that the program is about to make tool call c. It returns the call's
	// stored record when the key is already known (a re-drive after a crash): a settled call's
	// outcome must be used instead of calling the tool again, and a pending call must not be
	// started again. For a new call it returns a zero CallRecord and the engine makes the call.
	CallStarted(ctx context.Context, c CallStart) (CallRecord, error)
	// CallSettled records the outcome of a call the engine made inline.
	CallSettled(ctx context.Context, callID int, o toolcall.Outcome) error
	// CallPending records that a durable call was started and answered with handle; its outcome
	// will be posted later and handed to Resume.
	CallPending(ctx context.Context, callID int, handle json.RawMessage) error
	// TimerPending records that durable call callID is a built-in timer answered with handle,
	// which ends at until with output: the call is marked pending and a timer.fire job is
	// stored to post that outcome at that instant, so the program may suspend at once and no
	// worker waits for the timer.
	TimerPending(ctx context.Context, callID int, handle json.RawMessage, until time.Time, output json.RawMessage) error
	// Checkpoint stores a snapshot of the running program, taken at a safe point after settled
	// calls; a re-drive after a crash continues from the latest one.
	Checkpoint(ctx context.Context, snapshot Snapshot) error
	// Log takes a console line of the program; it is recorded with the next of the writes
	// above (or the drive's end), never on its own.
	Log(line LogLine)
}

// LogLine is a console line of a program.
type LogLine struct {
	// Level is the console method (log, info, warn, error, debug, trace).
	Level string
	// Text is the line.
	Text string
	// At is when the program wrote it.
	At time.Time
	// Truncated marks the line standing for the lines past the run's maxOutputBytes.
	Truncated bool
}

// CallStart describes a tool call as the program starts it.
type CallStart struct {
	// CallID numbers the run's calls from 1 in the order the program makes them.
	CallID int
	// Toolset is the name of the toolset serving the call.
	Toolset string
	// Path is the tool's full path as the program sees it (e.g. "ops.math.add").
	Path string
	// Args is the tool's input.
	Args json.RawMessage
	// Durable reports whether the tool is declared durable.
	Durable bool
}

// CallRecord is what the store already knows about a call; the zero value means nothing.
type CallRecord struct {
	// Outcome is the stored outcome of a settled call, or nil.
	Outcome *toolcall.Outcome
	// Handle is the handle of a durable call still pending, or nil.
	Handle json.RawMessage
}

// Settled is the outcome posted for a durable call, handed to Engine.Resume.
type Settled struct {
	// CallID is the call.
	CallID int
	// Outcome is how the call ended.
	Outcome toolcall.Outcome
}

// CallCancel is a durable call left pending when its run ended, for Engine.CancelCall.
type CallCancel struct {
	// RunID and CallID name the call; Key is its idempotency key.
	RunID  string
	CallID int
	Key    string
	// Toolset is the toolset serving the call (its secret opened), as registered now.
	Toolset Toolset
	// Path is the tool's full path as the program saw it (e.g. "ops.approvals.request").
	Path string
	// Handle is the handle the toolset answered the call with.
	Handle json.RawMessage
}

// OutcomeKind says how a drive of the program ended.
type OutcomeKind int

const (
	// Finished: the program ended; Result and OK are set.
	Finished OutcomeKind = iota + 1
	// Suspended: the program waits only on pending durable calls; Snapshot is set.
	Suspended
	// Yielded: the drive stopped at a safe point because ctx was cancelled (a draining worker);
	// Snapshot is set and the run goes back to the queue.
	Yielded
)

// String names the kind, as logs show it.
func (k OutcomeKind) String() string {
	switch k {
	case Finished:
		return "finished"
	case Suspended:
		return "suspended"
	case Yielded:
		return "yielded"
	}
	return fmt.Sprintf("OutcomeKind(%d)", int(k))
}

// Outcome is the result of Engine.Start or Engine.Resume.
type Outcome struct {
	// Kind says which of the fields below are set.
	Kind OutcomeKind
	// OK reports, for Finished, whether the program succeeded (run status succeeded or failed).
	OK bool
	// Result is, for Finished, the program's Result as JSON (stored and returned verbatim).
	Result json.RawMessage
	// Snapshot is, for Suspended and Yielded, the encoded program state.
	Snapshot Snapshot
}

// Snapshot is a program's saved state in two parts, which the store keeps as two values of a
// snapshots row (header and state) and hands back as they were: neither is parsed out of the
// other. What they hold is the engine's business: for the code-mode engine, the run's header
// (limits, call ids, active time, calls) and the interpreter's snapshot.
type Snapshot struct {
	// Header is the engine's bookkeeping. Nil in a snapshot stored before the header column
	// existed (migration 00008), whose State holds the engine's whole state as one value.
	Header []byte
	// State is the program's state.
	State []byte
}

// Len is the snapshot's size in bytes, both parts.
func (s Snapshot) Len() int { return len(s.Header) + len(s.State) }

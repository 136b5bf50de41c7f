// Package runengine is the worker's durable.Engine: it runs programs with the code-mode runtime
// (internal/run) against the run's toolsets (the tool protocol's through internal/toolset and
// runtools, OpenAPI documents' through internal/toolset/openapi, MCP servers' through
// internal/toolset/mcp), recording
// every call and checkpoint through the durable Host, turns the runtime's end states into
// durable Outcomes, and cancels the durable calls runs left pending (CancelCall). It is the
// durable service's only way to a toolset.
package runengine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/mcp"
	"github.com/codemode/codemode/internal/toolset/openapi"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// Config configures an Engine.
type Config struct {
	// Egress is the policy of the toolset calls (internal/egress). Default: the zero policy,
	// public addresses only.
	Egress egress.Policy
	// HTTPClient makes the toolset calls. Default: a client obeying Egress (each attempt is
	// bounded by the toolset client's own timeout).
	HTTPClient *http.Client
	// Limits apply to runs whose limits leave a field unset. Default (when zero)
	// DefaultLimits.
	Limits run.Limits
	// Ceilings are the largest limits this worker grants a run: a run's own limits (and
	// Limits) are held to them, so a client can lower them but never raise or lift them (a
	// zero field in a run's limits takes the ceiling). Zero fields take
	// run.DefaultCeilings.
	Ceilings run.Limits
	// DrainGrace is how long calls in flight may still take once a drain was asked for
	// (ctx cancelled) before they are aborted. Default 30 seconds.
	DrainGrace time.Duration
	// Logger receives the runtime's logs. Default: discard.
	Logger *slog.Logger
	// CheckpointInterval and CheckpointBytes are the checkpoint policy (run.CheckpointPolicy):
	// a drive checkpoints after settled calls once CheckpointInterval of active time has
	// passed since its last checkpoint (or its start) or once the outcomes settled since
	// then add up to CheckpointBytes; a run is always saved when it suspends, yields or ends.
	// A worker lost mid-run costs its re-drive at most that much replay, the calls answered
	// from the store (never made again). Defaults DefaultCheckpointInterval and
	// DefaultCheckpointBytes; a negative field is no threshold, both negative: a checkpoint
	// after every settled batch of calls.
	CheckpointInterval time.Duration
	CheckpointBytes    int64
	// MaxConcurrentCalls caps the tool calls of one run executing at once
	// (run.Options.MaxConcurrentCalls: 0 is run.DefaultMaxConcurrentCalls, negative no cap).
	MaxConcurrentCalls int
	// RoundTrip, for tests, runs every program with run.Options.RoundTrip (saved and restored
	// at every host call and every few hundred instructions).
	RoundTrip bool
}

// The default checkpoint policy (Config.CheckpointInterval, Config.CheckpointBytes).
const (
	DefaultCheckpointInterval = 200 * time.Millisecond
	DefaultCheckpointBytes    = 1 << 20
)

// DefaultLimits bound runs that set no limits of their own, so that no program can hold a
// worker forever: 5 minutes of active time, 1,000 tool calls, 1 MiB of output, 256 MiB of heap
// and 16 MiB of snapshot.
var DefaultLimits = run.Limits{
	TimeoutMs:        5 * 60 * 1000,
	MaxToolCalls:     1000,
	MaxOutputBytes:   1 << 20,
	MaxMemoryBytes:   256 << 20,
	MaxSnapshotBytes: 16 << 20,
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c Config) WithDefaults() Config {
	if c.Limits == (run.Limits{}) {
		c.Limits = DefaultLimits
	}
	c.Ceilings = orDefault(c.Ceilings, run.DefaultCeilings)
	c.Limits = c.Limits.Within(c.Ceilings)
	if c.HTTPClient == nil {
		c.HTTPClient = c.Egress.Client(0)
	}
	if c.DrainGrace == 0 {
		c.DrainGrace = 30 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.CheckpointInterval == 0 {
		c.CheckpointInterval = DefaultCheckpointInterval
	}
	if c.CheckpointBytes == 0 {
		c.CheckpointBytes = DefaultCheckpointBytes
	}
	return c
}

// orDefault returns l with its zero fields taken from def.
func orDefault(l, def run.Limits) run.Limits {
	for _, f := range []struct{ v, d *int64 }{
		{&l.TimeoutMs, &def.TimeoutMs}, {&l.MaxToolCalls, &def.MaxToolCalls}, {&l.MaxOutputBytes, &def.MaxOutputBytes},
		{&l.MaxMemoryBytes, &def.MaxMemoryBytes}, {&l.MaxSnapshotBytes, &def.MaxSnapshotBytes},
	} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	return l
}

// Engine implements durable.Engine over run.Runtime.
type Engine struct {
	cfg      Config
	runtimes runtimeCache
	// mcp holds the sessions with the MCP servers of "mcp" toolsets, shared by every run.
	mcp mcp.Pool
}

var _ durable.Engine = (*Engine)(nil)

// New returns an Engine.
func New(cfg Config) *Engine { return &Engine{cfg: cfg.WithDefaults()} }

// Close ends the engine's sessions with MCP servers, once its worker has stopped (a later run
// would open them again).
func (e *Engine) Close() { e.mcp.Close() }

// Start implements durable.Engine.
func (e *Engine) Start(ctx context.Context, spec durable.RunSpec, host durable.Host) (durable.Outcome, error) {
	rt, opts, execCtx, done, err := e.prepare(ctx, spec, host, false)
	if err != nil {
		return durable.Outcome{}, err
	}
	defer done()
	exec, err := rt.Execute(execCtx, spec.Code, opts)
	if err != nil {
		return durable.Outcome{}, fmt.Errorf("execute run %s: %w", spec.RunID, err)
	}
	return outcomeOf(exec)
}

// Resume implements durable.Engine.
func (e *Engine) Resume(ctx context.Context, spec durable.RunSpec, snapshot durable.Snapshot, settled []durable.Settled, host durable.Host) (durable.Outcome, error) {
	rt, opts, execCtx, done, err := e.prepare(ctx, spec, host, true)
	if err != nil {
		return durable.Outcome{}, err
	}
	defer done()
	outcomes := make([]run.OutcomeFor, 0, len(settled))
	for _, o := range settled {
		outcomes = append(outcomes, run.OutcomeFor{Key: toolcall.Key(spec.RunID, int64(o.CallID)), Outcome: o.Outcome})
	}
	exec, err := rt.Resume(execCtx, savedState(snapshot), outcomes, opts)
	if err != nil {
		return durable.Outcome{}, fmt.Errorf("resume run %s: %w", spec.RunID, err)
	}
	return outcomeOf(exec)
}

// prepare loads the run's toolsets into a runtime and maps ctx cancellation to a drain: the
// execution context outlives ctx by DrainGrace so calls in flight can settle.
func (e *Engine) prepare(ctx context.Context, spec durable.RunSpec, host durable.Host, resume bool) (*run.Runtime, run.ExecOptions, context.Context, func(), error) {
	rt, err := e.runtime(ctx, spec.Toolsets)
	if err != nil {
		return nil, run.ExecOptions{}, nil, nil, fmt.Errorf("runtime for run %s: %w", spec.RunID, err)
	}
	// A new run gets the configured limits overridden by its own, held to the ceilings; a
	// resumed run keeps the limits stored in its snapshot.
	limits := e.cfg.Limits
	if len(spec.Limits) > 0 {
		if err := json.Unmarshal(spec.Limits, &limits); err != nil {
			return nil, run.ExecOptions{}, nil, nil, fmt.Errorf("limits of run %s: %w", spec.RunID, err)
		}
	}
	limits = limits.Within(e.cfg.Ceilings)
	// Admission: wait for room for the run's memory limit under the process's soft memory
	// limit (memory.go); a resumed run's limits are in its snapshot, so it needs the ceiling.
	if resume {
		admit(ctx, e.cfg.Ceilings.MaxMemoryBytes)
	} else {
		admit(ctx, limits.MaxMemoryBytes)
	}
	opts := run.ExecOptions{RunID: spec.RunID, Journal: journal{host: host, timers: builtinTimers(spec.Toolsets)}, Drain: ctx.Done(), Limits: &limits,
		Checkpoint: e.checkpointPolicy(), Input: spec.Input,
		OnLog: func(l run.LogLine) {
			host.Log(durable.LogLine{Level: l.Level, Text: l.Text, At: l.At, Truncated: l.Truncated})
		}}
	if resume {
		opts.Limits = nil
	}
	execCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(e.cfg.DrainGrace, cancel)
		context.AfterFunc(execCtx, func() { t.Stop() })
	})
	return rt, opts, execCtx, func() { stop(); cancel() }, nil
}

// checkpointPolicy is the configured policy; a negative field is no threshold, and both
// negative checkpoint after every batch (the zero run.CheckpointPolicy).
func (e *Engine) checkpointPolicy() run.CheckpointPolicy {
	return run.CheckpointPolicy{Interval: max(e.cfg.CheckpointInterval, 0), Bytes: max(e.cfg.CheckpointBytes, 0)}
}

// runtime returns the runtime for a run on toolsets: a cached one when the same toolsets
// (with the same stored manifests) were used before.
func (e *Engine) runtime(ctx context.Context, toolsets []durable.Toolset) (*run.Runtime, error) {
	buf := keyBufs.Get().(*[]byte)
	key, cacheable := runtimeKey((*buf)[:0], toolsets)
	defer func() {
		if cap(key) <= maxPooledKey {
			*buf = key[:0]
			keyBufs.Put(buf)
		}
	}()
	if cacheable {
		if rt := e.runtimes.get(key); rt != nil {
			return rt, nil
		}
	}
	var (
		tools      []run.Tool
		namespaces []run.Namespace
		extensions []run.Extension
	)
	for _, ts := range toolsets {
		loaded, err := e.toolset(ctx, ts)
		if err != nil {
			return nil, err
		}
		tools, namespaces = append(tools, loaded.Tools...), append(namespaces, loaded.Namespaces...)
		extensions = append(extensions, loaded.Extensions...)
	}
	if builtinTimers(toolsets) {
		timers, ns := runtools.Timers(runtools.TimerConfig{Suspend: true})
		tools, namespaces = append(tools, timers...), append(namespaces, ns...)
	}
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces, Extensions: extensions, Limits: e.cfg.Limits, Logger: e.cfg.Logger,
		RoundTrip: e.cfg.RoundTrip, MaxConcurrentCalls: e.cfg.MaxConcurrentCalls})
	if err != nil {
		// The tools come from the stored manifests of the versions the run recorded: the
		// same ones would be refused again.
		return nil, fmt.Errorf("%w: %w", durable.ErrPermanent, err)
	}
	if cacheable {
		e.runtimes.put(key, rt)
	}
	return rt, nil
}

// toolset builds a toolset's tools, by its kind, from what was stored when it was registered
// (for the tool protocol, from its URL when no manifest was stored).
func (e *Engine) toolset(ctx context.Context, ts durable.Toolset) (*runtools.Toolset, error) {
	if ts.Deleted {
		return deletedToolset(ts)
	}
	switch ts.Kind {
	case "", durable.KindHTTP:
		return e.httpToolset(ctx, ts)
	case durable.KindOpenAPI:
		return e.openAPIToolset(ts)
	case durable.KindMCP:
		return e.mcpToolset(ts)
	}
	return nil, fmt.Errorf("toolset %s: kind %q is not supported by this worker", ts.Name, ts.Kind)
}

// mcpToolset mounts an MCP server's tools (internal/toolset/mcp) from the stored manifest;
// their calls share the engine's sessions and obey the egress policy.
func (e *Engine) mcpToolset(ts durable.Toolset) (*runtools.Toolset, error) {
	m, err := mcp.ParseManifest(ts.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%w: stored manifest of toolset %s: %w", durable.ErrPermanent, ts.Name, err)
	}
	auth, err := toolset.ParseAuth(ts.Auth)
	if err != nil {
		return nil, fmt.Errorf("toolset %s: %w", ts.Name, err)
	}
	tools, namespaces := mcp.Toolset{Name: ts.Name, Description: ts.Description, Manifest: m,
		Config: mcp.Config{URL: ts.URL, Auth: auth, HTTPClient: e.cfg.HTTPClient}}.Tools(&e.mcp)
	return &runtools.Toolset{Tools: tools, Namespaces: namespaces}, nil
}

// httpToolset builds a tool protocol toolset's tools.
func (e *Engine) httpToolset(ctx context.Context, ts durable.Toolset) (*runtools.Toolset, error) {
	client, err := toolset.New(toolset.Config{
		URL: ts.URL, Name: ts.Name, Description: ts.Description, Secret: ts.Secret,
		HTTPClient: e.cfg.HTTPClient, Logger: e.cfg.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("toolset %s: %w", ts.Name, err)
	}
	if len(ts.Manifest) > 0 {
		m, err := runtools.ParseManifest(ts.Manifest)
		if err != nil {
			return nil, fmt.Errorf("%w: stored manifest of toolset %s: %w", durable.ErrPermanent, ts.Name, err)
		}
		return runtools.FromManifest(client, m), nil
	}
	loaded, err := runtools.LoadFrom(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("load toolset %s: %w", ts.Name, err)
	}
	return loaded, nil
}

// openAPIToolset makes the tools of an OpenAPI toolset from its stored manifest and source
// (internal/toolset/openapi); their requests carry the toolset's credentials.
func (e *Engine) openAPIToolset(ts durable.Toolset) (*runtools.Toolset, error) {
	// Decoded, not checked again: registration checked it, and run.New compiles its schemas
	// anyway (a large API's take seconds to compile; once is enough).
	m, err := toolset.DecodeManifest(ts.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%w: stored manifest of toolset %s: %w", durable.ErrPermanent, ts.Name, err)
	}
	var src openapi.Source
	if err := json.Unmarshal(ts.Source, &src); err != nil {
		return nil, fmt.Errorf("stored source of toolset %s: %w", ts.Name, err)
	}
	auth, err := openapi.ParseAuth(ts.Auth)
	if err != nil {
		return nil, fmt.Errorf("stored auth of toolset %s: %w", ts.Name, err)
	}
	return openapi.Load(openapi.Config{Name: ts.Name, Description: ts.Description, Source: src, Auth: auth,
		HTTPClient: e.cfg.HTTPClient, Logger: e.cfg.Logger}, m)
}

// deletedToolset is a toolset deleted (DELETE ...?force=true) after the run was created: its
// tools stay where the program knows them, from the run's version of the manifest, and every
// call fails with an error naming the toolset, rather than the program meeting an unknown
// tool or an undefined namespace.
func deletedToolset(ts durable.Toolset) (*runtools.Toolset, error) {
	client, err := toolset.New(toolset.Config{URL: "http://deleted.invalid/", Name: ts.Name, Description: ts.Description})
	if err != nil {
		return nil, fmt.Errorf("toolset %s: %w", ts.Name, err)
	}
	m, err := runtools.ParseManifest(ts.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%w: stored manifest of toolset %s: %w", durable.ErrPermanent, ts.Name, err)
	}
	loaded := runtools.FromManifest(client, m)
	gone := &toolcall.ToolError{Message: fmt.Sprintf("toolset %q was deleted after this run started; its tools cannot be called any more", ts.Name)}
	for i := range loaded.Tools {
		loaded.Tools[i].Execute = func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) { return nil, gone }
		loaded.Tools[i].Durable = nil
	}
	loaded.Extensions = runtools.Unreachable(loaded.Extensions, gone)
	return loaded, nil
}

// outcomeOf turns an execution's end state into a durable Outcome.
func outcomeOf(exec *run.Execution) (durable.Outcome, error) {
	switch exec.State() {
	case run.StateDone:
		result, _ := exec.Result()
		// Result's own encoding, which json.Marshal would only compact again
		raw, err := result.MarshalJSON()
		if err != nil {
			return durable.Outcome{}, fmt.Errorf("encode result: %w", err)
		}
		return durable.Outcome{Kind: durable.Finished, OK: result.OK, Result: raw}, nil
	case run.StateSuspended, run.StateYielded:
		s, err := exec.Suspend()
		if errors.Is(err, run.ErrSnapshotTooLarge) {
			return snapshotTooLarge(exec, err)
		}
		if err != nil {
			return durable.Outcome{}, fmt.Errorf("suspend: %w", err)
		}
		kind := durable.Suspended
		if exec.State() == run.StateYielded {
			kind = durable.Yielded
		}
		return durable.Outcome{Kind: kind, Snapshot: snapshotOf(s.State)}, nil
	}
	return durable.Outcome{}, fmt.Errorf("execution ended in state %s", exec.State())
}

// snapshotTooLarge ends a run whose state is over maxSnapshotBytes when it must be saved. A
// suspended run's state does not change until it is saved and resumed with an outcome, and a
// yielded one would be re-driven to the same point, so no later attempt can succeed: the run
// fails with a SnapshotTooLarge diagnostic (its pending calls are then cancelled) instead of
// being retried.
func snapshotTooLarge(exec *run.Execution, err error) (durable.Outcome, error) {
	res := run.Result{
		OK:        false,
		Error:     &run.Diagnostic{Kind: run.KindSnapshotTooLarge, Message: "the run cannot be saved: " + err.Error()},
		Logs:      exec.Logs(),
		ToolCalls: exec.Calls(),
	}
	raw, mErr := json.Marshal(res)
	if mErr != nil {
		return durable.Outcome{}, fmt.Errorf("encode result: %w", mErr)
	}
	return durable.Outcome{Kind: durable.Finished, OK: false, Result: raw}, nil
}

// journal records the runtime's calls and checkpoints through the durable Host. timers: the
// run has the built-in timers, whose pending calls the store fires (Host.TimerPending).
type journal struct {
	host   durable.Host
	timers bool
}

func (j journal) CallStarted(ctx context.Context, call toolcall.Call, input json.RawMessage, isDurable bool) (run.Recorded, error) {
	name, _, _ := strings.Cut(call.Path, ".")
	rec, err := j.host.CallStarted(ctx, durable.CallStart{
		CallID: int(call.CallID), Toolset: name, Path: call.Path, Args: input, Durable: isDurable,
	})
	if err != nil {
		return run.Recorded{}, err
	}
	return run.Recorded{Handle: rec.Handle, Outcome: rec.Outcome}, nil
}

func (j journal) CallSettled(ctx context.Context, call toolcall.Call, o toolcall.Outcome) error {
	return j.host.CallSettled(ctx, int(call.CallID), o)
}

func (j journal) CallPending(ctx context.Context, call toolcall.Call, handle json.RawMessage) error {
	if j.timers && runtools.IsTimer(call.Path) {
		until, output, err := runtools.TimerWake(handle)
		if err != nil {
			return err
		}
		return j.host.TimerPending(ctx, int(call.CallID), handle, until, output)
	}
	return j.host.CallPending(ctx, int(call.CallID), handle)
}

func (j journal) Checkpoint(ctx context.Context, state run.SavedState) error {
	return j.host.Checkpoint(ctx, snapshotOf(state))
}

// snapshotOf stores a run's state as a snapshot: its header in the header column, the
// interpreter's state in the state column.
func snapshotOf(s run.SavedState) durable.Snapshot {
	return durable.Snapshot{Header: s.Header, State: s.VM}
}

// savedState is the run state of a stored snapshot. One stored before the header column
// existed has no header: its state is the one-document form, which run.Resume still reads.
func savedState(s durable.Snapshot) run.SavedState {
	return run.SavedState{Header: s.Header, VM: s.State}
}

// CancelCall implements durable.Engine: it sends the tool protocol's cancel request for the call
// to its toolset (internal/toolset, signed with the toolset's secret), one attempt per call, so
// that the call.cancel job's backoff is the one retry policy. The toolset's refusal (an answer
// that is final, or a cancel that cannot be sent as configured) wraps durable.ErrPermanent;
// anything else (unreachable, 5xx, 408, 429, a timeout) is retried by the job.
func (e *Engine) CancelCall(ctx context.Context, c durable.CallCancel) error {
	client, err := toolset.New(toolset.Config{
		URL: c.Toolset.URL, Secret: c.Toolset.Secret, HTTPClient: e.cfg.HTTPClient, Logger: e.cfg.Logger,
		Retries: -1,
	})
	if err != nil {
		return fmt.Errorf("cancel %s: %w: %w", c.Key, durable.ErrPermanent, err)
	}
	// The toolset knows the tool by its manifest path: the program's path without the mount.
	tool := strings.TrimPrefix(c.Path, c.Toolset.Name+".")
	err = client.Cancel(ctx, tool, c.Key, c.Handle)
	if errors.Is(err, toolset.ErrRejected) || errors.Is(err, toolset.ErrResponseTooLarge) || errors.Is(err, toolset.ErrMissingKey) {
		return fmt.Errorf("%w: %w", durable.ErrPermanent, err)
	}
	return err
}

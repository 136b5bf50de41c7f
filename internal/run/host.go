package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/interp"
	"github.com/codemode/codemode/internal/jsontext"
	"github.com/codemode/codemode/internal/toolcall"
)

// Host function ids. Tool functions are "tool:<path>"; they are stored in snapshots by id, so
// these strings are part of the snapshot format.
const (
	hostIDSearch   = "search"
	hostToolPrefix = "tool:"
	// searchPath is the path recorded for calls of the search built-in.
	searchPath = "search"
)

// host is the interpreter's view of the execution: it makes the program's host calls.
type host struct {
	e          *Execution
	callCtx    context.Context // context of calls made in goroutines (cancelled when the run ends)
	driveCtx   context.Context // context of the drive: synchronous extension calls end with it
	journalErr error           // a journal failure: the drive stops with it
}

var _ interp.Host = (*host)(nil)

// install defines the program's globals: the tools tree and search (prepared once per
// runtime, see hostGlobals), then the extensions.
func (h *host) install(vm *interp.VM) {
	_ = vm.InstallHostGlobals(h.e.rt.globals) // a fresh global object takes any binding
	h.installExtensions(vm)
}

// hostGlobals prepares the globals that install defines in every run: tools, an object
// holding a host function for each tool at its path (its namespaces are plain objects), and
// search.
func hostGlobals(box *Toolbox) (*interp.HostGlobals, error) {
	tools := box.Tools()
	fns := make([]interp.HostFunc, 0, len(tools)+2)
	fns = append(fns, interp.HostFunc{Path: []string{"tools"}}) // there without tools too
	for _, t := range tools {
		fns = append(fns, interp.HostFunc{Path: append([]string{"tools"}, strings.Split(t.Path, ".")...),
			ID: hostToolPrefix + t.Path, Length: 1})
	}
	fns = append(fns, interp.HostFunc{Path: []string{"search"}, ID: hostIDSearch, Length: 1})
	return interp.NewHostGlobals(fns)
}

// CallHost implements interp.Host: every call of a tool function or of search.
func (h *host) CallHost(vm *interp.VM, id string, this interp.Value, args []interp.Value) (interp.Value, error) {
	if strings.HasPrefix(id, hostExtPrefix) || strings.HasPrefix(id, hostValuePrefix) {
		return h.callExtension(vm, id, args)
	}
	e := h.e
	arg := interp.Undefined()
	if len(args) > 0 {
		arg = args[0]
	}
	var path string
	switch {
	case id == hostIDSearch:
		path = searchPath
	case strings.HasPrefix(id, hostToolPrefix):
		path = strings.TrimPrefix(id, hostToolPrefix)
	default:
		return interp.Undefined(), &interp.Diagnostic{Kind: string(KindExecutionFailure), Message: "unknown host function " + id}
	}
	if max := e.limits.MaxToolCalls; max > 0 && e.nextCallID >= max {
		return interp.Undefined(), &interp.Diagnostic{Kind: string(KindToolCallLimitExceeded),
			Message: fmt.Sprintf("the run made more than %d tool calls (maxToolCalls)", max)}
	}
	// The input before the promise: a BigInt in it throws JSON.stringify's TypeError at the
	// call site, as a program that stringified its input itself would see.
	input, inputErr := h.inputOf(vm, arg)
	var ex *interp.Exception
	if errors.As(inputErr, &ex) {
		return interp.Undefined(), ex
	}
	// The promise first: past the cap of pending promises it throws a RangeError, and a
	// call refused there gets no call id.
	pid, promise := vm.NewHostPromise()
	e.nextCallID++
	call := toolcall.Call{RunID: e.runID, CallID: e.nextCallID, Key: toolcall.Key(e.runID, e.nextCallID), Path: path}
	c := &callState{Call: call, promiseID: pid, status: CallRunning, started: time.Now()}
	e.calls = append(e.calls, c)
	e.byPromise[pid] = c

	c.input = input
	tool, known := e.rt.toolbox.Lookup(path)
	c.durable = known && tool.Durable != nil
	if e.journal != nil {
		rec, err := e.journal.CallStarted(h.callCtx, call, input, c.durable)
		if err != nil {
			h.journalErr = fmt.Errorf("record call %s: %w", call.Key, err)
			return interp.Undefined(), &interp.Diagnostic{Kind: string(KindExecutionFailure), Message: h.journalErr.Error()}
		}
		if e.replay(c, rec) {
			return promise, nil
		}
	}
	switch {
	case inputErr != nil:
		h.fail(c, KindInvalidDataValue, inputErr.Error())
		return promise, nil
	case path == searchPath:
		h.search(c)
		return promise, nil
	case !known:
		e.failUnknownTool(c)
		return promise, nil
	}
	if err := e.rt.toolbox.ValidateInput(path, input); err != nil {
		h.fail(c, KindInvalidToolInput, err.Error())
		return promise, nil
	}
	if hook := e.rt.opts.Hooks.BeforeCall; hook != nil {
		if err := hook(h.callCtx, call, input); err != nil {
			h.fail(c, KindToolFailure, "call denied: "+err.Error())
			return promise, nil
		}
	}
	h.start(tool, c)
	return promise, nil
}

// inputOf copies the program's argument as JSON; a missing argument is {}.
func (h *host) inputOf(vm *interp.VM, arg interp.Value) (json.RawMessage, error) {
	if arg.IsUndefined() {
		return json.RawMessage("{}"), nil
	}
	data, err := vm.ToData(arg, MaxValueDepth, "input")
	var ex *interp.Exception
	if errors.As(err, &ex) {
		return nil, ex
	}
	if err != nil {
		return nil, fmt.Errorf("tool input cannot be copied as JSON: %s", dataErrorText(err))
	}
	return jsontext.WellFormed(data), nil
}

// fail settles a call that was never made with an error of kind.
func (h *host) fail(c *callState, kind Kind, msg string) {
	h.e.ready = append(h.e.ready, settlement{call: c, kind: kind, outcome: toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: msg}}})
}

// start makes the call in a goroutine, or queues it behind the calls made before it when the
// run's calls executing at once reach Options.MaxConcurrentCalls (see startQueued).
func (h *host) start(tool Tool, c *callState) {
	e := h.e
	if len(e.queue) > 0 || !e.belowCallCap() {
		c.queued = true
		e.queue = append(e.queue, c)
		return
	}
	h.execute(tool, c)
}

// execute runs the tool in a goroutine; its settlement arrives on settledCh.
func (h *host) execute(tool Tool, c *callState) {
	e := h.e
	e.launch()
	e.executing++
	c.queued = false
	c.started = time.Now()
	ctx := h.callCtx
	input := c.input
	call := c.Call
	go func() {
		growCallStack()
		if tool.Durable == nil {
			out, err := tool.Execute(ctx, input, call)
			if err != nil {
				e.settledCh <- settlement{call: c, outcome: failure(err), kind: errorKind(err), executed: true}
				return
			}
			e.settledCh <- settlement{call: c, outcome: toolcall.Outcome{OK: true, Value: out}, executed: true}
			return
		}
		st, err := tool.Durable.Start(ctx, input, call)
		switch {
		case err != nil:
			e.settledCh <- settlement{call: c, outcome: failure(err), kind: errorKind(err), executed: true}
		case st.Done:
			e.settledCh <- settlement{call: c, outcome: toolcall.Outcome{OK: true, Value: st.Output}, executed: true}
		default:
			e.settledCh <- settlement{call: c, pending: true, handle: st.Handle, attach: true, executed: true}
		}
	}()
}

// callStack is the stack a call's goroutine grows to first (see growCallStack): enough for a
// toolset's HTTP exchange.
const callStack = 12 << 10

// growCallStackIndex is always 0: read through a variable, so that growCallStack's array is
// kept.
var growCallStackIndex int

// growCallStack grows the calling goroutine's stack past callStack bytes at once. A call's
// goroutine starts with the runtime's average stack; a tool's HTTP exchange goes deeper (the
// toolset client, net/http, contexts and timers), and a stack grown at depth is copied with
// every frame on it re-walked. Grown first, while the stack is shallow, it is copied with one
// frame.
//
//go:noinline
func growCallStack() byte {
	var pad [callStack]byte
	return pad[growCallStackIndex]
}

// search answers the search built-in synchronously.
func (h *host) search(c *callState) {
	var q Query
	if err := json.Unmarshal(c.input, &q); err != nil {
		h.fail(c, KindInvalidToolInput, "search expects {query, namespace?, limit?, offset?}: "+err.Error())
		return
	}
	if err := q.Validate(); err != nil {
		h.fail(c, KindInvalidToolInput, err.Error())
		return
	}
	page := Search(h.e.rt.catalog, q)
	out, err := json.Marshal(page)
	if err != nil {
		h.fail(c, KindExecutionFailure, err.Error())
		return
	}
	h.e.ready = append(h.e.ready, settlement{call: c, kind: KindToolFailure, outcome: toolcall.Outcome{OK: true, Value: out}})
}

// newKindError makes the Error value a failed call rejects with: an Error with the message and a
// "kind" property naming the diagnostic kind (ToolFailure, InvalidToolInput, ...). An uncaught
// error with a kind ends the run with a diagnostic of that kind.
func (h *host) newKindError(kind Kind, msg string) interp.Value {
	vm := h.e.vm
	v := vm.NewError("Error", msg)
	_ = vm.Set(v, "kind", vm.String(string(kind)))
	return v
}

var _ interp.NotCallableHost = (*host)(nil)

// NotCallable implements interp.NotCallableHost: a call of tools.<path> that names no tool
// throws an UnknownTool error suggesting the nearest tool (other callees keep the TypeError).
func (h *host) NotCallable(vm *interp.VM, callee string) (interp.Value, bool) {
	path, ok := toolPathOf(callee)
	if !ok {
		return interp.Undefined(), false
	}
	box := h.e.rt.toolbox
	err := &UnknownToolError{Path: path, Suggestion: box.Suggest(path), Namespace: box.IsNamespace(path)}
	return h.newKindError(KindUnknownTool, err.Error()), true
}

// toolPathOf turns a callee as written ("tools.math.add", `tools.x["a-b"]`) into a dotted tool
// path ("math.add", "x.a-b"); ok is false for callees outside the tools tree.
func toolPathOf(callee string) (string, bool) {
	rest, found := strings.CutPrefix(callee, "tools")
	if !found || rest == "" {
		return "", false
	}
	var segs []string
	for rest != "" {
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			segs = append(segs, rest[1:1+end])
			rest = rest[1+end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return "", false
			}
			lit := rest[1:end]
			if len(lit) < 2 {
				return "", false
			}
			segs = append(segs, lit[1:len(lit)-1])
			rest = rest[end+1:]
		default:
			return "", false
		}
	}
	return strings.Join(segs, "."), true
}

// installInput defines the global input: a copy of the run's input JSON, or undefined when
// there is none. Input that is not JSON is an InvalidDataValue diagnostic before anything runs.
func (e *Execution) installInput(input json.RawMessage) *Diagnostic {
	v := interp.Undefined()
	if len(input) > 0 {
		var err error
		if v, err = e.vm.FromJSON(input); err != nil {
			return &Diagnostic{Kind: KindInvalidDataValue, Message: "the run's input is not JSON: " + err.Error()}
		}
	}
	_ = e.vm.Set(e.vm.Global(), "input", v)
	return nil
}

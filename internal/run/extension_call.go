package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/codemode/codemode/internal/interp"
)

// Host function ids of extensions, part of the snapshot format like the tools': a function
// of an extension's Value is "ext:<path>" ("ext:fs.promises.readFile"); a function inside a
// returned value is "extv:<value number>:<path inside the value>" ("extv:3:.read").
const (
	hostExtPrefix   = "ext:"
	hostValuePrefix = "extv:"
)

// extValue is a value an extension function returned that holds functions.
type extValue struct {
	ext   *Extension
	name  string // the call that returned it, as a path: "fs.open()"
	value any    // the Go value; nil once lost
	funcs map[string]*Func
	// lost: the run was saved and restored without snapshot hooks for it.
	lost bool
}

// extOutcome is how an asynchronous extension call ended, for the driver to settle.
type extOutcome struct {
	promiseID uint64
	ext       *Extension
	call      ExtensionCall
	value     any
	err       error
}

// install defines the extensions' globals.
func (h *host) installExtensions(vm *interp.VM) {
	set := h.e.rt.exts
	for _, name := range set.names {
		x := set.byName[name]
		v, err := h.toJS(vm, x.Value, name, 0, func(path string, _ *Func) string { return hostExtPrefix + path })
		if err != nil { // New checked the value (checkValue): this cannot happen
			v = interp.Undefined()
		}
		_ = vm.Set(vm.Global(), name, v)
	}
}

// callExtension makes a call of an extension function: id is its host function id.
func (h *host) callExtension(vm *interp.VM, id string, args []interp.Value) (interp.Value, error) {
	e := h.e
	fn, ext, name, lostErr := e.extFunc(id)
	if lostErr != "" {
		return interp.Undefined(), vm.Throw(vm.NewError("TypeError", lostErr))
	}
	call := ExtensionCall{Extension: ext.Name, Name: name}
	syncCtx := context.WithValue(h.driveCtx, runIDKey{}, e.runID)
	asyncCtx := context.WithValue(h.callCtx, runIDKey{}, e.runID)
	goArgs, argErr := argsOf(vm, args)
	var ex *interp.Exception
	if errors.As(argErr, &ex) {
		return interp.Undefined(), ex // a BigInt: JSON.stringify's TypeError, thrown here
	}
	if argErr != nil {
		argErr = fmt.Errorf("%s: %w", name, argErr)
	}
	call.Args = goArgs
	if !fn.Async {
		// The program waits for a synchronous call: it gets the drive's context, which the
		// run's time limit ends.
		var v any
		err := argErr
		if err == nil {
			err = e.extBefore(syncCtx, call)
		}
		if err == nil {
			v, err = fn.Call(syncCtx, goArgs)
		}
		// The run's time ran out (or its drive was cancelled) while the program waited: the
		// run ends there, whatever the function answered.
		if cerr := h.driveCtx.Err(); cerr != nil {
			if errors.Is(cerr, context.DeadlineExceeded) {
				return interp.Undefined(), &interp.Diagnostic{Kind: string(KindTimeoutExceeded), Message: timeoutDiagnostic(e.limits.TimeoutMs).Message}
			}
			return interp.Undefined(), &interp.Diagnostic{Kind: string(KindExecutionFailure), Message: "the run was interrupted: " + cerr.Error()}
		}
		var out interp.Value
		if err == nil {
			out, err = e.extResult(ext, name, v)
		}
		if hook := e.rt.opts.Hooks.ExtensionAfter; hook != nil {
			hook(syncCtx, call, v, err)
		}
		if err != nil {
			return interp.Undefined(), vm.Throw(vm.NewError("Error", err.Error()))
		}
		return out, nil
	}
	pid, promise := vm.NewHostPromise()
	err := argErr
	if err == nil {
		err = e.extBefore(asyncCtx, call)
	}
	if err != nil {
		e.ready = append(e.ready, settlement{ext: &extOutcome{promiseID: pid, ext: ext, call: call, err: err}})
		return promise, nil
	}
	if e.extCalls == nil {
		e.extCalls = map[uint64]string{}
	}
	e.extCalls[pid] = name
	e.launch()
	go func() {
		v, err := fn.Call(asyncCtx, goArgs)
		select {
		case e.settledCh <- settlement{ext: &extOutcome{promiseID: pid, ext: ext, call: call, value: v, err: err}}:
		case <-asyncCtx.Done(): // the run ended: nobody takes the outcome any more
		}
	}()
	return promise, nil
}

// runIDKey is the context key of the run id an extension function's context carries.
type runIDKey struct{}

// CallRunID returns the id of the run whose extension call ctx belongs to (the context a
// Func's Call and the extension hooks receive), or "".
func CallRunID(ctx context.Context) string {
	id, _ := ctx.Value(runIDKey{}).(string)
	return id
}

// extBefore runs the ExtensionBefore hook: its error denies the call.
func (e *Execution) extBefore(ctx context.Context, call ExtensionCall) error {
	if hook := e.rt.opts.Hooks.ExtensionBefore; hook != nil {
		if err := hook(ctx, call); err != nil {
			return fmt.Errorf("call denied: %w", err)
		}
	}
	return nil
}

// settleExt settles an asynchronous extension call's promise.
func (e *Execution) settleExt(ctx context.Context, o *extOutcome) error {
	delete(e.extCalls, o.promiseID)
	var v interp.Value
	err := o.err
	if err == nil {
		v, err = e.extResult(o.ext, o.call.Name, o.value)
	}
	if hook := e.rt.opts.Hooks.ExtensionAfter; hook != nil {
		hook(context.WithValue(ctx, runIDKey{}, e.runID), o.call, o.value, err)
	}
	if err != nil {
		return e.vm.SettleHostPromise(o.promiseID, false, e.vm.NewError("Error", err.Error()))
	}
	return e.vm.SettleHostPromise(o.promiseID, true, v)
}

// extResult copies a function's result into the program; a result holding functions is
// registered as a value, its functions callable under "<name>()".
func (e *Execution) extResult(ext *Extension, name string, v any) (interp.Value, error) {
	var funcs map[string]*Func
	n := e.nextExtValue + 1
	out, err := e.host.toJS(e.vm, v, "", 0, func(path string, f *Func) string {
		if funcs == nil {
			funcs = map[string]*Func{}
		}
		funcs[path] = f
		return hostValuePrefix + strconv.FormatInt(n, 10) + ":" + path
	})
	if err != nil {
		return interp.Undefined(), fmt.Errorf("the result of %s cannot be copied into the program: %w", name, err)
	}
	if funcs != nil {
		e.nextExtValue = n
		e.putExtValue(n, &extValue{ext: ext, name: name + "()", value: v, funcs: funcs})
	}
	return out, nil
}

// putExtValue records the extension value n (the map is made by the first).
func (e *Execution) putExtValue(n int64, v *extValue) {
	if e.extValues == nil {
		e.extValues = map[int64]*extValue{}
	}
	e.extValues[n] = v
}

// extFunc finds the function of a host function id, its extension and its name; lost says
// why it cannot be called any more.
func (e *Execution) extFunc(id string) (fn *Func, ext *Extension, name, lost string) {
	if path, ok := strings.CutPrefix(id, hostExtPrefix); ok {
		global, _, _ := strings.Cut(path, ".")
		global, _, _ = strings.Cut(global, "[")
		fn, ext = e.rt.exts.funcs[id], e.rt.exts.byName[global]
		if fn == nil || ext == nil {
			return nil, nil, path, fmt.Sprintf("%s is not a function of this runtime's extensions", path)
		}
		return fn, ext, path, ""
	}
	rest := strings.TrimPrefix(id, hostValuePrefix)
	num, sub, _ := strings.Cut(rest, ":")
	n, _ := strconv.ParseInt(num, 10, 64)
	val := e.extValues[n]
	if val == nil {
		return nil, nil, id, fmt.Sprintf("host function %s is unknown", id)
	}
	name = val.name + sub
	if val.lost {
		return nil, nil, name, fmt.Sprintf("%s is no longer callable: the run was saved and restored, and extension %q has no snapshot hooks to restore the value it belongs to", name, val.ext.Name)
	}
	if fn = val.funcs[sub]; fn == nil {
		return nil, nil, name, fmt.Sprintf("%s is no longer callable: the value restored by extension %q's snapshot hooks has no function there", name, val.ext.Name)
	}
	return fn, val.ext, name, ""
}

// extInFlight names the asynchronous extension calls in progress, sorted.
func (e *Execution) extInFlight() []string {
	out := make([]string, 0, len(e.extCalls))
	for _, name := range e.extCalls {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// argsOf copies a call's arguments as JSON data; an argument that is a Uint8Array is copied
// as a []byte.
func argsOf(vm *interp.VM, args []interp.Value) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		if a.IsUndefined() {
			continue
		}
		if b, ok := vm.Uint8ArrayBytes(a); ok {
			out[i] = b // a Uint8Array argument arrives as the bytes it holds
			continue
		}
		data, err := vm.ToData(a, MaxValueDepth, fmt.Sprintf("argument %d", i+1))
		var ex *interp.Exception
		if errors.As(err, &ex) {
			return nil, ex
		}
		if err != nil {
			return nil, errors.New(dataErrorText(err))
		}
		if err := json.Unmarshal(data, &out[i]); err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
	}
	return out, nil
}

// toJS copies a Go value into the program. Functions become host functions with the id
// idOf gives their path (from base).
func (h *host) toJS(vm *interp.VM, v any, path string, depth int, idOf func(path string, f *Func) string) (interp.Value, error) {
	if depth > MaxValueDepth {
		return interp.Undefined(), fmt.Errorf("nested more than %d levels deep", MaxValueDepth)
	}
	switch x := v.(type) {
	case nil:
		return interp.Null(), nil
	case bool:
		return interp.Bool(x), nil
	case string:
		return vm.String(x), nil
	case float64:
		return interp.Number(x), nil
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return interp.Undefined(), err
		}
		return interp.Number(f), nil
	case json.RawMessage:
		return vm.FromJSON(x)
	case []byte:
		return vm.NewUint8Array(x), nil
	case *Func:
		if x == nil {
			return interp.Null(), nil
		}
		name := lastSegment(path)
		if name == "" {
			name = "anonymous"
		}
		return vm.NewHostFunction(idOf(path, x), name, 0), nil
	case []any:
		vals := make([]interp.Value, len(x))
		for i, el := range x {
			jv, err := h.toJS(vm, el, fmt.Sprintf("%s[%d]", path, i), depth+1, idOf)
			if err != nil {
				return interp.Undefined(), err
			}
			vals[i] = jv
		}
		return vm.CreateArrayFromList(vals), nil
	case map[string]any:
		obj := vm.NewObject()
		for _, k := range sortedKeys(x) {
			jv, err := h.toJS(vm, x[k], path+"."+k, depth+1, idOf)
			if err != nil {
				return interp.Undefined(), err
			}
			if err := vm.Set(obj, k, jv); err != nil {
				return interp.Undefined(), err
			}
		}
		return obj, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return interp.Number(float64(rv.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return interp.Number(float64(rv.Uint())), nil
	case reflect.Float32:
		return interp.Number(rv.Float()), nil
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return interp.Undefined(), fmt.Errorf("a Go %T is not a value (functions are *run.Func)", v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return interp.Undefined(), err
	}
	return vm.FromJSON(data)
}

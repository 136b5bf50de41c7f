package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/codemode/codemode/internal/interp"
)

// Settings of the VMs the interpreter engine creates for tests.
const (
	// testMemoryBytes is the heap accounting limit of one test's VM.
	testMemoryBytes = 512 << 20
	hostPrint       = "test262.print"
	hostDetach      = "test262.detachArrayBuffer"
)

// interpEngine runs tests on codemode's interpreter, one fresh VM per test.
type interpEngine struct{}

var _ engine = interpEngine{}

// newEngine returns the engine backed by package interp.
func newEngine() (engine, error) { return interpEngine{}, nil }

// printHost implements the host functions of one test's VM and collects printed lines.
type printHost struct {
	prints []string
}

// CallHost implements interp.Host.
func (h *printHost) CallHost(vm *interp.VM, id string, _ interp.Value, args []interp.Value) (interp.Value, error) {
	if id == hostDetach {
		var buf interp.Value
		if len(args) > 0 {
			buf = args[0]
		}
		if err := vm.DetachArrayBuffer(buf); err != nil {
			return interp.Undefined(), err
		}
		return interp.Null(), nil
	}
	if id != hostPrint {
		return interp.Undefined(), vm.Throw(vm.NewError("TypeError", "unknown host function "+id))
	}
	line := "undefined"
	if len(args) > 0 {
		line = vm.ToGoString(args[0])
	}
	h.prints = append(h.prints, line)
	return interp.Undefined(), nil
}

// Run compiles the job as a classic script and runs it with print and a minimal $262.
func (interpEngine) Run(ctx context.Context, job engineJob) engineResult {
	prog, err := interp.CompileScript(job.Source)
	if err != nil {
		var d *interp.Diagnostic
		if errors.As(err, &d) {
			return engineResult{CompileError: &jsError{Name: d.Kind, Message: d.Message}}
		}
		return engineResult{Err: fmt.Errorf("compile: %w", err)}
	}
	host := &printHost{}
	vm := interp.New(interp.Config{Host: host, MaxMemoryBytes: testMemoryBytes})
	if err := installGlobals(vm); err != nil {
		return engineResult{Err: err}
	}
	if err := vm.Start(prog); err != nil {
		return engineResult{Err: fmt.Errorf("start: %w", err)}
	}
	status, err := vm.Run(ctx, interp.RunOptions{MaxSteps: job.MaxSteps})
	res := engineResult{Prints: host.prints}
	switch {
	case err != nil:
		var d *interp.Diagnostic
		if errors.As(err, &d) && d.Kind == "TimeoutExceeded" {
			res.Err = fmt.Errorf("%w: %w", ErrTestTimeout, err)
		} else {
			res.Err = fmt.Errorf("run: %w", err)
		}
		return res
	case status == interp.StatusPaused:
		res.Err = fmt.Errorf("%w (%d steps)", ErrStepBudget, job.MaxSteps)
		return res
	}
	if v, thrown := vm.Result(); thrown {
		name, msg, _, _ := vm.DescribeError(v)
		if ctor := constructorName(vm, v); ctor != "" {
			name = ctor
		}
		res.Thrown = &jsError{Name: name, Message: msg}
	}
	return res
}

// constructorName returns v.constructor.name (what a negative test's type names), or ""
// when v is not an object or has no named constructor.
func constructorName(vm *interp.VM, v interp.Value) string {
	if !v.IsObject() {
		return ""
	}
	ctor, err := vm.Get(v, "constructor")
	if err != nil || !ctor.IsObject() {
		return ""
	}
	name, err := vm.Get(ctor, "name")
	if err != nil || name.Kind() != interp.KindString {
		return ""
	}
	return vm.ToGoString(name)
}

// installGlobals defines the host's globals: print and $262 (with global and
// detachArrayBuffer; evalScript, createRealm and agent are absent).
func installGlobals(vm *interp.VM) error {
	global := vm.Global()
	if err := vm.Set(global, "print", vm.NewHostFunction(hostPrint, "print", 1)); err != nil {
		return fmt.Errorf("install print: %w", err)
	}
	t262 := vm.NewObject()
	if err := vm.Set(t262, "global", global); err != nil {
		return fmt.Errorf("install $262.global: %w", err)
	}
	if err := vm.Set(t262, "detachArrayBuffer", vm.NewHostFunction(hostDetach, "detachArrayBuffer", 1)); err != nil {
		return fmt.Errorf("install $262.detachArrayBuffer: %w", err)
	}
	if err := vm.Set(global, "$262", t262); err != nil {
		return fmt.Errorf("install $262: %w", err)
	}
	return nil
}

package bench

import (
	"context"
	"fmt"

	"github.com/codemode/codemode/internal/interp"
	"github.com/dop251/goja"
)

// gojaDriver calls main and records the outcome in globals; goja runs the promise jobs
// before RunString returns.
const gojaDriver = `
;var __benchDone = false, __benchOK = false, __benchValue;
Promise.resolve(main()).then(
  function (v) { __benchDone = true; __benchOK = true; __benchValue = String(v); },
  function (e) { __benchDone = true; __benchValue = String(e); });
`

// Goja is the goja engine.
type Goja struct{}

var _ Engine = Goja{}

// Name implements Engine.
func (Goja) Name() string { return "goja" }

// Run implements Engine.
func (Goja) Run(ctx context.Context, source string) (string, error) {
	vm := goja.New()
	stop := context.AfterFunc(ctx, func() { vm.Interrupt(ctx.Err()) })
	defer stop()
	if _, err := vm.RunString(source + gojaDriver); err != nil {
		return "", fmt.Errorf("goja: %w", err)
	}
	if !vm.Get("__benchDone").ToBoolean() {
		return "", fmt.Errorf("goja: %w", ErrNotFinished)
	}
	value := vm.Get("__benchValue").String()
	if !vm.Get("__benchOK").ToBoolean() {
		return "", fmt.Errorf("goja: %w: %s", ErrScriptFailed, value)
	}
	return value, nil
}

// oursDriver ends the program (the body of an async function) with main's value; Run
// converts it with ToString, which is String(value) for the numbers and arrays returned.
const oursDriver = "\n;return await main();\n"

// Ours is codemode's interpreter.
type Ours struct{}

var _ Engine = Ours{}

// Name implements Engine.
func (Ours) Name() string { return "ours" }

// Run implements Engine: compile, start and run to completion in a fresh VM.
func (Ours) Run(ctx context.Context, source string) (string, error) {
	prog, err := interp.Compile(source + oursDriver)
	if err != nil {
		return "", fmt.Errorf("ours: compile: %w", err)
	}
	vm := interp.New(interp.Config{})
	if err := vm.Start(prog); err != nil {
		return "", fmt.Errorf("ours: start: %w", err)
	}
	status, err := vm.Run(ctx, interp.RunOptions{})
	if err != nil {
		return "", fmt.Errorf("ours: run: %w", err)
	}
	if status != interp.StatusDone {
		return "", fmt.Errorf("ours: %w (status %d)", ErrNotFinished, status)
	}
	v, thrown := vm.Result()
	if thrown {
		name, msg, line, col := vm.DescribeError(v)
		return "", fmt.Errorf("ours: %w: %s: %s (%d:%d)", ErrScriptFailed, name, msg, line, col)
	}
	return vm.ToGoString(v), nil
}

package bench

import (
	"context"
	"fmt"

	"github.com/codemode/codemode/internal/interp"
)

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

package bench

import (
	"context"
	"fmt"

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

package main

import (
	"errors"
	"log/slog"

	"github.com/codemode/codemode/internal/durable"
)

// errNoRuntime is returned until the code-mode runtime (internal/run with internal/toolset) is
// wired in as the worker's durable.Engine.
var errNoRuntime = errors.New("the code-mode runtime is not wired into the worker yet " +
	"(newEngine in cmd/worker/engine.go): this build cannot drive runs")

// newEngine returns the engine that drives programs. This is the one place to change when the
// runtime is wired: return an adapter implementing durable.Engine over run.Runtime (Execute or
// Resume with ExecOptions{RunID, Limits, Journal: host, Drain}) and the HTTP toolsets of
// spec.Toolsets.
func newEngine(_ *slog.Logger) (durable.Engine, error) {
	return nil, errNoRuntime
}

package main

import (
	"log/slog"

	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	coderun "github.com/codemode/codemode/internal/run"
)

// newEngine returns the engine that drives programs: the code-mode runtime calling the runs'
// HTTP toolsets.
func newEngine(logger *slog.Logger, ceilings coderun.Limits, policy egress.Policy, cfg config.Config) (durable.Engine, error) {
	return runengine.New(runengine.Config{Logger: logger, Ceilings: ceilings, Egress: policy,
		CheckpointInterval: cfg.CheckpointInterval, CheckpointBytes: cfg.CheckpointBytes,
		MaxConcurrentCalls: cfg.MaxConcurrentCalls}), nil
}

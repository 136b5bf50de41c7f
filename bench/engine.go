package bench

import "context"

// Engine runs a benchmark script in a fresh VM: it evaluates the script, calls main, runs
// the job queue until main's promise (if any) settles, and returns String(value) (arrays
// of numbers print as "1,2,3"). Implementations are used from one goroutine at a time.
type Engine interface {
	// Name identifies the engine in reports ("ours", "goja").
	Name() string
	// Run runs source; ctx bounds the run.
	Run(ctx context.Context, source string) (string, error)
}

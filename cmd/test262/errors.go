package main

import "errors"

var (
	// ErrNoFrontmatter means a test file has no "/*--- ... ---*/" metadata block.
	ErrNoFrontmatter = errors.New("no test262 frontmatter")
	// ErrBadNegativePhase means a negative test names an unknown phase or no error type.
	ErrBadNegativePhase = errors.New("invalid negative test metadata")
	// ErrUnexpectedFailures means tests failed that the expectations file does not list.
	ErrUnexpectedFailures = errors.New("unexpected test failures")
)

var (
	// ErrEnginePanic means the engine panicked while running a test.
	ErrEnginePanic = errors.New("engine panic")
	// ErrTestTimeout means a test ran past its wall-clock limit.
	ErrTestTimeout = errors.New("test timed out")
	// ErrStepBudget means a test used up its interpreter step budget.
	ErrStepBudget = errors.New("step budget exhausted")
)

// ErrWorkerCrashed means a worker process died while running a test (for example of a Go
// fatal error such as a stack overflow).
var ErrWorkerCrashed = errors.New("worker process crashed")

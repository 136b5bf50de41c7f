package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Status values of a test result.
const (
	statusPass = "pass"
	statusFail = "fail"
	statusSkip = "skip"
)

// result is the outcome of one test, as written to the JSON summary.
type result struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// Defaults of the runner.
const (
	// defaultTimeout is the wall-clock limit of one test.
	defaultTimeout = 10 * time.Second
	// defaultMaxSteps is the interpreter step budget of one test.
	defaultMaxSteps = 200_000_000
	// abandonGrace is how long past its deadline a test may take to stop before the runner
	// gives up waiting for it and reports it failed.
	abandonGrace = 2 * time.Second
)

// runner runs test262 files on an engine.
type runner struct {
	root     string
	eng      engine
	harness  *harness
	timeout  time.Duration
	grace    time.Duration // how long past the deadline to wait before abandoning a run
	maxSteps int64
	jobs     int
	progress io.Writer // optional: a line every progressEvery tests
}

const progressEvery = 1000

func newRunner(root string, eng engine) *runner {
	return &runner{
		root:     root,
		eng:      eng,
		harness:  newHarness(root),
		timeout:  defaultTimeout,
		grace:    abandonGrace,
		maxSteps: defaultMaxSteps,
		jobs:     runtime.GOMAXPROCS(0),
	}
}

// runAll runs the tests in parallel and returns their results in the order of paths.
func (r *runner) runAll(ctx context.Context, paths []string) []result {
	results := make([]result, len(paths))
	jobs := r.jobs
	if jobs < 1 {
		jobs = 1
	}
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = r.runOne(ctx, paths[i])
				if r.progress != nil {
					mu.Lock()
					finished++
					if finished%progressEvery == 0 {
						fmt.Fprintf(r.progress, "test262: %d/%d\n", finished, len(paths))
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runOne decides, prepares and runs one test, turning every failure into a result.
func (r *runner) runOne(ctx context.Context, p string) result {
	if reason := dirSkipReason(p); reason != "" {
		return result{Path: p, Status: statusSkip, Message: "directory excluded: " + reason}
	}
	data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(p)))
	if err != nil {
		return result{Path: p, Status: statusFail, Message: fmt.Sprintf("read test: %v", err)}
	}
	body := string(data)
	md, err := parseMetadata(body)
	if err != nil {
		return result{Path: p, Status: statusFail, Message: fmt.Sprintf("metadata: %v", err)}
	}
	if reason := skipReason(p, md); reason != "" {
		return result{Path: p, Status: statusSkip, Message: reason}
	}
	if reason := r.harness.skipReason(md); reason != "" {
		return result{Path: p, Status: statusSkip, Message: reason}
	}
	src, err := r.harness.assemble(body, md, !md.hasFlag(flagRaw))
	if err != nil {
		return result{Path: p, Status: statusFail, Message: err.Error()}
	}
	res := r.execute(ctx, engineJob{Source: src, Async: md.hasFlag(flagAsync), MaxSteps: r.maxSteps})
	status, msg := verdict(md, res)
	if status == statusFail {
		if reason := outsideLanguage(body, res); reason != "" {
			return result{Path: p, Status: statusSkip, Message: reason}
		}
	}
	return result{Path: p, Status: status, Message: msg}
}

// execute runs a job on the engine under the wall-clock timeout, recovering a panic of the
// engine and abandoning a run that does not stop after its deadline.
func (r *runner) execute(ctx context.Context, job engineJob) engineResult {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	done := make(chan engineResult, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- engineResult{Err: fmt.Errorf("%w: %v%s", ErrEnginePanic, p, panicSite())}
			}
		}()
		done <- r.eng.Run(ctx, job)
	}()
	timer := time.NewTimer(r.timeout + r.grace)
	defer timer.Stop()
	select {
	case res := <-done:
		if res.Err != nil && errors.Is(res.Err, context.DeadlineExceeded) {
			res.Err = fmt.Errorf("%w (%s): %w", ErrTestTimeout, r.timeout, res.Err)
		}
		return res
	case <-timer.C:
		return engineResult{Err: fmt.Errorf("%w (%s): the engine did not stop, run abandoned", ErrTestTimeout, r.timeout)}
	}
}

// panicSite names the function and line that panicked, as " at pkg.Func (file.go:12)"; it
// must be called from the deferred function that recovered. "" when unknown.
func panicSite() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" at %s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// Markers printed by doneprintHandle.js.
const (
	asyncComplete = "Test262:AsyncTestComplete"
	asyncFailure  = "Test262:AsyncTestFailure:"
)

// verdict compares what a run produced with what the test's metadata expects.
func verdict(md *metadata, res engineResult) (status, message string) {
	if neg := md.Negative; neg != nil {
		return negativeVerdict(neg, res)
	}
	switch {
	case res.CompileError != nil:
		return statusFail, "compile: " + res.CompileError.String()
	case res.Err != nil:
		return statusFail, res.Err.Error()
	case res.Thrown != nil:
		return statusFail, "uncaught " + res.Thrown.String()
	}
	if !md.hasFlag(flagAsync) {
		return statusPass, ""
	}
	for _, line := range res.Prints {
		if strings.HasPrefix(line, asyncFailure) {
			return statusFail, "async: " + strings.TrimPrefix(line, asyncFailure)
		}
	}
	for _, line := range res.Prints {
		if line == asyncComplete {
			return statusPass, ""
		}
	}
	return statusFail, "async: $DONE was not called"
}

// parseErrorKind is the diagnostic kind of a compile error that JavaScript reports as a
// SyntaxError.
const parseErrorKind = "ParseError"

// negativeVerdict judges a test that must fail at a given phase with a given error.
func negativeVerdict(neg *negative, res engineResult) (status, message string) {
	want := fmt.Sprintf("expected %s at %s phase", neg.Type, neg.Phase)
	switch neg.Phase {
	case phaseParse:
		switch {
		case res.CompileError == nil:
			return statusFail, want + ", but the script compiled"
		case res.CompileError.Name == parseErrorKind && neg.Type == "SyntaxError":
			return statusPass, ""
		default:
			return statusFail, want + ", got compile error " + res.CompileError.String()
		}
	default:
		switch {
		case res.CompileError != nil:
			return statusFail, want + ", got compile error " + res.CompileError.String()
		case res.Err != nil:
			return statusFail, want + ", got " + res.Err.Error()
		case res.Thrown == nil:
			return statusFail, want + ", but nothing was thrown"
		case res.Thrown.Name != neg.Type:
			return statusFail, want + ", got " + res.Thrown.String()
		}
		return statusPass, ""
	}
}

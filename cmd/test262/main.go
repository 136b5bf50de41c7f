// Command test262 runs tc39/test262 conformance tests against codemode's interpreter.
//
//	go run ./cmd/test262 -root DIR [-list FILE] [-json OUT] [-expect FILE [-update-expect]]
//	    [-j N] [-filter SUBSTR] [-top N] [-timeout 10s] [-steps N] [-engine interp|node] [-isolate=false]
//
// It honours each file's metadata (includes, flags async/onlyStrict/noStrict/raw/module,
// negative tests by phase and error type, features), runs every test in a fresh VM under a
// step budget and a wall-clock timeout, in parallel, and prints pass/fail/skip counts per
// directory (the first two path levels under test/) and in total. Tests of what the
// language leaves out on purpose (eval, with, modules, Proxy, Reflect, typed arrays,
// Atomics, Temporal, Intl, WeakRef, ...) are skipped by feature tag, flag or
// directory, with the reason in the JSON summary. With -expect it reports tests whose
// outcome differs from the expectations file (cmd/test262/expectations.txt) and exits
// non-zero on unexpected failures; -update-expect rewrites the file from the run.
//
// Tests run in worker processes (one per -j) that are replaced when one crashes or hangs,
// so a Go fatal error in the engine fails one test instead of the run. -engine node runs
// the same tests on node, a reference that checks the runner itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// Engines selectable with -engine.
const (
	engineInterp = "interp"
	engineNode   = "node"
)

// options are the command-line settings.
type options struct {
	root         string
	list         string
	jsonOut      string
	expect       string
	updateExpect bool
	jobs         int
	filter       string
	timeout      time.Duration
	maxSteps     int64
	quiet        bool
	engine       string
	top          int
	isolate      bool
	worker       bool
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("test262", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.root, "root", "", "test262 checkout (required)")
	fs.StringVar(&o.list, "list", "", "file of test paths relative to -root, one per line (default: the built-in selection)")
	fs.StringVar(&o.jsonOut, "json", "", "write the JSON summary to this file")
	fs.StringVar(&o.expect, "expect", "", "expectations file of known failures; exit non-zero only on unexpected failures")
	fs.BoolVar(&o.updateExpect, "update-expect", false, "rewrite the -expect file from this run's failures")
	fs.IntVar(&o.jobs, "j", 0, "tests run in parallel (default GOMAXPROCS)")
	fs.StringVar(&o.filter, "filter", "", "run only tests whose path contains this substring")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "wall-clock limit of one test")
	fs.Int64Var(&o.maxSteps, "steps", defaultMaxSteps, "interpreter step budget of one test")
	fs.BoolVar(&o.quiet, "q", false, "no progress lines on stderr")
	fs.IntVar(&o.top, "top", 0, "also print the N most common failure messages")
	fs.BoolVar(&o.isolate, "isolate", true, "run tests in -j worker processes that are replaced when one crashes or hangs")
	fs.BoolVar(&o.worker, "worker", false, "internal: serve test paths from stdin as a worker process")
	fs.StringVar(&o.engine, "engine", engineInterp, "engine: interp (codemode's interpreter) or node (a reference, to check the runner)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.root == "" {
		return nil, errors.New("-root is required")
	}
	if o.engine != engineInterp && o.engine != engineNode {
		return nil, fmt.Errorf("-engine: unknown engine %q", o.engine)
	}
	if o.updateExpect && o.expect == "" {
		return nil, errors.New("-update-expect needs -expect FILE")
	}
	return &o, nil
}

// run is the command; it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "test262:", err)
		}
		return 2
	}
	var eng engine
	if o.engine == engineNode {
		ne := newNodeEngine("node")
		defer ne.Close()
		eng = ne
	} else if eng, err = newEngine(); err != nil {
		fmt.Fprintln(stderr, "test262:", err)
		return 1
	}
	r := o.newRunner(eng)
	if !o.quiet && !o.worker {
		r.progress = stderr
	}
	if o.worker {
		if err := serveWorker(ctx, r, os.Stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "test262 worker:", err)
			return 1
		}
		return 0
	}
	runTests := func(ctx context.Context, paths []string) []result { return r.runAll(ctx, paths) }
	if o.isolate {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "test262:", err)
			return 1
		}
		runTests = func(ctx context.Context, paths []string) []result {
			command := func() *exec.Cmd { return exec.Command(exe, o.workerArgs()...) }
			return isolatedRun(ctx, paths, r.jobs, r.timeout+r.grace+workerSlack, command, r.progress)
		}
	}
	code, err := runSuite(ctx, o, runTests, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "test262:", err)
	}
	return code
}

// newRunner makes the in-process runner the options describe.
func (o *options) newRunner(eng engine) *runner {
	r := newRunner(o.root, eng)
	if o.jobs > 0 {
		r.jobs = o.jobs
	}
	r.timeout = o.timeout
	r.maxSteps = o.maxSteps
	return r
}

// workerArgs are the arguments of a worker process for these options.
func (o *options) workerArgs() []string {
	return []string{"-worker", "-root", o.root, "-engine", o.engine,
		"-timeout", o.timeout.String(), "-steps", strconv.FormatInt(o.maxSteps, 10)}
}

// runSuite selects the tests, runs them with runTests and reports.
func runSuite(ctx context.Context, o *options, runTests func(context.Context, []string) []result, stdout io.Writer) (int, error) {
	var paths []string
	var err error
	if o.list != "" {
		paths, err = readList(o.list, o.filter)
	} else {
		paths, err = selectTests(o.root, o.filter)
	}
	if err != nil {
		return 1, err
	}
	results := runTests(ctx, paths)
	writeTable(stdout, results)
	writeTopFailures(stdout, results, o.top)
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, results); err != nil {
			return 1, err
		}
	}
	if o.expect == "" {
		return 0, nil
	}
	known, err := readExpectations(o.expect)
	if err != nil {
		return 1, err
	}
	diff := compareExpectations(results, known)
	writeDiff(stdout, diff)
	if o.updateExpect {
		if err := updateExpectations(o.expect, results, known); err != nil {
			return 1, err
		}
		return 0, nil
	}
	if len(diff.UnexpectedFailures) > 0 {
		return 1, fmt.Errorf("%w: %d", ErrUnexpectedFailures, len(diff.UnexpectedFailures))
	}
	return 0, nil
}

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	treeRoot         = "testdata/tree"
	treeExpectations = "testdata/expectations.txt"
)

// treeOutcomes are the outcomes the fake tree in testdata/tree must produce on a
// conforming engine.
var treeOutcomes = map[string]string{
	"test/built-ins/Array/includes-harness.js":     statusPass,
	"test/built-ins/Array/weakref-feature.js":      statusSkip,
	"test/built-ins/Promise/async-fail.js":         statusFail,
	"test/built-ins/Promise/async-pass.js":         statusPass,
	"test/language/expressions/addition.js":        statusPass,
	"test/language/expressions/known-failure.js":   statusFail,
	"test/language/expressions/strict-this.js":     statusPass,
	"test/language/statements/negative-parse.js":   statusPass,
	"test/language/statements/negative-runtime.js": statusPass,
	"test/language/statements/raw.js":              statusPass,
	"test/language/statements/sloppy-only.js":      statusSkip,
}

// scriptedEngine answers from the test body's description line, so that the runner's
// whole pipeline can be tested without an interpreter.
var scriptedEngine = fakeEngine{fn: func(_ context.Context, job engineJob) engineResult {
	switch {
	case strings.Contains(job.Source, "known-failure") || strings.Contains(job.Source, "fails (listed"):
		return engineResult{Thrown: &jsError{Name: "Test262Error", Message: "arithmetic"}}
	case strings.Contains(job.Source, "reports a failure through $DONE"):
		return engineResult{Prints: []string{asyncFailure + "Test262Error: rejected on purpose"}}
	case job.Async:
		return engineResult{Prints: []string{asyncComplete}}
	case strings.Contains(job.Source, "var a = ;"):
		return engineResult{CompileError: &jsError{Name: parseErrorKind, Message: "unexpected ;"}}
	case strings.Contains(job.Source, "null.property"):
		return engineResult{Thrown: &jsError{Name: "TypeError", Message: "cannot read"}}
	}
	return engineResult{}
}}

// inProcess runs tests in this process on eng, as the options describe.
func inProcess(o *options, eng engine) func(context.Context, []string) []result {
	return func(ctx context.Context, paths []string) []result { return o.newRunner(eng).runAll(ctx, paths) }
}

func TestRunSuiteOnTree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		expect   bool
		filter   string
		wantCode int
		wantOut  []string
	}{
		{name: "no expectations", wantCode: 0, wantOut: []string{"built-ins/Array", "total 7 2 2 77.8%"}},
		{name: "expectations met", expect: true, wantCode: 0, wantOut: []string{"unexpected failures: 0, unexpected passes: 0"}},
		{name: "filter", filter: "Promise", wantCode: 0, wantOut: []string{"built-ins/Promise", "total 1 1 0 50.0%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			jsonOut := filepath.Join(t.TempDir(), "out.json")
			o := &options{root: treeRoot, jsonOut: jsonOut, jobs: 2, filter: tt.filter, timeout: defaultTimeout, maxSteps: 1000}
			if tt.expect {
				o.expect = treeExpectations
			}
			var stdout strings.Builder
			code, err := runSuite(context.Background(), o, inProcess(o, scriptedEngine), &stdout)
			require.NoError(t, err)
			require.Equal(t, tt.wantCode, code)
			for _, want := range tt.wantOut {
				require.Contains(t, strings.Join(strings.Fields(stdout.String()), " "), want)
			}
			var doc summaryJSON
			data, err := os.ReadFile(jsonOut)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &doc))
			for _, r := range doc.Results {
				require.Equal(t, treeOutcomes[r.Path], r.Status, "%s: %s", r.Path, r.Message)
			}
			if tt.filter == "" {
				require.Len(t, doc.Results, len(treeOutcomes))
				require.Equal(t, 7, doc.Passed)
				require.Equal(t, 2, doc.Failed)
				require.Equal(t, 2, doc.Skipped)
			}
		})
	}
}

func TestRunSuiteUnexpected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	expect := filepath.Join(dir, "expectations.txt")
	require.NoError(t, os.WriteFile(expect, []byte("test/language/expressions/addition.js\n"), 0o644))
	list := filepath.Join(dir, "list.txt")
	require.NoError(t, os.WriteFile(list, []byte("test/language/expressions/addition.js\ntest/language/expressions/known-failure.js\n"), 0o644))

	o := &options{root: treeRoot, list: list, expect: expect, jobs: 1, timeout: defaultTimeout}
	var stdout strings.Builder
	code, err := runSuite(context.Background(), o, inProcess(o, scriptedEngine), &stdout)
	require.ErrorIs(t, err, ErrUnexpectedFailures)
	require.Equal(t, 1, code)
	require.Contains(t, stdout.String(), "UNEXPECTED FAIL test/language/expressions/known-failure.js")
	require.Contains(t, stdout.String(), "UNEXPECTED PASS test/language/expressions/addition.js")

	o.updateExpect = true
	stdout.Reset()
	code, err = runSuite(context.Background(), o, inProcess(o, scriptedEngine), &stdout)
	require.NoError(t, err)
	require.Equal(t, 0, code)
	known, err := readExpectations(expect)
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"test/language/expressions/known-failure.js": true}, known)
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantErr string
		check   func(t *testing.T, o *options)
	}{
		{name: "root required", args: nil, wantErr: "-root is required"},
		{name: "unknown engine", args: []string{"-root", "x", "-engine", "v8"}, wantErr: "unknown engine"},
		{name: "update needs expect", args: []string{"-root", "x", "-update-expect"}, wantErr: "needs -expect"},
		{name: "defaults", args: []string{"-root", "x"}, check: func(t *testing.T, o *options) {
			require.Equal(t, defaultTimeout, o.timeout)
			require.Equal(t, int64(defaultMaxSteps), o.maxSteps)
			require.Zero(t, o.jobs)
			require.Equal(t, engineInterp, o.engine)
		}},
		{name: "all flags", args: []string{"-root", "r", "-list", "l", "-json", "j", "-expect", "e", "-update-expect", "-j", "3", "-filter", "Array"},
			check: func(t *testing.T, o *options) {
				require.Equal(t, options{root: "r", list: "l", jsonOut: "j", expect: "e", updateExpect: true, jobs: 3, filter: "Array",
					timeout: defaultTimeout, maxSteps: defaultMaxSteps, engine: engineInterp, isolate: true}, *o)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stderr strings.Builder
			o, err := parseFlags(tt.args, &stderr)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			tt.check(t, o)
		})
	}
}

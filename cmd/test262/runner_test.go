package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeEngine runs a job by calling fn; it records nothing else.
type fakeEngine struct {
	fn func(ctx context.Context, job engineJob) engineResult
}

func (f fakeEngine) Run(ctx context.Context, job engineJob) engineResult { return f.fn(ctx, job) }

func TestVerdict(t *testing.T) {
	t.Parallel()
	asyncMD := &metadata{Flags: []string{"async"}}
	parseNeg := &metadata{Negative: &negative{Phase: "parse", Type: "SyntaxError"}}
	runtimeNeg := &metadata{Negative: &negative{Phase: "runtime", Type: "TypeError"}}
	tests := []struct {
		name    string
		md      *metadata
		res     engineResult
		status  string
		message string // substring
	}{
		{name: "plain pass", md: &metadata{}, status: statusPass},
		{name: "uncaught", md: &metadata{}, res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "boom"}}, status: statusFail, message: "uncaught Test262Error: boom"},
		{name: "compile error", md: &metadata{}, res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax", Message: "eval"}}, status: statusFail, message: "compile: UnsupportedSyntax: eval"},
		{name: "run error", md: &metadata{}, res: engineResult{Err: ErrStepBudget}, status: statusFail, message: "step budget"},
		{name: "async complete", md: asyncMD, res: engineResult{Prints: []string{"x", asyncComplete}}, status: statusPass},
		{name: "async failure", md: asyncMD, res: engineResult{Prints: []string{asyncFailure + "Test262Error: no"}}, status: statusFail, message: "async: Test262Error: no"},
		{name: "async failure wins over complete", md: asyncMD, res: engineResult{Prints: []string{asyncComplete, asyncFailure + "E: x"}}, status: statusFail, message: "E: x"},
		{name: "async without DONE", md: asyncMD, status: statusFail, message: "$DONE was not called"},
		{name: "async thrown", md: asyncMD, res: engineResult{Thrown: &jsError{Name: "Error"}, Prints: []string{asyncComplete}}, status: statusFail, message: "uncaught Error"},
		{name: "negative parse pass", md: parseNeg, res: engineResult{CompileError: &jsError{Name: "ParseError", Message: "unexpected"}}, status: statusPass},
		{name: "negative parse compiled", md: parseNeg, status: statusFail, message: "but the script compiled"},
		{name: "negative parse unsupported", md: parseNeg, res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax"}}, status: statusFail, message: "got compile error UnsupportedSyntax"},
		{name: "negative runtime pass", md: runtimeNeg, res: engineResult{Thrown: &jsError{Name: "TypeError"}}, status: statusPass},
		{name: "negative runtime wrong type", md: runtimeNeg, res: engineResult{Thrown: &jsError{Name: "RangeError", Message: "r"}}, status: statusFail, message: "got RangeError: r"},
		{name: "negative runtime nothing thrown", md: runtimeNeg, status: statusFail, message: "nothing was thrown"},
		{name: "negative runtime compile error", md: runtimeNeg, res: engineResult{CompileError: &jsError{Name: "ParseError"}}, status: statusFail, message: "compile error ParseError"},
		{name: "negative runtime timeout", md: runtimeNeg, res: engineResult{Err: ErrTestTimeout}, status: statusFail, message: "timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, msg := verdict(tt.md, tt.res)
			require.Equal(t, tt.status, status)
			require.Contains(t, msg, tt.message)
			if status == statusPass {
				require.Empty(t, msg)
			}
		})
	}
}

func TestHarnessAssemble(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"harness/assert.js":          "/*assert*/",
		"harness/sta.js":             "/*sta*/",
		"harness/doneprintHandle.js": "/*done*/",
		"harness/compareArray.js":    "/*compare*/",
	})
	h := newHarness(root)
	tests := []struct {
		name    string
		md      metadata
		strict  bool
		want    string
		wantErr bool
	}{
		{name: "strict", md: metadata{}, strict: true, want: "\"use strict\";\n/*assert*/\n/*sta*/\nBODY"},
		{name: "not strict", md: metadata{}, want: "/*assert*/\n/*sta*/\nBODY"},
		{name: "async and includes", md: metadata{Flags: []string{"async"}, Includes: []string{"compareArray.js", "sta.js"}}, strict: true,
			want: "\"use strict\";\n/*assert*/\n/*sta*/\n/*done*/\n/*compare*/\nBODY"},
		{name: "raw unchanged", md: metadata{Flags: []string{"raw"}, Includes: []string{"compareArray.js"}}, strict: true, want: "BODY"},
		{name: "missing include", md: metadata{Includes: []string{"nope.js"}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := h.assemble("BODY", &tt.md, tt.strict)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// explode panics, to check that the runner names where a panic happened.
func explode() { panic("engine exploded") }

func TestRunOne(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"harness/assert.js":                  "ASSERT",
		"harness/sta.js":                     "STA",
		"harness/doneprintHandle.js":         "DONE",
		"test/language/pass.js":              "/*---\ndescription: p\n---*/\nPASS",
		"test/language/strict-body.js":       "/*---\nflags: [onlyStrict]\n---*/\nSTRICT",
		"test/language/raw.js":               "/*---\nflags: [raw]\n---*/\nRAW",
		"test/language/panic.js":             "/*---\n---*/\nPANIC",
		"test/language/hang.js":              "/*---\n---*/\nHANG",
		"test/language/async.js":             "/*---\nflags: [async]\n---*/\nASYNC",
		"test/language/sloppy.js":            "/*---\nflags: [noStrict]\n---*/\nSLOPPY",
		"test/language/proxy.js":             "/*---\nfeatures: [WeakRef]\n---*/\nPROXY",
		"test/language/nometa.js":            "NOMETA",
		"test/language/statements/with/w.js": "/*---\n---*/\nWITH",
	})
	eng := fakeEngine{fn: func(ctx context.Context, job engineJob) engineResult {
		switch {
		case strings.HasSuffix(job.Source, "PASS"):
			if !strings.HasPrefix(job.Source, useStrict+"ASSERT\nSTA\n") || job.Async || job.MaxSteps != 1000 {
				return engineResult{Err: errors.New("bad job")}
			}
			return engineResult{}
		case strings.HasSuffix(job.Source, "STRICT"):
			if !strings.HasPrefix(job.Source, useStrict) {
				return engineResult{Err: errors.New("not strict")}
			}
			return engineResult{}
		case job.Source == "/*---\nflags: [raw]\n---*/\nRAW":
			return engineResult{}
		case strings.HasSuffix(job.Source, "PANIC"):
			explode()
		case strings.HasSuffix(job.Source, "HANG"):
			time.Sleep(time.Hour) // ignores ctx: the runner must abandon it
			return engineResult{}
		case strings.HasSuffix(job.Source, "ASYNC"):
			if !job.Async || !strings.Contains(job.Source, "DONE\n") {
				return engineResult{Err: errors.New("not async")}
			}
			return engineResult{Prints: []string{asyncComplete}}
		}
		return engineResult{Err: errors.New("unexpected job " + job.Source)}
	}}
	r := newRunner(root, eng)
	r.maxSteps = 1000
	r.timeout = 50 * time.Millisecond
	r.grace = 50 * time.Millisecond
	tests := []struct {
		path    string
		status  string
		message string
	}{
		{path: "test/language/pass.js", status: statusPass},
		{path: "test/language/strict-body.js", status: statusPass},
		{path: "test/language/raw.js", status: statusPass},
		{path: "test/language/async.js", status: statusPass},
		{path: "test/language/panic.js", status: statusFail, message: "engine panic: engine exploded at github.com/codemode/codemode/cmd/test262.explode (runner_test.go:"},
		{path: "test/language/hang.js", status: statusFail, message: "abandoned"},
		{path: "test/language/sloppy.js", status: statusSkip, message: "noStrict"},
		{path: "test/language/proxy.js", status: statusSkip, message: "feature WeakRef"},
		{path: "test/language/nometa.js", status: statusFail, message: "metadata"},
		{path: "test/language/missing.js", status: statusFail, message: "read test"},
		{path: "test/language/statements/with/w.js", status: statusSkip, message: "directory excluded"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			got := r.runOne(context.Background(), tt.path)
			require.Equal(t, tt.path, got.Path)
			require.Equal(t, tt.status, got.Status, got.Message)
			require.Contains(t, got.Message, tt.message)
		})
	}
}

func TestRunAllKeepsOrder(t *testing.T) {
	t.Parallel()
	files := map[string]string{"harness/assert.js": "", "harness/sta.js": ""}
	var paths []string
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		p := "test/language/" + name + ".js"
		files[p] = "/*---\n---*/\n" + name
		paths = append(paths, p)
	}
	root := writeTree(t, files)
	eng := fakeEngine{fn: func(_ context.Context, job engineJob) engineResult {
		if strings.HasSuffix(job.Source, "c") {
			return engineResult{Thrown: &jsError{Name: "Test262Error"}}
		}
		return engineResult{}
	}}
	r := newRunner(root, eng)
	r.jobs = 3
	var progress strings.Builder
	r.progress = &progress
	got := r.runAll(context.Background(), paths)
	require.Len(t, got, len(paths))
	for i, res := range got {
		require.Equal(t, paths[i], res.Path)
		want := statusPass
		if strings.HasSuffix(res.Path, "c.js") {
			want = statusFail
		}
		require.Equal(t, want, res.Status)
	}
}

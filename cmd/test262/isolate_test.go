package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// workerEnv, when set to a test262 root, turns the test binary into a worker process that
// runs tests on crashyEngine.
const workerEnv = "CODEMODE_TEST262_TEST_WORKER"

func TestMain(m *testing.M) {
	if root := os.Getenv(workerEnv); root != "" {
		r := newRunner(root, crashyEngine)
		if err := serveWorker(context.Background(), r, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashyEngine dies like a Go fatal error on CRASH, hangs on HANG and fails on FAILME.
var crashyEngine = fakeEngine{fn: func(_ context.Context, job engineJob) engineResult {
	switch {
	case strings.HasSuffix(job.Source, "CRASH"):
		fmt.Fprintln(os.Stderr, "runtime: goroutine stack exceeds 1000000000-byte limit")
		fmt.Fprintln(os.Stderr, "fatal error: stack overflow")
		fmt.Fprintln(os.Stderr, "goroutine 1 [running]:")
		os.Exit(2)
	case strings.HasSuffix(job.Source, "HANG"):
		time.Sleep(time.Hour)
	case strings.HasSuffix(job.Source, "FAILME"):
		return engineResult{Thrown: &jsError{Name: "Test262Error", Message: "failed"}}
	}
	return engineResult{}
}}

func TestIsolatedRun(t *testing.T) {
	t.Parallel()
	files := map[string]string{"harness/assert.js": "", "harness/sta.js": ""}
	bodies := map[string]string{
		"a": "PASS", "crash": "CRASH", "b": "PASS", "hang": "HANG", "c": "FAILME", "d": "PASS",
		"crash2": "CRASH", "e": "PASS",
	}
	var paths []string
	for _, name := range []string{"a", "crash", "b", "hang", "c", "d", "crash2", "e"} {
		p := "test/language/" + name + ".js"
		files[p] = "/*---\n---*/\n" + bodies[name]
		paths = append(paths, p)
	}
	root := writeTree(t, files)
	exe, err := os.Executable()
	require.NoError(t, err)
	command := func() *exec.Cmd {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), workerEnv+"="+root)
		return cmd
	}
	var progress strings.Builder
	results := isolatedRun(context.Background(), paths, 2, time.Second, command, &progress)
	require.Len(t, results, len(paths))
	want := map[string]struct{ status, message string }{
		"a":      {statusPass, ""},
		"crash":  {statusFail, "worker process crashed: runtime: goroutine stack exceeds 1000000000-byte limit; fatal error: stack overflow"},
		"b":      {statusPass, ""},
		"hang":   {statusFail, "worker killed"},
		"c":      {statusFail, "uncaught Test262Error: failed"},
		"d":      {statusPass, ""},
		"crash2": {statusFail, "fatal error: stack overflow"},
		"e":      {statusPass, ""},
	}
	for i, res := range results {
		name := strings.TrimSuffix(strings.TrimPrefix(paths[i], "test/language/"), ".js")
		require.Equal(t, paths[i], res.Path)
		require.Equal(t, want[name].status, res.Status, "%s: %s", name, res.Message)
		require.Contains(t, res.Message, want[name].message, name)
	}
}

func TestCrashSummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		stderr string
		want   string
	}{
		{name: "panic", stderr: "noise\npanic: boom\n\ngoroutine 1", want: "panic: boom"},
		{name: "fatal", stderr: "fatal error: out of memory\n", want: "fatal error: out of memory"},
		{name: "stack overflow", stderr: "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n", want: "runtime: goroutine stack exceeds 1000000000-byte limit; fatal error: stack overflow"},
		{name: "last line", stderr: "a\nkilled\n\n", want: "killed"},
		{name: "empty", stderr: "", want: "no output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, crashSummary(tt.stderr))
		})
	}
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	tb := &tailBuffer{max: 5}
	_, err := tb.Write([]byte("abc"))
	require.NoError(t, err)
	_, err = tb.Write([]byte("defg"))
	require.NoError(t, err)
	require.Equal(t, "cdefg", tb.String())
}

func TestServeWorker(t *testing.T) {
	t.Parallel()
	r := newRunner(treeRoot, scriptedEngine)
	var out strings.Builder
	in := strings.NewReader("test/language/expressions/addition.js\n\ntest/language/statements/sloppy-only.js\n")
	require.NoError(t, serveWorker(context.Background(), r, in, &out))
	require.Equal(t,
		`{"path":"test/language/expressions/addition.js","status":"pass"}`+"\n"+
			`{"path":"test/language/statements/sloppy-only.js","status":"skip","message":"flag noStrict: the language is strict only"}`+"\n",
		out.String())
}

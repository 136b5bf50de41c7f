package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGroupKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path string
		want string
	}{
		{name: "built-in", path: "test/built-ins/Array/prototype/at/a.js", want: "built-ins/Array"},
		{name: "language", path: "test/language/expressions/class/a.js", want: "language/expressions"},
		{name: "shallow", path: "test/language/a.js", want: "language"},
		{name: "outside test", path: "other/x/y/z.js", want: "other/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, groupKey(tt.path))
		})
	}
}

var sampleResults = []result{
	{Path: "test/built-ins/Array/a.js", Status: statusPass},
	{Path: "test/built-ins/Array/b.js", Status: statusFail, Message: "uncaught Test262Error: x"},
	{Path: "test/built-ins/Array/c.js", Status: statusPass},
	{Path: "test/built-ins/Array/d.js", Status: statusPass},
	{Path: "test/language/expressions/e.js", Status: statusSkip, Message: "feature Proxy: no"},
	{Path: "test/language/statements/f.js", Status: statusFail, Message: "compile: ParseError: y"},
}

func TestWriteTable(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	writeTable(&b, sampleResults)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 5)
	require.Equal(t, []string{"directory", "pass", "fail", "skip", "pass%"}, strings.Fields(lines[0]))
	require.Equal(t, []string{"built-ins/Array", "3", "1", "0", "75.0%"}, strings.Fields(lines[1]))
	require.Equal(t, []string{"language/expressions", "0", "0", "1", "-"}, strings.Fields(lines[2]))
	require.Equal(t, []string{"language/statements", "0", "1", "0", "0.0%"}, strings.Fields(lines[3]))
	require.Equal(t, []string{"total", "3", "2", "1", "60.0%"}, strings.Fields(lines[4]))
}

func TestTopFailures(t *testing.T) {
	t.Parallel()
	results := []result{
		{Path: "a.js", Status: statusFail, Message: "uncaught TypeError: x at 1:2"},
		{Path: "b.js", Status: statusFail, Message: "compile: ParseError: y"},
		{Path: "c.js", Status: statusFail, Message: "uncaught TypeError: x at 30:4"},
		{Path: "d.js", Status: statusPass},
		{Path: "e.js", Status: statusSkip, Message: "feature Proxy: no"},
		{Path: "f.js", Status: statusFail, Message: "async: $DONE was not called"},
	}
	tests := []struct {
		name string
		n    int
		want []failureGroup
	}{
		{name: "none", n: 0, want: []failureGroup{}},
		{name: "top two", n: 2, want: []failureGroup{
			{Message: "uncaught TypeError: x at N:N", Count: 2, Example: "a.js"},
			{Message: "async: $DONE was not called", Count: 1, Example: "f.js"},
		}},
		{name: "more than there are", n: 10, want: []failureGroup{
			{Message: "uncaught TypeError: x at N:N", Count: 2, Example: "a.js"},
			{Message: "async: $DONE was not called", Count: 1, Example: "f.js"},
			{Message: "compile: ParseError: y", Count: 1, Example: "b.js"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, topFailures(results, tt.n))
		})
	}
	var b strings.Builder
	writeTopFailures(&b, results, 1)
	require.Equal(t, "most common failures:\n      2  uncaught TypeError: x at N:N\n         e.g. a.js\n", b.String())
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		results []result
		want    string
	}{
		{
			name:    "shape",
			results: sampleResults[:2],
			want: `{"passed":1,"failed":1,"skipped":0,"results":[
				{"path":"test/built-ins/Array/a.js","status":"pass"},
				{"path":"test/built-ins/Array/b.js","status":"fail","message":"uncaught Test262Error: x"}]}`,
		},
		{name: "empty", want: `{"passed":0,"failed":0,"skipped":0,"results":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), "out.json")
			require.NoError(t, writeJSON(file, tt.results))
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(data))
			var raw map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(data, &raw))
			require.Len(t, raw, 4)
		})
	}
}

func TestExpectations(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "expectations.txt")
	require.NoError(t, os.WriteFile(file, []byte(strings.Join([]string{
		"# header",
		"test/built-ins/Array/b.js",
		"test/built-ins/Array/c.js  # fixed since",
		"test/built-ins/Other/not-run.js",
		"",
	}, "\n")), 0o644))
	known, err := readExpectations(file)
	require.NoError(t, err)
	require.Equal(t, map[string]bool{
		"test/built-ins/Array/b.js":       true,
		"test/built-ins/Array/c.js":       true,
		"test/built-ins/Other/not-run.js": true,
	}, known)

	diff := compareExpectations(sampleResults, known)
	require.Len(t, diff.UnexpectedFailures, 1)
	require.Equal(t, "test/language/statements/f.js", diff.UnexpectedFailures[0].Path)
	require.Equal(t, []string{"test/built-ins/Array/c.js"}, diff.UnexpectedPasses)

	var out strings.Builder
	writeDiff(&out, diff)
	require.Contains(t, out.String(), "UNEXPECTED FAIL test/language/statements/f.js: compile: ParseError: y")
	require.Contains(t, out.String(), "UNEXPECTED PASS test/built-ins/Array/c.js")

	require.NoError(t, updateExpectations(file, sampleResults, known))
	updated, err := readExpectations(file)
	require.NoError(t, err)
	require.Equal(t, map[string]bool{
		"test/built-ins/Array/b.js":       true,
		"test/built-ins/Other/not-run.js": true,
		"test/language/statements/f.js":   true,
	}, updated)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), expectationsHeader))
}

func TestReadExpectationsMissingFile(t *testing.T) {
	t.Parallel()
	known, err := readExpectations(filepath.Join(t.TempDir(), "absent.txt"))
	require.NoError(t, err)
	require.Empty(t, known)
}

// TestCheckedInExpectations checks that the expectations file parses and lists only test
// paths relative to the test262 root, none of them in an excluded directory.
func TestCheckedInExpectations(t *testing.T) {
	t.Parallel()
	known, err := readExpectations("expectations.txt")
	require.NoError(t, err)
	require.NotEmpty(t, known)
	for p := range known {
		require.True(t, strings.HasPrefix(p, "test/") && isTestFile(p), p)
		require.Empty(t, dirSkipReason(p), p)
	}
}

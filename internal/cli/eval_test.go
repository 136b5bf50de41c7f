package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// runCLI runs the codemode command with args and stdin, returning status, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	code := Run(context.Background(), args, env)
	return code, out.String(), errOut.String()
}

func TestEval(t *testing.T) {
	t.Parallel()
	tools := toolsettest.New(t, toolsettest.Options{})
	dir := t.TempDir()
	file := filepath.Join(dir, "prog.js")
	require.NoError(t, os.WriteFile(file, []byte("const {sum} = await tools.math.add({a: 1, b: 2}); sum * 10"), 0o644))

	tests := []struct {
		name   string
		stdin  string
		args   []string
		status int
		result string // JSON subset the printed Result must contain
		stderr string
	}{
		{name: "file with root toolset", args: []string{"eval", "--tools-url", tools.URL, file}, status: ExitOK,
			result: `{"ok":true,"value":30}`},
		{name: "flags after the file", args: []string{"eval", file, "--tools-url", tools.URL, "--max-tool-calls", "5"}, status: ExitOK,
			result: `{"ok":true,"value":30}`},
		{name: "limit after stdin", stdin: "await tools.math.add({a: 1, b: 1}); await tools.math.add({a: 1, b: 1})",
			args: []string{"eval", "-", "--tools-url", tools.URL, "--max-tool-calls", "1"}, status: ExitFailed,
			result: `{"ok":false,"error":{"kind":"ToolCallLimitExceeded"}}`},
		{name: "stdin with named toolset", stdin: "(await tools.ops.math.add({a: 2, b: 2})).sum", args: []string{"eval", "--tools-url", "ops=" + tools.URL, "-"},
			status: ExitOK, result: `{"ok":true,"value":4}`},
		{name: "failing program", stdin: "throw new Error('boom')", args: []string{"eval", "-"}, status: ExitFailed,
			result: `{"ok":false}`},
		{name: "limits", stdin: "while (true) {}", args: []string{"eval", "--timeout-ms", "50", "-"}, status: ExitFailed,
			result: `{"ok":false,"error":{"kind":"TimeoutExceeded"}}`},
		{name: "TypeScript", stdin: "type Sum = { sum: number }\nconst r = (await tools.math.add({a: 20, b: 1})) as Sum\nconst twice = (n: number): number => n * 2\ntwice(r.sum)",
			args: []string{"eval", "--tools-url", tools.URL, "-"}, status: ExitOK, result: `{"ok":true,"value":42}`},
		{name: "empty program", stdin: " \n// nothing\n", args: []string{"eval", "-"}, status: ExitFailed,
			result: `{"ok":false,"error":{"kind":"ParseError","message":"source is empty"}}`},
		{name: "input", stdin: "input.a + input.b", args: []string{"eval", "-", "--input", `{"a": 40, "b": 2}`}, status: ExitOK,
			result: `{"ok":true,"value":42}`},
		{name: "built-in timers wait in process", stdin: "const a = await tools.time.sleep({ms: 30}); const b = await tools.time.sleepUntil({at: '2020-01-01T00:00:00Z'}); [a.slept, b.at]",
			args: []string{"eval", "-"}, status: ExitOK, result: `{"ok":true,"value":[30,"2020-01-01T00:00:00.000Z"]}`},
		{name: "a toolset named time replaces the timers", stdin: "(await tools.time.math.add({a: 1, b: 2})).sum + (typeof tools.time.sleep)",
			args: []string{"eval", "--tools-url", "time=" + tools.URL, "-"}, status: ExitOK, result: `{"ok":true,"value":"3undefined"}`},
		{name: "input that is not JSON", stdin: "1", args: []string{"eval", "--input", "{nope", "-"}, status: ExitUsage,
			stderr: "--input is not JSON"},
		{name: "run id", stdin: "await tools.math.add({a: 1, b: 1}); 1", args: []string{"eval", "--run-id", "abc", "--tools-url", tools.URL, "-"}, status: ExitOK,
			result: `{"toolCalls":[{"key":"abc:1"}]}`},
		{name: "suspended keeps logs", stdin: "console.log('asking'); await tools.approvals.request({reason: 'x'})", args: []string{"eval", "--tools-url", tools.URL, "-"},
			status: ExitFailed, result: `{"ok":false,"logs":["asking"],"error":{"kind":"ExecutionFailure"}}`},
		{name: "no file", args: []string{"eval"}, status: ExitUsage, stderr: "usage"},
		{name: "negative limit", args: []string{"eval", "--max-tool-calls", "-1", "-"}, status: ExitUsage, stderr: "maxToolCalls"},
		{name: "missing file", args: []string{"eval", filepath.Join(dir, "nope.js")}, status: ExitUsage, stderr: "nope.js"},
		{name: "unreachable toolset", args: []string{"eval", "--tools-url", "http://127.0.0.1:1", "-"}, status: ExitFailed, stderr: "toolset"},
		{name: "unknown command", args: []string{"frobnicate"}, status: ExitUsage, stderr: "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, tt.stdin, tt.args...)
			require.Equal(t, tt.status, code, "stdout %s stderr %s", out, errOut)
			if tt.result != "" {
				require.Equal(t, 1, strings.Count(out, "\n"), "one JSON line: %q", out)
				var got map[string]any
				require.NoError(t, json.Unmarshal([]byte(out), &got))
				var want map[string]any
				require.NoError(t, json.Unmarshal([]byte(tt.result), &want))
				requireSubset(t, want, got)
			}
			if tt.stderr != "" {
				require.Contains(t, errOut, tt.stderr)
			}
		})
	}
}

// requireSubset checks that every field of want is in got with the same value (recursively;
// arrays compare element by element over want's length).
func requireSubset(t *testing.T, want, got any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		require.True(t, ok, "want object, got %v", got)
		for k, v := range w {
			require.Contains(t, g, k)
			requireSubset(t, v, g[k])
		}
	case []any:
		g, ok := got.([]any)
		require.True(t, ok, "want array, got %v", got)
		require.GreaterOrEqual(t, len(g), len(w))
		for i := range w {
			requireSubset(t, w[i], g[i])
		}
	default:
		require.Equal(t, want, got)
	}
}

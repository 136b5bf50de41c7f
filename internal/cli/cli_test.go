package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// commandPaths returns the argument lists naming every command under cmd (cmd included).
func commandPaths(cmd *cobra.Command, prefix []string) [][]string {
	paths := [][]string{prefix}
	for _, sub := range cmd.Commands() {
		paths = append(paths, commandPaths(sub, append(append([]string{}, prefix...), sub.Name()))...)
	}
	return paths
}

func TestHelpOnEveryCommand(t *testing.T) {
	t.Parallel()
	paths := commandPaths(newRootCmd(Env{Getenv: func(string) string { return "" }}), nil)
	for _, want := range []string{"dev", "eval", "migrate", "runs list", "runs get", "runs create", "runs cancel",
		"runs events", "runs retry", "runs fork", "runs deliveries",
		"calls list", "calls complete", "toolsets list", "toolsets add", "toolsets get", "toolsets update", "toolsets delete",
		"schedules create", "schedules list", "schedules get", "schedules update", "schedules pause", "schedules resume", "schedules delete",
		"webhooks create", "webhooks list", "webhooks get", "webhooks update", "webhooks delete", "webhooks deliveries",
		"webhooks redeliver", "catalog", "catalog prompt"} {
		require.Contains(t, paths, strings.Fields(want), "command %q exists", want)
	}
	for _, path := range paths {
		for _, flag := range []string{"-h", "--help"} {
			args := append(append([]string{}, path...), flag)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				t.Parallel()
				code, out, errOut := runCLI(t, "", args...)
				require.Equal(t, ExitOK, code, "stderr %s", errOut)
				require.Empty(t, errOut)
				require.Contains(t, out, "Usage:")
				require.Contains(t, out, "codemode "+strings.Join(path, " "))
				if len(path) > 0 && path[0] != "help" && path[0] != "completion" {
					require.Contains(t, out, "Examples:", "every codemode command shows an example")
				}
			})
		}
	}
}

func TestHelpHidesSecrets(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CODEMODE_API_TOKEN": "tok-s3cret", "DATABASE_URL": "postgres://u:pw-s3cret@db/x"}
	for _, args := range [][]string{{"runs", "get", "-h"}, {"toolsets", "--help"}, {"migrate", "-h"}, {"dev", "-h"}} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), args, Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
		require.Equal(t, ExitOK, code, errOut.String())
		require.NotContains(t, out.String(), "s3cret", "codemode %v -h", args)
		require.Contains(t, out.String(), "$")
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		stderr []string
	}{
		{args: nil, stderr: []string{"Available Commands:"}},
		{args: []string{"frobnicate"}, stderr: []string{`unknown command "frobnicate"`, "usage: codemode <command> [flags]"}},
		{args: []string{"runz"}, stderr: []string{"Did you mean this?", "runs"}},
		{args: []string{"runs"}, stderr: []string{"Available Commands:", "list", "create"}},
		{args: []string{"help", "frobnicate"}, stderr: []string{`unknown command "frobnicate"`}},
		{args: []string{"help", "runs", "frob"}, stderr: []string{`unknown help topic "runs frob"`}},
		{args: []string{"runs", "frob"}, stderr: []string{`unknown command "frob" for "codemode runs"`, "usage: codemode runs <command> [flags]"}},
		{args: []string{"runs", "get"}, stderr: []string{"accepts 1 arg(s), received 0", "usage: codemode runs get RUN"}},
		{args: []string{"runs", "get", "a", "b"}, stderr: []string{"accepts 1 arg(s), received 2"}},
		{args: []string{"runs", "get", "RUN", "--nope"}, stderr: []string{"unknown flag: --nope", "Run 'codemode runs get --help'"}},
		{args: []string{"runs", "get", "RUN", "--wait", "soon"}, stderr: []string{`invalid argument "soon"`}},
		{args: []string{"runs", "create", "-", "--nope"}, stderr: []string{"unknown flag: --nope"}},
		{args: []string{"runs", "create", "/nonexistent/prog.js"}, stderr: []string{"/nonexistent/prog.js"}},
		{args: []string{"runs", "get", "RUN", "--wait", "-1"}, stderr: []string{"--wait -1"}},
		{args: []string{"runs", "create", "-", "--wait", "-2"}, stderr: []string{"--wait -2"}},
		{args: []string{"runs", "list", "--limit", "-5"}, stderr: []string{"--limit -5"}},
		{args: []string{"runs", "list", "--url", "127.0.0.1:8080"}, stderr: []string{`--url "127.0.0.1:8080" is not an http(s) URL`}},
		{args: []string{"toolsets", "list", "--url", "localhost:8080"}, stderr: []string{`--url "localhost:8080" is not an http(s) URL`}},
		{args: []string{"runs", "list", "--url", ""}, stderr: []string{`--url "" is not an http(s) URL`}},
		{args: []string{"runs", "list", "extra"}, stderr: []string{`unknown command "extra" for "codemode runs list"`}},
		{args: []string{"runs", "cancel", "RUN", "--value", "1"}, stderr: []string{"unknown flag: --value"}},
		{args: []string{"calls", "complete", "RUN", "2"}, stderr: []string{"exactly one of --value and --error"}},
		{args: []string{"calls", "complete", "RUN", "2", "--value", "1", "--error", "no"}, stderr: []string{"exactly one of --value and --error"}},
		{args: []string{"calls", "complete", "RUN", "two", "--value", "1"}, stderr: []string{`CALL "two" is not a call id`}},
		{args: []string{"calls", "complete", "RUN", "0", "--value", "1"}, stderr: []string{`CALL "0" is not a call id`}},
		{args: []string{"calls", "complete", "RUN", "2", "--value", "{nope"}, stderr: []string{"--value is not valid JSON"}},
		{args: []string{"calls", "list", "RUN", "--nope"}, stderr: []string{"unknown flag: --nope"}},
		{args: []string{"toolsets", "add", "ops"}, stderr: []string{"give URL: a toolset of kind http is called there"}},
		{args: []string{"toolsets", "list", "--nope"}, stderr: []string{"unknown flag: --nope"}},
		{args: []string{"eval", "-", "--nope"}, stderr: []string{"unknown flag: --nope", "usage: codemode eval FILE|-"}},
		{args: []string{"eval", "-", "--timeout-ms", "soon"}, stderr: []string{`invalid argument "soon"`}},
		{args: []string{"eval", "-", "--tools-url", ""}, stderr: []string{"empty URL"}},
		{args: []string{"eval", "-", "--tools-url", "=http://127.0.0.1:1"}, stderr: []string{"is not a toolset name"}},
		{args: []string{"eval", "-", "--tools-url", "my ops=http://127.0.0.1:1"}, stderr: []string{`"my ops" is not a toolset name`}},
		{args: []string{"dev", "extra"}, stderr: []string{`unknown command "extra" for "codemode dev"`}},
		{args: []string{"dev", "--log-level", "loud"}, stderr: []string{`log level "loud"`}},
		{args: []string{"dev", "--listen", "0.0.0.0:0"}, stderr: []string{"CODEMODE_API_TOKEN"}},
		{args: []string{"migrate"}, stderr: []string{"DATABASE_URL (or --database-url) is required"}},
		{args: []string{"migrate", "--nope"}, stderr: []string{"unknown flag: --nope"}},
		// A flag value that does not parse is a usage error, not a failed connection.
		{args: []string{"migrate", "--database-url", "not a url"}, stderr: []string{"is not a PostgreSQL connection string", "invalid keyword/value", "usage: codemode migrate"}},
		{args: []string{"migrate", "--database-url", "postgres://u:pw@db:notaport/x"}, stderr: []string{"invalid port", "u:xxxxx@db"}},
		{args: []string{"migrate", "--database-url", "postgres://%zz/x"}, stderr: []string{"is not a PostgreSQL connection string"}},
		{args: []string{"dev", "--database-url", "not a url"}, stderr: []string{"is not a PostgreSQL connection string", "usage: codemode dev"}},
		{args: []string{"eval", "-", "--tools-url", "not a url"}, stderr: []string{`--tools-url "not a url"`, "is not an http(s) URL"}},
		{args: []string{"eval", "-", "--tools-url", "ftp://127.0.0.1/"}, stderr: []string{"is not an http(s) URL"}},
		{args: []string{"eval", "-", "--tools-url", "127.0.0.1:8765"}, stderr: []string{`--tools-url "127.0.0.1:8765"`}},
		{args: []string{"eval", "-", "--tools-url", "ops=http://a b/"}, stderr: []string{`--tools-url "ops=http://a b/"`, "invalid character"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, "", tt.args...)
			require.Equal(t, ExitUsage, code, "stdout %s stderr %s", out, errOut)
			require.Empty(t, out)
			for _, s := range tt.stderr {
				require.Contains(t, errOut, s)
			}
		})
	}
}

// TestClientVerbs runs the README's CLI walk-through against a real codemode dev, with flags
// after the positional arguments.
func TestClientVerbs(t *testing.T) {
	t.Parallel()
	tools := toolsettest.New(t, toolsettest.Options{})
	d := startDev(t, clusterDir(t))
	prog := filepath.Join(t.TempDir(), "ship.js")
	require.NoError(t, os.WriteFile(prog, []byte(`const {sum} = await tools.ops.math.add({a: 2, b: 40});
const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
return ok.approved ? sum : -1`), 0o644))

	cli := func(t *testing.T, want int, args ...string) map[string]any {
		t.Helper()
		code, out, errOut := runCLI(t, "", args...)
		require.Equal(t, want, code, "codemode %v: stdout %s stderr %s", args, out, errOut)
		if want != ExitOK {
			require.Empty(t, out)
			return nil
		}
		require.Equal(t, 1, strings.Count(out, "\n"), "one JSON document: %q", out)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		return got
	}

	cli(t, ExitOK, "toolsets", "add", "ops", tools.URL, "--url", d.url)
	require.Contains(t, cli(t, ExitOK, "toolsets", "list", "--url", d.url), "toolsets")

	// Names in --toolsets may have spaces around them.
	run := cli(t, ExitOK, "runs", "create", prog, "--wait", "5", "--url", d.url, "--toolsets", " ops, ")
	requireSubset(t, map[string]any{"status": "suspended", "pending": []any{map[string]any{"callId": 2.0}}}, run)
	id := run["id"].(string)

	calls := cli(t, ExitOK, "calls", "list", id, "--url", d.url)
	require.Len(t, calls["calls"], 2)
	cli(t, ExitOK, "calls", "complete", id, "2", "--value", `{"approved":true}`, "--url", d.url)
	got := cli(t, ExitOK, "runs", "get", id, "--wait", "5", "--url", d.url)
	requireSubset(t, map[string]any{"status": "succeeded", "result": map[string]any{"ok": true, "value": 42.0}}, got)
	// A --wait longer than the API lets one request wait (300 s) asks again as needed.
	requireSubset(t, map[string]any{"status": "succeeded"}, cli(t, ExitOK, "runs", "get", id, "--wait", "400", "--url", d.url))
	list := cli(t, ExitOK, "runs", "list", "--url", d.url, "--status", "succeeded", "--limit", "10")
	require.Contains(t, list, "runs")

	// Flags before the positionals work as well; stdin is "-".
	code, out, errOut := runCLI(t, "1 + 1", "runs", "create", "--url", d.url, "--wait", "5", "-")
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, `"status":"succeeded"`)
	code, out, errOut = runCLI(t, "1 + 1", "runs", "create", "--url", d.url, "--wait", "400", "-")
	require.Equal(t, ExitOK, code, errOut)
	require.Contains(t, out, `"status":"succeeded"`)

	// An error answer is a failure (1), not a usage error; the answer goes to stderr.
	code, out, errOut = runCLI(t, "", "calls", "complete", id, "2", "--value", "true", "--url", d.url)
	require.Equal(t, ExitFailed, code, "completing a settled call again: stdout %s", out)
	require.Contains(t, errOut, "codemode calls complete: HTTP 4")
	code, _, errOut = runCLI(t, "", "runs", "get", "00000000-0000-0000-0000-000000000000", "--url", d.url)
	require.Equal(t, ExitFailed, code)
	require.Contains(t, errOut, "HTTP 404")
	code, _, errOut = runCLI(t, "", "runs", "list", "--url", "http://127.0.0.1:1")
	require.Equal(t, ExitFailed, code)
	require.Contains(t, errOut, "codemode runs list: no answer from the service at http://127.0.0.1:1 (is it running?")
	cli(t, ExitFailed, "runs", "cancel", id, "--url", d.url+"/nowhere")
}

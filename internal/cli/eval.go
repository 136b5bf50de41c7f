package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// parseToolsURL reads one --tools-url: URL mounts a toolset at the root of tools, NAME=URL
// mounts it under tools.NAME. The URL must be an http(s) URL with a host.
func parseToolsURL(v string) (toolset.Config, error) {
	cfg := toolset.Config{URL: v}
	if name, url, ok := strings.Cut(v, "="); ok && !strings.Contains(name, "/") && !strings.Contains(name, ":") {
		cfg = toolset.Config{Name: name, URL: url}
	}
	if cfg.URL == "" {
		return cfg, fmt.Errorf("--tools-url %q: empty URL", v)
	}
	if cfg.URL != v && !toolsetName.MatchString(cfg.Name) {
		return cfg, fmt.Errorf("--tools-url %q: the name %q is not a toolset name (letters, digits and _, not starting with a digit)", v, cfg.Name)
	}
	// A URL the client cannot call (not http(s), no host, not a URL) is a usage error, as
	// --url's is for the client verbs, not a failed run.
	if _, err := toolset.New(cfg); err != nil {
		return cfg, fmt.Errorf("--tools-url %q: %w", v, err)
	}
	return cfg, nil
}

// toolsetName is what NAME=URL's name must be, as a toolset's name in the API: tools.NAME is
// then a property access.
var toolsetName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// newEvalCmd is `codemode eval`: it runs one program in process, with no database, and prints
// the Result as one JSON line. A run that suspends on durable work cannot get its outcomes
// here: it ends with an ExecutionFailure naming the pending calls.
func newEvalCmd(env Env) *cobra.Command {
	var urls []string
	var limits run.Limits
	var runID, input string
	cmd := &cobra.Command{
		Use:   "eval FILE|-",
		Short: "Run one program in process and print its Result as one JSON line",
		Long: `Run one program in this process, without a database, and print its Result as one JSON line.

The program is read from FILE, or from stdin for "-". Only the limits given here apply.
A program that waits on a durable call cannot receive its outcome here: its Result is an
ExecutionFailure naming the pending calls (run it through the service to post outcomes).

Exit status: 0 when the Result is ok, 1 when it is not, 2 for usage errors.`,
		Example: `  codemode eval --tools-url http://127.0.0.1:8765 prog.js
  echo '1 + 1' | codemode eval -
  codemode eval prog.js --tools-url ops=http://127.0.0.1:8765 --timeout-ms 5000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var cfgs []toolset.Config
			for _, u := range urls {
				cfg, err := parseToolsURL(u)
				if err != nil {
					return err
				}
				cfgs = append(cfgs, cfg)
			}
			if err := limits.Validate(); err != nil {
				return err
			}
			source, err := readSource(args[0], env.Stdin)
			if err != nil {
				return err
			}
			if input != "" && !json.Valid([]byte(input)) {
				return fmt.Errorf("--input is not JSON: %s", input)
			}
			return eval(cmd.Context(), source, cfgs, limits, run.ExecOptions{RunID: runID, Input: inputOf(input)}, env)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&urls, "tools-url", nil, "an HTTP toolset: URL (tools at the root) or NAME=URL (under tools.NAME); repeatable")
	f.Int64Var(&limits.TimeoutMs, "timeout-ms", 0, "active time limit in milliseconds (0: none)")
	f.Int64Var(&limits.MaxToolCalls, "max-tool-calls", 0, "tool call limit (0: none)")
	f.Int64Var(&limits.MaxOutputBytes, "max-output-bytes", 0, "output size limit in bytes (0: none)")
	f.Int64Var(&limits.MaxMemoryBytes, "max-memory-bytes", 0, "heap limit in bytes (0: none)")
	f.StringVar(&runID, "run-id", "", "the run id (default: random)")
	f.StringVar(&input, "input", "", "JSON the program reads as the global input")
	return cmd
}

// roundTrip runs every program with run.Options.RoundTrip: this package's tests set it when
// CODEMODE_ROUNDTRIP=1.
var roundTrip bool

func eval(ctx context.Context, source string, cfgs []toolset.Config, limits run.Limits, opts run.ExecOptions, env Env) error {
	var tools []run.Tool
	var namespaces []run.Namespace
	var extensions []run.Extension
	for _, cfg := range cfgs {
		c, err := toolset.New(cfg)
		if err != nil {
			return failed(fmt.Errorf("toolset %s: %w", cfg.URL, err))
		}
		ts, err := runtools.LoadFrom(ctx, c)
		if err != nil {
			if !strings.Contains(err.Error(), cfg.URL) { // it usually names the toolset already
				err = fmt.Errorf("toolset %s: %w", cfg.URL, err)
			}
			return failed(err)
		}
		tools = append(tools, ts.Tools...)
		namespaces = append(namespaces, ts.Namespaces...)
		extensions = append(extensions, ts.Extensions...)
	}
	// The built-in timers wait in process here; a toolset mounted under time (NAME time, or
	// at the root with tools under time.) replaces them.
	if !runtools.OverridesTimers(tools) {
		timers, ns := runtools.Timers(runtools.TimerConfig{})
		tools, namespaces = append(tools, timers...), append(namespaces, ns...)
	}
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces, Extensions: extensions, Limits: limits, RoundTrip: roundTrip})
	if err != nil {
		return failed(err)
	}
	exec, err := rt.Execute(ctx, source, opts)
	if err != nil {
		return failed(err)
	}
	res, done := exec.Result()
	if !done {
		res = suspendedResult(exec)
	}
	line, err := json.Marshal(res)
	if err != nil {
		return failed(err)
	}
	fmt.Fprintf(env.Stdout, "%s\n", line)
	if !res.OK {
		return failed(nil)
	}
	return nil
}

// suspendedResult reports a run that waits on durable work eval cannot receive outcomes for.
func suspendedResult(exec *run.Execution) *run.Result {
	var waits []string
	for _, p := range exec.Pending() {
		waits = append(waits, fmt.Sprintf("%s (key %s)", run.AccessPath(p.Path), p.Key))
	}
	return &run.Result{OK: false, Error: &run.Diagnostic{Kind: run.KindExecutionFailure,
		Message: "the run is suspended on durable calls whose outcomes codemode eval cannot receive: " +
			strings.Join(waits, ", ") + "; run it through the service (codemode dev) to post outcomes"},
		Logs: exec.Logs(), ToolCalls: exec.Calls()}
}

// readSource reads the program from FILE, or from stdin for "-".
func readSource(name string, stdin io.Reader) (string, error) {
	if name == "-" {
		b, err := io.ReadAll(stdin)
		return string(b), err
	}
	b, err := os.ReadFile(name)
	return string(b), err
}

// inputOf is the --input flag as a run's input: none when empty.
func inputOf(flag string) json.RawMessage {
	if flag == "" {
		return nil
	}
	return json.RawMessage(flag)
}

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
)

// toolsURLs collects repeated --tools-url flags: URL mounts a toolset at the root of tools,
// NAME=URL mounts it under tools.NAME.
type toolsURLs []toolset.Config

func (t *toolsURLs) String() string { return fmt.Sprint(len(*t)) }

func (t *toolsURLs) Set(v string) error {
	cfg := toolset.Config{URL: v}
	if name, url, ok := strings.Cut(v, "="); ok && !strings.Contains(name, "/") && !strings.Contains(name, ":") {
		cfg = toolset.Config{Name: name, URL: url}
	}
	if cfg.URL == "" {
		return errors.New("empty URL")
	}
	*t = append(*t, cfg)
	return nil
}

// runEval is `codemode eval`: it runs one program in process, with no database, and prints the
// Result as one JSON line. A run that suspends on durable work cannot get its outcomes here: it
// ends with an ExecutionFailure naming the pending calls.
func runEval(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var urls toolsURLs
	var limits run.Limits
	var runID string
	fs.Var(&urls, "tools-url", "an HTTP toolset: URL (tools at the root) or NAME=URL (under tools.NAME); repeatable")
	fs.Int64Var(&limits.TimeoutMs, "timeout-ms", 0, "active time limit in milliseconds (0: none)")
	fs.Int64Var(&limits.MaxToolCalls, "max-tool-calls", 0, "tool call limit (0: none)")
	fs.Int64Var(&limits.MaxOutputBytes, "max-output-bytes", 0, "output size limit in bytes (0: none)")
	fs.Int64Var(&limits.MaxMemoryBytes, "max-memory-bytes", 0, "heap limit in bytes (0: none)")
	fs.StringVar(&runID, "run-id", "", "the run id (default: random)")
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: codemode eval [--tools-url URL]... [--timeout-ms N] [--max-tool-calls N] [--max-output-bytes N] [--max-memory-bytes N] [--run-id ID] FILE|-")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return ExitUsage
	}
	if err := limits.Validate(); err != nil {
		fmt.Fprintln(env.Stderr, "codemode eval:", err)
		return ExitUsage
	}
	source, err := readSource(fs.Arg(0), env.Stdin)
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode eval:", err)
		return ExitUsage
	}
	var tools []run.Tool
	var namespaces []run.Namespace
	for _, cfg := range urls {
		ts, ns, err := toolset.Load(ctx, cfg)
		if err != nil {
			fmt.Fprintf(env.Stderr, "codemode eval: toolset %s: %v\n", cfg.URL, err)
			return ExitFailed
		}
		tools = append(tools, ts...)
		namespaces = append(namespaces, ns...)
	}
	rt, err := run.New(run.Options{Tools: tools, Namespaces: namespaces, Limits: limits})
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode eval:", err)
		return ExitFailed
	}
	exec, err := rt.Execute(ctx, source, run.ExecOptions{RunID: runID})
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode eval:", err)
		return ExitFailed
	}
	res, done := exec.Result()
	if !done {
		res = suspendedResult(exec)
	}
	line, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode eval:", err)
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "%s\n", line)
	if !res.OK {
		return ExitFailed
	}
	return ExitOK
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

package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/interp"
	"github.com/dop251/goja"
)

// A library program runs once per timed run in a fresh VM (fresh process for node): the
// program text is evaluated, main is called once for the output, then iterations more times
// between two readings of a clock the engine provides as __benchNow() (nanoseconds as a
// number). Only those calls are timed, so parsing, loading the library and process start-up
// are left out, on every engine alike. The clock starts before the engine compiles the
// program, so its reading before the first call is the load time: compiling the program and
// evaluating the library (node's start-up is not in it).

// LibRun is the outcome of one library run.
type LibRun struct {
	// Output is JSON.stringify(main(), null, 1) of the first call.
	Output string
	// Elapsed is the time of the timed calls.
	Elapsed time.Duration
	// Load is the time to compile the program and evaluate it up to the first call of main.
	Load time.Duration
}

// LibEngine runs library programs.
type LibEngine interface {
	// Name identifies the engine in reports ("ours", "goja", "node-jitless").
	Name() string
	// RunLib runs text (a Program's Text) and calls main 1+iterations times.
	RunLib(ctx context.Context, text string, iterations int) (LibRun, error)
}

// libTail follows the program text on every engine: it calls main and returns the load and
// elapsed nanoseconds and the output on three lines.
func libTail(iterations int) string {
	return "\n;var __benchLoad = __benchNow();\n" +
		"var __benchOut = JSON.stringify(main(), null, 1);\n" +
		"var __benchStart = __benchNow();\n" +
		"for (var __benchI = 0; __benchI < " + strconv.Itoa(iterations) + "; __benchI++) main();\n" +
		"var __benchNS = __benchNow() - __benchStart;\n" +
		"return __benchLoad + \"\\n\" + __benchNS + \"\\n\" + __benchOut;\n"
}

// strictWrap makes text plus the tail the body of a strict function, as codemode compiles a
// program (the body of a strict async function). params are bound to undefined inside, to
// hide host globals that the other engines do not have.
func strictWrap(text string, iterations int, params string) string {
	return "(function (" + params + ") {'use strict';\n" + text + libTail(iterations) + "\n})()"
}

// parseLibOutput splits an engine's "load\nelapsed\noutput" result (times in nanoseconds).
func parseLibOutput(engine, s string) (LibRun, error) {
	parts := strings.SplitN(s, "\n", 3)
	if len(parts) != 3 {
		return LibRun{}, fmt.Errorf("%s: %w: malformed result %.80q", engine, ErrScriptFailed, s)
	}
	var times [2]float64
	for i := range times {
		f, err := strconv.ParseFloat(parts[i], 64)
		if err != nil {
			return LibRun{}, fmt.Errorf("%s: %w: malformed time %q", engine, ErrScriptFailed, parts[i])
		}
		times[i] = f
	}
	return LibRun{Output: parts[2], Load: time.Duration(times[0]), Elapsed: time.Duration(times[1])}, nil
}

// RunLib implements LibEngine for codemode: the program is compiled as a code mode program;
// __benchNow is a host function.
func (Ours) RunLib(ctx context.Context, text string, iterations int) (LibRun, error) {
	start := time.Now()
	prog, err := interp.Compile(text + libTail(iterations))
	if err != nil {
		return LibRun{}, fmt.Errorf("ours: compile: %w", err)
	}
	vm := interp.New(interp.Config{Host: clockHost{start: start}})
	if err := vm.Set(vm.Global(), "__benchNow", vm.NewHostFunction("benchNow", "__benchNow", 0)); err != nil {
		return LibRun{}, fmt.Errorf("ours: define clock: %w", err)
	}
	if err := vm.Start(prog); err != nil {
		return LibRun{}, fmt.Errorf("ours: start: %w", err)
	}
	status, err := vm.Run(ctx, interp.RunOptions{})
	if err != nil {
		return LibRun{}, fmt.Errorf("ours: run: %w", err)
	}
	if status != interp.StatusDone {
		return LibRun{}, fmt.Errorf("ours: %w (status %d)", ErrNotFinished, status)
	}
	v, thrown := vm.Result()
	if thrown {
		name, msg, line, col := vm.DescribeError(v)
		return LibRun{}, fmt.Errorf("ours: %w: %s: %s (%d:%d)", ErrScriptFailed, name, msg, line, col)
	}
	return parseLibOutput("ours", vm.ToGoString(v))
}

// clockHost answers __benchNow with the nanoseconds since start.
type clockHost struct{ start time.Time }

// CallHost implements interp.Host.
func (c clockHost) CallHost(_ *interp.VM, id string, _ interp.Value, _ []interp.Value) (interp.Value, error) {
	if id != "benchNow" {
		return interp.Undefined(), fmt.Errorf("unknown host function %s", id)
	}
	return interp.Number(float64(time.Since(c.start).Nanoseconds())), nil
}

// RunLib implements LibEngine for goja: the program is the body of a strict function.
func (Goja) RunLib(ctx context.Context, text string, iterations int) (LibRun, error) {
	start := time.Now()
	vm := goja.New()
	stop := context.AfterFunc(ctx, func() { vm.Interrupt(ctx.Err()) })
	defer stop()
	if err := vm.Set("__benchNow", func() float64 { return float64(time.Since(start).Nanoseconds()) }); err != nil {
		return LibRun{}, fmt.Errorf("goja: define clock: %w", err)
	}
	if _, err := vm.RunString(gojaConsole); err != nil {
		return LibRun{}, fmt.Errorf("goja: define console: %w", err)
	}
	v, err := vm.RunString(strictWrap(text, iterations, ""))
	if err != nil {
		return LibRun{}, fmt.Errorf("goja: %w: %w", ErrScriptFailed, err)
	}
	return parseLibOutput("goja", v.String())
}

// gojaConsole gives goja the console that node and codemode have (bundles assign a polyfill
// to an undeclared console otherwise, an error in strict code); it prints nothing.
const gojaConsole = `var console = { log: function () {}, info: function () {}, warn: function () {}, error: function () {}, debug: function () {} };`

// nodeDriver runs the wrapped program file given as its argument in node's main context, with
// __benchNow reading process.hrtime from just before the program is compiled, and prints the
// result.
const nodeDriver = `
let t0 = 0n;
globalThis.__benchNow = () => Number(process.hrtime.bigint() - t0);
const src = require("fs").readFileSync(process.argv[1], "utf8");
const vm = require("vm");
t0 = process.hrtime.bigint();
process.stdout.write(String(vm.runInThisContext(src, { filename: "program.js" })));
`

// nodeHidden are node's globals that neither codemode nor goja has: inside the program they
// are undefined, so that libraries take the same paths on every engine.
const nodeHidden = "global, process, Buffer, require, module, exports, __filename, __dirname, setImmediate, clearImmediate"

// Node runs programs in a node subprocess; Jitless adds --jitless (node's interpreter only).
type Node struct {
	Jitless bool
}

var _ LibEngine = Node{}

// Name implements LibEngine.
func (n Node) Name() string {
	if n.Jitless {
		return "node-jitless"
	}
	return "node"
}

// ErrNodeMissing means the node binary is not on PATH.
var ErrNodeMissing = errors.New("node is not installed")

// RunLib implements LibEngine: the wrapped program goes through a temporary file; TZ is UTC
// so that dates format alike on every engine.
func (n Node) RunLib(ctx context.Context, text string, iterations int) (LibRun, error) {
	bin, err := exec.LookPath("node")
	if err != nil {
		return LibRun{}, fmt.Errorf("%s: %w", n.Name(), ErrNodeMissing)
	}
	f, err := os.CreateTemp("", "bench-lib-*.js")
	if err != nil {
		return LibRun{}, fmt.Errorf("%s: %w", n.Name(), err)
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(strictWrap(text, iterations, nodeHidden))
	if cerr := f.Close(); werr != nil || cerr != nil {
		return LibRun{}, fmt.Errorf("%s: write program: %w", n.Name(), errors.Join(werr, cerr))
	}
	args := []string{}
	if n.Jitless {
		args = append(args, "--jitless")
	}
	args = append(args, "-e", nodeDriver, f.Name())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return LibRun{}, fmt.Errorf("%s: %w: %w: %s", n.Name(), ErrScriptFailed, err, lastLines(stderr.String(), 6))
	}
	return parseLibOutput(n.Name(), stdout.String())
}

// lastLines keeps the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

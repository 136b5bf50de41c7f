package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses of the codemode command.
const (
	// ExitOK: the command succeeded (for eval: the Result's ok is true).
	ExitOK = 0
	// ExitFailed: the command failed (for eval: the Result's ok is false).
	ExitFailed = 1
	// ExitUsage: the command line was wrong.
	ExitUsage = 2
)

// Env is what a command reads and writes besides its arguments.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads configuration variables (DATABASE_URL, CODEMODE_*).
	Getenv func(string) string
}

// OSEnv is the process's real environment.
func OSEnv() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

const usage = `usage: codemode <command> [flags]

commands:
  dev       run the service (API server and worker) on a private PostgreSQL
  eval      run one program in process and print its Result as one JSON line
  migrate   apply database migrations to DATABASE_URL
  runs      list, get or cancel runs over the HTTP API
  calls     list calls of a run or complete a pending call over the HTTP API
  toolsets  list or register toolsets over the HTTP API

Run 'codemode <command> -h' for a command's flags.
`

// Main runs the codemode command with args (without the program name) and returns its exit
// status. SIGINT and SIGTERM cancel the command's context.
func Main(args []string, env Env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, args, env)
}

// Run is Main with a given context.
func Run(ctx context.Context, args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "eval":
		return runEval(ctx, rest, env)
	case "dev":
		return runDev(ctx, rest, env)
	case "migrate":
		return runMigrate(ctx, rest, env)
	case "runs", "calls", "toolsets":
		return runClient(ctx, cmd, rest, env)
	case "-h", "--help", "help":
		fmt.Fprint(env.Stdout, usage)
		return ExitOK
	default:
		fmt.Fprintf(env.Stderr, "codemode: unknown command %q\n\n%s", cmd, usage)
		return ExitUsage
	}
}

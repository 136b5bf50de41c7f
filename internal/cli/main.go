package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
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

// Main runs the codemode command with args (without the program name) and returns its exit
// status. SIGINT and SIGTERM cancel the command's context.
func Main(args []string, env Env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, args, env)
}

// Run is Main with a given context. Flags may come before or after positional arguments; every
// command answers -h and --help on stdout with status 0.
func Run(ctx context.Context, args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Stdin == nil {
		env.Stdin = eofReader{}
	}
	root := newRootCmd(env)
	root.SetArgs(append([]string{}, args...)) // never nil: cobra reads os.Args for nil
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	if cmd == nil {
		cmd = root
	}
	var fail *failure
	if errors.As(err, &fail) {
		if fail.err != nil {
			fmt.Fprintf(env.Stderr, "%s: %v\n", cmd.CommandPath(), fail.err)
		}
		return ExitFailed
	}
	// Anything else is about the command line: cobra's own errors (unknown command or flag,
	// wrong number of arguments, a flag value that does not parse) and usage errors.
	if !errors.Is(err, errUsageShown) {
		fmt.Fprintf(env.Stderr, "%s: %v\n", cmd.CommandPath(), err)
		use := cmd.UseLine()
		if cmd.HasAvailableSubCommands() && cmd.Annotations[annotationRunsItself] == "" {
			use = cmd.CommandPath() + " <command> [flags]"
		}
		fmt.Fprintf(env.Stderr, "usage: %s\nRun '%s --help' for more.\n", use, cmd.CommandPath())
	}
	return ExitUsage
}

// failure is an error that ends a command with ExitFailed: the command line was right but the
// work failed. A nil err means the command already said why (eval's printed Result).
type failure struct{ err error }

func (f *failure) Error() string {
	if f.err == nil {
		return "failed"
	}
	return f.err.Error()
}

func (f *failure) Unwrap() error { return f.err }

// failed wraps err as a failure (ExitFailed); every other error a command returns is a usage
// error (ExitUsage).
func failed(err error) error { return &failure{err: err} }

// annotationRunsItself marks a command with subcommands that does work of its own (catalog,
// with catalog prompt): its usage line is its own, not "<command>".
const annotationRunsItself = "runsItself"

// errUsageShown is a usage error whose explanation has been printed already.
var errUsageShown = errors.New("usage error")

const rootLong = `codemode runs short JavaScript programs that call host tools, durably.

Exit status: 0 when the command succeeded (for eval: the Result is ok), 1 when it failed (a
request answered with an error, a run whose Result is not ok), 2 when the command line is wrong.`

func newRootCmd(env Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "codemode",
		Short: "Run durable JavaScript programs that call host tools",
		Long:  rootLong,
		Example: `  codemode dev                                   # the service on a private PostgreSQL
  codemode eval --tools-url http://127.0.0.1:8765 prog.js
  codemode runs create prog.js --wait 5
  codemode calls complete RUN 2 --value '{"approved":true}'`,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE:          needSubcommand,
	}
	root.SetHelpCommand(newHelpCmd())
	root.AddCommand(newDevCmd(env), newEvalCmd(env), newMigrateCmd(env))
	root.AddCommand(newClientCmds(env)...)
	return root
}

// newHelpCmd is `codemode help [command]`: cobra's, except that an unknown command is a usage
// error (exit status 2) rather than the root's help with status 0.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help shows any command's help: codemode help runs create.",
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err == nil && len(rest) > 0 {
				err = fmt.Errorf("unknown help topic %q", strings.Join(args, " "))
			}
			if err != nil {
				return err
			}
			target.InitDefaultHelpFlag()
			target.SetOut(c.OutOrStdout())
			return target.Help()
		},
	}
}

// needSubcommand is the RunE of commands that only group others: without a subcommand it
// prints the help on stderr; with an unknown one it says so. Either is a usage error.
func needSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	cmd.SetOut(cmd.ErrOrStderr())
	_ = cmd.Help()
	return errUsageShown
}

// eofReader is an empty stdin.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

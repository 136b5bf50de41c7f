package config

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/pflag"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/run"
)

// Process names the program a Config is for: each reads the settings it uses.
type Process int

const (
	// Server is cmd/server: the HTTP API.
	Server Process = iota
	// Worker is cmd/worker: drives runs.
	Worker
	// Dev is `codemode dev`: API and worker in one process, on a private PostgreSQL unless
	// DatabaseURL is set.
	Dev
)

func (p Process) String() string {
	switch p {
	case Server:
		return "server"
	case Worker:
		return "worker"
	case Dev:
		return "codemode dev"
	}
	return "process " + strconv.Itoa(int(p))
}

// Config is the configuration of the codemode processes. Each setting has a default, may be set
// by an environment variable and overridden by a flag (see Load, AddFlags and Parse); Validate
// checks the whole once. The README's configuration table lists the same settings.
type Config struct {
	// DatabaseURL is the PostgreSQL connection string (DATABASE_URL, --database-url). Required
	// by server and worker; codemode dev uses its private cluster when it is empty.
	DatabaseURL string
	// Listen is the API address (CODEMODE_LISTEN, --listen). Default 127.0.0.1:8080.
	Listen string
	// APIToken is the bearer token every /v1 request needs when set (CODEMODE_API_TOKEN); it
	// is required to listen off loopback. Environment only, so it stays out of process lists.
	APIToken string
	// LogLevel is debug, info, warn or error (CODEMODE_LOG_LEVEL, --log-level). Default info.
	LogLevel string
	// Migrate applies migrations at start instead of refusing to start when some are pending
	// (CODEMODE_MIGRATE=1 or true, --migrate). Server and worker; codemode dev always applies them.
	Migrate bool
	// MigrateOnly applies the migrations and exits (server --migrate-only).
	MigrateOnly bool
	// ShutdownTimeout is how long requests in flight may take on SIGTERM (server
	// --shutdown-timeout). Default 30s.
	ShutdownTimeout time.Duration
	// WorkerRuns is how many runs a worker drives at once (CODEMODE_WORKER_RUNS, --runs).
	// Default 10.
	WorkerRuns int
	// WorkerID is the worker's name in River and logs (CODEMODE_WORKER_ID, --id). Default:
	// generated.
	WorkerID string
	// MetricsListen is the worker's address for /healthz, /readyz and /metrics
	// (CODEMODE_WORKER_LISTEN, --metrics-listen). Default 127.0.0.1:9090; --metrics-listen=""
	// serves none.
	MetricsListen string
	// DrainTimeout is how long a worker's drain may take on SIGTERM (--drain-timeout). Default
	// 60s.
	DrainTimeout time.Duration
	// DriveTimeout is the longest drive of a run before it yields at a safe point and continues
	// in a new job (--drive-timeout). Default 5m.
	DriveTimeout time.Duration
	// RescueAfter is how long the runs of a crashed worker wait before another worker re-drives
	// them (--rescue-after). Default 0: DriveTimeout + 1m.
	RescueAfter time.Duration
	// LeaseTTL is how long a run's lease outlives its driver's last heartbeat (--lease-ttl);
	// drives heartbeat every third of it. Default 6s.
	LeaseTTL time.Duration
	// RedriveInterval is how often a worker looks for runs whose worker stopped heartbeating,
	// to re-drive them (--redrive-interval). Default 1s.
	RedriveInterval time.Duration
	// MaxCrashes is how many times a run may lose its worker (since its latest snapshot)
	// before it ends failed (--max-crashes). Default 3.
	MaxCrashes int
	// CheckpointInterval and CheckpointBytes are the workers' checkpoint policy
	// (--checkpoint-interval, --checkpoint-bytes; runengine.Config): after settled calls, a
	// run is checkpointed once that much active time has passed since its drive began or
	// last checkpointed, or that many bytes of outcomes were settled since its last
	// checkpoint. Default 0: 200ms and 1 MiB; negative: no such threshold (both negative:
	// after every settled batch).
	CheckpointInterval time.Duration
	CheckpointBytes    int64
	// MaxConcurrentCalls caps the tool calls of one run executing at once; the others queue
	// in call order (--max-concurrent-calls; run.Options.MaxConcurrentCalls). Default 0: 8;
	// negative: no cap.
	MaxConcurrentCalls int
	// SynchronousJournal makes the workers' records of calls, checkpoints and leases wait for
	// the disk (--synchronous-journal; durable.Config.SynchronousJournal). Default false.
	SynchronousJournal bool
	// Retention is how long a worker keeps the snapshots, events and webhook deliveries of
	// finished runs before its periodic job deletes them (--retention); the runs and their
	// calls are kept. 0 keeps them forever. Default 7 days.
	Retention time.Duration
	// Ceilings are the workers' ceilings on every run's limits (--max-timeout-ms,
	// --max-tool-calls, --max-output-bytes, --max-memory-bytes, --max-snapshot-bytes): a run
	// can lower them, never raise them. The server refuses runs asking for more. Default
	// run.DefaultCeilings.
	Ceilings run.Limits
	// DataDir is codemode dev's private cluster directory (--data). Default .codemode.
	DataDir string

	envErr error // a variable that did not parse, reported by Validate
}

// Defaults returns the configuration before the environment and flags.
func Defaults() Config {
	return Config{
		Listen:          "127.0.0.1:8080",
		LogLevel:        "info",
		ShutdownTimeout: 30 * time.Second,
		WorkerRuns:      10,
		MetricsListen:   "127.0.0.1:9090",
		DrainTimeout:    60 * time.Second,
		DriveTimeout:    5 * time.Minute,
		LeaseTTL:        6 * time.Second,
		RedriveInterval: time.Second,
		MaxCrashes:      3,
		Retention:       7 * 24 * time.Hour,
		Ceilings:        run.DefaultCeilings,
		DataDir:         ".codemode",
	}
}

// Load returns the defaults overridden by the environment read through getenv. A variable that
// does not parse is reported by Validate.
func Load(getenv func(string) string) Config {
	c := Defaults()
	var errs []error
	str := func(dst *string, name string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	str(&c.DatabaseURL, "DATABASE_URL")
	str(&c.Listen, "CODEMODE_LISTEN")
	str(&c.APIToken, "CODEMODE_API_TOKEN")
	str(&c.LogLevel, "CODEMODE_LOG_LEVEL")
	str(&c.WorkerID, "CODEMODE_WORKER_ID")
	str(&c.MetricsListen, "CODEMODE_WORKER_LISTEN")
	if v := getenv("CODEMODE_MIGRATE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("CODEMODE_MIGRATE=%q: want 1, true, 0 or false", v))
		}
		c.Migrate = b
	}
	if v := getenv("CODEMODE_WORKER_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("CODEMODE_WORKER_RUNS=%q: want a number", v))
		}
		c.WorkerRuns = n
	}
	c.envErr = errors.Join(errs...)
	return c
}

// AddFlags registers the flags of process p on fs, with the current values as defaults.
func (c *Config) AddFlags(fs *pflag.FlagSet, p Process) {
	SecretStringVar(fs, &c.DatabaseURL, "database-url", c.DatabaseURL, "PostgreSQL connection string (default $DATABASE_URL)")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "log level: debug, info, warn or error (CODEMODE_LOG_LEVEL)")
	if p == Server || p == Dev {
		fs.StringVar(&c.Listen, "listen", c.Listen, "API address (CODEMODE_LISTEN)")
	}
	if p == Server || p == Worker {
		fs.BoolVar(&c.Migrate, "migrate", c.Migrate, "apply migrations at start (CODEMODE_MIGRATE)")
	}
	if p == Worker || p == Dev {
		fs.DurationVar(&c.LeaseTTL, "lease-ttl", c.LeaseTTL, "how long a run's lease outlives its driver's last heartbeat")
		fs.DurationVar(&c.RedriveInterval, "redrive-interval", c.RedriveInterval, "how often to look for runs whose worker stopped heartbeating")
		fs.IntVar(&c.MaxCrashes, "max-crashes", c.MaxCrashes, "lost workers (since the latest snapshot) after which a run ends failed")
		fs.DurationVar(&c.CheckpointInterval, "checkpoint-interval", c.CheckpointInterval, "active time between a run's checkpoints (0: 200ms; negative: none)")
		fs.BoolVar(&c.SynchronousJournal, "synchronous-journal", c.SynchronousJournal, "records of calls, checkpoints and leases wait for the disk (slower; nothing in flight is repeated after a PostgreSQL crash)")
		fs.Int64Var(&c.CheckpointBytes, "checkpoint-bytes", c.CheckpointBytes, "bytes of settled outcomes between a run's checkpoints (0: 1 MiB; negative: none)")
		fs.IntVar(&c.MaxConcurrentCalls, "max-concurrent-calls", c.MaxConcurrentCalls, "tool calls of one run executing at once; later calls queue in call order (0: 8; negative: no cap)")
	}
	// The server checks requests against the same ceilings the workers hold runs to.
	fs.Int64Var(&c.Ceilings.TimeoutMs, "max-timeout-ms", c.Ceilings.TimeoutMs, "ceiling on a run's timeoutMs")
	fs.Int64Var(&c.Ceilings.MaxToolCalls, "max-tool-calls", c.Ceilings.MaxToolCalls, "ceiling on a run's maxToolCalls")
	fs.Int64Var(&c.Ceilings.MaxOutputBytes, "max-output-bytes", c.Ceilings.MaxOutputBytes, "ceiling on a run's maxOutputBytes")
	fs.Int64Var(&c.Ceilings.MaxMemoryBytes, "max-memory-bytes", c.Ceilings.MaxMemoryBytes, "ceiling on a run's maxMemoryBytes")
	fs.Int64Var(&c.Ceilings.MaxSnapshotBytes, "max-snapshot-bytes", c.Ceilings.MaxSnapshotBytes, "ceiling on a run's snapshot size")
	switch p {
	case Server:
		fs.BoolVar(&c.MigrateOnly, "migrate-only", c.MigrateOnly, "apply migrations (ours and River's) and exit")
		fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", c.ShutdownTimeout, "grace period for requests in flight on SIGTERM")
	case Worker:
		fs.IntVar(&c.WorkerRuns, "runs", c.WorkerRuns, "runs driven at once (CODEMODE_WORKER_RUNS)")
		fs.StringVar(&c.WorkerID, "id", c.WorkerID, "worker name in River and logs (CODEMODE_WORKER_ID; default: generated)")
		fs.StringVar(&c.MetricsListen, "metrics-listen", c.MetricsListen, "address of /healthz, /readyz and /metrics (CODEMODE_WORKER_LISTEN; empty: none)")
		fs.DurationVar(&c.DrainTimeout, "drain-timeout", c.DrainTimeout, "how long a drain may take on SIGTERM")
		fs.DurationVar(&c.DriveTimeout, "drive-timeout", c.DriveTimeout, "longest drive of a run before it yields and continues in a new job")
		fs.DurationVar(&c.RescueAfter, "rescue-after", c.RescueAfter, "how long a crashed worker's runs wait before being re-driven (0: drive-timeout + 1m)")
		fs.DurationVar(&c.Retention, "retention", c.Retention, "how long finished runs' snapshots, events and webhook deliveries are kept (0: forever)")
	case Dev:
		fs.StringVar(&c.DataDir, "data", c.DataDir, "directory of the private PostgreSQL cluster (used when DATABASE_URL is empty)")
		fs.IntVar(&c.WorkerRuns, "runs", c.WorkerRuns, "runs driven at once (CODEMODE_WORKER_RUNS)")
	}
}

// WorkerRetention is Retention as durable.WorkerConfig.Retention takes it: 0 (forever) is
// negative there.
func (c Config) WorkerRetention() time.Duration {
	if c.Retention == 0 {
		return -1
	}
	return c.Retention
}

// SecretStringVar defines a string flag whose default (read from the environment) may hold a
// password or token: help shows the usage text but never the default value.
func SecretStringVar(fs *pflag.FlagSet, p *string, name, value, usage string) {
	fs.StringVar(p, name, value, usage)
	fs.Lookup(name).DefValue = ""
}

// CheckDatabaseURL reports a PostgreSQL connection string (DATABASE_URL, --database-url) that
// does not parse, as a URL (postgres://...) or keyword/value pairs, so that it is refused with
// the other usage errors rather than when the process connects. The error names the string
// with its password masked.
func CheckDatabaseURL(s string) error {
	if _, err := pgxpool.ParseConfig(s); err != nil {
		return fmt.Errorf("DATABASE_URL (or --database-url) is not a PostgreSQL connection string: %w", err)
	}
	return nil
}

// Validate checks the configuration for process p: the environment parsed, the log level is
// known, what p needs is set, the database URL parses, and the API does not listen off
// loopback without a token.
func (c *Config) Validate(p Process) error {
	if c.envErr != nil {
		return c.envErr
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		return err
	}
	if c.DatabaseURL == "" && p != Dev {
		return errors.New("DATABASE_URL (or --database-url) is required")
	}
	if c.DatabaseURL != "" {
		if err := CheckDatabaseURL(c.DatabaseURL); err != nil {
			return err
		}
	}
	lc := c.Ceilings
	if lc.TimeoutMs < 1 || lc.MaxToolCalls < 1 || lc.MaxOutputBytes < 1 || lc.MaxMemoryBytes < 1 || lc.MaxSnapshotBytes < 1 {
		return errors.New("the --max-* ceilings must be positive")
	}
	if p == Worker || p == Dev {
		if c.LeaseTTL <= 0 || c.RedriveInterval <= 0 || c.MaxCrashes < 1 {
			return errors.New("--lease-ttl, --redrive-interval and --max-crashes must be positive")
		}
	}
	if (p == Server && !c.MigrateOnly) || p == Dev {
		if err := api.CheckListen(c.Listen, c.APIToken); err != nil {
			return err
		}
	}
	switch p {
	case Server:
		if c.ShutdownTimeout < 0 {
			return fmt.Errorf("--shutdown-timeout %s: must not be negative", c.ShutdownTimeout)
		}
	case Worker:
		if err := c.validateWorkerRuns(); err != nil {
			return err
		}
		if c.DrainTimeout <= 0 || c.DriveTimeout <= 0 {
			return errors.New("--drain-timeout and --drive-timeout must be positive")
		}
		if c.MetricsListen != "" {
			if _, _, err := net.SplitHostPort(c.MetricsListen); err != nil {
				return fmt.Errorf("--metrics-listen %q: %w", c.MetricsListen, err)
			}
		}
		if c.Retention < 0 {
			return fmt.Errorf("--retention %s: must not be negative (0 keeps finished runs' data forever)", c.Retention)
		}
		if c.RescueAfter != 0 && c.RescueAfter < c.DriveTimeout {
			return fmt.Errorf("--rescue-after %s is shorter than --drive-timeout %s", c.RescueAfter, c.DriveTimeout)
		}
	case Dev:
		if strings.TrimSpace(c.DataDir) == "" {
			return errors.New("--data must name a directory")
		}
		if err := c.validateWorkerRuns(); err != nil {
			return err
		}
	}
	return nil
}

func (c Config) validateWorkerRuns() error {
	if c.WorkerRuns < 1 {
		return fmt.Errorf("runs driven at once (CODEMODE_WORKER_RUNS, --runs) is %d: want at least 1", c.WorkerRuns)
	}
	return nil
}

// Parse is the whole of it for a process with no other flags: defaults, then the environment,
// then the flags in args, validated for p. Errors wrap ErrUsage; -h and --help return
// pflag.ErrHelp after printing the flags on stderr.
func Parse(p Process, args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	c := Load(getenv)
	fs := pflag.NewFlagSet(p.String(), pflag.ContinueOnError)
	fs.SetOutput(stderr)
	c.AddFlags(fs, p)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return c, err
		}
		return c, usage(err)
	}
	if fs.NArg() > 0 {
		return c, usage(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if err := c.Validate(p); err != nil {
		return c, usage(err)
	}
	return c, nil
}

// ErrUsage marks errors in the configuration: the process did not start (exit status 2).
var ErrUsage = errors.New("invalid configuration")

type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{ErrUsage, e.err} }

func usage(err error) error { return usageError{err} }

// Level returns the parsed LogLevel (info when it does not parse; Validate reports that).
func (c *Config) Level() slog.Level {
	l, err := ParseLevel(c.LogLevel)
	if err != nil {
		return slog.LevelInfo
	}
	return l
}

// Logger returns the process's logger writing to w (see NewLogger).
func (c *Config) Logger(w io.Writer) *slog.Logger { return NewLogger(w, c.Level()) }

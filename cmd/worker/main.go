// Command worker drives codemode runs: it takes run.execute and run.resume jobs from River,
// runs the programs through the code-mode engine, and delivers webhooks and durable-call
// cancellations. Run any number of workers, on any machines, against one PostgreSQL.
//
// On SIGTERM or SIGINT it drains: it stops taking jobs, each running program stops at its next
// safe point and is checkpointed and handed back to the queue, so another worker continues it.
//
// Configuration (flags override the environment):
//
//	DATABASE_URL          --database-url   PostgreSQL connection string (required)
//	CODEMODE_MIGRATE      --migrate        apply migrations at start (default false)
//	CODEMODE_WORKER_RUNS  --runs           runs driven at once (default 10)
//	CODEMODE_WORKER_ID    --id             worker name in River and logs (default: generated)
//	                      --drain-timeout  how long a drain may take on SIGTERM (default 60s)
//	                      --drive-timeout  longest drive of a run before it yields and continues
//	                                       in a new job (default 5m)
//	                      --rescue-after   how long a crashed worker's runs wait before another
//	                                       worker re-drives them (default drive-timeout + 1m)
//	CODEMODE_LOG_LEVEL    --log-level      debug, info, warn or error (default info)
//	CODEMODE_EGRESS_ALLOW, CODEMODE_EGRESS_DENY  networks tool calls, cancels and webhooks may
//	                                       reach (internal/egress; default public addresses only)
//	CODEMODE_SECRET_KEY, CODEMODE_SECRET_KEY_OLD  key encrypting stored secrets, and keys it
//	                                       replaces (internal/secretbox, docs/security.md)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbURL := fs.String("database-url", getenv("DATABASE_URL"), "PostgreSQL connection string (DATABASE_URL)")
	doMigrate := fs.Bool("migrate", getenv("CODEMODE_MIGRATE") == "1" || getenv("CODEMODE_MIGRATE") == "true", "apply migrations at start (CODEMODE_MIGRATE)")
	runs := fs.Int("runs", envInt(getenv, "CODEMODE_WORKER_RUNS", 10), "runs driven at once (CODEMODE_WORKER_RUNS)")
	id := fs.String("id", getenv("CODEMODE_WORKER_ID"), "worker name (CODEMODE_WORKER_ID)")
	drain := fs.Duration("drain-timeout", 60*time.Second, "how long a drain may take on SIGTERM")
	driveTimeout := fs.Duration("drive-timeout", 5*time.Minute, "longest drive of a run before it yields and continues in a new job")
	rescueAfter := fs.Duration("rescue-after", 0, "how long a crashed worker's runs wait before being re-driven (default drive-timeout + 1m)")
	level := fs.String("log-level", envOr(getenv, "CODEMODE_LOG_LEVEL", "info"), "log level (CODEMODE_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("log level %q: %w", *level, err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: l}))
	if *dbURL == "" {
		return errors.New("DATABASE_URL (or --database-url) is required")
	}
	policy, err := egress.FromEnv(getenv, egress.Policy{})
	if err != nil {
		return err
	}
	engine, err := newEngine(logger, policy)
	if err != nil {
		return err
	}
	pool, err := durable.OpenPool(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if *doMigrate {
		if err := migrate.Up(ctx, pool); err != nil {
			return err
		}
	} else if err := migrate.Check(ctx, pool); err != nil {
		return fmt.Errorf("%w (apply them with --migrate, or server --migrate-only)", err)
	}
	keys, err := secretbox.FromEnv(getenv)
	if err != nil {
		return err
	}
	store, err := durable.New(pool, durable.Config{Logger: logger, Egress: policy, Secrets: keys})
	if err != nil {
		return err
	}
	defer store.Close()
	if n, err := store.PrepareSecrets(ctx); err != nil {
		return err
	} else if n > 0 {
		logger.Info("secrets sealed under the current CODEMODE_SECRET_KEY", "count", n)
	}
	w, err := durable.NewWorker(store, engine, durable.WorkerConfig{
		MaxRuns: *runs, ID: *id, DriveTimeout: *driveTimeout, RescueStuckJobsAfter: *rescueAfter,
	})
	if err != nil {
		return err
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	logger.Info("worker started", "runs", *runs)
	<-ctx.Done()
	logger.Info("draining")
	drainCtx, cancel := context.WithTimeout(context.Background(), *drain)
	defer cancel()
	if err := w.Stop(drainCtx); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

func envInt(getenv func(string) string, name string, def int) int {
	if n, err := strconv.Atoi(getenv(name)); err == nil {
		return n
	}
	return def
}

// Command worker drives codemode runs: it takes run.execute and run.resume jobs from River,
// runs the programs through the code-mode engine, and delivers webhooks and durable-call
// cancellations. Run any number of workers, on any machines, against one PostgreSQL.
//
// On SIGTERM or SIGINT it drains: it stops taking jobs, each running program stops at its next
// safe point and is checkpointed and handed back to the queue, so another worker continues it.
//
// Configuration (internal/config; flags override the environment; a wrong one exits 2):
//
//	DATABASE_URL          --database-url   PostgreSQL connection string (required)
//	CODEMODE_MIGRATE      --migrate        apply migrations at start (default false)
//	CODEMODE_WORKER_RUNS  --runs           runs driven at once (default 10)
//	CODEMODE_WORKER_ID    --id             worker name in River and logs (default: generated)
//	CODEMODE_WORKER_LISTEN  --metrics-listen  address of /healthz, /readyz and /metrics
//	                                       (default 127.0.0.1:9090; --metrics-listen= for none)
//	                      --drain-timeout  how long a drain may take on SIGTERM (default 60s)
//	                      --drive-timeout  longest drive of a run before it yields and continues
//	                                       in a new job (default 5m)
//	                      --rescue-after   how long River waits before retrying a job of a lost
//	                                       worker (default drive-timeout + 1m); its runs are
//	                                       re-driven sooner, by heartbeats:
//	                      --lease-ttl      how long a run's lease outlives its driver's last
//	                                       heartbeat (default 6s; heartbeats every third of it)
//	                      --redrive-interval  how often to look for runs whose worker stopped
//	                                       heartbeating, to re-drive them (default 1s)
//	                      --max-crashes    lost workers after which a run ends failed (default 3)
//	                      --max-timeout-ms, --max-tool-calls, --max-output-bytes,
//	                      --max-memory-bytes, --max-snapshot-bytes
//	                                       ceilings on every run's limits (defaults: 1h, 10000,
//	                                       16 MiB, 512 MiB, 16 MiB); a run can lower them only
//	CODEMODE_LOG_LEVEL    --log-level      debug, info, warn or error (default info)
//	CODEMODE_EGRESS_ALLOW, CODEMODE_EGRESS_DENY  networks tool calls, cancels and webhooks may
//	                                       reach (internal/egress; default public addresses only)
//	CODEMODE_SECRET_KEY, CODEMODE_SECRET_KEY_OLD  key encrypting stored secrets, and keys it
//	                                       replaces (internal/secretbox, docs/security.md)
//	GOMEMLIMIT                             soft memory limit of the process (default 256 MiB
//	                                       + runs × --max-memory-bytes); a run starts only when
//	                                       the live heap leaves room for its memory limit under it
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
	case errors.Is(err, config.ErrUsage):
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := config.Parse(config.Worker, args, getenv, stderr)
	if err != nil {
		return err
	}
	logger := cfg.Logger(stderr)
	policy, err := egress.FromEnv(getenv, egress.Policy{})
	if err != nil {
		return err
	}
	memLimit := runengine.SetMemoryLimit(cfg.Ceilings.MaxMemoryBytes, cfg.WorkerRuns)
	runengine.TuneCollector()
	engine, err := newEngine(logger, cfg.Ceilings, policy, cfg)
	if err != nil {
		return err
	}
	// The engine keeps sessions with MCP servers; they end when the worker stops.
	if c, ok := engine.(interface{ Close() }); ok {
		defer c.Close()
	}
	pool, err := durable.OpenPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if cfg.Migrate {
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
	store, err := durable.New(pool, durable.Config{Logger: logger, LeaseTTL: cfg.LeaseTTL, Egress: policy, Secrets: keys,
		SynchronousJournal: cfg.SynchronousJournal})
	if err != nil {
		return err
	}
	defer store.Close()
	if n, err := store.PrepareSecrets(ctx); err != nil {
		return err
	} else if n > 0 {
		logger.Info("secrets sealed under the current CODEMODE_SECRET_KEY", "count", n)
	}
	reg, metrics := newRegistry()
	w, err := durable.NewWorker(store, engine, durable.WorkerConfig{
		MaxRuns: cfg.WorkerRuns, ID: cfg.WorkerID, DriveTimeout: cfg.DriveTimeout, RescueStuckJobsAfter: cfg.RescueAfter,
		RedriveInterval: cfg.RedriveInterval, MaxCrashes: cfg.MaxCrashes, Metrics: metrics,
		Retention: cfg.WorkerRetention(),
	})
	if err != nil {
		return err
	}
	if cfg.MetricsListen != "" {
		stopServing, err := serveObserve(logger, cfg.MetricsListen, observeHandler(logger, w.Ready, reg))
		if err != nil {
			return fmt.Errorf("metrics endpoint: %w", err)
		}
		defer stopServing()
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	logger.Info("worker started", "runs", cfg.WorkerRuns, "memory_limit", memLimit)
	<-ctx.Done()
	logger.Info("draining")
	drainCtx, cancel := context.WithTimeout(context.Background(), cfg.DrainTimeout)
	defer cancel()
	if err := w.Stop(drainCtx); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

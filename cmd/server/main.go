// Command server serves codemode's HTTP API against PostgreSQL, and River's web UI of the job
// queue under /river (behind the same token). It drives no runs itself: start
// any number of cmd/worker processes against the same database.
//
// Configuration (internal/config; flags override the environment; a wrong one exits 2):
//
//	DATABASE_URL        --database-url      PostgreSQL connection string (required)
//	CODEMODE_LISTEN     --listen            API address (default 127.0.0.1:8080)
//	CODEMODE_API_TOKEN                      bearer token for /v1 (required off loopback)
//	CODEMODE_MIGRATE    --migrate           apply migrations at start (default false)
//	                    --migrate-only      apply migrations and exit
//	                    --shutdown-timeout  grace period for requests on SIGTERM (default 30s)
//	CODEMODE_LOG_LEVEL  --log-level         debug, info, warn or error (default info)
//	CODEMODE_EGRESS_ALLOW, CODEMODE_EGRESS_DENY  networks manifest fetches may reach
//	                                        (internal/egress; default public addresses only)
//	CODEMODE_SECRET_KEY, CODEMODE_SECRET_KEY_OLD  key encrypting stored secrets, and keys it
//	                                        replaces (internal/secretbox, docs/security.md)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/console"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
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
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := config.Parse(config.Server, args, getenv, stderr)
	if err != nil {
		return err
	}
	logger := cfg.Logger(stderr)
	pool, err := durable.OpenPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if cfg.MigrateOnly {
		if err := migrate.Up(ctx, pool); err != nil {
			return err
		}
		logger.Info("migrations applied")
		return nil
	}
	if cfg.Migrate {
		if err := migrate.Up(ctx, pool); err != nil {
			return err
		}
	} else if err := migrate.Check(ctx, pool); err != nil {
		return fmt.Errorf("%w (apply them with --migrate, or server --migrate-only)", err)
	}
	policy, err := egress.FromEnv(getenv, egress.Policy{})
	if err != nil {
		return err
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
	ui, err := api.NewRiverUI(ctx, pool, logger)
	if err != nil {
		return err
	}
	handler, err := api.New(store, api.Config{Token: cfg.APIToken, Logger: logger, LimitCeilings: cfg.Ceilings, Egress: policy, RiverUI: ui})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	logger.Info("serving the API and the console", "addr", ln.Addr().String(), "console", "http://"+ln.Addr().String()+console.Prefix, "auth", cfg.APIToken != "")
	err = api.Serve(ctx, ln, console.Mount(handler), cfg.ShutdownTimeout)
	logger.Info("stopped")
	return err
}

// Command server serves codemode's HTTP API against PostgreSQL. It drives no runs itself: start
// any number of cmd/worker processes against the same database.
//
// Configuration (flags override the environment):
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
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbURL := fs.String("database-url", getenv("DATABASE_URL"), "PostgreSQL connection string (DATABASE_URL)")
	listen := fs.String("listen", envOr(getenv, "CODEMODE_LISTEN", "127.0.0.1:8080"), "API address (CODEMODE_LISTEN)")
	doMigrate := fs.Bool("migrate", getenv("CODEMODE_MIGRATE") == "1" || getenv("CODEMODE_MIGRATE") == "true", "apply migrations at start (CODEMODE_MIGRATE)")
	migrateOnly := fs.Bool("migrate-only", false, "apply migrations (ours and River's) and exit")
	shutdown := fs.Duration("shutdown-timeout", 30*time.Second, "grace period for requests in flight on SIGTERM")
	level := fs.String("log-level", envOr(getenv, "CODEMODE_LOG_LEVEL", "info"), "log level (CODEMODE_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	token := getenv("CODEMODE_API_TOKEN")
	logger, err := newLogger(stderr, *level)
	if err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("DATABASE_URL (or --database-url) is required")
	}
	if !*migrateOnly {
		if err := api.CheckListen(*listen, token); err != nil {
			return err
		}
	}
	pool, err := durable.OpenPool(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if *migrateOnly {
		if err := migrate.Up(ctx, pool); err != nil {
			return err
		}
		logger.Info("migrations applied")
		return nil
	}
	if *doMigrate {
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
	handler, err := api.New(store, api.Config{Token: token, Logger: logger, Egress: policy})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	logger.Info("serving the API", "addr", ln.Addr().String(), "auth", token != "")
	err = api.Serve(ctx, ln, handler, *shutdown)
	logger.Info("stopped")
	return err
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: %w", level, err)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

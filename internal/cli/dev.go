package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgcluster"
	"github.com/codemode/codemode/internal/secretbox"
)

// devDatabase is the database codemode dev keeps its runs in.
const devDatabase = "codemode"

// runDev is `codemode dev`: the embedded default. It creates (the first time) and starts a
// private PostgreSQL cluster in --data (Unix socket only), applies migrations, and serves the
// API and a worker in one process until interrupted. With DATABASE_URL set it uses that
// database instead of a private cluster.
func runDev(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	dataDir := fs.String("data", ".codemode", "directory of the private PostgreSQL cluster")
	listen := fs.String("listen", envOr(env, "CODEMODE_LISTEN", "127.0.0.1:8080"), "API address (CODEMODE_LISTEN)")
	level := fs.String("log-level", envOr(env, "CODEMODE_LOG_LEVEL", "info"), "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		return ExitUsage
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(env.Stderr, "codemode dev: log level %q: %v\n", *level, err)
		return ExitUsage
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: lvl}))
	token := env.Getenv("CODEMODE_API_TOKEN")
	if err := api.CheckListen(*listen, token); err != nil {
		fmt.Fprintln(env.Stderr, "codemode dev:", err)
		return ExitUsage
	}
	if err := dev(ctx, *dataDir, *listen, token, env, logger); err != nil {
		fmt.Fprintln(env.Stderr, "codemode dev:", err)
		return ExitFailed
	}
	return ExitOK
}

func dev(ctx context.Context, dataDir, listen, token string, env Env, logger *slog.Logger) error {
	dbURL := env.Getenv("DATABASE_URL")
	if dbURL == "" {
		abs, err := filepath.Abs(dataDir)
		if err != nil {
			return err
		}
		cluster, err := pgcluster.New(pgcluster.Config{Dir: abs})
		if err != nil {
			return err
		}
		if !cluster.Initialized() {
			logger.Info("creating the private PostgreSQL cluster", "dir", abs)
			if err := cluster.Init(ctx); err != nil {
				return err
			}
		}
		switch err := cluster.Start(ctx); {
		case errors.Is(err, pgcluster.ErrAlreadyRunning):
			// A server left behind by a codemode dev that was killed: use it (and stop it on exit).
			logger.Info("adopting the PostgreSQL server already running", "dir", abs)
			if err := cluster.Adopt(ctx); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := cluster.Stop(stopCtx); err != nil {
				logger.Error("stop PostgreSQL", "error", err)
			}
		}()
		if dbURL, err = cluster.CreateDatabase(ctx, devDatabase); err != nil {
			return err
		}
	}
	pool, err := durable.OpenPool(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := migrate.Up(ctx, pool); err != nil {
		return err
	}
	// dev serves the developer's own machine: its toolsets and webhooks are usually there.
	policy, err := egress.FromEnv(env.Getenv, egress.Local())
	if err != nil {
		return err
	}
	keys, err := devSecretKey(dataDir, env)
	if err != nil {
		return err
	}
	store, err := durable.New(pool, durable.Config{Logger: logger, Egress: policy, Secrets: keys})
	if err != nil {
		return err
	}
	defer store.Close()
	if _, err := store.PrepareSecrets(ctx); err != nil {
		return err
	}
	worker, err := durable.NewWorker(store, runengine.New(runengine.Config{Logger: logger, Egress: policy}), durable.WorkerConfig{})
	if err != nil {
		return err
	}
	if err := worker.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	handler, err := api.New(store, api.Config{Token: token, Logger: logger, Egress: policy})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Fprintf(env.Stdout, "codemode is serving http://%s (Ctrl-C stops it)\n", ln.Addr())
	serveErr := api.Serve(ctx, ln, handler, 10*time.Second)
	drainCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stopErr := worker.Stop(drainCtx)
	return errors.Join(serveErr, stopErr)
}

func envOr(env Env, name, def string) string {
	if v := env.Getenv(name); v != "" {
		return v
	}
	return def
}

// devSecretKey returns the keys of CODEMODE_SECRET_KEY when set; otherwise the key kept in
// DIR/secret.key, made the first time (mode 0600).
func devSecretKey(dataDir string, env Env) (*secretbox.Keyring, error) {
	if keys, err := secretbox.FromEnv(env.Getenv); err != nil || keys != nil {
		return keys, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, "secret.key")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		data = []byte(secretbox.Generate() + "\n")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, fmt.Errorf("keep the secret key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("read the secret key: %w", err)
	}
	key := strings.TrimSpace(string(data))
	return secretbox.FromEnv(func(name string) string {
		if name == "CODEMODE_SECRET_KEY" {
			return key
		}
		return ""
	})
}

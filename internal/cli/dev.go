package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/console"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgcluster"
	"github.com/codemode/codemode/internal/secretbox"
)

// devDatabase is the database codemode dev keeps its runs in.
const devDatabase = "codemode"

// newDevCmd is `codemode dev`: the embedded default. It creates (the first time) and starts a
// private PostgreSQL cluster in --data (Unix socket only), applies migrations, and serves the
// API and a worker in one process until interrupted. With DATABASE_URL set it uses that
// database instead of a private cluster.
func newDevCmd(env Env) *cobra.Command {
	cfg := config.Load(env.Getenv)
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Run the service (API server and worker) on a private PostgreSQL",
		Long: `Run the service, the API server and a worker in one process, until Ctrl-C.

The first start creates a PostgreSQL cluster in --data (Unix socket only); every start applies
the migrations. With DATABASE_URL (or --database-url) set, that database is used instead of the
private cluster.

One codemode dev at a time may use a data directory: a second one refuses to start. A
PostgreSQL server codemode dev did not start itself is used and left running at exit.

River's own informational logs show only with --log-level debug.`,
		Example: `  codemode dev
  codemode dev --data /tmp/cm --listen 127.0.0.1:9090 --log-level debug`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cfg.Validate(config.Dev); err != nil {
				return err
			}
			if err := dev(cmd.Context(), cfg, env, cfg.Logger(env.Stderr)); err != nil {
				return failed(err)
			}
			return nil
		},
	}
	cfg.AddFlags(cmd.Flags(), config.Dev)
	return cmd
}

func dev(ctx context.Context, cfg config.Config, env Env, logger *slog.Logger) error {
	dbURL := cfg.DatabaseURL
	if dbURL == "" {
		abs, err := filepath.Abs(cfg.DataDir)
		if err != nil {
			return err
		}
		unlock, err := lockDataDir(abs)
		if err != nil {
			return err
		}
		defer unlock()
	}
	// The address is taken first: when it is in use, dev says so before it creates or starts
	// a cluster, migrates or starts a worker that would take runs it cannot serve.
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	if dbURL == "" {
		abs, err := filepath.Abs(cfg.DataDir)
		if err != nil {
			return err
		}
		cluster, err := pgcluster.New(pgcluster.Config{Dir: abs})
		if err != nil {
			return err
		}
		if !cluster.Initialized() {
			fmt.Fprintf(env.Stderr, "codemode dev: creating a PostgreSQL cluster in %s (first start only, a few seconds)\n", abs)
			if err := cluster.Init(ctx); err != nil {
				return err
			}
		}
		fmt.Fprintf(env.Stderr, "codemode dev: starting PostgreSQL in %s\n", abs)
		switch err := cluster.Start(ctx); {
		case errors.Is(err, pgcluster.ErrAlreadyRunning):
			// Not ours (another program, or a codemode dev that was killed): use it, leave it running.
			if err := cluster.Adopt(ctx); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "codemode dev: using the PostgreSQL server already running in %s; "+
				"it is left running at exit (pg_ctl stop -D %s stops it)\n", abs, filepath.Join(abs, "data"))
		case err != nil:
			return err
		default:
			defer func() {
				stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				if err := cluster.Stop(stopCtx); err != nil {
					logger.Error("stop PostgreSQL", "error", err)
				}
			}()
		}
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
	keys, err := devSecretKey(cfg.DataDir, env)
	if err != nil {
		return err
	}
	store, err := durable.New(pool, durable.Config{Logger: logger, LeaseTTL: cfg.LeaseTTL, Egress: policy, Secrets: keys,
		SynchronousJournal: cfg.SynchronousJournal})
	if err != nil {
		return err
	}
	defer store.Close()
	if _, err := store.PrepareSecrets(ctx); err != nil {
		return err
	}
	// One /metrics, the API's, shows the worker's metrics too.
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	runengine.TuneCollector()
	ui, err := api.NewRiverUI(ctx, pool, logger)
	if err != nil {
		return err
	}
	metrics := durable.NewMetrics(reg)
	handler, err := api.New(store, api.Config{Token: cfg.APIToken, Logger: logger, LimitCeilings: cfg.Ceilings, Egress: policy, Registry: reg,
		RiverUI: ui})
	if err != nil {
		return err
	}
	// The worker starts last: nothing after it can fail before serving, so it is always
	// stopped (drained) below rather than left driving runs on a closed pool.
	engine := runengine.New(runengine.Config{Logger: logger, Ceilings: cfg.Ceilings, Egress: policy,
		CheckpointInterval: cfg.CheckpointInterval, CheckpointBytes: cfg.CheckpointBytes, RoundTrip: roundTrip,
		MaxConcurrentCalls: cfg.MaxConcurrentCalls})
	defer engine.Close()
	worker, err := durable.NewWorker(store, engine,
		durable.WorkerConfig{MaxRuns: cfg.WorkerRuns, RedriveInterval: cfg.RedriveInterval, MaxCrashes: cfg.MaxCrashes, Metrics: metrics})
	if err != nil {
		return err
	}
	if err := worker.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "codemode is serving http://%s (Ctrl-C stops it); the console is at http://%s%s\n", ln.Addr(), ln.Addr(), console.Prefix)
	serveErr := api.Serve(ctx, ln, console.Mount(handler), 10*time.Second)
	drainCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stopErr := worker.Stop(drainCtx)
	return errors.Join(serveErr, stopErr)
}

// devLockFile is the file in the data directory that a running codemode dev holds locked.
const devLockFile = "codemode-dev.lock"

// lockDataDir takes the data directory for this process, creating it if needed: it holds an
// exclusive flock on its lock file until the returned function is called or the process ends,
// and refuses when another process holds it.
func lockDataDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, devLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := io.ReadAll(f)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := "another codemode dev"
			if pid := strings.TrimSpace(string(owner)); pid != "" {
				who += " (pid " + pid + ")"
			}
			return nil, fmt.Errorf("%s is already running on %s: stop it first, or give this one another --data directory", who, dir)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { _ = f.Close() }, nil
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

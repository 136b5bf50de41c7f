package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/secretbox"
)

// workerProcessFlag makes loadgen a worker process of the service it started (see
// startWorkers): it drives runs on the database given by -database-url until interrupted.
const workerProcessFlag = "worker-process"

// runWorkerProcess drives runs as codemode dev's worker does (same defaults, loopback
// egress for the generator's toolset), on dbURL with the secret key in keyFile, until ctx
// ends; then it drains.
func runWorkerProcess(ctx context.Context, dbURL, keyFile string, syncJournal bool, stderr io.Writer) error {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	key, err := os.ReadFile(keyFile)
	if err != nil {
		return err
	}
	keys, err := secretbox.FromEnv(func(name string) string {
		if name == "CODEMODE_SECRET_KEY" {
			return strings.TrimSpace(string(key))
		}
		return ""
	})
	if err != nil {
		return err
	}
	cfg := config.Load(func(string) string { return "" })
	pool, err := durable.OpenPool(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	store, err := durable.New(pool, durable.Config{Logger: logger, LeaseTTL: cfg.LeaseTTL, Egress: egress.Local(), Secrets: keys,
		SynchronousJournal: syncJournal})
	if err != nil {
		return err
	}
	defer store.Close()
	engine := runengine.New(runengine.Config{Logger: logger, Ceilings: cfg.Ceilings, Egress: egress.Local(),
		CheckpointInterval: cfg.CheckpointInterval, CheckpointBytes: cfg.CheckpointBytes,
		MaxConcurrentCalls: cfg.MaxConcurrentCalls})
	w, err := durable.NewWorker(store, engine, durable.WorkerConfig{RedriveInterval: cfg.RedriveInterval, MaxCrashes: cfg.MaxCrashes})
	if err != nil {
		return err
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	<-ctx.Done()
	drainCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return w.Stop(drainCtx)
}

// startWorkers starts n worker processes (this program again, with -worker-process) on the
// service's database, besides the worker of codemode dev, and returns the function that
// stops them and waits for them.
func startWorkers(n int, dbURL, dataDir string, syncJournal bool, stderr io.Writer) (func(), error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var cmds []*exec.Cmd
	stop := func() {
		for _, c := range cmds {
			_ = c.Process.Signal(os.Interrupt)
		}
		for _, c := range cmds {
			_ = c.Wait()
		}
	}
	for range n {
		args := []string{"-" + workerProcessFlag, "-database-url", dbURL, "-secret-file", filepath.Join(dataDir, "dev", "secret.key")}
		if syncJournal {
			args = append(args, "-synchronous-journal")
		}
		c := exec.Command(self, args...)
		c.Stdout, c.Stderr = stderr, stderr
		if err := c.Start(); err != nil {
			stop()
			return nil, fmt.Errorf("start a worker process: %w", err)
		}
		cmds = append(cmds, c)
	}
	return stop, nil
}

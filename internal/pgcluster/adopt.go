package pgcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Running reports whether a server is running on the cluster's data directory.
func (c *Cluster) Running(ctx context.Context) bool {
	return c.Initialized() && c.running(ctx)
}

// Adopt makes the cluster use a server already running on its data directory, for example
// one left behind by a `codemode dev` that was killed: it reads the server's socket directory
// and port from postmaster.pid, so URL and Stop work as after Start. It returns
// ErrNotInitialized or an error when no server is running.
func (c *Cluster) Adopt(ctx context.Context) error {
	if !c.Initialized() {
		return ErrNotInitialized
	}
	if !c.running(ctx) {
		return fmt.Errorf("pgcluster: no server running on %s", c.dataDir())
	}
	data, err := os.ReadFile(filepath.Join(c.dataDir(), "postmaster.pid"))
	if err != nil {
		return fmt.Errorf("pgcluster: read postmaster.pid: %w", err)
	}
	// Lines: pid, data directory, start time, port, socket directory, listen address, ...
	lines := strings.Split(string(data), "\n")
	if len(lines) < 5 {
		return fmt.Errorf("pgcluster: postmaster.pid has %d lines, want at least 5", len(lines))
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err != nil {
		return fmt.Errorf("pgcluster: port in postmaster.pid: %w", err)
	}
	socketDir := strings.TrimSpace(lines[4])
	if socketDir == "" {
		return fmt.Errorf("pgcluster: the running server has no Unix socket")
	}
	c.cfg.Port, c.socketDir = port, socketDir
	c.tmpSocket = !strings.HasPrefix(socketDir, c.dir+string(filepath.Separator))
	return nil
}

package loadgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/cli"
	"github.com/codemode/codemode/internal/pgcluster"
)

// Service is a codemode service the generator started: `codemode dev` in this process, on a
// private PostgreSQL cluster the generator runs.
type Service struct {
	// URL is the service's base URL.
	URL string
	// DatabaseURL is the service's database, for the PostgreSQL ceiling.
	DatabaseURL string
	cluster     *pgcluster.Cluster
	cancel      context.CancelFunc
	done        chan int
}

// servingPrefix starts the line codemode dev prints once it serves.
const servingPrefix = "codemode is serving "

// StartService starts a private PostgreSQL cluster in dataDir and `codemode dev` on it, on a
// free loopback port, and returns once the service serves. Its logs at level warn and above go
// to logs. settings are extra PostgreSQL server settings (name → value), for example
// {"shared_preload_libraries": "pg_stat_statements"} to profile statements; nil: none.
// devArgs are extra flags of `codemode dev` (for example --synchronous-journal).
func StartService(ctx context.Context, dataDir string, logs io.Writer, settings map[string]string, devArgs ...string) (*Service, error) {
	cluster, dbURL, err := startCluster(ctx, dataDir, settings)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	s := &Service{DatabaseURL: dbURL, cluster: cluster, cancel: cancel, done: make(chan int, 1)}
	getenv := func(name string) string {
		if name == "DATABASE_URL" {
			return dbURL
		}
		return ""
	}
	go func() {
		args := append([]string{"dev", "--listen", "127.0.0.1:0", "--log-level", "warn", "--data", filepath.Join(dataDir, "dev")}, devArgs...)
		code := cli.Run(ctx, args,
			cli.Env{Stdout: pw, Stderr: logs, Getenv: getenv})
		_ = pw.CloseWithError(fmt.Errorf("codemode dev exited with status %d", code))
		s.done <- code
	}()
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), servingPrefix); ok {
				url <- strings.Fields(rest)[0]
			}
		}
		close(url)
	}()
	select {
	case u, ok := <-url:
		if !ok {
			s.Stop()
			return nil, errors.New("loadgen: codemode dev stopped before serving")
		}
		s.URL = u
		return s, nil
	case <-time.After(2 * time.Minute):
		s.Stop()
		return nil, errors.New("loadgen: codemode dev did not serve within 2 minutes")
	}
}

// startCluster creates (the first time) and starts the private cluster in dir, and returns it
// with the URL of its codemode database.
func startCluster(ctx context.Context, dir string, settings map[string]string) (*pgcluster.Cluster, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", err
	}
	cluster, err := pgcluster.New(pgcluster.Config{Dir: abs, Settings: settings})
	if err != nil {
		return nil, "", err
	}
	if !cluster.Initialized() {
		if err := cluster.Init(ctx); err != nil {
			return nil, "", err
		}
	}
	if err := cluster.Start(ctx); err != nil {
		return nil, "", err
	}
	dbURL, err := cluster.CreateDatabase(ctx, "codemode")
	if err != nil {
		stopCluster(cluster)
		return nil, "", err
	}
	return cluster, dbURL, nil
}

func stopCluster(c *pgcluster.Cluster) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = c.Stop(ctx)
}

// Stop stops the service and its PostgreSQL and waits for them.
func (s *Service) Stop() {
	s.cancel()
	<-s.done
	stopCluster(s.cluster)
}

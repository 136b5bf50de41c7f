package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgcluster"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader in different goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// devProcess is a `codemode dev` running in the test's process.
type devProcess struct {
	url    string
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan struct{} // closed when the command has returned code
	code   int
}

// stop interrupts the dev command (what Ctrl-C does) and returns its exit status.
func (d *devProcess) stop(t *testing.T) int {
	t.Helper()
	d.cancel()
	select {
	case <-d.done:
		return d.code
	case <-time.After(time.Minute):
		t.Fatal("codemode dev did not stop")
		return -1
	}
}

// startDev runs `codemode dev --data dir --listen 127.0.0.1:0 args...` and waits until it
// serves; the test fails when it exits first.
func startDev(t *testing.T, dir string, args ...string) *devProcess {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	d := &devProcess{stderr: &syncBuffer{}, cancel: cancel, done: make(chan struct{})}
	go func() {
		code := Run(ctx, append([]string{"dev", "--data", dir, "--listen", "127.0.0.1:0"}, args...),
			Env{Stdout: pw, Stderr: d.stderr, Getenv: func(string) string { return "" }})
		_ = pw.Close()
		d.code = code
		close(d.done)
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "codemode is serving "); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
		close(urls)
	}()
	select {
	case u, ok := <-urls:
		require.True(t, ok, "codemode dev exited before serving: %s", d.stderr.String())
		d.url = u
	case <-time.After(2 * time.Minute):
		cancel()
		t.Fatalf("codemode dev did not serve: %s", d.stderr.String())
	}
	t.Cleanup(func() {
		cancel()
		<-d.done
	})
	return d
}

// clusterDir returns a new directory the postgres user can reach (the server runs as that user
// when the tests run as root).
func clusterDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "clidev")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o711))
	return filepath.Join(dir, "data")
}

func requireReady(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestDevStartsAndStopsItsOwnCluster(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t)
	d := startDev(t, dir)
	require.Contains(t, d.stderr.String(), "creating a PostgreSQL cluster in "+dir)
	requireReady(t, d.url)
	require.NotContains(t, d.stderr.String(), "River", "River's info logs are quiet by default")
	resp, err := http.Get(d.url + "/metrics")
	require.NoError(t, err)
	metrics, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Contains(t, string(metrics), "codemode_worker_runs_driving 0", "the API's /metrics shows the worker's")
	// The console: / leads to it.
	resp, err = http.Get(d.url + "/")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, d.url+"/ui/", resp.Request.URL.String())
	require.Contains(t, string(page), "<title>codemode console</title>")
	// The MCP server: an initialize request is answered.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, d.url+"/mcp", strings.NewReader(init))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", answer)
	require.Contains(t, string(answer), `"name":"codemode"`)
	require.Equal(t, ExitOK, d.stop(t), d.stderr.String())

	c, err := pgcluster.New(pgcluster.Config{Dir: dir})
	require.NoError(t, err)
	require.False(t, c.Running(context.Background()), "codemode dev stops the PostgreSQL it started")
}

func TestDevLocksDataDirAndLeavesForeignClusterRunning(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := clusterDir(t)
	// A PostgreSQL server that codemode dev did not start, on the directory it will use.
	c, err := pgcluster.New(pgcluster.Config{Dir: dir, Settings: map[string]string{"fsync": "off"}})
	require.NoError(t, err)
	require.NoError(t, c.Init(ctx))
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Stop(context.Background()) })

	first := startDev(t, dir)
	requireReady(t, first.url)
	require.Contains(t, first.stderr.String(), "left running at exit")

	// A second codemode dev on the same directory refuses at once and disturbs nothing.
	secondCtx, secondCancel := context.WithTimeout(ctx, time.Minute)
	defer secondCancel()
	var out, errOut bytes.Buffer
	code := Run(secondCtx, []string{"dev", "--data", dir, "--listen", "127.0.0.1:0"},
		Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
	require.Equal(t, ExitFailed, code, "stdout %s stderr %s", out.String(), errOut.String())
	require.Contains(t, errOut.String(), "another codemode dev (pid ")
	require.Contains(t, errOut.String(), "is already running on "+dir)
	require.Empty(t, out.String())
	requireReady(t, first.url)

	require.Equal(t, ExitOK, first.stop(t), first.stderr.String())
	require.True(t, c.Running(ctx), "codemode dev must not stop a PostgreSQL it did not start")

	// The lock is released at exit: the next codemode dev starts; at debug level River's logs show.
	third := startDev(t, dir, "--log-level", "debug")
	requireReady(t, third.url)
	require.Contains(t, third.stderr.String(), "River client started")
	require.Equal(t, ExitOK, third.stop(t), third.stderr.String())
	require.True(t, c.Running(ctx), "codemode dev must not stop a PostgreSQL it did not start")
}

func TestDevWithDatabaseURLLeavesDataDirAlone(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runCLI(t, "", "dev", "--data", dir, "--listen", "127.0.0.1:0",
		"--database-url", "postgres://codemode@127.0.0.1:1/codemode?connect_timeout=5")
	require.Equal(t, ExitFailed, code, "stdout %s stderr %s", out, errOut)
	require.Contains(t, errOut, "codemode dev: ")
	_, err := os.Stat(dir)
	require.True(t, os.IsNotExist(err), "no private cluster with --database-url")
}

// An address in use stops codemode dev before it creates or starts a cluster (and before it
// starts a worker that would take runs it cannot serve).
func TestDevAddressInUse(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = busy.Close() })
	dir := clusterDir(t)
	code, out, errOut := runCLI(t, "", "dev", "--data", dir, "--listen", busy.Addr().String())
	require.Equal(t, ExitFailed, code, "stdout %s stderr %s", out, errOut)
	require.Contains(t, errOut, "address already in use")
	require.NotContains(t, errOut, "PostgreSQL", "no cluster is created or started")
	require.Empty(t, out)
	c, err := pgcluster.New(pgcluster.Config{Dir: dir})
	require.NoError(t, err)
	require.False(t, c.Initialized())
}

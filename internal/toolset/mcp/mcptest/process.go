package mcptest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Servers are the implementations of the test server, by name: "go" (cmd/mcpserverd, built
// with the Go SDK) and "typescript" (testdata/node/server.mjs, the TypeScript SDK, run by
// node). Each starts a process serving the tools and returns its endpoint; the process ends
// with the test.
var Servers = map[string]func(t testing.TB, token string) string{
	"go":         StartGo,
	"typescript": StartNode,
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error

	npmOnce sync.Once
	npmErr  error
)

// dir is this package's directory.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// StartGo builds cmd/mcpserverd (once per test binary) and starts it.
func StartGo(t testing.TB, token string) string {
	t.Helper()
	buildOnce.Do(func() {
		out, err := os.MkdirTemp("", "mcpserverd")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(out, "mcpserverd")
		cmd := exec.Command("go", "build", "-o", binary, "./cmd/mcpserverd")
		cmd.Dir = dir()
		if b, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build mcpserverd: %v: %s", err, b)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return start(t, exec.Command(binary, "-token", token))
}

// StartNode installs the pinned npm packages (npm ci, once per test binary, when absent) and
// starts the TypeScript server with node.
func StartNode(t testing.TB, token string) string {
	t.Helper()
	node := filepath.Join(filepath.Dir(dir()), "testdata", "node")
	npmOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(node, "node_modules", "@modelcontextprotocol", "sdk")); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = node
		if b, err := cmd.CombinedOutput(); err != nil {
			npmErr = fmt.Errorf("npm ci in %s (node and npm are required): %v: %s", node, err, b)
		}
	})
	if npmErr != nil {
		t.Fatal(npmErr)
	}
	cmd := exec.Command("node", "server.mjs", token)
	cmd.Dir = node
	return start(t, cmd)
}

// start runs cmd until the test ends and returns the URL of its "listening on" line.
func start(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedWriter{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if url, ok := strings.CutPrefix(s.Text(), "listening on "); ok {
				found <- url
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start: %s", cmd.Path, stderr.String())
		return ""
	}
}

// lockedWriter collects a process's standard error.
type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

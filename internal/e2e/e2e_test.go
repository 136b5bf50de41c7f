package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// binaries are built once per test binary.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "codemode-e2e-bin")
		if buildErr != nil {
			return
		}
		pgtest.AfterRun(func() { _ = os.RemoveAll(binDir) })
		cmd := exec.Command("go", "build", "-tags", roundTripTags(), "-o", binDir+"/",
			"github.com/codemode/codemode/cmd/server",
			"github.com/codemode/codemode/cmd/worker",
			"github.com/codemode/codemode/internal/toolset/toolsettest/cmd/toolsetd",
			"github.com/codemode/codemode/examples/webhook-receiver")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return binDir
}

// process is a child process whose output goes to the test log.
type process struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func start(t *testing.T, name string, env []string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(filepath.Join(build(t), name), args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	p.cmd.Stdout = pw
	p.cmd.Stderr = pw
	require.NoError(t, p.cmd.Start())
	go func() {
		s := bufio.NewScanner(pr)
		for s.Scan() {
			p.mu.Lock()
			p.out.WriteString(s.Text() + "\n")
			p.mu.Unlock()
		}
	}()
	go func() {
		_ = p.cmd.Wait()
		_ = pw.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		p.mu.Lock()
		defer p.mu.Unlock()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.out.String())
		}
	})
	return p
}

// kill sends SIGKILL and waits for the process to end.
func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// waitOutput waits for a line containing substr and returns it.
func (p *process) waitOutput(t *testing.T, substr string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		text := p.out.String()
		p.mu.Unlock()
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, substr) {
				return line
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no output line containing %q", substr)
	return ""
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// api is a small JSON client of the service.
type api struct {
	t    *testing.T
	base string
}

func (a api) do(method, path string, body any) (int, map[string]any) {
	a.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(a.t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.base+path, r)
	require.NoError(a.t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(a.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(a.t, err)
	var out map[string]any
	if len(data) > 0 {
		require.NoError(a.t, json.Unmarshal(data, &out), "body: %s", data)
	}
	return resp.StatusCode, out
}

func waitHealthy(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("server never became healthy")
}

// stack is a running service: PostgreSQL database, server, worker and toolset processes.
type stack struct {
	api      api
	dbURL    string
	toolsURL string
	worker   *process
}

func setup(t *testing.T) *stack {
	t.Helper()
	_, dbURL := pgtest.NewDB(t)
	tools := start(t, "toolsetd", nil, "-listen", "127.0.0.1:0")
	toolsURL := strings.TrimPrefix(tools.waitOutput(t, "listening on "), "listening on ")
	addr := freeAddr(t)
	env := []string{"DATABASE_URL=" + dbURL, "CODEMODE_LISTEN=" + addr, "CODEMODE_API_TOKEN=", "CODEMODE_EGRESS_ALLOW=loopback", secretKeyEnv}
	start(t, "server", env)
	s := &stack{api: api{t: t, base: "http://" + addr}, dbURL: dbURL, toolsURL: strings.TrimSpace(toolsURL)}
	waitHealthy(t, s.api.base)
	s.worker = s.startWorker(t)
	return s
}

func (s *stack) startWorker(t *testing.T) *process {
	return start(t, "worker", []string{"DATABASE_URL=" + s.dbURL, "CODEMODE_EGRESS_ALLOW=loopback", "CODEMODE_WORKER_LISTEN=127.0.0.1:0", secretKeyEnv})
}

// secretKeyEnv gives the server and the workers a key for stored signing secrets (32 bytes,
// base64), so that runs can have signed webhooks.
const secretKeyEnv = "CODEMODE_SECRET_KEY=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

func (s *stack) executions(t *testing.T) map[string]int {
	t.Helper()
	resp, err := http.Get(s.toolsURL + "/_stats")
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct{ Executions map[string]int }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return out.Executions
}

// TestSuspendKillResume: plain calls, then a durable call; the run suspends; every worker is
// killed with SIGKILL; a new worker starts; the outcome is posted; the run finishes on the new
// worker with the right result, and the toolset ran every key exactly once.
func TestSuspendKillResume(t *testing.T) {
	t.Parallel()
	s := setup(t)
	code, body := s.api.do("POST", "/v1/toolsets", map[string]any{"name": "ops", "url": s.toolsURL})
	require.Equal(t, http.StatusCreated, code, "%v", body)

	program := `
const {sum} = await tools.ops.math.add({a: 2, b: 40})
const up = await tools.ops.string.upper({text: "ship"})
const answer = await tools.ops.approvals.request({reason: up.text + " " + sum})
return {sum, approved: answer.approved, by: answer.by}`
	code, run := s.api.do("POST", "/v1/runs?wait=20", map[string]any{"code": program})
	require.Equal(t, http.StatusCreated, code, "%v", run)
	id := run["id"].(string)
	if run["status"] != "suspended" {
		_, run = s.api.do("GET", "/v1/runs/"+id+"?wait=20", nil)
	}
	require.Equal(t, "suspended", run["status"], "%v", run)
	pending := run["pending"].([]any)
	require.Len(t, pending, 1)
	call := pending[0].(map[string]any)
	require.Equal(t, "ops.approvals.request", call["path"])
	callID := int(call["callId"].(float64))

	s.worker.kill()
	s.worker = s.startWorker(t)

	code, body = s.api.do("POST", fmt.Sprintf("/v1/runs/%s/calls/%d", id, callID),
		map[string]any{"ok": true, "value": map[string]any{"approved": true, "by": "alice"}})
	require.Equal(t, http.StatusAccepted, code, "%v", body)

	deadline := time.Now().Add(30 * time.Second)
	for run["status"] != "succeeded" && run["status"] != "failed" && time.Now().Before(deadline) {
		_, run = s.api.do("GET", "/v1/runs/"+id+"?wait=10", nil)
	}
	require.Equal(t, "succeeded", run["status"], "%v", run)
	result := run["result"].(map[string]any)
	require.Equal(t, true, result["ok"], "%v", result)
	require.Equal(t, map[string]any{"sum": float64(42), "approved": true, "by": "alice"}, result["value"])

	// The same outcome again is harmless; a different one is refused.
	code, _ = s.api.do("POST", fmt.Sprintf("/v1/runs/%s/calls/%d", id, callID),
		map[string]any{"ok": true, "value": map[string]any{"approved": true, "by": "alice"}})
	require.Equal(t, http.StatusOK, code)
	code, _ = s.api.do("POST", fmt.Sprintf("/v1/runs/%s/calls/%d", id, callID),
		map[string]any{"ok": false, "error": map[string]any{"message": "changed my mind"}})
	require.Equal(t, http.StatusConflict, code)

	execs := s.executions(t)
	for _, n := range []int{1, 2, 3} {
		require.Equal(t, 1, execs[fmt.Sprintf("%s:%d", id, n)], "key %s:%d in %v", id, n, execs)
	}
}

// roundTripTags are the build tags of the binaries: codemode_roundtrip when
// CODEMODE_ROUNDTRIP=1, so that their runs are saved and restored at every safe point too.
func roundTripTags() string {
	if os.Getenv("CODEMODE_ROUNDTRIP") == "1" {
		return "codemode_roundtrip"
	}
	return ""
}

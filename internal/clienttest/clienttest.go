// Package clienttest runs the clients of the API against a real service: Start gives a fresh
// `codemode dev` on a private PostgreSQL with the test toolset registered, for the Go client's
// tests (package client) and for this package's tests, which run the TypeScript client's and
// the Python client's own tests (clients/typescript, clients/python) against it.
package clienttest

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/loadgen"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// Toolset is the name the test toolset is registered under.
const Toolset = "ops"

// Service is a codemode service with the test toolset registered as Toolset.
type Service struct {
	// URL is the service's base URL.
	URL string
	// Tools is the test toolset's handler (to count attempts and executions).
	Tools *toolsettest.Handler

	svc   *loadgen.Service
	tools *httptest.Server
	dir   string
}

// Start starts a private PostgreSQL cluster, `codemode dev` on it and the test toolset, and
// registers the toolset. The service's logs at level warn and above go to logs. Stop stops
// them all.
func Start(ctx context.Context, logs io.Writer) (*Service, error) {
	// The cluster runs as the postgres user when the tests run as root: its directory must
	// be reachable by others (a test's temporary directory's parent is not).
	dir, err := os.MkdirTemp("", "codemode-clienttest")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s := &Service{dir: dir}
	s.svc, err = loadgen.StartService(ctx, dir, logs, nil)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s.URL = s.svc.URL
	s.Tools, err = toolsettest.NewHandler(toolsettest.Options{})
	if err != nil {
		s.Stop()
		return nil, err
	}
	s.tools = httptest.NewServer(s.Tools)
	c, err := client.New(s.URL, "")
	if err != nil {
		s.Stop()
		return nil, err
	}
	resp, err := c.CreateToolsetWithResponse(ctx, client.ToolsetCreate{Name: Toolset, Url: &s.tools.URL})
	if err == nil && resp.JSON201 == nil {
		err = fmt.Errorf("HTTP %d: %s", resp.StatusCode(), resp.Body)
	}
	if err != nil {
		s.Stop()
		return nil, fmt.Errorf("clienttest: registering the test toolset: %w", err)
	}
	return s, nil
}

// Stop stops the service, its PostgreSQL and the toolset, and removes their files.
func (s *Service) Stop() {
	if s.svc != nil {
		s.svc.Stop()
	}
	if s.tools != nil {
		s.tools.Close()
	}
	_ = os.RemoveAll(s.dir)
}

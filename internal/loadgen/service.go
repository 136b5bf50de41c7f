package loadgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/cli"
)

// Service is a codemode service the generator started: `codemode dev` in this process, on a
// private PostgreSQL cluster.
type Service struct {
	// URL is the service's base URL.
	URL    string
	cancel context.CancelFunc
	done   chan int
}

// servingPrefix starts the line codemode dev prints once it serves.
const servingPrefix = "codemode is serving "

// StartService runs `codemode dev --data dataDir` on a free loopback port and returns once it
// serves. Its logs at level warn and above go to logs.
func StartService(ctx context.Context, dataDir string, logs io.Writer) (*Service, error) {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	s := &Service{cancel: cancel, done: make(chan int, 1)}
	go func() {
		code := cli.Run(ctx, []string{"dev", "--data", dataDir, "--listen", "127.0.0.1:0", "--log-level", "warn"},
			cli.Env{Stdout: pw, Stderr: logs, Getenv: func(string) string { return "" }})
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
			cancel()
			return nil, errors.New("loadgen: codemode dev stopped before serving")
		}
		s.URL = u
		return s, nil
	case <-time.After(2 * time.Minute):
		cancel()
		return nil, errors.New("loadgen: codemode dev did not serve within 2 minutes")
	}
}

// Stop stops the service and its PostgreSQL and waits for them.
func (s *Service) Stop() {
	s.cancel()
	<-s.done
}

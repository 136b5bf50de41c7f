// Command toolsetd serves the test toolset of package toolsettest over HTTP,
// for tests and tools in other processes or languages:
//
//	go run ./internal/toolset/toolsettest/cmd/toolsetd -listen 127.0.0.1:8765 [-secret S]
//
// GET /_stats answers {"executions": {key: count}}. It prints "listening on http://ADDR" once ready and stops on SIGINT or
// SIGTERM.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "toolsetd:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("toolsetd", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8765", "address to listen on (port 0 picks a free port)")
	secret := fs.String("secret", "", "require Standard Webhooks signatures made with this secret")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, err := toolsettest.NewHandler(toolsettest.Options{Secret: *secret})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	// GET /_stats reports executions per idempotency key, for tests in other processes.
	mux.HandleFunc("GET /_stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"executions": h.ExecutionsByKey()})
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

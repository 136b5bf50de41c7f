package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Serve serves handler on ln until ctx is cancelled, then shuts down gracefully: it stops
// accepting connections and waits up to shutdownTimeout for requests in flight (long waits
// included) before closing the rest. It returns nil after a clean shutdown.
func Serve(ctx context.Context, ln net.Listener, handler http.Handler, shutdownTimeout time.Duration) error {
	srv := newHTTPServer(ctx, handler)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// idleTimeout is how long a keep-alive connection may wait for its next request: without it a
// client could hold any number of idle connections (and file descriptors) for good.
const idleTimeout = 2 * time.Minute

// newHTTPServer is the server of Serve. Request bodies have their own deadline (limitBody);
// there is no ReadTimeout or WriteTimeout, which would cut long waits and event streams.
func newHTTPServer(ctx context.Context, handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       idleTimeout,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
}

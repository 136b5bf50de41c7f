package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/codemode/codemode/internal/durable"
)

// newRegistry returns the registry of the worker's /metrics: Go and process collectors, and
// the worker's own (durable.NewMetrics).
func newRegistry() (*prometheus.Registry, *durable.Metrics) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg, durable.NewMetrics(reg)
}

// observeHandler serves /healthz (the process is up), /readyz (ready answers nil: the database
// answers and the worker takes jobs) and /metrics (reg, in Prometheus's text format).
func observeHandler(logger *slog.Logger, ready func(context.Context) error, reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			// The cause goes to the log only: a connection error names the database's user,
			// host and port, which are no business of an unauthenticated prober.
			msg := "database unavailable"
			if errors.Is(err, durable.ErrNotStarted) {
				msg = "worker not taking jobs"
			}
			logger.WarnContext(ctx, "readiness: "+msg, "error", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": map[string]string{"code": "unavailable", "message": msg}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// serveObserve listens on addr and serves h until the returned function is called.
func serveObserve(logger *slog.Logger, addr string, h http.Handler) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics endpoint", "error", err)
		}
	}()
	logger.Info("serving /healthz, /readyz and /metrics", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

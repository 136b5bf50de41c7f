package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/run"
)

// Config configures the API server.
type Config struct {
	// Token, when set, is required as "Authorization: Bearer <Token>" on every /v1 and /mcp
	// request (CODEMODE_API_TOKEN). Default empty: no auth (listen on loopback only; see CheckListen).
	Token string
	// MaxBodyBytes bounds request bodies; larger ones get 413. Default 2 MiB.
	MaxBodyBytes int64
	// MaxWait bounds the wait query parameter. Default 300 seconds.
	MaxWait time.Duration
	// Egress is the policy of the manifest fetches (internal/egress). Default: the zero
	// policy, public addresses only.
	Egress egress.Policy
	// HTTPClient fetches toolset manifests. Default: a client obeying Egress with a 10-second
	// timeout.
	HTTPClient *http.Client
	// Logger receives request errors. Default: discard.
	Logger *slog.Logger
	// Registry receives the Prometheus collectors served at /metrics. Default: a new registry
	// with the Go and process collectors.
	Registry *prometheus.Registry
	// LimitCeilings are the workers' ceilings on a run's limits: a run asking for more (or
	// for 0) is refused with 400 naming the allowed range. Zero fields take
	// run.DefaultCeilings, the workers' defaults.
	LimitCeilings run.Limits
	// RiverUI, when set, is served under RiverUIPrefix (/river) behind the token: River's web
	// UI of the job queue (cmd/server mounts riverqueue.com/riverui). Default: none.
	RiverUI http.Handler
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c Config) WithDefaults() Config {
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 2 << 20
	}
	if c.MaxWait == 0 {
		c.MaxWait = 300 * time.Second
	}
	for _, f := range []struct{ v, d *int64 }{
		{&c.LimitCeilings.TimeoutMs, &run.DefaultCeilings.TimeoutMs},
		{&c.LimitCeilings.MaxToolCalls, &run.DefaultCeilings.MaxToolCalls},
		{&c.LimitCeilings.MaxOutputBytes, &run.DefaultCeilings.MaxOutputBytes},
		{&c.LimitCeilings.MaxMemoryBytes, &run.DefaultCeilings.MaxMemoryBytes},
		{&c.LimitCeilings.MaxSnapshotBytes, &run.DefaultCeilings.MaxSnapshotBytes},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	if c.HTTPClient == nil {
		c.HTTPClient = c.Egress.Client(10 * time.Second)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
		c.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	return c
}

func (c Config) validate() error {
	if c.MaxBodyBytes < 1024 {
		return fmt.Errorf("api: MaxBodyBytes %d is below 1024", c.MaxBodyBytes)
	}
	return nil
}

// New returns the API's HTTP handler: /v1 (the spec's operations), /mcp (the service as an
// MCP server, mcp.go), /healthz, /readyz and /metrics.
func New(store *durable.Store, cfg Config) (http.Handler, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if store == nil {
		return nil, errors.New("api: New needs a store")
	}
	validate, err := validateRequests()
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	m := newMetrics(cfg.Registry)
	h := &handlers{store: store, cfg: cfg}

	r := chi.NewRouter()
	r.Use(middleware.Recoverer, m.instrument, requireLoopbackHost(cfg.Token), requireToken(cfg.Token), limitBody(cfg.MaxBodyBytes), validate)
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}))
	if cfg.RiverUI != nil {
		mountRiverUI(r, cfg.RiverUI, cfg.Token)
	}
	r.Handle(MCPPath, h.mcpHandler())
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, CodeNotFound, "no such endpoint: "+r.URL.Path)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, r.Method+" not allowed on "+r.URL.Path)
	})
	strict := gen.NewStrictHandlerWithOptions(h, []gen.StrictMiddlewareFunc{withAccept}, gen.StrictHTTPServerOptions{
		RequestErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			writeError(w, http.StatusBadRequest, CodeInvalidRequest, err.Error())
		},
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			status, code := statusOf(err)
			if status >= 500 && status != http.StatusBadGateway {
				cfg.Logger.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "error", err)
				writeError(w, status, code, "internal error")
				return
			}
			writeError(w, status, code, err.Error())
		},
	})
	return gen.HandlerWithOptions(strict, gen.ChiServerOptions{
		BaseRouter: r,
		ErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			writeError(w, http.StatusBadRequest, CodeInvalidRequest, err.Error())
		},
	}), nil
}

// handlers implements the generated strict server interface over the durable store.
type handlers struct {
	store *durable.Store
	cfg   Config
}

var _ gen.StrictServerInterface = (*handlers)(nil)

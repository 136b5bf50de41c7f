package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
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
	// BodyReadTimeout bounds the reading of a request body; a body not received within it
	// gets 400. Default 30 seconds.
	BodyReadTimeout time.Duration
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
	if c.BodyReadTimeout <= 0 {
		c.BodyReadTimeout = 30 * time.Second
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
	r.Use(middleware.Recoverer, m.instrument, headAsGet(r), requireLoopbackHost(cfg.Token), requireToken(cfg.Token), limitBody(cfg.MaxBodyBytes, cfg.BodyReadTimeout), validate, withNullFields)
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}))
	if cfg.RiverUI != nil {
		mountRiverUI(r, cfg.RiverUI, cfg.Token)
	}
	r.Handle(MCPPath, h.mcpHandler())
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, CodeNotFound, "no such endpoint: "+r.URL.Path)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if allow := allowedMethods(r, req); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		writeError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, req.Method+" not allowed on "+req.URL.Path)
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

// routedMethods are the methods the API's routes are registered with, in the order an Allow
// header lists them.
var routedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// routingPath is the path chi routes a request by.
func routingPath(r *http.Request) string {
	if r.URL.RawPath != "" {
		return r.URL.RawPath
	}
	return r.URL.Path
}

// allowedMethods lists the methods routes serves on the request's path (for the Allow header
// of a 405, RFC 9110, section 15.5.6); HEAD wherever GET is (headAsGet).
func allowedMethods(routes chi.Routes, r *http.Request) []string {
	path := routingPath(r)
	var allow []string
	for _, m := range routedMethods {
		if routes.Match(chi.NewRouteContext(), m, path) ||
			(m == http.MethodHead && routes.Match(chi.NewRouteContext(), http.MethodGet, path)) {
			allow = append(allow, m)
		}
	}
	return allow
}

// headAsGet serves HEAD as GET without the body (RFC 9110, section 9.3.2) on the paths routes
// has a GET but no HEAD for. The GET is validated like any other; a HEAD of the events is
// answered as the JSON listing's would be, never streamed.
func headAsGet(routes chi.Routes) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodHead {
				next.ServeHTTP(w, r)
				return
			}
			path := routingPath(r)
			if routes.Match(chi.NewRouteContext(), http.MethodHead, path) || !routes.Match(chi.NewRouteContext(), http.MethodGet, path) {
				next.ServeHTTP(w, r)
				return
			}
			get := r.Clone(r.Context())
			get.Method = http.MethodGet
			get.Header.Del("Accept")
			// The server writes no body for the HEAD it received, whatever the handler writes.
			next.ServeHTTP(w, get)
		})
	}
}

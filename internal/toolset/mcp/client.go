package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode/codemode/internal/toolset"
)

// Config is how to reach an MCP server.
type Config struct {
	// URL is the server's streamable HTTP endpoint.
	URL string
	// Auth, when set, is applied to every HTTP request to the server.
	Auth *toolset.AuthConfig
	// HTTPClient sends the requests (its transport is wrapped to apply Auth). Default:
	// http.DefaultClient.
	HTTPClient *http.Client
	// Timeout bounds connecting and each request (tools/list page, tools/call). Default 60
	// seconds.
	Timeout time.Duration
	// MaxResponseBytes caps each HTTP response body from the server (a JSON answer, or the
	// event stream answering one request): reading past it fails the request. Default 8 MiB,
	// the tool protocol's (toolset.DefaultMaxResponseBytes).
	MaxResponseBytes int64
}

func (c Config) withDefaults() Config {
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Timeout == 0 {
		c.Timeout = 60 * time.Second
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = toolset.DefaultMaxResponseBytes
	}
	return c
}

// implementation names codemode to the servers it connects to.
var implementation = &mcp.Implementation{Name: "codemode", Version: "1"}

// connect opens a session with the server. The session outlives ctx (it is reused by later
// calls); ctx bounds the connection and the initialize handshake.
func connect(ctx context.Context, cfg Config) (*mcp.ClientSession, error) {
	cfg = cfg.withDefaults()
	hc := *cfg.HTTPClient
	hc.Transport = limitTransport{next: cfg.Auth.Transport(hc.Transport), max: cfg.MaxResponseBytes}
	transport := &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: &hc,
		// Calls wait for their own answers; nothing the server would send unasked is used.
		DisableStandaloneSSE: true, MaxRetries: -1}
	client := mcp.NewClient(implementation, nil)
	// The connection is detached from ctx (it lives on in the pool); ctx bounds the handshake.
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	s, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to MCP server %s: %w", cfg.URL, err)
	}
	return s, nil
}

// Pool keeps one session per MCP server configuration (URL and auth) for the calls of every
// run a worker drives, and replaces a session that failed. The zero Pool is ready to use.
type Pool struct {
	mu       sync.Mutex
	sessions map[string]*mcp.ClientSession
}

// session returns the pooled session for cfg, connecting when there is none.
func (p *Pool) session(ctx context.Context, key string, cfg Config) (*mcp.ClientSession, error) {
	p.mu.Lock()
	s := p.sessions[key]
	p.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions == nil {
		p.sessions = map[string]*mcp.ClientSession{}
	}
	if existing := p.sessions[key]; existing != nil {
		// Another call connected meanwhile: use its session.
		go s.Close()
		return existing, nil
	}
	p.sessions[key] = s
	return s, nil
}

// drop forgets a session that failed (when it is still the pooled one) and closes it.
func (p *Pool) drop(key string, s *mcp.ClientSession) {
	p.mu.Lock()
	if p.sessions[key] == s {
		delete(p.sessions, key)
	}
	p.mu.Unlock()
	go s.Close()
}

// Close closes every pooled session.
func (p *Pool) Close() {
	p.mu.Lock()
	sessions := p.sessions
	p.sessions = nil
	p.mu.Unlock()
	for _, s := range sessions {
		_ = s.Close()
	}
}

// ErrResponseTooLarge is the failure of reading a response body past Config.MaxResponseBytes.
var ErrResponseTooLarge = errors.New("MCP server response too large")

// limitTransport caps the body of every response (the SDK reads JSON answers whole, without a
// bound of its own).
type limitTransport struct {
	next http.RoundTripper
	max  int64
}

func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, max: t.max, left: t.max}
	return resp, nil
}

// limitedBody fails a read past its limit with ErrResponseTooLarge.
type limitedBody struct {
	io.ReadCloser
	max, left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Is there more? A body of exactly the limit is fine.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, b.max)
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// isProtocolError reports whether err is the server's JSON-RPC error answer (the session is
// fine; the request was refused), rather than a failure of the transport or the session.
func isProtocolError(err error) bool {
	var wire *jsonrpc.Error
	return errors.As(err, &wire)
}

package toolset

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/codemode/codemode/internal/egress"
)

// Defaults of Config.
const (
	// DefaultTimeout bounds one HTTP request (one attempt).
	DefaultTimeout = 30 * time.Second
	// DefaultMaxResponseBytes caps a response body: 8 MiB.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultRetries is how many times a retryable failure is retried.
	DefaultRetries = 4
	// DefaultBackoffInitial is the wait before the first retry.
	DefaultBackoffInitial = 200 * time.Millisecond
	// DefaultBackoffMax caps the wait between retries.
	DefaultBackoffMax = 5 * time.Second
)

// Backoff shapes the waits between retries: the n-th retry waits a random
// duration in [d/2, d] where d = min(Initial·2ⁿ⁻¹, Max). A Retry-After
// header on a 429 or 503 answer replaces d when it is shorter than Max.
type Backoff struct {
	// Initial is the base wait before the first retry (default 200ms).
	Initial time.Duration
	// Max caps every wait (default 5s).
	Max time.Duration
}

// Config configures a Client.
type Config struct {
	// URL is the toolset's base URL (required, http or https).
	URL string
	// Name mounts the toolset's tools under this dotted prefix ("ops" makes
	// manifest path math.add into ops.math.add) where its tools are made
	// (runtools, which checks it); the protocol never sends it. Empty mounts
	// at the root.
	Name string
	// Description describes the mount namespace Name (ignored without Name).
	Description string
	// Secret signs every POST with Standard Webhooks headers when set
	// (internal/signing): a "whsec_"-prefixed secret is base64 after the
	// prefix (the Standard Webhooks form); any other string is used as raw
	// key bytes.
	Secret string
	// HTTPClient sends the requests (default: a client that reaches any
	// address, without its own timeout; Timeout bounds each attempt). The
	// service passes one that obeys its egress policy (internal/egress). A
	// client without a CheckRedirect gets egress.CheckRedirect: redirects of
	// the manifest GET are followed to the same host only, and a redirect
	// answering a call or cancel is not followed but fails it.
	HTTPClient *http.Client
	// Timeout bounds one attempt of one request (default 30s).
	Timeout time.Duration
	// MaxResponseBytes caps a response body in bytes (default 8 MiB).
	MaxResponseBytes int64
	// Retries is how many times a retryable failure is retried (default 4,
	// so at most 5 attempts). Negative means no retries.
	Retries int
	// Backoff shapes the waits between retries.
	Backoff Backoff
	// Logger receives a debug line per retried attempt (default: discard).
	Logger *slog.Logger
}

// WithDefaults returns a copy of c with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.HTTPClient == nil {
		c.HTTPClient = egress.Open().Client(0)
	} else if c.HTTPClient.CheckRedirect == nil {
		// A call's redirect is never followed (it fails the call); a manifest's only to the
		// same host.
		hc := *c.HTTPClient
		hc.CheckRedirect = egress.CheckRedirect
		c.HTTPClient = &hc
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	switch {
	case c.Retries == 0:
		c.Retries = DefaultRetries
	case c.Retries < 0:
		c.Retries = 0
	}
	if c.Backoff.Initial == 0 {
		c.Backoff.Initial = DefaultBackoffInitial
	}
	if c.Backoff.Max == 0 {
		c.Backoff.Max = DefaultBackoffMax
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// validate checks a Config after WithDefaults.
func (c Config) validate() error {
	u, err := url.Parse(c.URL)
	if err != nil {
		return fmt.Errorf("%w: url: %w", ErrInvalidConfig, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: url %q is not an http(s) URL", ErrInvalidConfig, c.URL)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("%w: timeout is %s, want positive", ErrInvalidConfig, c.Timeout)
	}
	if c.MaxResponseBytes < 0 {
		return fmt.Errorf("%w: maxResponseBytes is %d, want positive", ErrInvalidConfig, c.MaxResponseBytes)
	}
	if c.Backoff.Initial < 0 || c.Backoff.Max < c.Backoff.Initial {
		return fmt.Errorf("%w: backoff %s..%s", ErrInvalidConfig, c.Backoff.Initial, c.Backoff.Max)
	}
	return nil
}

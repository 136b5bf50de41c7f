package toolset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/toolcall"
)

// Client speaks the tool protocol to one toolset. It is safe for concurrent
// use.
type Client struct {
	cfg    Config
	signer *signing.Key
}

// New checks cfg (after WithDefaults) and returns a Client.
func New(cfg Config) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg}
	if cfg.Secret != "" {
		s, err := signing.ParseSecret(cfg.Secret)
		if err != nil {
			return nil, fmt.Errorf("%w: secret: %w", ErrInvalidConfig, err)
		}
		c.signer = s
	}
	return c, nil
}

// Config returns the client's configuration with defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// Manifest reads and decodes the manifest with GET <url>, retrying like a
// call. The runtime's rules for its paths and schemas are checked where its
// tools are made (runtools).
func (c *Client) Manifest(ctx context.Context) (*Manifest, error) {
	_, m, err := c.ManifestData(ctx)
	return m, err
}

// ManifestData is Manifest that also returns the body as the toolset sent it,
// for hosts that store it. An answer other than 200 wraps ErrInvalidManifest
// and a *StatusError; a toolset that could not be reached or kept failing is
// an *UnavailableError.
func (c *Client) ManifestData(ctx context.Context) ([]byte, *Manifest, error) {
	status, body, err := c.do(ctx, http.MethodGet, nil, "")
	if err != nil {
		return nil, nil, fmt.Errorf("toolset %s: manifest: %w", c.cfg.URL, err)
	}
	if status != http.StatusOK {
		return nil, nil, fmt.Errorf("toolset %s: manifest: %w: %w", c.cfg.URL, ErrInvalidManifest, &StatusError{Status: status, Body: snippet(body)})
	}
	m, err := DecodeManifest(body)
	if err != nil {
		return nil, nil, fmt.Errorf("toolset %s: %w", c.cfg.URL, err)
	}
	return body, m, nil
}

// Response is a toolset's answer to a call.
type Response struct {
	// Output is the tool's output when not Pending (JSON null if absent).
	Output json.RawMessage
	// Pending is true when the toolset answered 202: durable work started.
	Pending bool
	// Handle names the started work when Pending.
	Handle json.RawMessage
}

type callBody struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Key   string          `json:"key"`
	RunID string          `json:"runId"`
}

// extensionBody is the request of an extension function's call.
type extensionBody struct {
	Extension string `json:"extension"`
	Function  string `json:"function"`
	Args      []any  `json:"args"`
	RunID     string `json:"runId,omitempty"`
}

// CallExtension calls a function of one of the toolset's extensions (function is its dotted
// path within the global, "" for a global that is a function) with POST <url>. Extension calls
// are not journaled and carry no Idempotency-Key: they are retried like tool calls on 5xx and
// connection failures, and a run re-driven after a crash makes them again. A failure (200
// with "error", or a 4xx) is a *toolcall.ToolError.
func (c *Client) CallExtension(ctx context.Context, extension, function string, args []any, runID string) (json.RawMessage, error) {
	name := extension
	if function != "" {
		name += "." + function
	}
	if args == nil {
		args = []any{}
	}
	body, err := json.Marshal(extensionBody{Extension: extension, Function: function, Args: args, RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("extension %s: encode call: %w", name, err)
	}
	status, resp, err := c.do(ctx, http.MethodPost, body, "")
	if err != nil {
		return nil, fmt.Errorf("extension %s: %w", name, err)
	}
	switch {
	case status >= 400 && status < 500:
		msg := fmt.Sprintf("extension %s failed: %d %s", name, status, http.StatusText(status))
		if a, err := decodeAnswer(resp); err == nil && a.Error != nil && a.Error.Message != "" {
			msg = errorMessage(a.Error.Message)
		}
		return nil, &toolcall.ToolError{Message: msg}
	case status >= 200 && status < 300 && status != http.StatusAccepted:
		if len(bytes.TrimSpace(resp)) == 0 {
			return json.RawMessage("null"), nil
		}
		a, err := decodeAnswer(resp)
		if err != nil {
			return nil, fmt.Errorf("extension %s: %w: body: %w", name, ErrProtocol, err)
		}
		if a.Error != nil {
			msg := errorMessage(a.Error.Message)
			if msg == "" {
				msg = "extension " + name + " failed"
			}
			return nil, &toolcall.ToolError{Message: msg}
		}
		if len(a.Output) == 0 {
			a.Output = json.RawMessage("null")
		}
		return a.Output, nil
	}
	return nil, fmt.Errorf("extension %s: %w: status %d", name, ErrProtocol, status)
}

type cancelBody struct {
	Cancel cancelRequest `json:"cancel"`
}

type cancelRequest struct {
	Tool   string          `json:"tool"`
	Key    string          `json:"key"`
	Handle json.RawMessage `json:"handle"`
}

// Call calls the toolset's tool (its manifest path, not the mounted one)
// with POST <url>, under call.Key (required: ErrMissingKey without it). A
// tool failure (200 with "error", or a 4xx) is a *toolcall.ToolError;
// retryable failures that outlast the retries are an *UnavailableError.
func (c *Client) Call(ctx context.Context, tool string, input json.RawMessage, call toolcall.Call) (Response, error) {
	if call.Key == "" {
		return Response{}, fmt.Errorf("tool %s: %w", tool, ErrMissingKey)
	}
	if len(input) == 0 {
		input = json.RawMessage("null")
	}
	body, err := json.Marshal(callBody{Tool: tool, Input: input, Key: call.Key, RunID: call.RunID})
	if err != nil {
		return Response{}, fmt.Errorf("tool %s: encode call: %w", tool, err)
	}
	status, resp, err := c.do(ctx, http.MethodPost, body, call.Key)
	if err != nil {
		return Response{}, fmt.Errorf("tool %s: %w", tool, err)
	}
	switch {
	case status >= 400 && status < 500:
		msg := fmt.Sprintf("tool %s failed: %d %s", tool, status, http.StatusText(status))
		if a, err := decodeAnswer(resp); err == nil && a.Error != nil && a.Error.Message != "" {
			msg = errorMessage(a.Error.Message)
		}
		return Response{}, &toolcall.ToolError{Message: msg}
	case status == http.StatusAccepted:
		a, err := decodeAnswer(resp)
		if err != nil {
			return Response{}, fmt.Errorf("tool %s: %w: 202 body: %w", tool, ErrProtocol, err)
		}
		if len(a.Handle) == 0 || string(a.Handle) == "null" {
			return Response{}, fmt.Errorf("tool %s: %w: 202 without a handle", tool, ErrProtocol)
		}
		return Response{Pending: true, Handle: a.Handle}, nil
	case status >= 200 && status < 300:
		if len(bytes.TrimSpace(resp)) == 0 {
			return Response{Output: json.RawMessage("null")}, nil
		}
		a, err := decodeAnswer(resp)
		if err != nil {
			return Response{}, fmt.Errorf("tool %s: %w: body: %w", tool, ErrProtocol, err)
		}
		if a.Error != nil {
			msg := errorMessage(a.Error.Message)
			if msg == "" {
				msg = "tool " + tool + " failed"
			}
			return Response{}, &toolcall.ToolError{Message: msg}
		}
		if len(a.Output) == 0 {
			a.Output = json.RawMessage("null")
		}
		return Response{Output: a.Output}, nil
	}
	if status >= 300 && status < 400 {
		return Response{}, fmt.Errorf("tool %s: %w: status %d: a toolset answers a call itself, never with a redirect", tool, ErrProtocol, status)
	}
	return Response{}, fmt.Errorf("tool %s: %w: status %d", tool, ErrProtocol, status)
}

// CancelKey is the Idempotency-Key (and webhook-id) of the request that
// cancels the call with key: "<key>:cancel".
func CancelKey(key string) string { return key + ":cancel" }

// Cancel asks the toolset to cancel durable work with POST <url>
// {"cancel": {"tool", "key", "handle"}} under the Idempotency-Key
// CancelKey(key); any 2xx is success. Retryable failures are retried like a
// call's (an *UnavailableError when they outlast the retries); any other
// answer is final and wraps ErrRejected: repeating the request would get the
// same answer.
func (c *Client) Cancel(ctx context.Context, tool, key string, handle json.RawMessage) error {
	if key == "" {
		return fmt.Errorf("cancel %s: %w", tool, ErrMissingKey)
	}
	body, err := json.Marshal(cancelBody{Cancel: cancelRequest{Tool: tool, Key: key, Handle: handle}})
	if err != nil {
		return fmt.Errorf("cancel %s %s: encode: %w", tool, key, err)
	}
	// The cancel request has its own idempotency key: under the call's key,
	// a toolset's deduplication would replay the call's answer instead.
	status, resp, err := c.do(ctx, http.MethodPost, body, CancelKey(key))
	if err != nil {
		return fmt.Errorf("cancel %s %s: %w", tool, key, err)
	}
	if status < 200 || status >= 300 {
		return fmt.Errorf("cancel %s %s: %w: status %d: %s", tool, key, ErrRejected, status, snippet(resp))
	}
	return nil
}

// do sends one request with retries and returns the final status and body.
// Retryable: connection errors, per-attempt timeouts, 5xx, 408 and 429.
// key, when set, is sent as Idempotency-Key and used as the webhook-id.
func (c *Client) do(ctx context.Context, method string, body []byte, key string) (int, []byte, error) {
	return c.retrying(ctx, c.cfg.URL, key, func() attemptResult { return c.attempt(ctx, method, body, key) })
}

// retrying makes attempts (one call of try each) until one succeeds or fails for good, waiting
// the backoff between them. target and key only label the debug log and the errors.
func (c *Client) retrying(ctx context.Context, target, key string, try func() attemptResult) (int, []byte, error) {
	var last error
	lastRetryAfter := time.Duration(-1)
	attempts := 0
	for attempt := 0; attempt <= c.cfg.Retries; attempt++ {
		if attempt > 0 {
			wait := c.backoff(attempt, lastRetryAfter)
			c.cfg.Logger.DebugContext(ctx, "toolset request retry", "url", target, "key", key, "attempt", attempt+1, "wait", wait, "error", last)
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return 0, nil, fmt.Errorf("%s after %d attempts (last: %v): %w", target, attempts, last, ctx.Err())
			case <-t.C:
			}
		}
		attempts++
		a := try()
		if !a.retry {
			return a.status, a.body, a.err
		}
		if ctx.Err() != nil {
			return 0, nil, fmt.Errorf("%s after %d attempts (last: %v): %w", target, attempts, a.err, ctx.Err())
		}
		last, lastRetryAfter = a.err, a.retryAfter
	}
	return 0, nil, &UnavailableError{URL: target, Attempts: attempts, Last: last}
}

// attemptResult is the outcome of one request.
type attemptResult struct {
	status     int
	body       []byte
	err        error
	retry      bool          // the failure may be retried
	retryAfter time.Duration // the server's Retry-After; negative when not given
}

// attempt makes one request.
func (c *Client) attempt(ctx context.Context, method string, body []byte, key string) attemptResult {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, method, c.cfg.URL, rd)
	if err != nil {
		return attemptResult{err: fmt.Errorf("build request: %w", err)}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if c.signer != nil && body != nil {
		id := key
		if id == "" {
			id = "msg_" + strconv.FormatInt(time.Now().UnixNano(), 36)
		}
		if err := c.signer.Sign(req.Header, id, time.Now(), body); err != nil {
			return attemptResult{err: fmt.Errorf("sign request: %w", err)}
		}
	}
	return c.exchange(ctx, actx, req, c.cfg.URL)
}

// exchange sends req (bounded by actx, the attempt's context under ctx) and reads and
// classifies the answer. label names the request in errors, in place of its URL, which may
// carry a credential in its query.
func (c *Client) exchange(ctx, actx context.Context, req *http.Request, label string) attemptResult {
	r, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = label
		}
		if ctx.Err() == nil && actx.Err() != nil {
			// The attempt's own deadline, not the caller's: do not let it
			// read as the caller's context error.
			err = fmt.Errorf("%w after %s", ErrAttemptTimeout, c.cfg.Timeout)
		}
		// An address or redirect the egress policy refuses would be refused again: only a
		// failure that may pass is retried.
		return attemptResult{err: err, retry: !egress.IsDenied(err), retryAfter: -1}
	}
	defer r.Body.Close()
	resp, err := io.ReadAll(io.LimitReader(r.Body, c.cfg.MaxResponseBytes+1))
	if err != nil {
		if ctx.Err() == nil && actx.Err() != nil {
			err = fmt.Errorf("%w after %s", ErrAttemptTimeout, c.cfg.Timeout)
		}
		return attemptResult{err: fmt.Errorf("read response: %w", err), retry: true, retryAfter: -1}
	}
	if int64(len(resp)) > c.cfg.MaxResponseBytes {
		return attemptResult{err: fmt.Errorf("%w: %s answered more than %d bytes", ErrResponseTooLarge, label, c.cfg.MaxResponseBytes)}
	}
	if r.StatusCode >= 500 && r.StatusCode < 600 || r.StatusCode == http.StatusRequestTimeout || r.StatusCode == http.StatusTooManyRequests {
		ra := parseRetryAfter(r.Header.Get("Retry-After"))
		if ra > c.cfg.Backoff.Max {
			ra = -1
		}
		return attemptResult{err: &StatusError{Status: r.StatusCode, Body: snippet(resp)}, retry: true, retryAfter: ra}
	}
	return attemptResult{status: r.StatusCode, body: resp}
}

// parseRetryAfter reads a Retry-After header (seconds or an HTTP date);
// -1 when absent or malformed.
func parseRetryAfter(h string) time.Duration {
	if h == "" {
		return -1
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return -1
}

// backoff returns the wait before retry number attempt (1-based).
func (c *Client) backoff(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter >= 0 {
		return retryAfter
	}
	d := c.cfg.Backoff.Initial
	for i := 1; i < attempt && d < c.cfg.Backoff.Max; i++ {
		d *= 2
	}
	d = min(d, c.cfg.Backoff.Max)
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// snippet returns the start of a body for messages: valid UTF-8, cut at a character boundary.
func snippet(b []byte) string {
	return truncate(strings.TrimSpace(string(b)), 200)
}

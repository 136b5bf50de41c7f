package toolset

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// Request is an HTTP request of another protocol than the tool protocol (an OpenAPI
// operation, say) sent by Send with the client's transport, timeout, size cap and retry
// policy.
type Request struct {
	// Method and URL are the request's; URL may differ from the client's.
	Method, URL string
	// Label names the request in logs and errors instead of URL, which may carry a
	// credential in its query ("GET /pets/{id}").
	Label string
	// Header is sent as is (Idempotency-Key included, when the caller sets it).
	Header http.Header
	// Body is sent when not nil.
	Body []byte
}

// Send sends r and returns the final status and body (at most MaxResponseBytes). Like a
// call, connection errors, attempt timeouts, 5xx, 408 and 429 are retried with backoff, and
// an *UnavailableError reports them when they outlast the retries; any other status is
// returned to the caller. Requests are never signed.
func (c *Client) Send(ctx context.Context, r Request) (int, []byte, error) {
	label := r.Label
	if label == "" {
		label = r.Method
	}
	return c.retrying(ctx, label, r.Header.Get("Idempotency-Key"), func() attemptResult {
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
		var body io.Reader
		if r.Body != nil {
			body = bytes.NewReader(r.Body)
		}
		req, err := http.NewRequestWithContext(actx, r.Method, r.URL, body)
		if err != nil {
			return attemptResult{err: fmt.Errorf("build request %s: %w", label, err)}
		}
		for k, v := range r.Header {
			req.Header[k] = v
		}
		return c.exchange(ctx, actx, req, label)
	})
}

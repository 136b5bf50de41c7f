package toolset

import (
	"errors"
	"fmt"
)

// ErrInvalidConfig is wrapped by errors about a malformed Config.
var ErrInvalidConfig = errors.New("invalid toolset config")

// ErrMissingKey is returned for a call or cancel without an idempotency
// key: every request that may run a tool must be safe to repeat.
var ErrMissingKey = errors.New("call has no idempotency key")

// ErrInvalidManifest is wrapped by errors about a manifest that does not
// follow the tool protocol.
var ErrInvalidManifest = errors.New("invalid toolset manifest")

// ErrProtocol is wrapped when a toolset answers a call with something the
// tool protocol does not allow (malformed JSON, a 202 without a handle, a
// 202 from a tool not declared durable, an unexpected status).
var ErrProtocol = errors.New("toolset protocol violation")

// ErrRejected is wrapped when a toolset answers a cancel request with a final
// refusal: a status that is neither 2xx nor retried (a 4xx other than 408 and
// 429, a redirect). Sending the same request again would be refused again.
var ErrRejected = errors.New("toolset rejected the request")

// ErrResponseTooLarge is wrapped when a response body exceeds
// Config.MaxResponseBytes. It is not retried.
var ErrResponseTooLarge = errors.New("toolset response too large")

// ErrAttemptTimeout is wrapped when one attempt outlasts Config.Timeout. It
// deliberately does not wrap context.DeadlineExceeded, which stays the
// caller's own deadline.
var ErrAttemptTimeout = errors.New("toolset request timed out")

// ErrUnavailable is wrapped by *UnavailableError: the toolset could not be
// reached, or kept failing, through every retry.
var ErrUnavailable = errors.New("toolset unavailable")

// UnavailableError reports a request that failed on every attempt with a
// retryable failure (5xx, 408, 429, connection error or timeout).
type UnavailableError struct {
	// URL is the toolset URL.
	URL string
	// Attempts is how many requests were made.
	Attempts int
	// Last is the failure of the last attempt.
	Last error
}

// Error says how many attempts failed and how the last one did.
func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%s: %s: %d attempts failed, last: %v", ErrUnavailable, e.URL, e.Attempts, e.Last)
}

// Unwrap returns ErrUnavailable and the last failure.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Last} }

// StatusError is an HTTP status answered by a toolset that failed a request:
// a retryable one (5xx, 408, 429), or a manifest GET's answer other than 200.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// Body is the start of the response body, for the message.
	Body string
}

// Error reads "status 503: <body>".
func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("status %d", e.Status)
	}
	return fmt.Sprintf("status %d: %s", e.Status, e.Body)
}

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/toolcall"
)

var (
	// ErrInsecureListen: the server would listen on a non-loopback address without a token.
	ErrInsecureListen = errors.New("refusing to listen on a non-loopback address without CODEMODE_API_TOKEN")
	// ErrManifest: the toolset's manifest could not be fetched or decoded.
	ErrManifest = errors.New("toolset manifest unavailable")
	// errBadRequest wraps request errors found by handlers (beyond schema validation).
	errBadRequest = errors.New("invalid request")
	// errConflict is a request at odds with what is stored (409), such as a toolset declaring
	// an extension another toolset declares.
	errConflict = errors.New("conflict")
)

// Error codes in {"error": {"code", "message"}}.
const (
	CodeInvalidRequest = "invalid_request"
	CodeUnauthorized   = "unauthorized"
	CodeNotFound       = "not_found"
	CodeConflict       = "conflict"
	CodeTooLarge       = "request_too_large"
	CodeUnprocessable  = "unprocessable"
	CodeBadGateway     = "bad_gateway"
	CodeUnavailable    = "unavailable"
	CodeInternal       = "internal"
)

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError writes {"error": {"code", "message"}} with status.
func writeError(w http.ResponseWriter, status int, code, message string) {
	var body errorBody
	body.Error.Code, body.Error.Message = code, message
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// statusOf maps an error from a handler to its HTTP status and code.
func statusOf(err error) (int, string) {
	switch {
	case errors.Is(err, durable.ErrRunNotFound), errors.Is(err, durable.ErrCallNotFound),
		errors.Is(err, durable.ErrToolsetNotFound), errors.Is(err, durable.ErrWebhookNotFound),
		errors.Is(err, durable.ErrDeliveryNotFound), errors.Is(err, durable.ErrForkPointNotFound),
		errors.Is(err, durable.ErrScheduleNotFound):
		return http.StatusNotFound, CodeNotFound
	case errors.Is(err, durable.ErrIdempotencyConflict), errors.Is(err, durable.ErrOutcomeConflict),
		errors.Is(err, durable.ErrToolsetExists), errors.Is(err, durable.ErrRunFinished), errors.Is(err, durable.ErrToolsetInUse),
		errors.Is(err, durable.ErrDeliveryInProgress), errors.Is(err, durable.ErrWebhookDisabled),
		errors.Is(err, durable.ErrNotRetryable), errors.Is(err, errConflict):
		return http.StatusConflict, CodeConflict
	case errors.Is(err, durable.ErrInvalidCursor), errors.Is(err, durable.ErrInvalidFilter), errors.Is(err, errBadRequest), errors.Is(err, durable.ErrInvalidSchedule),
		errors.Is(err, toolcall.ErrInvalidOutcome):
		return http.StatusBadRequest, CodeInvalidRequest
	case errors.Is(err, durable.ErrUnstorable), errors.Is(err, durable.ErrNoSecretKey):
		return http.StatusUnprocessableEntity, CodeUnprocessable
	case errors.Is(err, ErrManifest):
		return http.StatusBadGateway, CodeBadGateway
	default:
		return http.StatusInternalServerError, CodeInternal
	}
}

// field is a named text value of a request, for storableText.
type field struct{ name, value string }

// storableText refuses (400) text fields holding U+0000: they go to PostgreSQL text columns,
// which cannot hold it (program data, which can, travels as JSON; see docs/data.md).
func storableText(fields ...field) error {
	for _, f := range fields {
		if strings.ContainsRune(f.value, 0) {
			return fmt.Errorf("%w: %s contains the character U+0000, which cannot be stored", errBadRequest, f.name)
		}
	}
	return nil
}

// usableSecret refuses (400) a signing secret internal/signing cannot use: a "whsec_" secret
// whose rest is not standard base64. An empty secret means unsigned and is accepted.
func usableSecret(name, value string) error {
	if err := signing.CheckSecret(value); err != nil {
		return fmt.Errorf("%w: %s: %w", errBadRequest, name, err)
	}
	return nil
}

// httpURLs refuses (400) URLs that are not absolute http:// or https:// URLs with a host (the
// spec's pattern only checks the scheme): "http://", "http://a b/" or "http://[::1/" could
// never be called or delivered to.
func httpURLs(fields ...field) error {
	for _, f := range fields {
		u, err := url.Parse(f.value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
			return fmt.Errorf("%w: %s %q is not an absolute http:// or https:// URL with a host", errBadRequest, f.name, f.value)
		}
	}
	return nil
}

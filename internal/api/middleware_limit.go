package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// limitBody reads the request body up to max bytes, answering 413 beyond it, so later stages
// (validation, decoding) see a complete, bounded body. The body must arrive within timeout:
// a client sending it slower (or announcing more than it sends) gets 400 rather than holding
// the connection for good.
func limitBody(max int64, timeout time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			if r.ContentLength > max {
				// Announced too large: answered at once, without waiting for the body.
				writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge,
					fmt.Sprintf("request body exceeds %d bytes", max))
				return
			}
			// Not every writer can (a test's recorder): then the body is read without a deadline.
			rc := http.NewResponseController(w)
			deadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge,
					fmt.Sprintf("request body exceeds %d bytes", max))
				return
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest,
					fmt.Sprintf("reading request body: not received within %s", timeout))
				return
			}
			if err != nil {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest, "reading request body: "+err.Error())
				return
			}
			if deadline {
				// Long waits and streams read nothing more; a later request on the connection
				// gets the server's own deadlines.
				_ = rc.SetReadDeadline(time.Time{})
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			next.ServeHTTP(w, r)
		})
	}
}

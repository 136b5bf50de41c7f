package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// limitBody reads the request body up to max bytes, answering 413 beyond it, so later stages
// (validation, decoding) see a complete, bounded body.
func limitBody(max int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge,
					fmt.Sprintf("request body exceeds %d bytes", max))
				return
			}
			if err != nil {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest, "reading request body: "+err.Error())
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			next.ServeHTTP(w, r)
		})
	}
}

package api

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// requireToken refuses /v1 requests without "Authorization: Bearer <token>" (401). An empty
// token disables the check.
func requireToken(token string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if token == "" {
			return next
		}
		want := []byte("Bearer " + token)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/") || r.URL.Path == "/v1" {
				got := []byte(r.Header.Get("Authorization"))
				if subtle.ConstantTimeCompare(got, want) != 1 {
					w.Header().Set("WWW-Authenticate", `Bearer realm="codemode"`)
					writeError(w, http.StatusUnauthorized, CodeUnauthorized, "missing or wrong bearer token")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

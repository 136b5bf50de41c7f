package api

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// requireToken refuses /v1 and /mcp requests without "Authorization: Bearer <token>" (401). The scheme
// name is case-insensitive (RFC 9110, section 11.1), the token is not. An empty token disables
// the check.
func requireToken(token string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if token == "" {
			return next
		}
		want := []byte(token)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/") || r.URL.Path == "/v1" || r.URL.Path == MCPPath {
				scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
				got = strings.TrimLeft(got, " ")
				if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
					w.Header().Set("WWW-Authenticate", `Bearer realm="codemode"`)
					writeError(w, http.StatusUnauthorized, CodeUnauthorized, "missing or wrong bearer token")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

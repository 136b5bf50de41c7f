package api

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// RiverUIPrefix is where the River UI (Config.RiverUI) is served.
const RiverUIPrefix = "/river"

// mountRiverUI serves ui under RiverUIPrefix behind the API's token. A browser cannot add a
// bearer token to the pages and requests of a web UI, so the token is also taken as the
// password of HTTP Basic authentication (any user name): a browser asks for it once, and sends
// it with every request to the UI from then on.
func mountRiverUI(r chi.Router, ui http.Handler, token string) {
	h := requireTokenOrBasic(token, ui)
	r.Handle(RiverUIPrefix, h)
	r.Handle(RiverUIPrefix+"/*", h)
}

// requireTokenOrBasic refuses requests carrying neither "Authorization: Bearer <token>" nor
// Basic credentials whose password is the token (401, inviting Basic). An empty token
// disables the check, as for /v1.
func requireTokenOrBasic(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := ""
		if _, pass, ok := r.BasicAuth(); ok {
			got = pass
		} else if scheme, bearer, _ := strings.Cut(r.Header.Get("Authorization"), " "); strings.EqualFold(scheme, "Bearer") {
			got = strings.TrimLeft(bearer, " ")
		}
		if subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="codemode", charset="UTF-8"`)
			writeError(w, http.StatusUnauthorized, CodeUnauthorized, "missing or wrong token (bearer, or the password of basic auth)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

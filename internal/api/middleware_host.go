package api

import (
	"net"
	"net/http"
	"strings"
)

// loopbackHosts are the names a request to a loopback listener may carry in its Host header.
var loopbackHosts = map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}

// requireLoopbackHost defeats DNS rebinding when the API runs without a token on loopback: a web
// page on an attacker's name that resolves to 127.0.0.1 reaches the listener, but its requests
// carry the attacker's name in Host. Every /v1 request must name localhost, 127.0.0.1 or [::1]
// with the port it was received on; others get 421 Misdirected Request. So must every request
// to the River UI (/river), which reads and changes the job queue. (/healthz, /readyz and
// /metrics say nothing of runs and stay open to probes, as with a token; /mcp's own server
// checks the Host.) With a token the check is off (the token is what protects the API, and a
// proxy may use any name).
func requireLoopbackHost(token string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if token != "" {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if hostChecked(r.URL.Path) && !loopbackHost(r) {
				writeError(w, http.StatusMisdirectedRequest, CodeInvalidRequest,
					"the Host header must be localhost, 127.0.0.1 or [::1] with the port this service listens on (without CODEMODE_API_TOKEN only local names are served)")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func loopbackHost(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		return false
	}
	if !loopbackHosts[strings.ToLower(strings.TrimSuffix(host, "."))] {
		return false
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	_, localPort, err := net.SplitHostPort(local.String())
	return err == nil && localPort == port
}

// hostChecked tells the paths requireLoopbackHost checks: /v1 and the River UI.
func hostChecked(path string) bool {
	return strings.HasPrefix(path, "/v1/") || path == "/v1" ||
		strings.HasPrefix(path, RiverUIPrefix+"/") || path == RiverUIPrefix
}

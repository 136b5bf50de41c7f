// Package console is the web run console: static HTML, CSS and JavaScript embedded in the binary
// and served under /ui/ next to the API. The pages talk to the public /v1 API from the browser
// with the same bearer token as any client, so the console needs no server-side state and no
// access of its own to the store: what it shows is exactly what the API answers.
package console

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var static embed.FS

// Prefix is the path the console is served under.
const Prefix = "/ui/"

// ContentSecurityPolicy is sent with every console file. Programs, their inputs, results and
// logs are untrusted and shown in the console: the pages build the DOM with text nodes only, and
// the policy is the second line of defence, refusing any script but the console's own files, any
// inline script or style attribute, any plugin, framing and any connection but to this origin.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the console's files under Prefix.
func Handler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	files := http.StripPrefix(Prefix, http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		// The files change with the binary: revalidate each time (the embedded files have no
		// modification time, so the file server answers with the whole file; they are small).
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// Mount returns a handler serving the console under Prefix, redirecting / to it, and passing
// every other request to api. The console's files need no token (they hold no data); the
// data they show comes from /v1, which does.
func Mount(api http.Handler) http.Handler {
	ui := Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" || r.URL.Path == "/ui":
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				api.ServeHTTP(w, r)
				return
			}
			http.Redirect(w, r, Prefix, http.StatusFound)
		case strings.HasPrefix(r.URL.Path, Prefix):
			ui.ServeHTTP(w, r)
		default:
			api.ServeHTTP(w, r)
		}
	})
}

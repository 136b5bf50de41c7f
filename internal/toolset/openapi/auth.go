package openapi

import (
	"net/http"
	"net/url"

	"github.com/codemode/codemode/internal/toolset"
)

// Auth is the credentials applied to every request of an OpenAPI toolset: an API key in a
// header or the query, a bearer token or a username and password (HTTP basic), the same
// credentials as every toolset kind's (toolset.AuthConfig). They are stored sealed and never
// shown to the program or returned by the API.
type Auth = toolset.AuthConfig

// ErrInvalidAuth is wrapped by errors about malformed credentials.
var ErrInvalidAuth = toolset.ErrInvalidAuth

// ParseAuth decodes and checks stored credentials; nil for none.
func ParseAuth(raw []byte) (*Auth, error) { return toolset.ParseAuth(raw) }

// applyAuth sets the credentials on a request's header or query.
func applyAuth(a *Auth, h http.Header, q url.Values) {
	if a == nil {
		return
	}
	switch a.Type {
	case "apiKey":
		if a.In == "query" {
			q.Set(a.Name, a.Value)
		} else {
			h.Set(a.Name, a.Value)
		}
	case "bearer":
		h.Set("Authorization", "Bearer "+a.Token)
	case "basic":
		r := http.Request{Header: h}
		r.SetBasicAuth(a.Username, a.Password)
	}
}

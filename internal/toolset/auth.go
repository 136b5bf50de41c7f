package toolset

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// ErrInvalidAuth is wrapped by errors about a malformed AuthConfig.
var ErrInvalidAuth = errors.New("invalid auth")

// AuthConfig is the credentials a worker applies to the requests of a toolset of another kind
// than the tool protocol (an OpenAPI API, an MCP server): the API's ToolsetAuth, stored sealed.
type AuthConfig struct {
	// Type is "apiKey", "bearer" or "basic".
	Type string `json:"type"`
	// In is where an apiKey goes: "header" (the default) or "query".
	In string `json:"in,omitempty"`
	// Name is the apiKey's header or query parameter name.
	Name string `json:"name,omitempty"`
	// Value is the apiKey.
	Value string `json:"value,omitempty"`
	// Token is the bearer token.
	Token string `json:"token,omitempty"`
	// Username and Password are basic auth's.
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
}

// ParseAuth decodes and checks stored auth; nil for none.
func ParseAuth(raw json.RawMessage) (*AuthConfig, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var a AuthConfig
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidAuth, err)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return &a, nil
}

// Validate reports whether the fields the type needs are set.
func (a *AuthConfig) Validate() error {
	switch a.Type {
	case "apiKey":
		if a.Name == "" || a.Value == "" {
			return fmt.Errorf("%w: apiKey needs name and value", ErrInvalidAuth)
		}
		if a.In != "" && a.In != "header" && a.In != "query" {
			return fmt.Errorf("%w: apiKey in must be header or query, not %q", ErrInvalidAuth, a.In)
		}
		if a.In != "query" && !httpguts.ValidHeaderFieldName(a.Name) {
			return fmt.Errorf("%w: apiKey name %q is not a header name", ErrInvalidAuth, a.Name)
		}
	case "bearer":
		if a.Token == "" {
			return fmt.Errorf("%w: bearer needs token", ErrInvalidAuth)
		}
	case "basic":
		if a.Username == "" {
			return fmt.Errorf("%w: basic needs username", ErrInvalidAuth)
		}
	default:
		return fmt.Errorf("%w: type must be apiKey, bearer or basic, not %q", ErrInvalidAuth, a.Type)
	}
	return nil
}

// Apply adds the credentials to a request.
func (a *AuthConfig) Apply(r *http.Request) {
	if a == nil {
		return
	}
	switch a.Type {
	case "apiKey":
		if a.In == "query" {
			q := r.URL.Query()
			q.Set(a.Name, a.Value)
			r.URL.RawQuery = q.Encode()
			return
		}
		r.Header.Set(a.Name, a.Value)
	case "bearer":
		r.Header.Set("Authorization", "Bearer "+a.Token)
	case "basic":
		r.SetBasicAuth(a.Username, a.Password)
	}
}

// Transport returns a RoundTripper that applies the credentials to every request before base
// (http.DefaultTransport when nil) sends it.
func (a *AuthConfig) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if a == nil {
		return base
	}
	return authTransport{auth: a, base: base}
}

type authTransport struct {
	auth *AuthConfig
	base http.RoundTripper
}

func (t authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	t.auth.Apply(r)
	return t.base.RoundTrip(r)
}

// Redact replaces the credentials in text (an error body a program will see, which an API may
// echo them in) with "[redacted]".
func (a *AuthConfig) Redact(text string) string {
	if a == nil {
		return text
	}
	for _, secret := range []string{a.Value, a.Token, a.Password} {
		if secret != "" {
			text = strings.ReplaceAll(text, secret, "[redacted]")
		}
	}
	return text
}

package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// ErrInvalidAuth is wrapped by errors about a malformed Auth.
var ErrInvalidAuth = errors.New("invalid auth")

// Auth is the credentials applied to every request of a toolset: an API key in a header or
// the query, a bearer token or a username and password (HTTP basic). It is stored sealed and
// never shown to the program or returned by the API.
type Auth struct {
	// Type is "apiKey", "bearer" or "basic".
	Type string `json:"type"`
	// In is where an API key goes: "header" or "query".
	In string `json:"in,omitempty"`
	// Name is the API key's header or query parameter name.
	Name string `json:"name,omitempty"`
	// Value is the API key.
	Value string `json:"value,omitempty"`
	// Token is the bearer token.
	Token string `json:"token,omitempty"`
	// Username and Password are the basic credentials.
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
}

// ParseAuth decodes and checks stored credentials; nil for none.
func ParseAuth(raw json.RawMessage) (*Auth, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var a Auth
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidAuth, err)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return &a, nil
}

// Validate reports what an Auth lacks for its type. Messages name fields, never values.
func (a Auth) Validate() error {
	switch a.Type {
	case "apiKey":
		if a.In != "header" && a.In != "query" {
			return fmt.Errorf("%w: apiKey needs in: header or query", ErrInvalidAuth)
		}
		if a.Name == "" || a.Value == "" {
			return fmt.Errorf("%w: apiKey needs name and value", ErrInvalidAuth)
		}
		if a.In == "header" && !httpguts.ValidHeaderFieldName(a.Name) {
			return fmt.Errorf("%w: apiKey name %q is not a header name", ErrInvalidAuth, a.Name)
		}
	case "bearer":
		if a.Token == "" {
			return fmt.Errorf("%w: bearer needs token", ErrInvalidAuth)
		}
	case "basic":
		if a.Username == "" {
			return fmt.Errorf("%w: basic needs username (and password)", ErrInvalidAuth)
		}
	default:
		return fmt.Errorf("%w: type %q, want apiKey, bearer or basic", ErrInvalidAuth, a.Type)
	}
	return nil
}

// apply sets the credentials on a request's header or query.
func (a *Auth) apply(h http.Header, q url.Values) {
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

// redact replaces the credentials in text (an error body the program will see, which an API
// may echo them in) with "[redacted]".
func (a *Auth) redact(text string) string {
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

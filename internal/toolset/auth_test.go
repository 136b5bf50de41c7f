package toolset_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset"
)

// Each kind of auth reaches the server as it says, through Transport; malformed auth is refused.
func TestAuthConfig(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r }))
	defer srv.Close()
	for _, tt := range []struct {
		name, auth string
		check      func(t *testing.T, r *http.Request)
	}{
		{"bearer", `{"type":"bearer","token":"t1"}`, func(t *testing.T, r *http.Request) {
			require.Equal(t, "Bearer t1", r.Header.Get("Authorization"))
		}},
		{"apiKey header", `{"type":"apiKey","name":"X-Key","value":"k"}`, func(t *testing.T, r *http.Request) {
			require.Equal(t, "k", r.Header.Get("X-Key"))
		}},
		{"apiKey query", `{"type":"apiKey","in":"query","name":"key","value":"k q"}`, func(t *testing.T, r *http.Request) {
			require.Equal(t, "k q", r.URL.Query().Get("key"))
			require.Equal(t, "1", r.URL.Query().Get("keep"))
		}},
		{"basic", `{"type":"basic","username":"u","password":"p"}`, func(t *testing.T, r *http.Request) {
			user, pass, ok := r.BasicAuth()
			require.True(t, ok)
			require.Equal(t, "u", user)
			require.Equal(t, "p", pass)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := toolset.ParseAuth(json.RawMessage(tt.auth))
			require.NoError(t, err)
			c := &http.Client{Transport: a.Transport(nil)}
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/?keep=1", nil)
			require.NoError(t, err)
			resp, err := c.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			tt.check(t, got)
			require.Empty(t, req.Header.Get("Authorization"), "the caller's request is not changed")
		})
	}
	for _, bad := range []string{`{"type":"bearer"}`, `{"type":"apiKey","name":"x"}`, `{"type":"apiKey","in":"cookie","name":"x","value":"y"}`, `{"type":"digest"}`, `{"type":"basic"}`, `[]`} {
		_, err := toolset.ParseAuth(json.RawMessage(bad))
		require.ErrorIs(t, err, toolset.ErrInvalidAuth, bad)
	}
	none, err := toolset.ParseAuth(nil)
	require.NoError(t, err)
	require.Nil(t, none)
}

package openapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
)

// seen is a request the test API received.
type seen struct {
	Method, Path, Query, Body string
	Header                    http.Header
}

// recorder serves answer and keeps the requests.
type recorder struct {
	mu     sync.Mutex
	seen   []seen
	answer func(w http.ResponseWriter, r *http.Request)
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.seen = append(rec.seen, seen{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Body: string(body), Header: r.Header.Clone()})
	rec.mu.Unlock()
	rec.answer(w, r)
}

func (rec *recorder) last() seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.seen[len(rec.seen)-1]
}

// callTool loads an operation's tool and calls it once.
func callTool(t *testing.T, op Operation, base string, auth *Auth, input string) (json.RawMessage, error) {
	t.Helper()
	ts, err := Load(Config{Name: "api", Source: Source{BaseURL: base, Operations: map[string]Operation{"op": op}}, Auth: auth,
		Retries: 2, Backoff: toolset.Backoff{Initial: time.Millisecond, Max: time.Millisecond}},
		&toolset.Manifest{Tools: []toolset.ManifestTool{{Path: "op"}}})
	require.NoError(t, err)
	require.Len(t, ts.Tools, 1)
	require.Equal(t, "api.op", ts.Tools[0].Path)
	return ts.Tools[0].Execute(context.Background(), json.RawMessage(input), toolcall.Call{Key: "run-1:3", RunID: "run-1", CallID: 3})
}

// A call serialises path, query (form and deepObject) and header parameters and the JSON
// body, sends the idempotency key and the credentials of each kind, and decodes the answer.
func TestCallRequest(t *testing.T) {
	t.Parallel()
	rec := &recorder{answer: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	op := Operation{Method: "POST", Path: "/pets/{id}/tags", Body: "application/json", Params: []Param{
		{Name: "id", In: "path"}, {Name: "tag", In: "query", Explode: true}, {Name: "ids", In: "query"},
		{Name: "created", In: "query", Explode: true, Deep: true}, {Name: "X-Trace", In: "header"},
	}}
	out, err := callTool(t, op, srv.URL+"/v1", nil,
		`{"id":"a b/c","tag":["x","y"],"ids":[1,2],"created":{"gt":5,"in":["p"]},"X-Trace":"t1","body":{"name":"rex"}}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"ok":true}`, string(out))
	got := rec.last()
	require.Equal(t, "POST", got.Method)
	require.Equal(t, "/v1/pets/a%20b%2Fc/tags", got.Path)
	require.Equal(t, "created%5Bgt%5D=5&created%5Bin%5D%5B%5D=p&ids=1%2C2&tag=x&tag=y", got.Query)
	require.Equal(t, "t1", got.Header.Get("X-Trace"))
	require.Equal(t, "run-1:3", got.Header.Get("Idempotency-Key"))
	require.Equal(t, "application/json", got.Header.Get("Content-Type"))
	require.JSONEq(t, `{"name":"rex"}`, got.Body)

	for _, c := range []struct {
		auth  Auth
		check func(s seen)
	}{
		{Auth{Type: "apiKey", In: "header", Name: "X-Api-Key", Value: "k1"}, func(s seen) { require.Equal(t, "k1", s.Header.Get("X-Api-Key")) }},
		{Auth{Type: "apiKey", In: "query", Name: "key", Value: "k2"}, func(s seen) { require.Contains(t, s.Query, "key=k2") }},
		{Auth{Type: "bearer", Token: "t3"}, func(s seen) { require.Equal(t, "Bearer t3", s.Header.Get("Authorization")) }},
		{Auth{Type: "basic", Username: "u", Password: "p4"}, func(s seen) { require.Equal(t, "Basic dTpwNA==", s.Header.Get("Authorization")) }},
	} {
		require.NoError(t, c.auth.Validate())
		_, err := callTool(t, Operation{Method: "GET", Path: "/me"}, srv.URL, &c.auth, `{}`)
		require.NoError(t, err, c.auth.Type)
		c.check(rec.last())
	}
}

// A 4xx is a tool error with the status and an excerpt of the body, not retried; a 5xx is
// retried; an answer that is not JSON is a string; no body is null; a network failure's
// message does not carry the query (which may hold an API key).
func TestCallAnswers(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	attempts := map[string]int{}
	rec := &recorder{answer: func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempts[r.URL.Path]++
		n := attempts[r.URL.Path]
		mu.Unlock()
		switch r.URL.Path {
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":"no such pet"}`+strings.Repeat("x", 2000))
		case "/flaky":
			if n < 3 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			_, _ = io.WriteString(w, `[1,2]`)
		case "/text":
			_, _ = io.WriteString(w, "hello")
		case "/echo":
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, "bad token "+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		}
	}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)

	_, err := callTool(t, Operation{Method: "GET", Path: "/missing"}, srv.URL, nil, `{}`)
	var te *toolcall.ToolError
	require.ErrorAs(t, err, &te)
	require.True(t, strings.HasPrefix(te.Message, `GET /missing answered 404 Not Found: {"error":"no such pet"}xxx`), te.Message)
	require.Less(t, len(te.Message), 600, "the body is an excerpt")
	require.Equal(t, 1, attempts["/missing"], "a 4xx is not retried")

	out, err := callTool(t, Operation{Method: "GET", Path: "/flaky"}, srv.URL, nil, `null`)
	require.NoError(t, err)
	require.JSONEq(t, `[1,2]`, string(out))
	require.Equal(t, 3, attempts["/flaky"])

	out, err = callTool(t, Operation{Method: "GET", Path: "/text", Text: true}, srv.URL, nil, `{}`)
	require.NoError(t, err)
	require.JSONEq(t, `"hello"`, string(out))
	out, err = callTool(t, Operation{Method: "DELETE", Path: "/empty"}, srv.URL, nil, `{}`)
	require.NoError(t, err)
	require.Equal(t, "null", string(out))

	// An API echoing the credentials in an error does not show them to the program.
	_, err = callTool(t, Operation{Method: "GET", Path: "/echo"}, srv.URL, &Auth{Type: "bearer", Token: "tok-echoed"}, `{}`)
	require.ErrorAs(t, err, &te)
	require.Equal(t, `GET /echo answered 401 Unauthorized: bad token [redacted]`, te.Message)

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err = callTool(t, Operation{Method: "GET", Path: "/x"}, closed.URL, &Auth{Type: "apiKey", In: "query", Name: "key", Value: "sekrit-in-query"}, `{}`)
	require.ErrorIs(t, err, toolset.ErrUnavailable)
	require.NotContains(t, err.Error(), "sekrit-in-query")
}

func TestAuthValidate(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		`{"type":"apiKey","in":"cookie","name":"k","value":"v"}`,
		`{"type":"apiKey","in":"header","name":"bad name","value":"v"}`,
		`{"type":"apiKey","in":"query","name":"k"}`,
		`{"type":"bearer"}`,
		`{"type":"basic","password":"p"}`,
		`{"type":"oauth2"}`,
	} {
		_, err := ParseAuth(json.RawMessage(bad))
		require.ErrorIs(t, err, ErrInvalidAuth, bad)
		require.NotContains(t, err.Error(), `"v"`)
	}
	a, err := ParseAuth(nil)
	require.NoError(t, err)
	require.Nil(t, a)
}

// A path parameter that would make the request's path another one ("..": /pets/.. is /, which
// the server reaches with the toolset's credentials) and a header parameter with a control
// character (which the HTTP client refuses, on every retry) fail the call before any request.
func TestCallRefusesPathAndHeaderInjection(t *testing.T) {
	t.Parallel()
	rec := &recorder{answer: func(w http.ResponseWriter, r *http.Request) {}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	op := Operation{Method: "GET", Path: "/pets/{id}", Params: []Param{{Name: "id", In: "path"}, {Name: "X-Trace", In: "header"}}}
	for _, input := range []string{`{"id":".."}`, `{"id":"."}`, `{"id":""}`, `{"id":"1","X-Trace":"a\r\nX-Admin: 1"}`, `{"id":"1","X-Trace":"a\u0000"}`} {
		_, err := callTool(t, op, srv.URL, nil, input)
		var te *toolcall.ToolError
		require.ErrorAs(t, err, &te, input)
	}
	rec.mu.Lock()
	require.Empty(t, rec.seen)
	rec.mu.Unlock()
	_, err := callTool(t, op, srv.URL, nil, `{"id":"..a","X-Trace":"a\tb"}`)
	require.NoError(t, err)
	require.Equal(t, "/pets/..a", rec.last().Path)
}

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/durable/runengine"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

// petsDocument describes petAPI. Pet's id is readOnly and its secret writeOnly; the photo
// upload (a binary body) is not a tool.
const petsDocument = `{
  "openapi": "3.0.3",
  "info": {"title": "pets", "version": "1"},
  "servers": [{"url": "/v1"}],
  "paths": {
    "/pets": {
      "post": {
        "operationId": "pets.create",
        "parameters": [{"name": "notify", "in": "query", "schema": {"type": "boolean"}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
        "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}
      }
    },
    "/pets/{id}": {
      "get": {
        "operationId": "pets.get",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}
      }
    },
    "/pets/{id}/photo": {
      "put": {
        "operationId": "pets.photo",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "requestBody": {"content": {"image/png": {}}},
        "responses": {"204": {"description": "stored"}}
      }
    }
  },
  "components": {"schemas": {"Pet": {
    "type": "object", "additionalProperties": false, "required": ["id", "name"],
    "properties": {
      "id": {"type": "integer", "readOnly": true},
      "name": {"type": "string"},
      "secret": {"type": "string", "writeOnly": true}
    }
  }}}
}`

// petAPI serves petsDocument at /openapi.json and its operations under /v1, accepting only
// requests with the credentials it is given, and keeps what it was sent.
type petAPI struct {
	authorized func(r *http.Request) bool
	mu         sync.Mutex
	keys       []string
	created    []map[string]any
	queries    []string
}

func (p *petAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/openapi.json" {
		_, _ = io.WriteString(w, petsDocument)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if !p.authorized(r) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"who are you?"}`)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = append(p.keys, r.Header.Get("Idempotency-Key"))
	p.queries = append(p.queries, r.URL.RawQuery)
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/pets":
		var pet map[string]any
		if err := json.NewDecoder(r.Body).Decode(&pet); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		p.created = append(p.created, pet)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 7, "name": pet["name"]})
	case r.Method == http.MethodGet && r.URL.Path == "/v1/pets/7":
		_, _ = io.WriteString(w, `{"id":7,"name":"rex"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = fmt.Fprintf(w, `{"error":"no pet at %s"}`, r.URL.Path)
	}
}

// fullStack is the API server and a worker with the real engine, on a real PostgreSQL.
type fullStack struct {
	*testBundle
	pool *pgxpool.Pool
}

// startFullStack starts the API server and a worker with the real engine; roundTrip (or
// CODEMODE_ROUNDTRIP=1) saves and restores every run at each host call.
func startFullStack(t *testing.T, roundTrip bool) *fullStack {
	t.Helper()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{Token: testToken, Egress: egress.Local()})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	roundTrip = roundTrip || os.Getenv("CODEMODE_ROUNDTRIP") == "1"
	engine := runengine.New(runengine.Config{Egress: egress.Local(), RoundTrip: roundTrip})
	w, err := durable.NewWorker(store, engine, durable.WorkerConfig{FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Stop(ctx)
		engine.Close()
	})
	return &fullStack{testBundle: &testBundle{url: srv.URL, store: store, ctx: context.Background()}, pool: pool}
}

// An OpenAPI toolset registered through the API, with each kind of credentials: a run calls
// two operations (path parameter, query parameter, JSON body), meets a 404 as an error it
// catches and an input with a readOnly property as invalid; the credentials reach the API
// and nothing else.
func TestOpenAPIToolsetRuns(t *testing.T) {
	t.Parallel()
	s := startFullStack(t, false)
	const (
		apiKey   = "key-5e5a8d1c"
		token    = "tok-90b1e2f4"
		password = "pw-c0ffee77"
	)
	cases := []struct {
		name       string
		auth       string
		authorized func(r *http.Request) bool
	}{
		{"hdr", `{"type":"apiKey","in":"header","name":"X-Api-Key","value":"` + apiKey + `"}`,
			func(r *http.Request) bool { return r.Header.Get("X-Api-Key") == apiKey }},
		{"qry", `{"type":"apiKey","in":"query","name":"api_key","value":"` + apiKey + `"}`,
			func(r *http.Request) bool { return r.URL.Query().Get("api_key") == apiKey }},
		{"bearer", `{"type":"bearer","token":"` + token + `"}`,
			func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }},
		{"basic", `{"type":"basic","username":"ann","password":"` + password + `"}`,
			func(r *http.Request) bool { u, p, ok := r.BasicAuth(); return ok && u == "ann" && p == password }},
	}
	var responses []string
	for i, c := range cases {
		api := &petAPI{authorized: c.authorized}
		srv := httptest.NewServer(api)
		t.Cleanup(srv.Close)
		// Half by URL (the relative server resolved against it), half inline with baseUrl.
		source := `"url": "` + srv.URL + `/openapi.json"`
		if i%2 == 1 {
			source = `"document": ` + petsDocument + `, "baseUrl": "` + srv.URL + `/v1"`
		}
		status, body := s.do(t, http.MethodPost, "/v1/toolsets", `{"name": "`+c.name+`", "kind": "openapi", `+source+`, "auth": `+c.auth+`}`)
		require.Equal(t, http.StatusCreated, status, "%s", body)
		responses = append(responses, string(body))
		var ts struct {
			Kind    string
			HasAuth bool
			Tools   []struct {
				Path          string
				Input, Output map[string]any
			}
			Skipped []struct{ Operation, Reason string }
		}
		require.NoError(t, json.Unmarshal(body, &ts))
		require.Equal(t, "openapi", ts.Kind)
		require.True(t, ts.HasAuth)
		require.Len(t, ts.Tools, 2)
		require.Equal(t, []struct{ Operation, Reason string }{{"PUT /pets/{id}/photo", "the request body is not JSON (image/png)"}}, ts.Skipped)

		code := fmt.Sprintf(`const created = await tools.%[1]s.pets.create({notify: true, body: {name: "rex", secret: "s1"}});
const got = await tools.%[1]s.pets.get({id: created.id});
let missing = null, invalid = null;
try { await tools.%[1]s.pets.get({id: 99}); } catch (e) { missing = e.message; }
try { await tools.%[1]s.pets.create({body: {id: 3, name: "x"}}); } catch (e) { invalid = e.message; }
return {created, got, missing, invalid};`, c.name)
		req, err := json.Marshal(map[string]any{"code": code, "toolsets": []string{c.name}})
		require.NoError(t, err)
		status, body = s.do(t, http.MethodPost, "/v1/runs?wait=30", string(req))
		require.Equal(t, http.StatusCreated, status, "%s", body)
		var run struct {
			ID     string
			Status string
			Result struct {
				OK    bool
				Value struct {
					Created, Got     map[string]any
					Missing, Invalid string
				}
			}
		}
		require.NoError(t, json.Unmarshal(body, &run), "%s", body)
		require.Equal(t, "succeeded", run.Status, "%s", body)
		v := run.Result.Value
		require.Equal(t, map[string]any{"id": float64(7), "name": "rex"}, v.Created)
		require.Equal(t, map[string]any{"id": float64(7), "name": "rex"}, v.Got)
		require.Equal(t, `GET /pets/{id} answered 404 Not Found: {"error":"no pet at /v1/pets/99"}`, v.Missing)
		require.Contains(t, v.Invalid, "id", "a readOnly property is no input")
		api.mu.Lock()
		require.Equal(t, []map[string]any{{"name": "rex", "secret": "s1"}}, api.created, "the writeOnly property is sent")
		require.Equal(t, []string{run.ID + ":1", run.ID + ":2", run.ID + ":3"}, api.keys, "each request carries its call's idempotency key")
		require.Contains(t, api.queries[0], "notify=true")
		api.mu.Unlock()
		responses = append(responses, string(body))
		for _, path := range []string{"/v1/runs/" + run.ID, "/v1/runs/" + run.ID + "/events", "/v1/runs/" + run.ID + "/calls"} {
			status, body = s.do(t, http.MethodGet, path, "")
			require.Equal(t, http.StatusOK, status, "%s: %s", path, body)
			responses = append(responses, string(body))
		}
	}

	// The signatures leave readOnly out of the input and writeOnly out of the output.
	status, body := s.do(t, http.MethodGet, "/v1/catalog?toolsets=hdr", "")
	require.Equal(t, http.StatusOK, status, "%s", body)
	var catalog struct {
		Tools []struct{ Path, Signature string }
	}
	require.NoError(t, json.Unmarshal(body, &catalog))
	signatures := map[string]string{}
	for _, tool := range catalog.Tools {
		signatures[tool.Path] = tool.Signature
	}
	require.Equal(t, "tools.hdr.pets.create(input: {\n  body: {\n    name: string\n    secret?: string\n  }\n  notify?: boolean\n}): Promise<{\n  /** @integer */\n  id: number\n  name: string\n}>",
		signatures["hdr.pets.create"])
	responses = append(responses, string(body))
	for _, path := range []string{"/v1/toolsets", "/v1/toolsets/qry", "/v1/catalog/prompt"} {
		status, body = s.do(t, http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, status, "%s: %s", path, body)
		responses = append(responses, string(body))
	}
	var stored string
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT string_agg(manifest::text || coalesce(source::text, '') || url || coalesce(encode(auth_sealed, 'escape'), ''), ' ') FROM toolsets`).Scan(&stored))
	var versions string
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT string_agg(manifest::text, ' ') FROM toolset_manifests`).Scan(&versions))
	var events string
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT coalesce(string_agg(data::text, ' '), '') FROM run_timeline`).Scan(&events))
	for _, secret := range []string{apiKey, token, password} {
		for i, r := range responses {
			require.NotContains(t, r, secret, "API response %d", i)
		}
		require.NotContains(t, stored, secret, "stored toolsets")
		require.NotContains(t, versions, secret, "stored manifests")
		require.NotContains(t, events, secret, "stored events")
	}
}

// Registration's rules for kind openapi, each a 400 with a message naming the problem.
func TestOpenAPIToolsetRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	for _, c := range []struct{ body, message string }{
		{`{"name": "a", "kind": "openapi"}`, "one of url"},
		{`{"name": "a", "kind": "openapi", "url": "http://127.0.0.1:1/x", "document": {}}`, "one of url"},
		{`{"name": "a", "kind": "openapi", "document": ` + petsDocument + `, "secret": "x"}`, "apply to kind http only"},
		{`{"name": "a", "kind": "openapi", "document": ` + petsDocument + `, "baseUrl": "http://127.0.0.1:1", "auth": {"type": "bearer"}}`, "bearer needs token"},
		{`{"name": "a", "kind": "openapi", "document": ` + petsDocument + `}`, "no http(s) server URL"},
		{`{"name": "a", "kind": "openapi", "document": {"openapi": "2.0"}, "baseUrl": "http://127.0.0.1:1"}`, "invalid OpenAPI document"},
		{`{"name": "a"}`, "url is required"},
		{`{"name": "a", "url": "http://127.0.0.1:1", "auth": {"type": "bearer", "token": "t"}}`, "auth is for toolsets of kind openapi or mcp"},
	} {
		status, body := b.do(t, http.MethodPost, "/v1/toolsets", c.body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", c.body, body)
		_, msg := errorCode(t, body)
		require.Contains(t, msg, c.message, c.body)
	}
	// Registered inline, it lists its skipped operations on GET and has no credentials.
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name": "inline", "kind": "openapi", "document": `+petsDocument+`, "baseUrl": "http://127.0.0.1:1/v1"}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	status, body = b.do(t, http.MethodGet, "/v1/toolsets/inline", "")
	require.Equal(t, http.StatusOK, status)
	require.True(t, strings.Contains(string(body), `"hasAuth":false`), "%s", body)
	require.Contains(t, string(body), `"skipped":[{"operation":"PUT /pets/{id}/photo"`)
	status, body = b.do(t, http.MethodPatch, "/v1/toolsets/inline", `{}`)
	require.Equal(t, http.StatusBadRequest, status, "%s", body)
	_, msg := errorCode(t, body)
	require.Contains(t, msg, "inline document")

	// Registered by URL, an update reads the document again, keeping the credentials.
	api := &petAPI{authorized: func(*http.Request) bool { return true }}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	status, body = b.do(t, http.MethodPost, "/v1/toolsets", `{"name": "byurl", "kind": "openapi", "url": "`+srv.URL+`/openapi.json", "auth": {"type": "bearer", "token": "tok"}}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	status, body = b.do(t, http.MethodPatch, "/v1/toolsets/byurl", `{"description": "pets again"}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	require.Contains(t, string(body), `"description":"pets again"`)
	require.Contains(t, string(body), `"hasAuth":true`)
	require.Contains(t, string(body), `"path":"pets.get"`)
	status, body = b.do(t, http.MethodPatch, "/v1/toolsets/byurl", `{"tools": []}`)
	require.Equal(t, http.StatusBadRequest, status, "%s", body)
}

// The document is fetched under the egress policy: the default policy refuses a loopback
// address, with the one message that does not tell refused from unreachable.
func TestOpenAPIDocumentFetchObeysEgress(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{Token: testToken})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	api := &petAPI{authorized: func(*http.Request) bool { return true }}
	apiSrv := httptest.NewServer(api)
	t.Cleanup(apiSrv.Close)
	b := &testBundle{url: srv.URL, store: store, ctx: context.Background()}
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name": "a", "kind": "openapi", "url": "`+apiSrv.URL+`/openapi.json"}`)
	require.Equal(t, http.StatusBadGateway, status, "%s", body)
	_, msg := errorCode(t, body)
	require.Contains(t, msg, "not allowed by the egress policy")
}

// An OpenAPI toolset's credentials are rotated, and its server moved, by an update: by URL
// (the document read again) and inline (the tools kept, the new server used). A run made
// before the rotation meets the new credentials too; an http toolset refuses auth and baseUrl.
func TestOpenAPIToolsetUpdateRotatesCredentialsAndServer(t *testing.T) {
	t.Parallel()
	s := startFullStack(t, false)
	const oldToken, newToken = "tok-old-1a2b", "tok-new-3c4d"
	var mu sync.Mutex
	accepted := oldToken
	bearer := func(r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		return r.Header.Get("Authorization") == "Bearer "+accepted
	}
	first := httptest.NewServer(&petAPI{authorized: bearer})
	t.Cleanup(first.Close)
	second := httptest.NewServer(&petAPI{authorized: bearer})
	t.Cleanup(second.Close)
	getPet := func(name string) string {
		t.Helper()
		req, err := json.Marshal(map[string]any{"toolsets": []string{name},
			"code": fmt.Sprintf(`try { return (await tools.%s.pets.get({id: 7})).name } catch (e) { return e.message }`, name)})
		require.NoError(t, err)
		status, body := s.do(t, http.MethodPost, "/v1/runs?wait=30", string(req))
		require.Equal(t, http.StatusCreated, status, "%s", body)
		var run struct {
			Status string
			Result struct{ Value string }
		}
		require.NoError(t, json.Unmarshal(body, &run), "%s", body)
		require.Equal(t, "succeeded", run.Status, "%s", body)
		return run.Result.Value
	}
	auth := func(token string) string { return `{"type":"bearer","token":"` + token + `"}` }

	for _, tc := range []struct {
		name   string
		source func(server string) string
	}{
		{"byurl", func(server string) string { return `"url": "` + server + `/openapi.json"` }},
		{"inline", func(server string) string { return `"document": ` + petsDocument + `, "baseUrl": "` + server + `/v1"` }},
	} {
		mu.Lock()
		accepted = oldToken
		mu.Unlock()
		status, body := s.do(t, http.MethodPost, "/v1/toolsets", `{"name": "`+tc.name+`", "kind": "openapi", `+tc.source(first.URL)+`, "auth": `+auth(oldToken)+`}`)
		require.Equal(t, http.StatusCreated, status, "%s", body)
		require.Equal(t, "rex", getPet(tc.name))

		// The API now wants the new token: the old one is refused until the update.
		mu.Lock()
		accepted = newToken
		mu.Unlock()
		require.Contains(t, getPet(tc.name), "401")
		status, body = s.do(t, http.MethodPatch, "/v1/toolsets/"+tc.name, `{"auth": `+auth(newToken)+`, "description": "rotated"}`)
		require.Equal(t, http.StatusOK, status, "%s", body)
		require.NotContains(t, string(body), newToken)
		require.Contains(t, string(body), `"description":"rotated"`)
		require.Equal(t, "rex", getPet(tc.name))

		// Moved to another server.
		first.Close()
		status, body = s.do(t, http.MethodPatch, "/v1/toolsets/"+tc.name, `{"baseUrl": "`+second.URL+`/v1"}`)
		if tc.name == "byurl" {
			// The document is read again from its URL, which is gone with the first server.
			require.Equal(t, http.StatusBadGateway, status, "%s", body)
			status, body = s.do(t, http.MethodPatch, "/v1/toolsets/"+tc.name, `{"url": "`+second.URL+`/openapi.json", "baseUrl": "`+second.URL+`/v1"}`)
		}
		require.Equal(t, http.StatusOK, status, "%s", body)
		require.Equal(t, "rex", getPet(tc.name))
		first = httptest.NewServer(&petAPI{authorized: bearer})
		t.Cleanup(first.Close)
	}

	var stored string
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT string_agg(manifest::text || coalesce(source::text, '') || url || coalesce(encode(auth_sealed, 'escape'), ''), ' ') FROM toolsets`).Scan(&stored))
	require.NotContains(t, stored, newToken)

	status, body := s.do(t, http.MethodPost, "/v1/toolsets", `{"name": "plain", "tools": [{"path": "echo", "description": "Echo"}], "url": "`+second.URL+`"}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	for _, tc := range []struct{ body, want string }{
		{`{"auth": ` + auth(newToken) + `, "tools": [{"path": "echo", "description": "Echo"}]}`, "auth is for toolsets of kind openapi or mcp"},
		{`{"baseUrl": "` + second.URL + `", "tools": [{"path": "echo", "description": "Echo"}]}`, "baseUrl is for toolsets of kind openapi"},
		{`{"auth": {"type": "bearer"}}`, "auth"},
		{`{"baseUrl": "ftp://x"}`, "baseUrl"},
	} {
		status, body := s.do(t, http.MethodPatch, "/v1/toolsets/plain", tc.body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", tc.body, body)
		require.Contains(t, string(body), tc.want, tc.body)
	}
}

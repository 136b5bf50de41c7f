package runengine

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/toolcall"
)

// An OpenAPI toolset's tools come from its stored manifest and source; new credentials or a
// new source get a new runtime (the cached one would call with the old ones); an unknown kind
// is refused.
func TestOpenAPIToolsetRuntimes(t *testing.T) {
	t.Parallel()
	e := newTestEngine(Config{Egress: egress.Local()})
	ctx := context.Background()
	ts := durable.Toolset{Name: "pets", Kind: "openapi",
		Manifest: json.RawMessage(`{"tools":[{"path":"pets.list"}]}`),
		Source:   json.RawMessage(`{"baseUrl":"http://127.0.0.1:1","operations":{"pets.list":{"method":"GET","path":"/pets"}}}`),
		Auth:     json.RawMessage(`{"type":"bearer","token":"t1"}`)}
	first, err := e.runtime(ctx, []durable.Toolset{ts})
	require.NoError(t, err)
	require.Equal(t, []string{"pets.pets.list", "time.sleep", "time.sleepUntil"}, toolPaths(first))
	again, err := e.runtime(ctx, []durable.Toolset{ts})
	require.NoError(t, err)
	require.Same(t, first, again)

	reauth := ts
	reauth.Auth = json.RawMessage(`{"type":"bearer","token":"t2"}`)
	other, err := e.runtime(ctx, []durable.Toolset{reauth})
	require.NoError(t, err)
	require.NotSame(t, first, other, "new credentials, new runtime")
	moved := ts
	moved.Source = json.RawMessage(`{"baseUrl":"http://127.0.0.1:2","operations":{"pets.list":{"method":"GET","path":"/pets"}}}`)
	other, err = e.runtime(ctx, []durable.Toolset{moved})
	require.NoError(t, err)
	require.NotSame(t, first, other, "a new source, new runtime")

	missing := ts
	missing.Source = json.RawMessage(`{"baseUrl":"http://127.0.0.1:1","operations":{}}`)
	_, err = e.runtime(ctx, []durable.Toolset{missing})
	require.ErrorContains(t, err, "tool pets.list has no operation")
	unknown := ts
	unknown.Kind = "carrier-pigeon"
	_, err = e.runtime(ctx, []durable.Toolset{unknown})
	require.ErrorContains(t, err, `kind "carrier-pigeon" is not supported`)
}

// An OpenAPI tool's request obeys the worker's egress policy: the default policy refuses a
// loopback API, and the tool never reaches it.
func TestOpenAPICallsObeyEgress(t *testing.T) {
	t.Parallel()
	var reached atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Store(true) }))
	t.Cleanup(srv.Close)
	ts := durable.Toolset{Name: "pets", Kind: "openapi",
		Manifest: json.RawMessage(`{"tools":[{"path":"list"}]}`),
		Source:   json.RawMessage(`{"baseUrl":"` + srv.URL + `","operations":{"list":{"method":"GET","path":"/pets"}}}`)}
	for _, c := range []struct {
		policy egress.Policy
		denied bool
	}{{egress.Policy{}, true}, {egress.Local(), false}} {
		loaded, err := newTestEngine(Config{Egress: c.policy}).toolset(context.Background(), ts)
		require.NoError(t, err)
		_, err = loaded.Tools[0].Execute(context.Background(), json.RawMessage(`{}`), toolcall.Call{Key: "r:1"})
		require.Equal(t, c.denied, egress.IsDenied(err), "%v", err)
		require.Equal(t, !c.denied, reached.Load())
	}
}

package runengine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
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

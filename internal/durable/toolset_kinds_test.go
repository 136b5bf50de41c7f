package durable

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// A toolset's kind, source and auth are stored with it and read back by every read; the auth
// is sealed at rest and an update replaces or keeps it.
func TestToolsetKindSourceAuth(t *testing.T) {
	t.Parallel()
	b := setup(t)
	auth := json.RawMessage(`{"type":"bearer","token":"tok-123"}`)
	created, err := b.store.CreateToolset(b.ctx, Toolset{Name: "m", URL: "http://127.0.0.1:1/mcp", Kind: KindMCP,
		Source: json.RawMessage(`{"x":1}`), Auth: auth})
	require.NoError(t, err)
	require.Equal(t, KindMCP, created.Kind)
	require.JSONEq(t, `{"x":1}`, string(created.Source))
	require.JSONEq(t, string(auth), string(created.Auth))

	plain, err := b.store.CreateToolset(b.ctx, Toolset{Name: "p", URL: "http://127.0.0.1:1/"})
	require.NoError(t, err)
	require.Equal(t, KindHTTP, plain.Kind, "the default kind")
	require.Nil(t, plain.Auth)
	require.Nil(t, plain.Source)

	var sealed []byte
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT auth_sealed FROM toolsets WHERE name = 'm'").Scan(&sealed))
	require.NotContains(t, string(sealed), "tok-123", "the auth is sealed at rest")

	all, err := b.store.ListToolsets(b.ctx, []string{"m"})
	require.NoError(t, err)
	require.Len(t, all, 1)
	require.Equal(t, KindMCP, all[0].Kind)
	require.JSONEq(t, string(auth), string(all[0].Auth))

	desc := "kept auth"
	kept, err := b.store.UpdateToolset(b.ctx, "m", ToolsetUpdate{Description: &desc})
	require.NoError(t, err)
	require.JSONEq(t, string(auth), string(kept.Auth), "an update without auth keeps it")
	require.Equal(t, KindMCP, kept.Kind)
	other := json.RawMessage(`{"type":"bearer","token":"tok-456"}`)
	replaced, err := b.store.UpdateToolset(b.ctx, "m", ToolsetUpdate{Auth: &other})
	require.NoError(t, err)
	require.JSONEq(t, string(other), string(replaced.Auth))
	none := json.RawMessage(nil)
	cleared, err := b.store.UpdateToolset(b.ctx, "m", ToolsetUpdate{Auth: &none})
	require.NoError(t, err)
	require.Nil(t, cleared.Auth)
}

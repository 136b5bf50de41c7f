package durable

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
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

// Key rotation seals a toolset's auth again under the new key, like its secret.
func TestToolsetAuthRotates(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	auth := json.RawMessage(`{"type":"basic","username":"u","password":"p"}`)
	_, err := storeWith(t, pool, keyring(t, 1)).CreateToolset(ctx, Toolset{Name: "m", URL: "http://127.0.0.1:1/", Kind: KindMCP, Auth: auth})
	require.NoError(t, err)
	n, err := storeWith(t, pool, keyring(t, 2, 1)).PrepareSecrets(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	ts, err := storeWith(t, pool, keyring(t, 2)).GetToolset(ctx, "m")
	require.NoError(t, err)
	require.JSONEq(t, string(auth), string(ts.Auth))
	_, err = storeWith(t, pool, nil).PrepareSecrets(ctx)
	require.ErrorIs(t, err, ErrNoSecretKey, "a stored auth needs the key")
}

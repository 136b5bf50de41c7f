package durable

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

// A toolset's kind, source and auth are stored with it and read back by every query that
// reads toolsets (get, list, update, a run's toolsets); the auth only sealed, and sealed again
// when the key rotates.
func TestToolsetKindSourceAndAuth(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	const auth = `{"type":"bearer","token":"tok-very-secret-42"}`
	source := json.RawMessage(`{"operations":{"pets.list":{"method":"GET","path":"/pets"}}}`)
	s := storeWith(t, pool, keyring(t, 1))

	created, err := s.CreateToolset(ctx, Toolset{Name: "api", URL: "http://127.0.0.1:1/openapi.json", Kind: "openapi",
		Source: source, Auth: json.RawMessage(auth), Manifest: json.RawMessage(`{"tools":[{"path":"pets.list"}]}`)})
	require.NoError(t, err)
	require.Equal(t, "openapi", created.Kind)
	require.JSONEq(t, string(source), string(created.Source))
	require.JSONEq(t, auth, string(created.Auth))
	plain, err := s.CreateToolset(ctx, Toolset{Name: "plain", URL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	require.Equal(t, "http", plain.Kind, "the default kind")
	require.Nil(t, plain.Source)
	require.Nil(t, plain.Auth)

	var stored string
	require.NoError(t, pool.QueryRow(ctx, `SELECT encode(auth_sealed, 'escape') || source::text FROM toolsets WHERE name = 'api'`).Scan(&stored))
	require.False(t, strings.Contains(stored, "tok-very-secret-42"), "the auth is stored sealed")

	list, err := s.ListToolsets(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "openapi", list[0].Kind)
	require.JSONEq(t, auth, string(list[0].Auth))

	run, _, err := s.CreateRun(ctx, NewRun{Code: `{"steps":[]}`, Toolsets: []string{"api"}})
	require.NoError(t, err)
	rows, err := pool.Query(ctx, q("ToolsetListOfRun"), run.ID)
	require.NoError(t, err)
	found, err := pgx.CollectRows(rows, scanRunToolset)
	require.NoError(t, err)
	ofRun, err := s.openToolsets(found)
	require.NoError(t, err)
	require.Len(t, ofRun, 1)
	require.Equal(t, "openapi", ofRun[0].Kind)
	require.JSONEq(t, string(source), string(ofRun[0].Source))
	require.JSONEq(t, auth, string(ofRun[0].Auth))

	// An update keeps source and auth unless given; an empty auth removes it.
	kept, err := s.UpdateToolset(ctx, "api", ToolsetUpdate{Manifest: json.RawMessage(`{"tools":[]}`)})
	require.NoError(t, err)
	require.JSONEq(t, auth, string(kept.Auth))
	require.JSONEq(t, string(source), string(kept.Source))
	newSource := json.RawMessage(`{"operations":{}}`)
	none := json.RawMessage(nil)
	changed, err := s.UpdateToolset(ctx, "api", ToolsetUpdate{Manifest: json.RawMessage(`{"tools":[]}`), Source: newSource, Auth: &none})
	require.NoError(t, err)
	require.JSONEq(t, string(newSource), string(changed.Source))
	require.Nil(t, changed.Auth)

	// Rotation seals the auth again under the new key.
	withAuth, err := s.UpdateToolset(ctx, "api", ToolsetUpdate{Manifest: json.RawMessage(`{"tools":[]}`), Auth: new(json.RawMessage(auth))})
	require.NoError(t, err)
	require.JSONEq(t, auth, string(withAuth.Auth))
	n, err := storeWith(t, pool, keyring(t, 2, 1)).PrepareSecrets(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	rotated, err := storeWith(t, pool, keyring(t, 2)).GetToolset(ctx, "api")
	require.NoError(t, err)
	require.JSONEq(t, auth, string(rotated.Auth))
}

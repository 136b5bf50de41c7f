package durable

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

func keyring(t *testing.T, current byte, old ...byte) *secretbox.Keyring {
	t.Helper()
	var olds [][]byte
	for _, o := range old {
		olds = append(olds, bytes.Repeat([]byte{o}, 32))
	}
	r, err := secretbox.New(bytes.Repeat([]byte{current}, 32), olds...)
	require.NoError(t, err)
	return r
}

func storeWith(t *testing.T, pool *pgxpool.Pool, keys *secretbox.Keyring) *Store {
	t.Helper()
	s, err := New(pool, Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: keys})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// Secrets are stored encrypted, never as their text, in every table that holds one; a
// delivery keeps no copy; a store started again with the same key still signs with them.
func TestSecretsAreSealedAndSurviveARestart(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	const (
		toolSecret = "abcd1234-toolset-secret"
		hookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
		subSecret  = "whsec_c2Vjb25kLXN1YnNjcmlwdGlvbg=="
	)
	first := storeWith(t, pool, keyring(t, 1))
	_, err := first.CreateToolset(ctx, Toolset{Name: "t", URL: "http://127.0.0.1:1", Secret: toolSecret})
	require.NoError(t, err)
	hooks, hookSrv := newHookReceiver(t, hookSecret)
	subHooks, subSrv := newHookReceiver(t, subSecret)
	_, err = first.CreateSubscription(ctx, Subscription{URL: subSrv.URL, Secret: subSecret, Events: []string{WebhookRunCompleted}})
	require.NoError(t, err)
	run, _, err := first.CreateRun(ctx, NewRun{Code: `{"steps":[]}`, Webhook: &Webhook{URL: hookSrv.URL, Secret: hookSecret}})
	require.NoError(t, err)

	var dump string
	require.NoError(t, pool.QueryRow(ctx, `SELECT
		(SELECT string_agg(coalesce(secret, '') || encode(coalesce(secret_sealed, ''), 'escape'), ',') FROM toolsets) ||
		(SELECT string_agg(coalesce(webhook_secret, '') || encode(coalesce(webhook_secret_sealed, ''), 'escape'), ',') FROM runs) ||
		(SELECT string_agg(coalesce(secret, '') || encode(coalesce(secret_sealed, ''), 'escape'), ',') FROM webhook_subscriptions)`).Scan(&dump))
	for _, s := range []string{toolSecret, hookSecret, subSecret, "MfKQ9r8G", "abcd1234"} {
		require.NotContains(t, dump, s, "a secret is stored as its text")
	}
	var sealedCount int
	require.NoError(t, pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM toolsets WHERE secret_sealed IS NOT NULL AND secret IS NULL) +
		(SELECT count(*) FROM runs WHERE webhook_secret_sealed IS NOT NULL AND webhook_secret IS NULL) +
		(SELECT count(*) FROM webhook_subscriptions WHERE secret_sealed IS NOT NULL AND secret IS NULL)`).Scan(&sealedCount))
	require.Equal(t, 3, sealedCount)
	var deliveryHasSecret bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_name = 'webhook_deliveries' AND column_name = 'secret')`).Scan(&deliveryHasSecret))
	require.False(t, deliveryHasSecret, "a delivery refers to its secret instead of copying it")

	// A restart: a new store with the same key drives the run and signs its webhooks.
	first.Close()
	second := storeWith(t, pool, keyring(t, 1))
	n, err := second.PrepareSecrets(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing to seal again")
	b := &testBundle{store: second, ctx: ctx}
	b.startWorker(t, newScriptEngine())
	b.waitStatus(t, run.ID, StatusSucceeded)
	hooks.waitFor(t, WebhookRunCompleted)
	subHooks.waitFor(t, WebhookRunCompleted)
	ts, err := second.GetToolset(ctx, "t")
	require.NoError(t, err)
	require.Equal(t, toolSecret, ts.Secret)

	// Without a key the service refuses to start (PrepareSecrets) and to store secrets.
	keyless := storeWith(t, pool, nil)
	_, err = keyless.PrepareSecrets(ctx)
	require.ErrorIs(t, err, ErrNoSecretKey)
	_, err = keyless.CreateToolset(ctx, Toolset{Name: "u", URL: "http://127.0.0.1:1", Secret: "x"})
	require.ErrorIs(t, err, ErrNoSecretKey)
	_, err = keyless.GetToolset(ctx, "t")
	require.ErrorIs(t, err, ErrNoSecretKey)

	// Rotation: the new key seals everything again; then the old key is no longer needed.
	rotating := storeWith(t, pool, keyring(t, 2, 1))
	n, err = rotating.PrepareSecrets(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	rotated := storeWith(t, pool, keyring(t, 2))
	ts, err = rotated.GetToolset(ctx, "t")
	require.NoError(t, err)
	require.Equal(t, toolSecret, ts.Secret)
	_, err = storeWith(t, pool, keyring(t, 3)).PrepareSecrets(ctx)
	require.ErrorIs(t, err, secretbox.ErrUnknownKey, "a key that sealed nothing is refused")
}

// Secrets stored in plain text before encryption (migration 00006) are sealed by the first
// store that starts with a key, and their plain text is cleared.
func TestPrepareSecretsSealsPlaintext(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `INSERT INTO toolsets (name, url, secret) VALUES ('old', 'http://127.0.0.1:1', 'legacy-secret');
		INSERT INTO webhook_subscriptions (url, secret, events) VALUES ('http://127.0.0.1:1', 'whsec_bGVnYWN5', '{run.completed}')`)
	require.NoError(t, err)
	_, err = storeWith(t, pool, nil).PrepareSecrets(ctx)
	require.ErrorIs(t, err, ErrNoSecretKey)
	require.Contains(t, err.Error(), "CODEMODE_SECRET_KEY")

	s := storeWith(t, pool, keyring(t, 7))
	n, err := s.PrepareSecrets(ctx)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	var plain int
	require.NoError(t, pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM toolsets WHERE secret IS NOT NULL) +
		(SELECT count(*) FROM webhook_subscriptions WHERE secret IS NOT NULL)`).Scan(&plain))
	require.Zero(t, plain)
	ts, err := s.GetToolset(ctx, "old")
	require.NoError(t, err)
	require.Equal(t, "legacy-secret", ts.Secret)
	var raw []byte
	require.NoError(t, pool.QueryRow(ctx, `SELECT secret_sealed FROM toolsets WHERE name = 'old'`).Scan(&raw))
	require.False(t, strings.Contains(string(raw), "legacy"))
}

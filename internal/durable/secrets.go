package durable

import (
	"context"
	"errors"
	"fmt"

	"github.com/codemode/codemode/internal/secretbox"
)

// ErrNoSecretKey is returned when a secret must be stored or read and the store has no key
// (Config.Secrets, from CODEMODE_SECRET_KEY).
var ErrNoSecretKey = errors.New("the service has no secret key (CODEMODE_SECRET_KEY) and cannot store or read signing secrets")

// Where each sealed secret lives; the associated data of its encryption.
const (
	whereToolset      = "toolsets.secret"
	whereRunWebhook   = "runs.webhook_secret"
	whereSubscription = "webhook_subscriptions.secret"
	// whereToolsetAuth is a toolset's auth (toolsets.auth_sealed, migration 00019).
	whereToolsetAuth = "toolsets.auth"
)

// seal encrypts a secret for storage; nil for no secret.
func (s *Store) seal(secret, where string) ([]byte, error) {
	if secret == "" {
		return nil, nil
	}
	sealed, err := s.cfg.Secrets.Seal(secret, where)
	if errors.Is(err, secretbox.ErrNoKey) {
		return nil, ErrNoSecretKey
	}
	return sealed, err
}

// openSecret returns a stored secret: the sealed one when present, else a plaintext one stored
// before secrets were encrypted (until PrepareSecrets seals it), else "".
func (s *Store) openSecret(sealed []byte, plain *string, where string) (string, error) {
	if sealed == nil {
		if plain != nil {
			return *plain, nil
		}
		return "", nil
	}
	secret, _, err := s.cfg.Secrets.Open(sealed, where)
	if errors.Is(err, secretbox.ErrNoKey) {
		return "", ErrNoSecretKey
	}
	if err != nil {
		return "", fmt.Errorf("open %s: %w", where, err)
	}
	return secret, nil
}

// secretColumns are the tables holding secrets: key column, plaintext column (from before
// encryption; NULL::text for a secret that was always sealed), sealed column, and the
// associated data.
var secretColumns = []struct{ table, key, plain, sealed, where string }{
	{"toolsets", "name", "secret", "secret_sealed", whereToolset},
	{"toolsets", "name", "NULL::text", "auth_sealed", whereToolsetAuth},
	{"runs", "id::text", "webhook_secret", "webhook_secret_sealed", whereRunWebhook},
	{"webhook_subscriptions", "id::text", "secret", "secret_sealed", whereSubscription},
}

// PrepareSecrets makes the stored secrets match the configured keys; servers and workers call
// it at start. Without a key it fails when any secret is stored (the service could not sign
// with it). With a key it seals every plaintext secret stored before encryption (clearing the
// plaintext) and seals again, under the current key, every secret sealed with an old one
// (CODEMODE_SECRET_KEY_OLD); it fails when a secret was sealed with a key it does not have.
// It returns how many secrets it sealed.
func (s *Store) PrepareSecrets(ctx context.Context) (int, error) {
	if s.cfg.Secrets == nil {
		for _, c := range secretColumns {
			var n int
			query := fmt.Sprintf(`SELECT count(*) FROM %s WHERE coalesce(%s, '') <> '' OR %s IS NOT NULL`, c.table, c.plain, c.sealed)
			if err := s.pool.QueryRow(ctx, query).Scan(&n); err != nil {
				return 0, fmt.Errorf("count secrets in %s: %w", c.table, err)
			}
			if n > 0 {
				return 0, fmt.Errorf("%w: %d are stored in %s; set CODEMODE_SECRET_KEY to the key they were sealed with (see docs/security.md)", ErrNoSecretKey, n, c.table)
			}
		}
		return 0, nil
	}
	sealedCount := 0
	for _, c := range secretColumns {
		query := fmt.Sprintf(`SELECT %s, %s, %s FROM %s WHERE coalesce(%s, '') <> '' OR %s IS NOT NULL`,
			c.key, c.plain, c.sealed, c.table, c.plain, c.sealed)
		rows, err := s.pool.Query(ctx, query)
		if err != nil {
			return sealedCount, fmt.Errorf("read secrets in %s: %w", c.table, err)
		}
		type row struct {
			key    string
			plain  *string
			sealed []byte
		}
		var todo []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.key, &r.plain, &r.sealed); err != nil {
				rows.Close()
				return sealedCount, fmt.Errorf("read secrets in %s: %w", c.table, err)
			}
			todo = append(todo, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return sealedCount, fmt.Errorf("read secrets in %s: %w", c.table, err)
		}
		update := fmt.Sprintf(`UPDATE %s SET %s = NULL, %s = $2 WHERE %s = $1`, c.table, c.plain, c.sealed, c.key)
		if c.plain == "NULL::text" {
			update = fmt.Sprintf(`UPDATE %s SET %s = $2 WHERE %s = $1`, c.table, c.sealed, c.key)
		}
		for _, r := range todo {
			secret := ""
			if r.sealed != nil {
				var stale bool
				secret, stale, err = s.cfg.Secrets.Open(r.sealed, c.where)
				if err != nil {
					return sealedCount, fmt.Errorf("secret of %s %s: %w", c.table, r.key, err)
				}
				if !stale && (r.plain == nil || *r.plain == "") {
					continue
				}
			} else {
				secret = *r.plain
			}
			sealed, err := s.cfg.Secrets.Seal(secret, c.where)
			if err != nil {
				return sealedCount, err
			}
			if _, err := s.pool.Exec(ctx, update, r.key, sealed); err != nil {
				return sealedCount, fmt.Errorf("seal secret of %s %s: %w", c.table, r.key, err)
			}
			sealedCount++
		}
	}
	return sealedCount, nil
}

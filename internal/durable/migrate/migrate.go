// Package migrate applies codemode's schema (the goose migrations embedded from /migrations)
// and River's tables (through rivermigrate) to a PostgreSQL database. The server, the worker,
// `codemode migrate` and the test harness all use it.
package migrate

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/codemode/codemode/migrations"
)

// ErrPending is returned by Check when the database lacks migrations this binary knows.
var ErrPending = errors.New("database migrations pending")

// lockKey is the advisory lock key serialising concurrent Up calls (server and workers
// starting together); an arbitrary constant (the ASCII of "<nodemig").
const lockKey int64 = 0x3c6e_6f64_656d_6967

// Up applies every pending migration, River's first, then codemode's. Concurrent callers
// (several processes starting at once) are serialised by an advisory lock.
func Up(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: acquire connection: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return fmt.Errorf("migrate: take lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey) }()

	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("migrate: river migrator: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate: river tables: %w", err)
	}
	provider, closeDB, err := newProvider(pool)
	if err != nil {
		return err
	}
	defer closeDB()
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("migrate: codemode schema: %w", err)
	}
	return nil
}

// Check returns nil when every migration this binary knows (ours and River's) has been applied,
// an error wrapping ErrPending when some are missing, or the error reaching the database.
func Check(ctx context.Context, pool *pgxpool.Pool) error {
	provider, closeDB, err := newProvider(pool)
	if err != nil {
		return err
	}
	defer closeDB()
	pending, err := provider.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("migrate: check codemode schema: %w", err)
	}
	if pending {
		return fmt.Errorf("%w: codemode schema", ErrPending)
	}
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("migrate: river migrator: %w", err)
	}
	applied, err := migrator.ExistingVersions(ctx)
	if err != nil {
		return fmt.Errorf("migrate: check river tables: %w", err)
	}
	if len(applied) < len(migrator.AllVersions()) {
		return fmt.Errorf("%w: river tables (%d of %d applied)", ErrPending, len(applied), len(migrator.AllVersions()))
	}
	return nil
}

func newProvider(pool *pgxpool.Pool) (*goose.Provider, func(), error) {
	db := stdlib.OpenDBFromPool(pool)
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("migrate: goose provider: %w", err)
	}
	return provider, func() { _ = db.Close() }, nil
}

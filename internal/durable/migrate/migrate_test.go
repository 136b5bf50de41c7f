package migrate_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestUpIsIdempotentAndConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _ := pgtest.NewDB(t)
	require.NoError(t, migrate.Check(ctx, pool))

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = migrate.Up(ctx, pool)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, migrate.Check(ctx, pool))
}

func TestCheckReportsPending(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		unset string
	}{
		{name: "codemode schema", unset: "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)"},
		{name: "river tables", unset: "DELETE FROM river_migration WHERE version = (SELECT max(version) FROM river_migration)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			pool, _ := pgtest.NewDB(t)
			_, err := pool.Exec(ctx, tt.unset)
			require.NoError(t, err)
			require.ErrorIs(t, migrate.Check(ctx, pool), migrate.ErrPending)
		})
	}
}

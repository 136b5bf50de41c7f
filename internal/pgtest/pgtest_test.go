package pgtest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewDBIsMigratedAndIsolated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, urlA := NewDB(t)
	b, urlB := NewDB(t)
	require.NotEqual(t, urlA, urlB)

	for _, table := range []string{"runs", "calls", "snapshots", "run_events", "toolsets", "river_job"} {
		var exists bool
		require.NoError(t, a.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists))
		require.True(t, exists, "table %s", table)
	}
	_, err := a.Exec(ctx, "INSERT INTO toolsets (name, url) VALUES ('only_in_a', 'http://x')")
	require.NoError(t, err)
	var n int
	require.NoError(t, b.QueryRow(ctx, "SELECT count(*) FROM toolsets").Scan(&n))
	require.Zero(t, n, "databases must be isolated")
}

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{name: "url", in: "postgres://u@h:5/db?sslmode=disable", want: "postgres://u@h:5/x?sslmode=disable"},
		{name: "socket url", in: "postgres:///postgres?host=%2Ftmp%2Fs", want: "postgres:///x?host=%2Ftmp%2Fs"},
		{name: "keyword form", in: "host=h user=u", want: "host=h user=u dbname=x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, WithDatabase(tt.in, "x"))
		})
	}
}

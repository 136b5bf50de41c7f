package pgcluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func TestClusterLifecycle(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	dir, err := os.MkdirTemp("", "pgc")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o711))

	c, err := New(Config{Dir: filepath.Join(dir, "c"), Settings: map[string]string{"fsync": "off"}})
	require.NoError(t, err)
	require.ErrorIs(t, c.Start(ctx), ErrNotInitialized)
	require.NoError(t, c.Init(ctx))
	require.True(t, c.Initialized())
	require.NoError(t, c.Init(ctx), "Init on an existing cluster is a no-op")
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	require.ErrorIs(t, c.Start(ctx), ErrAlreadyRunning)
	require.True(t, c.Running(ctx))

	// Another process (say a restarted codemode dev) adopts the running server.
	other, err := New(Config{Dir: filepath.Join(dir, "c"), Port: 1})
	require.NoError(t, err)
	require.NoError(t, other.Adopt(ctx))
	require.Equal(t, c.URL("postgres"), other.URL("postgres"))
	conn, err := pgx.Connect(ctx, other.URL("postgres"))
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))

	conn, err = pgx.Connect(ctx, c.URL("postgres"))
	require.NoError(t, err)
	var fsync, listen string
	require.NoError(t, conn.QueryRow(ctx, "SHOW fsync").Scan(&fsync))
	require.NoError(t, conn.QueryRow(ctx, "SHOW listen_addresses").Scan(&listen))
	require.NoError(t, conn.Close(ctx))
	require.Equal(t, "off", fsync)
	require.Empty(t, listen, "the cluster must not listen on TCP")

	dbURL, err := c.CreateDatabase(ctx, "code-mode")
	require.NoError(t, err)
	again, err := c.CreateDatabase(ctx, "code-mode")
	require.NoError(t, err, "creating an existing database is a no-op")
	require.Equal(t, dbURL, again)
	conn, err = pgx.Connect(ctx, dbURL)
	require.NoError(t, err)
	var db string
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&db))
	require.NoError(t, conn.Close(ctx))
	require.Equal(t, "code-mode", db)

	require.NoError(t, c.Stop(ctx))
	_, err = pgx.Connect(ctx, c.URL("postgres"))
	require.Error(t, err, "stopped server must refuse connections")
	require.NoError(t, c.Stop(ctx), "stopping a stopped server is not an error")
	require.False(t, c.Running(ctx))
	require.Error(t, other.Adopt(ctx), "nothing to adopt")

	// Data survives a restart.
	require.NoError(t, c.Start(ctx))
	conn, err = pgx.Connect(ctx, c.URL("postgres"))
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))
	require.NoError(t, c.Stop(ctx))
}

func TestLongDirUsesShortSocketDir(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	dir, err := os.MkdirTemp("", "pgc")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o711))
	long := filepath.Join(dir, strings.Repeat("d", 60), strings.Repeat("e", 40))
	require.NoError(t, os.MkdirAll(filepath.Dir(long), 0o755))

	c, err := New(Config{Dir: long, Port: 5433})
	require.NoError(t, err)
	require.NoError(t, c.Init(ctx))
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	require.Less(t, len(filepath.Join(c.SocketDir(), ".s.PGSQL.5433")), maxSocketPath)
	require.NotContains(t, c.SocketDir(), long)

	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))
	sock := c.SocketDir()
	require.NoError(t, c.Stop(ctx))
	_, err = os.Stat(sock)
	require.True(t, os.IsNotExist(err), "temporary socket dir removed at Stop")
}

func TestMissingBinaries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		binDir string
	}{
		{name: "empty dir", binDir: t.TempDir()},
		{name: "no such dir", binDir: "/nonexistent/pg/bin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(Config{Dir: t.TempDir(), BinDir: tt.binDir})
			require.ErrorIs(t, err, ErrNotInstalled)
			require.Contains(t, err.Error(), "apt-get install postgresql")
			require.Contains(t, err.Error(), "DATABASE_URL")
		})
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
	}{
		{name: "no dir", cfg: Config{}},
		{name: "bad port", cfg: Config{Dir: "x", Port: 70000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(tt.cfg)
			require.Error(t, err)
		})
	}
}

func TestInitInPrivateParentDir(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "pgc") // mode 0700: only its owner may enter
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })

	c, err := New(Config{Dir: filepath.Join(dir, "c")})
	require.NoError(t, err)
	err = c.Init(ctx)
	if os.Geteuid() == 0 {
		// The server runs as the postgres user, which cannot enter dir: a clear error, not a
		// failing initdb.
		require.ErrorContains(t, err, "not searchable")
		require.ErrorContains(t, err, dir)
		return
	}
	require.NoError(t, err, "the owner of dir runs the server itself")
}

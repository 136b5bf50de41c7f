package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/api"
	"github.com/codemode/codemode/internal/console"
	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/migrations"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

func TestServeAndShutDown(t *testing.T) {
	t.Parallel()
	_, dbURL := pgtest.NewDB(t)
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": dbURL, "CODEMODE_LISTEN": addr, "CODEMODE_API_TOKEN": "tok"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--migrate"}, func(k string) string { return env[k] }, &logs) }()

	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 30*time.Second, 50*time.Millisecond, "server never ready: %s", logs.String())

	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/runs", strings.NewReader(`{"code":"1"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode, string(body))

	// The console is served beside the API: its files need no token, the API still does.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noRedirect.Get("http://" + addr + "/")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	require.Equal(t, console.Prefix, resp.Header.Get("Location"))
	resp, err = http.Get("http://" + addr + console.Prefix)
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, console.ContentSecurityPolicy, resp.Header.Get("Content-Security-Policy"))
	require.Contains(t, string(body), `<script src="app.js" defer></script>`)
	resp, err = http.Get("http://" + addr + "/v1/runs")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	cancel() // what SIGTERM does
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("server did not shut down")
	}
	_, err = http.Get("http://" + addr + "/healthz")
	require.Error(t, err, "the listener is closed")
}

func TestMigrateOnly(t *testing.T) {
	t.Parallel()
	pool, dbURL := pgtest.NewDB(t)
	ctx := context.Background()
	// Roll the newest migration back (its Down section) so there is something to apply.
	files, err := fs.Glob(migrations.FS, "*.sql")
	require.NoError(t, err)
	sort.Strings(files)
	newest := files[len(files)-1]
	text, err := fs.ReadFile(migrations.FS, newest)
	require.NoError(t, err)
	_, down, found := strings.Cut(string(text), "-- +goose Down")
	require.True(t, found, "%s has a Down section", newest)
	version, err := strconv.Atoi(strings.SplitN(newest, "_", 2)[0])
	require.NoError(t, err)
	_, err = pool.Exec(ctx, down)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, "DELETE FROM goose_db_version WHERE version_id = $1", version)
	require.NoError(t, err)

	env := map[string]string{"DATABASE_URL": dbURL}
	require.NoError(t, run(ctx, []string{"--migrate-only", "--listen", "0.0.0.0:1"}, func(k string) string { return env[k] }, io.Discard))
	var applied bool
	require.NoError(t, pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM goose_db_version WHERE version_id = $1 AND is_applied)", version).Scan(&applied))
	require.True(t, applied, "migration %s applied again", newest)
}

func TestRefusesUnmigratedDatabase(t *testing.T) {
	t.Parallel()
	pool, dbURL := pgtest.NewDB(t)
	_, err := pool.Exec(context.Background(), "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)")
	require.NoError(t, err)
	env := map[string]string{"DATABASE_URL": dbURL, "CODEMODE_LISTEN": freeAddr(t)}
	err = run(context.Background(), nil, func(k string) string { return env[k] }, io.Discard)
	require.ErrorIs(t, err, migrate.ErrPending)
	require.Contains(t, err.Error(), "--migrate")
}

func TestRefusesBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
		wantIs  error
	}{
		{name: "no database", env: map[string]string{}, wantErr: "DATABASE_URL"},
		{name: "public address without token", args: []string{"--listen", "0.0.0.0:0"}, env: map[string]string{"DATABASE_URL": "postgres://x"}, wantIs: api.ErrInsecureListen},
		{name: "bad log level", args: []string{"--log-level", "loud"}, env: map[string]string{}, wantErr: "log level"},
		{name: "unknown flag", args: []string{"--nope"}, env: map[string]string{}, wantErr: "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := run(context.Background(), tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			require.Error(t, err)
			if tt.wantIs != nil {
				require.ErrorIs(t, err, tt.wantIs)
			}
			require.Contains(t, fmt.Sprint(err), tt.wantErr)
		})
	}
}

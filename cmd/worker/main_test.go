package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestRefusesBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantMsg string
	}{
		{name: "no database", env: map[string]string{}, wantMsg: "DATABASE_URL"},
		{name: "bad log level", args: []string{"--log-level", "loud"}, env: map[string]string{"DATABASE_URL": "postgres://x"}, wantMsg: "log level"},
		{name: "unknown flag", args: []string{"--nope"}, env: map[string]string{}, wantMsg: "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := run(context.Background(), tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			require.ErrorContains(t, err, tt.wantMsg)
		})
	}
}

func TestRefusesUnmigratedDatabase(t *testing.T) {
	t.Parallel()
	pool, dbURL := pgtest.NewDB(t)
	_, err := pool.Exec(context.Background(), "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)")
	require.NoError(t, err)
	env := map[string]string{"DATABASE_URL": dbURL}
	err = run(context.Background(), nil, func(k string) string { return env[k] }, io.Discard)
	require.ErrorIs(t, err, migrate.ErrPending)
}

func TestDrainsOnSignal(t *testing.T) {
	t.Parallel()
	_, dbURL := pgtest.NewDB(t)
	env := map[string]string{"DATABASE_URL": dbURL}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--drain-timeout", "5s", "--metrics-listen", "127.0.0.1:0"}, func(k string) string { return env[k] }, logs)
	}()
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "worker started") }, 30*time.Second, 10*time.Millisecond)
	cancel() // what SIGTERM does
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop")
	}
	require.Contains(t, logs.String(), "draining")
}

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

package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

// TestRiverUIBehindToken serves the River UI under /river: without the API token (as a
// bearer token or the password of basic auth) it answers 401 inviting basic auth; with it, the
// UI's page and its API (the job queue's queues) answer.
func TestRiverUIBehindToken(t *testing.T) {
	t.Parallel()
	_, dbURL := pgtest.NewDB(t)
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": dbURL, "CODEMODE_LISTEN": addr, "CODEMODE_API_TOKEN": "tok"}
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--migrate"}, func(k string) string { return env[k] }, &logs) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 30*time.Second, 50*time.Millisecond, "server never ready: %s", logs.String())

	get := func(path string, auth func(*http.Request)) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
		require.NoError(t, err)
		auth(req)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, resp.Header, string(body)
	}
	none := func(*http.Request) {}
	basic := func(pass string) func(*http.Request) { return func(r *http.Request) { r.SetBasicAuth("admin", pass) } }
	bearer := func(r *http.Request) { r.Header.Set("Authorization", "Bearer tok") }

	status, header, _ := get("/river/", none)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Contains(t, header.Get("WWW-Authenticate"), "Basic")
	status, _, _ = get("/river/api/queues", basic("wrong"))
	require.Equal(t, http.StatusUnauthorized, status)
	status, _, _ = get("/river/api/queues", func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") })
	require.Equal(t, http.StatusUnauthorized, status)

	status, _, body := get("/river/", basic("tok"))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, strings.ToLower(body), "<html")
	status, _, body = get("/river/api/queues", bearer)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"data"`)
	status, _, body = get("/river/api/jobs?state=completed", basic("tok"))
	require.Equal(t, http.StatusOK, status, body)
}

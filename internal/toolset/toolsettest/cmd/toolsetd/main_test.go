package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestServeAndStop(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "listening on http://127.0.0.1:"), line)
	url := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))

	resp, err := http.Get(url)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(body), `"math.add"`)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("toolsetd did not stop")
	}
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"-nope"}, io.Discard)
	require.Error(t, err)
	err = run(context.Background(), []string{"-listen", "not-an-address"}, io.Discard)
	require.Error(t, err)
}

package client_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/sse"
	"github.com/codemode/codemode/internal/sse/ssetest"
)

// A stream cut while the run goes on is opened again from the last event: the whole timeline
// comes through once, in order, and the iteration ends when the run has finished.
func TestEventsFollowTheRunAcrossABrokenStream(t *testing.T) {
	t.Parallel()
	defer client.SetReconnectPause(50 * time.Millisecond)()
	ctx := context.Background()
	proxy := ssetest.NewCuttingProxy(t, service.URL, ssetest.Abruptly)
	c, err := client.New(proxy.URL, "")
	require.NoError(t, err)
	run, err := c.CreateAndWait(ctx, approval, &client.RunOptions{Toolsets: []string{"ops"}, Timeout: 30 * time.Second})
	require.NoError(t, err)
	require.Equal(t, client.RunStatusSuspended, run.Status)

	done := streamEvents(ctx, c, run.Id)
	require.Eventually(t, func() bool { return proxy.Streams.Load() >= 2 }, 30*time.Second, 10*time.Millisecond,
		"the stream was not opened again after it was cut")
	_, err = newClient(t).Complete(ctx, run.Id, run.Pending[0].CallId, map[string]any{"approved": true})
	require.NoError(t, err)

	var s streamed
	select {
	case s = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the events did not end after the run finished")
	}
	require.NoError(t, s.err)
	var all []client.Event
	for e, err := range newClient(t).Events(ctx, run.Id, 0) {
		require.NoError(t, err)
		all = append(all, e)
	}
	require.Equal(t, all, s.events)
	for i, e := range s.events {
		require.EqualValues(t, i+1, e.Seq)
	}
	require.Equal(t, "finished", s.events[len(s.events)-1].Type)
}

// A line too long to read is there again on every stream: Events reports it rather than
// opening the stream again and again.
func TestEventsReportALineTooLongToRead(t *testing.T) {
	t.Parallel()
	var streams atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/events") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"r1","status":"running","code":"1","limits":{},"pending":[],`+
				`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`)
			return
		}
		streams.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "id: 1\ndata: {\"seq\":1,\"type\":\"created\",\"data\":{},\"at\":\"2026-01-01T00:00:00Z\"}\n\n")
		_, _ = io.WriteString(w, "data: "+strings.Repeat("x", 17<<20)+"\n\n")
	}))
	defer srv.Close()
	defer client.SetReconnectPause(time.Millisecond)()
	c, err := client.New(srv.URL, "")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var seqs []int64
	var last error
	for e, err := range c.Events(ctx, "r1", 0) {
		if err != nil {
			last = err
			break
		}
		seqs = append(seqs, e.Seq)
	}
	require.Equal(t, []int64{1}, seqs)
	require.ErrorIs(t, last, sse.ErrLineTooLong)
	require.EqualValues(t, 1, streams.Load())
}

// A stream opened again that repeats events given already (a server or proxy that ignores
// after) does not make Events give them twice.
func TestEventsGiveEachEventOnce(t *testing.T) {
	t.Parallel()
	var streams, gets atomic.Int32
	event := func(seq int, typ string) string {
		return fmt.Sprintf("id: %d\ndata: {\"seq\":%d,\"type\":%q,\"data\":{},\"at\":\"2026-01-01T00:00:00Z\"}\n\n", seq, seq, typ)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/events") {
			status := "running"
			if gets.Add(1) > 1 {
				status = "succeeded"
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"id":"r1","status":%q,"code":"1","limits":{},"pending":[],`+
				`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`, status)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, event(1, "created"))
		if streams.Add(1) > 1 {
			_, _ = io.WriteString(w, event(2, "finished"))
		}
	}))
	defer srv.Close()
	defer client.SetReconnectPause(time.Millisecond)()
	c, err := client.New(srv.URL, "")
	require.NoError(t, err)
	var seqs []int64
	for e, err := range c.Events(context.Background(), "r1", 0) {
		require.NoError(t, err)
		seqs = append(seqs, e.Seq)
	}
	require.Equal(t, []int64{1, 2}, seqs)
	require.EqualValues(t, 3, streams.Load())
}

// A finished run's stream that ends early but cleanly (as a proxy's timeout may end it) is
// read again: Events gives every event.
func TestEventsReadAFinishedRunsStreamThatEndedEarlyAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	run, err := newClient(t).CreateAndWait(ctx, "1 + 1", &client.RunOptions{Timeout: 30 * time.Second})
	require.NoError(t, err)
	require.True(t, run.Finished())
	proxy := ssetest.NewCuttingProxy(t, service.URL, ssetest.Cleanly)
	c, err := client.New(proxy.URL, "")
	require.NoError(t, err)
	var got, all []client.Event
	for e, err := range c.Events(ctx, run.Id, 0) {
		require.NoError(t, err)
		got = append(got, e)
	}
	for e, err := range newClient(t).Events(ctx, run.Id, 0) {
		require.NoError(t, err)
		all = append(all, e)
	}
	require.Greater(t, len(all), 1)
	require.Equal(t, all, got)
	require.EqualValues(t, 2, proxy.Streams.Load())
}

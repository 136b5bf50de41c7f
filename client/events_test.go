package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/sse/ssetest"
)

// A stream cut while the run goes on is opened again from the last event: the whole timeline
// comes through once, in order, and the iteration ends when the run has finished.
func TestEventsFollowTheRunAcrossABrokenStream(t *testing.T) {
	t.Parallel()
	defer client.SetReconnectPause(50 * time.Millisecond)()
	ctx := context.Background()
	proxy := ssetest.NewCuttingProxy(t, service.URL)
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

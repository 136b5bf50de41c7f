package client_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/clienttest"
)

// The tests and the example run against one fresh service, named by CODEMODE_URL.
var service *clienttest.Service

func TestMain(m *testing.M) {
	var logs bytes.Buffer
	svc, err := clienttest.Start(context.Background(), &logs)
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting codemode dev: %v\n%s", err, logs.Bytes())
		os.Exit(1)
	}
	service = svc
	_ = os.Setenv("CODEMODE_URL", svc.URL)
	code := m.Run()
	svc.Stop()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "service logs:\n%s", logs.Bytes())
	}
	os.Exit(code)
}

const approval = `const {sum} = await tools.ops.math.add({a: 2, b: 40});
const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
return ok.approved ? sum : -1`

func newClient(t *testing.T) *client.Codemode {
	t.Helper()
	c, err := client.New(service.URL+"/", "")
	require.NoError(t, err)
	return c
}

// streamed is what an iteration of Events gave: its events, and the error that ended it.
type streamed struct {
	events []client.Event
	err    error
}

// streamEvents follows the run's events from the start in a goroutine and sends what it got
// once the iteration is over.
func streamEvents(ctx context.Context, c *client.Codemode, runID string) <-chan streamed {
	done := make(chan streamed, 1)
	go func() {
		var s streamed
		for e, err := range c.Events(ctx, runID, 0) {
			if err != nil {
				s.err = err
				break
			}
			s.events = append(s.events, e)
		}
		done <- s
	}()
	return done
}

// create → suspended on the approval → approve → 42, with the timeline streamed meanwhile.
func TestApproveFlow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClient(t)
	run, err := c.CreateAndWait(ctx, approval, &client.RunOptions{Toolsets: []string{"ops"}, Timeout: 30 * time.Second})
	require.NoError(t, err)
	require.Equal(t, client.RunStatusSuspended, run.Status)
	require.True(t, run.Settled())
	require.False(t, run.Finished())
	require.Len(t, run.Pending, 1)
	call := run.Pending[0]
	require.Equal(t, 2, call.CallId)
	require.Equal(t, "ops.approvals.request", call.Path)
	require.Equal(t, run.Id+":2", call.Key)
	var sum int
	require.ErrorContains(t, run.Decode(&sum), "not finished")

	events := streamEvents(ctx, c, run.Id)

	accepted, err := c.Complete(ctx, run.Id, call.CallId, map[string]any{"approved": true})
	require.NoError(t, err)
	require.Equal(t, client.Recorded, accepted.Status)
	// The same outcome again changes nothing.
	accepted, err = c.Complete(ctx, run.Id, call.CallId, map[string]any{"approved": true})
	require.NoError(t, err)
	require.Equal(t, client.Duplicate, accepted.Status)
	// Another outcome for the settled call is a conflict.
	_, err = c.Fail(ctx, run.Id, call.CallId, "changed my mind")
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 409, apiErr.StatusCode)
	require.Equal(t, "conflict", apiErr.Code)

	run, err = c.Wait(ctx, run.Id, 30*time.Second)
	require.NoError(t, err)
	require.Equal(t, client.RunStatusSucceeded, run.Status)
	require.NoError(t, run.Decode(&sum))
	require.Equal(t, 42, sum)

	select {
	case s := <-events:
		require.NoError(t, s.err)
		var types []string
		for _, e := range s.events {
			types = append(types, e.Type)
		}
		require.Contains(t, types, "suspended")
		require.Equal(t, "finished", types[len(types)-1], "events %v", types)
	case <-time.After(30 * time.Second):
		t.Fatal("the event stream did not end after the run finished")
	}
}

// A failed outcome throws in the program; uncaught, the run fails with a RunError.
func TestFailFlow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClient(t)
	run, err := c.CreateAndWait(ctx, approval, nil)
	require.NoError(t, err)
	require.Equal(t, client.RunStatusSuspended, run.Status)
	_, err = c.Fail(ctx, run.Id, run.Pending[0].CallId, "not today")
	require.NoError(t, err)
	run, err = c.Wait(ctx, run.Id, 30*time.Second)
	require.NoError(t, err)
	require.Equal(t, client.RunStatusFailed, run.Status)
	var sum int
	err = run.Decode(&sum)
	var runErr *client.RunError
	require.ErrorAs(t, err, &runErr)
	require.Equal(t, run.Id, runErr.RunID)
	require.Contains(t, runErr.Message, "not today")
}

// Waits that end before the run settles return it as last seen with ErrWaitTimeout; error
// answers are APIErrors; the generated operations are there too.
func TestErrorsAndTimeouts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClient(t)

	run, err := c.CreateAndWait(ctx, `await tools.ops.slow({ms: 3000}); return 1`, &client.RunOptions{Timeout: 200 * time.Millisecond})
	require.ErrorIs(t, err, client.ErrWaitTimeout)
	require.NotNil(t, run)
	require.False(t, run.Settled())
	run, err = c.Wait(ctx, run.Id, 30*time.Second)
	require.NoError(t, err)
	var one int
	require.NoError(t, run.Decode(&one))
	require.Equal(t, 1, one)

	_, err = c.Get(ctx, "run_does_not_exist")
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 404, apiErr.StatusCode)
	require.Equal(t, "not_found", apiErr.Code)

	_, err = c.CreateAndWait(ctx, "return 1", &client.RunOptions{Toolsets: []string{"nope"}})
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 404, apiErr.StatusCode)

	list, err := c.ListToolsetsWithResponse(ctx)
	require.NoError(t, err)
	require.NotNil(t, list.JSON200)
	require.Equal(t, "ops", list.JSON200.Toolsets[0].Name)

	// A token is sent as the bearer token (this service has none and ignores it).
	withToken, err := client.New(service.URL, "secret")
	require.NoError(t, err)
	run, err = withToken.CreateAndWait(ctx, "return 'ok'", nil)
	require.NoError(t, err)
	require.Equal(t, client.RunStatusSucceeded, run.Status)

	for _, err := range c.Events(ctx, "run_does_not_exist", 0) {
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, 404, apiErr.StatusCode)
	}
}

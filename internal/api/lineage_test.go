package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
)

// TestRetryAndFork retries and forks through the API: 201 with the new run and its lineage,
// 409 for a run that cannot be retried, 404 for a snapshot or call the history does not name,
// 400 for a request naming no fork point or two, and the original shows the runs started from
// it.
func TestRetryAndFork(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	created, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: "wait"})
	require.NoError(t, err)
	id := created.JSON201.Id
	_, err = b.store.WaitRun(b.ctx, id, 30*time.Second, func(s string) bool { return s == "suspended" })
	require.NoError(t, err)

	status, body := b.do(t, http.MethodPost, "/v1/runs/"+id+"/retry", "")
	require.Equal(t, http.StatusConflict, status, string(body))
	code, msg := errorCode(t, body)
	require.Equal(t, CodeConflict, code)
	require.Contains(t, msg, "only a failed or cancelled run can be retried")

	_, err = b.client.CancelRunWithResponse(b.ctx, id)
	require.NoError(t, err)
	retryKey := &client.RetryRunParams{IdempotencyKey: ptr("retry-1")}
	retried, err := b.client.RetryRunWithResponse(b.ctx, id, retryKey)
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, retried.StatusCode(), string(retried.Body))
	require.Equal(t, "wait", retried.JSON201.Code)
	require.NotNil(t, retried.JSON201.Lineage)
	require.Equal(t, id, *retried.JSON201.Lineage.RetriedFrom)
	// The same retry again with its key (a client retrying after a lost answer): the first
	// one's run, 200, and no second run.
	again, err := b.client.RetryRunWithResponse(b.ctx, id, retryKey)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, again.StatusCode(), string(again.Body))
	require.Equal(t, retried.JSON201.Id, again.JSON200.Id)

	fork := client.RunFork{FromSnapshot: ptr(0), Code: ptr("plain")}
	forkKey := &client.ForkRunParams{IdempotencyKey: ptr("fork-1")}
	forked, err := b.client.ForkRunWithResponse(b.ctx, id, forkKey, fork)
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, forked.StatusCode(), string(forked.Body))
	require.Equal(t, "plain", forked.JSON201.Code)
	require.Equal(t, id, *forked.JSON201.Lineage.ForkedFrom)
	require.Equal(t, 0, *forked.JSON201.Lineage.FromSnapshot)
	require.Nil(t, forked.JSON201.Lineage.AfterCall)
	forkedAgain, err := b.client.ForkRunWithResponse(b.ctx, id, forkKey, fork)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, forkedAgain.StatusCode(), string(forkedAgain.Body))
	require.Equal(t, forked.JSON201.Id, forkedAgain.JSON200.Id)
	// A key stands for one request: another fork, or a retry, with it is a conflict.
	for _, reuse := range []func() (*http.Response, error){
		func() (*http.Response, error) {
			r, err := b.client.ForkRunWithResponse(b.ctx, id, forkKey, client.RunFork{FromSnapshot: ptr(0), Code: ptr("other")})
			return r.HTTPResponse, err
		},
		func() (*http.Response, error) {
			r, err := b.client.RetryRunWithResponse(b.ctx, id, &client.RetryRunParams{IdempotencyKey: ptr("fork-1")})
			return r.HTTPResponse, err
		},
	} {
		resp, err := reuse()
		require.NoError(t, err)
		require.Equal(t, http.StatusConflict, resp.StatusCode)
	}

	status, body = b.do(t, http.MethodPost, "/v1/runs/"+id+"/fork", `{"fromSnapshot": 99}`)
	require.Equal(t, http.StatusNotFound, status, string(body))
	status, body = b.do(t, http.MethodPost, "/v1/runs/"+id+"/fork", `{"afterCall": 5}`)
	require.Equal(t, http.StatusNotFound, status, string(body))
	_, msg = errorCode(t, body)
	require.Contains(t, msg, "the settlement of call 5")
	for _, bad := range []struct{ body, message string }{
		{`{"fromSnapshot": -1}`, "fromSnapshot"},
		{`{"afterCall": 0}`, "afterCall"},
		{`{"fromSnapshot": 0, "afterCall": 1}`, "not both"},
		{`{"code": "plain"}`, "give the fork point"},
	} {
		status, body = b.do(t, http.MethodPost, "/v1/runs/"+id+"/fork", bad.body)
		require.Equal(t, http.StatusBadRequest, status, string(body))
		code, msg = errorCode(t, body)
		require.Equal(t, CodeInvalidRequest, code, bad.body)
		require.Contains(t, msg, bad.message, bad.body)
	}
	status, _ = b.do(t, http.MethodPost, "/v1/runs/00000000-0000-0000-0000-000000000000/retry", "")
	require.Equal(t, http.StatusNotFound, status)

	orig, err := b.client.GetRunWithResponse(b.ctx, id, &client.GetRunParams{})
	require.NoError(t, err)
	require.NotNil(t, orig.JSON200.Lineage)
	require.ElementsMatch(t, []string{retried.JSON201.Id, forked.JSON201.Id}, *orig.JSON200.Lineage.Derived)
	plain, err := b.client.GetRunWithResponse(b.ctx, retried.JSON201.Id, &client.GetRunParams{})
	require.NoError(t, err)
	require.Nil(t, plain.JSON200.Lineage.Derived)

	events, err := b.client.ListEventsWithResponse(b.ctx, id, &client.ListEventsParams{})
	require.NoError(t, err)
	var derived []string
	for _, e := range events.JSON200.Events {
		if e.Type == "derived" {
			derived = append(derived, e.Data["as"].(string))
		}
	}
	require.Equal(t, []string{"retry", "fork"}, derived)
}

func ptr[T any](v T) *T { return &v }

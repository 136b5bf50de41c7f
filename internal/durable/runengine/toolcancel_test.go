package runengine

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// cancelToolset is a real toolset over HTTP (toolsettest's tools, signed calls) whose cancel
// requests are recorded and held until the test releases them, so that a test can tell
// whether anything waited for a cancel's answer.
type cancelToolset struct {
	t        *testing.T
	tools    *toolsettest.Handler
	key      *signing.Key
	release  chan struct{}
	open     sync.Once
	statuses []int // the answers of the successive cancels of one key; then 200
	// slowStart delays the answer to approvals.request calls with reason "slow".
	slowStart time.Duration

	mu        sync.Mutex
	cancels   map[string][]cancelSeen // by the cancelled call's key
	answered  int                     // cancel requests answered
	abandoned int                     // cancel requests whose client gave up on them
}

type cancelSeen struct {
	idempotencyKey, webhookID string
	signed                    error // the signature check
	body                      []byte
}

func newCancelToolset(t *testing.T, secret string) *cancelToolset {
	tools, err := toolsettest.NewHandler(toolsettest.Options{Secret: secret})
	require.NoError(t, err)
	key, err := signing.ParseSecret(secret)
	require.NoError(t, err)
	return &cancelToolset{t: t, tools: tools, key: key, release: make(chan struct{}), cancels: map[string][]cancelSeen{}}
}

func (c *cancelToolset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Input struct {
			Reason string `json:"reason"`
		} `json:"input"`
		Cancel *struct {
			Key string `json:"key"`
		} `json:"cancel"`
	}
	if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil || req.Cancel == nil {
		if req.Input.Reason == "slow" {
			time.Sleep(c.slowStart)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		c.tools.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	n := len(c.cancels[req.Cancel.Key])
	c.cancels[req.Cancel.Key] = append(c.cancels[req.Cancel.Key], cancelSeen{
		idempotencyKey: r.Header.Get("Idempotency-Key"), webhookID: r.Header.Get(signing.HeaderID),
		signed: c.key.Verify(r.Header, body), body: body,
	})
	c.mu.Unlock()
	select {
	case <-c.release:
	case <-r.Context().Done():
		c.mu.Lock()
		c.abandoned++
		c.mu.Unlock()
		return
	}
	status := http.StatusOK
	if n < len(c.statuses) {
		status = c.statuses[n]
	}
	c.mu.Lock()
	c.answered++
	c.mu.Unlock()
	w.WriteHeader(status)
	_, _ = io.WriteString(w, `{}`)
}

// answer lets the held cancel requests, and every later one, be answered.
func (c *cancelToolset) answer() { c.open.Do(func() { close(c.release) }) }

// seen returns the cancel requests received for the call with key.
func (c *cancelToolset) seen(key string) []cancelSeen {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]cancelSeen(nil), c.cancels[key]...)
}

// settled returns how many cancel requests were answered, and how many abandoned by their
// client.
func (c *cancelToolset) settled() (answered, abandoned int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answered, c.abandoned
}

// cancelJobState is the state of the call.cancel job of a call, and its attempts.
func (b *testBundle) cancelJobState(t *testing.T, runID string, callID int) (state string, attempts int) {
	t.Helper()
	err := b.store.Pool().QueryRow(b.ctx, `SELECT state, attempt FROM river_job
		WHERE kind = 'call.cancel' AND args->>'run_id' = $1 AND (args->>'call_id')::int = $2`, runID, callID).Scan(&state, &attempts)
	if err != nil {
		return "", 0
	}
	return state, attempts
}

// A durable call still pending when its run ends is cancelled at its toolset exactly once, by
// the service's call.cancel job, with a signed request under "<key>:cancel"; the run reaches its
// final state without waiting for that cancel (it is held unanswered until then). A permanent
// refusal is not retried; a transient failure is.
func TestPendingDurableCallIsCancelledOnceWhenTheRunEnds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const secret = "whsec_c2VjcmV0LWZvci10aGUtY2FuY2Vs"
	ts := newCancelToolset(t, secret)
	ts.slowStart = 300 * time.Millisecond
	srv := httptest.NewServer(ts)
	t.Cleanup(srv.Close)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "ts", URL: srv.URL, Secret: secret, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	b.startWorker(t)

	// waitFinal polls the run until it is final and reports whether any cancel request had
	// been answered or given up on by then.
	waitFinal := func(t *testing.T, id string) (durable.Run, int, int) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			run, err := b.store.GetRun(b.ctx, id)
			require.NoError(t, err)
			answered, abandoned := ts.settled()
			if durable.IsFinal(run.Status) {
				return run, answered, abandoned
			}
			require.True(t, time.Now().Before(deadline), "run %s never ended: %s", id, run.Status)
			time.Sleep(5 * time.Millisecond)
		}
	}
	checkCancel := func(t *testing.T, got cancelSeen, key string) {
		t.Helper()
		require.Equal(t, key+":cancel", got.idempotencyKey, "the cancel has its own idempotency key")
		require.Equal(t, key+":cancel", got.webhookID)
		require.NoError(t, got.signed, "the cancel is signed with the toolset's secret")
		require.JSONEq(t, `{"cancel":{"tool":"approvals.request","key":"`+key+`","handle":{"approvalId":"apr_`+key+`"}}}`, string(got.body))
	}

	t.Run("program returns past a pending durable call", func(t *testing.T) {
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await Promise.race([tools.ts.approvals.request({reason: "left behind"}), tools.ts.math.add({a: 1, b: 2})]);
return r.sum;
`})
		require.NoError(t, err)
		defer ts.answer()
		final, answered, abandoned := waitFinal(t, run.ID)
		require.Equal(t, durable.StatusSucceeded, final.Status, "result %s", final.Result)
		require.Zero(t, answered+abandoned, "the run ended without waiting for a cancel's answer")

		ts.answer() // from now on cancels are answered at once
		key := toolcall.Key(run.ID, 1)
		waitDB(t, 30*time.Second, "the cancel job to complete", func() bool {
			state, _ := b.cancelJobState(t, run.ID, 1)
			return state == "completed"
		})
		got := ts.seen(key)
		require.Len(t, got, 1, "exactly one cancel request")
		checkCancel(t, got[0], key)
		calls, err := b.store.ListCalls(b.ctx, run.ID)
		require.NoError(t, err)
		require.Equal(t, durable.CallCancelled, calls[0].Status)
	})

	t.Run("run cancelled while suspended", func(t *testing.T) {
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return await tools.ts.approvals.request({reason: "never answered"})`})
		require.NoError(t, err)
		b.waitStatus(t, run.ID, durable.StatusSuspended)
		_, err = b.store.CancelRun(b.ctx, run.ID)
		require.NoError(t, err)
		key := toolcall.Key(run.ID, 1)
		waitDB(t, 30*time.Second, "the cancel job to complete", func() bool {
			state, _ := b.cancelJobState(t, run.ID, 1)
			return state == "completed"
		})
		got := ts.seen(key)
		require.Len(t, got, 1, "exactly one cancel request")
		checkCancel(t, got[0], key)
	})

	// The durable call's start answers after the program returned: the run still learns its
	// handle before it ends, so the work is cancelled.
	t.Run("program returns while a durable call is starting", func(t *testing.T) {
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `
const r = await Promise.race([tools.ts.approvals.request({reason: "slow"}), tools.ts.math.add({a: 1, b: 2})]);
return r.sum;
`})
		require.NoError(t, err)
		final := b.waitStatus(t, run.ID, durable.StatusSucceeded)
		require.Contains(t, string(final.Result), `"path":"ts.approvals.request","status":"cancelled"`)
		key := toolcall.Key(run.ID, 1)
		waitDB(t, 30*time.Second, "the cancel job to complete", func() bool {
			state, _ := b.cancelJobState(t, run.ID, 1)
			return state == "completed"
		})
		got := ts.seen(key)
		require.Len(t, got, 1, "exactly one cancel request")
		checkCancel(t, got[0], key)
	})
}

// A cancel the toolset refuses for good (a 4xx) is not retried; one that fails transiently (a
// 503) is retried by the call.cancel job, signed afresh, until the toolset accepts it.
func TestCancelRetriesOnlyTransientFailures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const secret = "raw-secret-of-the-toolset"
	ts := newCancelToolset(t, secret)
	ts.answer()
	srv := httptest.NewServer(ts)
	t.Cleanup(srv.Close)
	_, err := b.store.CreateToolset(b.ctx, durable.Toolset{Name: "ts", URL: srv.URL, Secret: secret, Manifest: json.RawMessage(toolsettest.Manifest)})
	require.NoError(t, err)
	b.startWorker(t)

	cancelled := func(t *testing.T, statuses ...int) (string, int, []cancelSeen) {
		t.Helper()
		ts.mu.Lock()
		ts.statuses = statuses
		ts.mu.Unlock()
		run, _, err := b.store.CreateRun(b.ctx, durable.NewRun{Code: `return await tools.ts.approvals.request({reason: "r"})`})
		require.NoError(t, err)
		b.waitStatus(t, run.ID, durable.StatusSuspended)
		_, err = b.store.CancelRun(b.ctx, run.ID)
		require.NoError(t, err)
		var (
			state    string
			attempts int
		)
		waitDB(t, 60*time.Second, "the cancel job to end", func() bool {
			state, attempts = b.cancelJobState(t, run.ID, 1)
			return state == "completed" || state == "cancelled" || state == "discarded"
		})
		return state, attempts, ts.seen(toolcall.Key(run.ID, 1))
	}

	t.Run("refused", func(t *testing.T) {
		state, attempts, got := cancelled(t, http.StatusBadRequest)
		require.Equal(t, "cancelled", state, "a refused cancel is not retried")
		require.Equal(t, 1, attempts)
		require.Len(t, got, 1)
		require.NoError(t, got[0].signed)
	})
	t.Run("unavailable once", func(t *testing.T) {
		state, attempts, got := cancelled(t, http.StatusServiceUnavailable)
		require.Equal(t, "completed", state)
		require.Equal(t, 2, attempts, "the job retried the cancel")
		require.Len(t, got, 2)
		for _, g := range got {
			require.NoError(t, g.signed)
		}
	})
}

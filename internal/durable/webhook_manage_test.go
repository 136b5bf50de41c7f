package durable

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

func TestSubscriptionLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	created, err := b.store.CreateSubscription(b.ctx, Subscription{URL: "http://127.0.0.1:1/a", Secret: "whsec_c2Vjb25k", Events: []string{WebhookRunCompleted}})
	require.NoError(t, err)
	require.True(t, created.Enabled)
	require.Empty(t, created.Secret, "the secret is not handed back")

	got, err := b.store.GetSubscription(b.ctx, created.ID)
	require.NoError(t, err)
	require.Equal(t, created.URL, got.URL)
	require.Empty(t, got.Secret)
	list, err := b.store.ListSubscriptions(b.ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)

	var sealedBefore, sealedAfter []byte
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT secret_sealed FROM webhook_subscriptions").Scan(&sealedBefore))
	url, secret, off := "http://127.0.0.1:1/b", "whsec_dGhpcmQ=", false
	updated, err := b.store.UpdateSubscription(b.ctx, created.ID, SubscriptionUpdate{URL: &url, Secret: &secret, Events: []string{WebhookCallPending, WebhookRunFailed}, Enabled: &off})
	require.NoError(t, err)
	require.Equal(t, url, updated.URL)
	require.Equal(t, []string{WebhookCallPending, WebhookRunFailed}, updated.Events)
	require.False(t, updated.Enabled)
	require.NotEmpty(t, updated.DisabledReason)
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT secret_sealed FROM webhook_subscriptions").Scan(&sealedAfter))
	require.NotEqual(t, sealedBefore, sealedAfter, "the new secret is sealed")

	on := true
	updated, err = b.store.UpdateSubscription(b.ctx, created.ID, SubscriptionUpdate{Enabled: &on})
	require.NoError(t, err)
	require.True(t, updated.Enabled)
	require.Empty(t, updated.DisabledReason)
	require.Equal(t, url, updated.URL, "fields not given are kept")

	require.NoError(t, b.store.DeleteSubscription(b.ctx, created.ID))
	require.ErrorIs(t, b.store.DeleteSubscription(b.ctx, created.ID), ErrWebhookNotFound)
	_, err = b.store.GetSubscription(b.ctx, created.ID)
	require.ErrorIs(t, err, ErrWebhookNotFound)
	_, err = b.store.GetSubscription(b.ctx, "not-a-uuid")
	require.ErrorIs(t, err, ErrWebhookNotFound)
	_, err = b.store.UpdateSubscription(b.ctx, created.ID, SubscriptionUpdate{Enabled: &on})
	require.ErrorIs(t, err, ErrWebhookNotFound)
}

// finishRun creates a run and finishes it, which sends run.completed.
func (b *testBundle) finishRun(t *testing.T, store *Store, jobID int64) Run {
	t.Helper()
	run, _, err := store.CreateRun(b.ctx, NewRun{Code: "x"})
	require.NoError(t, err)
	lease, _, err := store.acquire(b.ctx, run.ID, jobID, 0)
	require.NoError(t, err)
	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true}))
	return run
}

// A delivery's log records each attempt; a redelivery starts over under the same id.
func TestDeliveryLogAndRedeliver(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var (
		failing atomic.Bool
		mu      sync.Mutex
		ids     []string
	)
	failing.Store(true)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ids = append(ids, r.Header.Get("webhook-id"))
		mu.Unlock()
		if failing.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)
	sub, err := b.store.CreateSubscription(b.ctx, Subscription{URL: receiver.URL, Secret: "whsec_c2Vjb25k", Events: []string{WebhookRunCompleted}})
	require.NoError(t, err)
	run := b.finishRun(t, b.store, 1)

	deliveries, err := b.store.ListDeliveries(b.ctx, DeliveryFilter{SubscriptionID: sub.ID}, 10)
	require.NoError(t, err)
	require.Len(t, deliveries, 1)
	d := deliveries[0]
	require.Equal(t, DeliveryPending, d.Status)
	require.Equal(t, run.ID, d.RunID)
	require.Equal(t, WebhookRunCompleted, d.EventType)

	require.Error(t, b.store.deliverWebhook(b.ctx, d.ID, false))
	deliveries, err = b.store.ListDeliveries(b.ctx, DeliveryFilter{RunID: run.ID}, 10)
	require.NoError(t, err)
	require.Len(t, deliveries, 1)
	require.Equal(t, DeliveryPending, deliveries[0].Status)
	require.Equal(t, 1, deliveries[0].Attempts)
	require.Equal(t, http.StatusServiceUnavailable, deliveries[0].LastStatusCode)
	require.Contains(t, deliveries[0].LastError, "status 503")

	_, err = b.store.Redeliver(b.ctx, d.ID)
	require.ErrorIs(t, err, ErrDeliveryInProgress)

	failing.Store(false)
	require.NoError(t, b.store.deliverWebhook(b.ctx, d.ID, false))
	deliveries, err = b.store.ListDeliveries(b.ctx, DeliveryFilter{SubscriptionID: sub.ID}, 10)
	require.NoError(t, err)
	got := deliveries[0]
	require.Equal(t, DeliveryDelivered, got.Status)
	require.Equal(t, 2, got.Attempts)
	require.Equal(t, http.StatusNoContent, got.LastStatusCode)
	require.Empty(t, got.LastError)
	require.NotNil(t, got.DeliveredAt)

	again, err := b.store.Redeliver(b.ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, DeliveryPending, again.Status)
	require.Zero(t, again.Attempts, "a redelivery starts with fresh attempts")
	require.Equal(t, 1, again.Redeliveries)
	var jobs int
	require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT count(*) FROM river_job WHERE kind = 'webhook.deliver' AND args->>'delivery_id' = $1", d.ID).Scan(&jobs))
	require.Equal(t, 2, jobs, "the redelivery is a job of its own")
	require.NoError(t, b.store.deliverWebhook(b.ctx, d.ID, false))
	deliveries, err = b.store.ListDeliveries(b.ctx, DeliveryFilter{SubscriptionID: sub.ID}, 10)
	require.NoError(t, err)
	require.Equal(t, DeliveryDelivered, deliveries[0].Status)
	require.Equal(t, 1, deliveries[0].Attempts)

	mu.Lock()
	require.Equal(t, []string{d.ID, d.ID, d.ID}, ids, "every attempt carries the delivery's webhook-id")
	mu.Unlock()

	_, err = b.store.Redeliver(b.ctx, "msg_nope")
	require.ErrorIs(t, err, ErrDeliveryNotFound)
	_, err = b.store.ListDeliveries(b.ctx, DeliveryFilter{RunID: "00000000-0000-0000-0000-000000000000"}, 10)
	require.ErrorIs(t, err, ErrRunNotFound)
	_, err = b.store.ListDeliveries(b.ctx, DeliveryFilter{SubscriptionID: "00000000-0000-0000-0000-000000000000"}, 10)
	require.ErrorIs(t, err, ErrWebhookNotFound)
}

// After WebhookDisableAfter deliveries in a row failed, a subscription is disabled and gets no
// deliveries until it is enabled again; a delivered one in between resets the count.
func TestSubscriptionDisabledAfterFailures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	store, err := New(b.store.pool, Config{Secrets: b.store.cfg.Secrets, Egress: b.store.cfg.Egress, WebhookDisableAfter: 3})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	var failing atomic.Bool
	failing.Store(true)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, "gone", http.StatusGone)
		}
	}))
	t.Cleanup(receiver.Close)
	sub, err := store.CreateSubscription(b.ctx, Subscription{URL: receiver.URL, Secret: "whsec_c2Vjb25k", Events: []string{WebhookRunCompleted}})
	require.NoError(t, err)

	jobID := int64(0)
	deliverLast := func(wantErr bool) Delivery {
		t.Helper()
		jobID++
		b.finishRun(t, store, jobID)
		ds, err := store.ListDeliveries(b.ctx, DeliveryFilter{SubscriptionID: sub.ID}, 1)
		require.NoError(t, err)
		err = store.deliverWebhook(b.ctx, ds[0].ID, true)
		if wantErr {
			require.Error(t, err)
		} else {
			require.NoError(t, err)
		}
		return ds[0]
	}
	deliverLast(true)
	deliverLast(true)
	failing.Store(false)
	deliverLast(false) // resets the count
	failing.Store(true)
	deliverLast(true)
	deliverLast(true)
	got, err := store.GetSubscription(b.ctx, sub.ID)
	require.NoError(t, err)
	require.True(t, got.Enabled)
	require.Equal(t, 2, got.ConsecutiveFailures)
	last := deliverLast(true)
	got, err = store.GetSubscription(b.ctx, sub.ID)
	require.NoError(t, err)
	require.False(t, got.Enabled, "disabled after 3 failed deliveries in a row")
	require.Contains(t, got.DisabledReason, "3 deliveries in a row failed")
	require.Contains(t, got.DisabledReason, "status 410")
	off := false
	again, err := store.UpdateSubscription(b.ctx, sub.ID, SubscriptionUpdate{Enabled: &off})
	require.NoError(t, err)
	require.Equal(t, got.DisabledReason, again.DisabledReason, "disabling it again keeps the reason")

	run := b.finishRun(t, store, 100)
	ds, err := store.ListDeliveries(b.ctx, DeliveryFilter{RunID: run.ID}, 10)
	require.NoError(t, err)
	require.Empty(t, ds, "a disabled subscription gets no deliveries")
	_, err = store.Redeliver(b.ctx, last.ID)
	require.ErrorIs(t, err, ErrWebhookDisabled)

	on := true
	got, err = store.UpdateSubscription(b.ctx, sub.ID, SubscriptionUpdate{Enabled: &on})
	require.NoError(t, err)
	require.True(t, got.Enabled)
	require.Zero(t, got.ConsecutiveFailures)
	require.Empty(t, got.DisabledReason)
	run = b.finishRun(t, store, 101)
	ds, err = store.ListDeliveries(b.ctx, DeliveryFilter{RunID: run.ID}, 10)
	require.NoError(t, err)
	require.Len(t, ds, 1, "enabled again, it gets deliveries")
	_, err = store.Redeliver(b.ctx, last.ID)
	require.NoError(t, err)

	// A delivery still pending when its subscription is disabled is not sent.
	_, err = store.UpdateSubscription(b.ctx, sub.ID, SubscriptionUpdate{Enabled: &off})
	require.NoError(t, err)
	require.NoError(t, store.deliverWebhook(b.ctx, ds[0].ID, false))
	ds, err = store.ListDeliveries(b.ctx, DeliveryFilter{RunID: run.ID}, 10)
	require.NoError(t, err)
	require.Equal(t, DeliveryFailed, ds[0].Status)
	require.Zero(t, ds[0].Attempts)
	require.Contains(t, ds[0].LastError, "disabled")
}

// call.pending and run.suspended carry what an approver needs: the tool, the arguments, the
// handle and where to post the outcome.
func TestPendingPayloads(t *testing.T) {
	t.Parallel()
	b := setup(t)
	sub, err := b.store.CreateSubscription(b.ctx, Subscription{URL: "http://127.0.0.1:1/a", Secret: "whsec_c2Vjb25k", Events: []string{WebhookCallPending, WebhookRunSuspended}})
	require.NoError(t, err)
	run := b.suspendedRun(t)
	payload := func(event string) string {
		var p string
		require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT payload::text FROM webhook_deliveries WHERE subscription_id = $1 AND event_type = $2", sub.ID, event).Scan(&p))
		return p
	}
	var pending struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(payload(WebhookCallPending)), &pending))
	require.Equal(t, WebhookCallPending, pending.Type)
	require.Equal(t, map[string]any{
		"runId": run.ID, "callId": float64(2), "key": toolcall.Key(run.ID, 2), "toolset": "t", "path": "t.wait",
		"args": nil, "handle": map[string]any{"job": float64(7)}, "outcomeUrl": "/v1/runs/" + run.ID + "/calls/2",
	}, pending.Data)

	var suspended struct {
		Data struct {
			Pending []map[string]any `json:"pending"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(payload(WebhookRunSuspended)), &suspended))
	require.Len(t, suspended.Data.Pending, 1)
	require.Equal(t, "/v1/runs/"+run.ID+"/calls/2", suspended.Data.Pending[0]["outcomeUrl"])
	require.Equal(t, "t.wait", suspended.Data.Pending[0]["path"])
}

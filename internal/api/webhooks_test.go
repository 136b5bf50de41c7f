package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
)

const hookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func TestWebhookSubscriptions(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	noSecret := func(body []byte) {
		t.Helper()
		require.NotContains(t, string(body), "MfKQ9r8G", "the secret is never returned")
		require.NotContains(t, string(body), `"secret"`)
	}

	status, body := b.do(t, "POST", "/v1/webhooks", `{"url": "http://127.0.0.1:1/a", "secret": "`+hookSecret+`", "events": ["run.completed"]}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	noSecret(body)
	var created client.WebhookSubscription
	require.NoError(t, json.Unmarshal(body, &created))
	require.True(t, created.Enabled)

	status, body = b.do(t, "GET", "/v1/webhooks", "")
	require.Equal(t, http.StatusOK, status, "%s", body)
	noSecret(body)
	var list client.WebhookList
	require.NoError(t, json.Unmarshal(body, &list))
	require.Len(t, list.Webhooks, 1)
	require.Equal(t, created.Id, list.Webhooks[0].Id)

	status, body = b.do(t, "GET", "/v1/webhooks/"+created.Id, "")
	require.Equal(t, http.StatusOK, status, "%s", body)
	noSecret(body)

	status, body = b.do(t, "PATCH", "/v1/webhooks/"+created.Id, `{"url": "http://127.0.0.1:1/b", "events": ["call.pending"], "secret": "whsec_c2Vjb25k", "enabled": false}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	noSecret(body)
	require.NotContains(t, string(body), "c2Vjb25k")
	var updated client.WebhookSubscription
	require.NoError(t, json.Unmarshal(body, &updated))
	require.Equal(t, "http://127.0.0.1:1/b", updated.Url)
	require.Equal(t, []string{"call.pending"}, updated.Events)
	require.False(t, updated.Enabled)
	require.NotNil(t, updated.DisabledReason)

	status, body = b.do(t, "PATCH", "/v1/webhooks/"+created.Id, `{"enabled": true}`)
	require.Equal(t, http.StatusOK, status, "%s", body)
	updated = client.WebhookSubscription{}
	require.NoError(t, json.Unmarshal(body, &updated))
	require.True(t, updated.Enabled)
	require.Nil(t, updated.DisabledReason)
	require.Equal(t, "http://127.0.0.1:1/b", updated.Url)

	for _, tt := range []struct{ name, body string }{
		{"empty", `{}`},
		{"unknown field", `{"enabled": true, "nope": 1}`},
		{"unknown event", `{"events": ["run.nope"]}`},
		{"bad secret", `{"secret": "whsec_***"}`},
	} {
		status, body = b.do(t, "PATCH", "/v1/webhooks/"+created.Id, tt.body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", tt.name, body)
	}

	for _, path := range []string{"/v1/webhooks/00000000-0000-0000-0000-000000000000", "/v1/webhooks/nope"} {
		status, body = b.do(t, "GET", path, "")
		require.Equal(t, http.StatusNotFound, status, "%s", body)
		status, body = b.do(t, "PATCH", path, `{"enabled": true}`)
		require.Equal(t, http.StatusNotFound, status, "%s", body)
		status, body = b.do(t, "GET", path+"/deliveries", "")
		require.Equal(t, http.StatusNotFound, status, "%s", body)
	}

	status, body = b.do(t, "DELETE", "/v1/webhooks/"+created.Id, "")
	require.Equal(t, http.StatusNoContent, status, "%s", body)
	status, _ = b.do(t, "DELETE", "/v1/webhooks/"+created.Id, "")
	require.Equal(t, http.StatusNotFound, status)
	status, body = b.do(t, "GET", "/v1/webhooks", "")
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, `{"webhooks": []}`, string(body))
}

// A subscriber to call.pending gets what it needs to decide (tool path, arguments, handle, the
// outcome URL), after a failed first attempt; the delivery log shows both attempts, and a
// redelivery sends the same webhook-id again.
func TestCallPendingDeliveryLogAndRedeliver(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	wh, err := standardwebhooks.NewWebhook(hookSecret)
	require.NoError(t, err)
	var (
		mu     sync.Mutex
		calls  int
		ids    []string
		bodies []json.RawMessage
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := wh.Verify(body, r.Header); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		ids = append(ids, r.Header.Get("webhook-id"))
		bodies = append(bodies, body)
	}))
	t.Cleanup(receiver.Close)
	status, body := b.do(t, "POST", "/v1/webhooks", `{"url": "`+receiver.URL+`", "secret": "`+hookSecret+`", "events": ["call.pending"]}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	var sub client.WebhookSubscription
	require.NoError(t, json.Unmarshal(body, &sub))

	status, body = b.do(t, "POST", "/v1/runs?wait=30", `{"code": "wait"}`)
	require.Equal(t, http.StatusCreated, status, "%s", body)
	var run client.Run
	require.NoError(t, json.Unmarshal(body, &run))
	require.Equal(t, client.RunStatusSuspended, run.Status)

	deliveries := func(path string) []client.Delivery {
		t.Helper()
		status, body := b.do(t, "GET", path, "")
		require.Equal(t, http.StatusOK, status, "%s", body)
		var list client.DeliveryList
		require.NoError(t, json.Unmarshal(body, &list))
		return list.Deliveries
	}
	require.Eventually(t, func() bool {
		ds := deliveries("/v1/runs/" + run.Id + "/deliveries")
		return len(ds) == 1 && ds[0].Status == client.DeliveryStatusDelivered
	}, 60*time.Second, 100*time.Millisecond)
	ds := deliveries("/v1/webhooks/" + sub.Id + "/deliveries")
	require.Len(t, ds, 1)
	d := ds[0]
	require.Equal(t, "call.pending", d.EventType)
	require.Equal(t, run.Id, d.RunId)
	require.Equal(t, sub.Id, *d.SubscriptionId)
	require.Equal(t, 2, d.Attempts, "failed once, then delivered")
	require.Equal(t, http.StatusOK, *d.LastStatusCode)
	require.Nil(t, d.LastError)
	require.NotNil(t, d.DeliveredAt)

	mu.Lock()
	require.Equal(t, []string{d.Id}, ids)
	var msg struct {
		Type string `json:"type"`
		Data struct {
			RunID      string          `json:"runId"`
			CallID     int             `json:"callId"`
			Key        string          `json:"key"`
			Toolset    string          `json:"toolset"`
			Path       string          `json:"path"`
			Args       json.RawMessage `json:"args"`
			Handle     json.RawMessage `json:"handle"`
			OutcomeURL string          `json:"outcomeUrl"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(bodies[0], &msg))
	mu.Unlock()
	require.Equal(t, "call.pending", msg.Type)
	require.Equal(t, run.Id, msg.Data.RunID)
	require.Equal(t, 1, msg.Data.CallID)
	require.Equal(t, run.Id+":1", msg.Data.Key)
	require.Equal(t, "t", msg.Data.Toolset)
	require.Equal(t, "t.wait", msg.Data.Path)
	require.JSONEq(t, `{"q":1}`, string(msg.Data.Args))
	require.JSONEq(t, `"h1"`, string(msg.Data.Handle))
	require.Equal(t, "/v1/runs/"+run.Id+"/calls/1", msg.Data.OutcomeURL)

	// The approver posts the outcome where the payload says.
	status, body = b.do(t, "POST", msg.Data.OutcomeURL, `{"ok": true, "value": "approved"}`)
	require.Equal(t, http.StatusAccepted, status, "%s", body)

	status, body = b.do(t, "POST", "/v1/webhooks/deliveries/"+d.Id+"/redeliver", "")
	require.Equal(t, http.StatusAccepted, status, "%s", body)
	var again client.Delivery
	require.NoError(t, json.Unmarshal(body, &again))
	require.Equal(t, client.DeliveryStatusPending, again.Status)
	require.Zero(t, again.Attempts)
	require.Equal(t, 1, again.Redeliveries)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(ids) == 2
	}, 60*time.Second, 100*time.Millisecond)
	mu.Lock()
	require.Equal(t, d.Id, ids[1], "a redelivery has the same webhook-id")
	mu.Unlock()
	require.Eventually(t, func() bool {
		ds := deliveries("/v1/webhooks/" + sub.Id + "/deliveries")
		return ds[0].Status == client.DeliveryStatusDelivered && ds[0].Attempts == 1
	}, 30*time.Second, 100*time.Millisecond)

	status, body = b.do(t, "POST", "/v1/webhooks/deliveries/msg_nope/redeliver", "")
	require.Equal(t, http.StatusNotFound, status, "%s", body)
	status, body = b.do(t, "GET", "/v1/runs/00000000-0000-0000-0000-000000000000/deliveries", "")
	require.Equal(t, http.StatusNotFound, status, "%s", body)
	require.True(t, strings.HasPrefix(d.Id, "msg_"))
}

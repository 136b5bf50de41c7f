package durable

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/signing"
)

// Webhook event types delivered to a run's webhook and to subscriptions.
const (
	WebhookRunSuspended = "run.suspended"
	WebhookRunCompleted = "run.completed"
	WebhookRunFailed    = "run.failed"
	WebhookRunCancelled = "run.cancelled"
	WebhookCallPending  = "call.pending"
)

// HTTPDoer sends HTTP requests; *http.Client implements it.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// Subscription is a webhook subscription: events of every run go to URL.
type Subscription struct {
	ID        string
	URL       string
	Secret    string
	Events    []string
	CreatedAt time.Time
}

// CreateSubscription stores a webhook subscription.
func (s *Store) CreateSubscription(ctx context.Context, sub Subscription) (Subscription, error) {
	secret, err := s.seal(sub.Secret, whereSubscription)
	if err != nil {
		return Subscription{}, fmt.Errorf("create webhook subscription: %w", err)
	}
	var id uuid.UUID
	if err := s.pool.QueryRow(ctx, q("WebhookSubscriptionInsert"), sub.URL, secret, sub.Events).
		Scan(&id, &sub.CreatedAt); err != nil {
		return Subscription{}, fmt.Errorf("create webhook subscription: %w", unstorable(err))
	}
	sub.ID = id.String()
	return sub, nil
}

// enqueueWebhooks stores one delivery of event per receiver (the run's webhook, and each
// subscription to the event) and enqueues its webhook.deliver job in tx.
func (s *Store) enqueueWebhooks(ctx context.Context, tx pgx.Tx, runID, event string, data map[string]any) error {
	type receiver struct {
		subID *uuid.UUID
		url   string
	}
	rows, err := tx.Query(ctx, q("WebhookReceivers"), runID, event)
	if err != nil {
		return fmt.Errorf("webhook receivers: %w", err)
	}
	receivers, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (receiver, error) {
		var rc receiver
		err := r.Scan(&rc.subID, &rc.url)
		return rc, err
	})
	if err != nil {
		return fmt.Errorf("webhook receivers: %w", err)
	}
	if len(receivers) == 0 {
		return nil
	}
	// Encoded after the look-up, which also sends the statements queued before it (pipeTx):
	// data the database refuses is reported as such, before it is encoded here.
	payload, err := json.Marshal(map[string]any{"type": event, "timestamp": time.Now().UTC(), "data": data})
	if err != nil {
		return fmt.Errorf("encode webhook: %w", err)
	}
	payload = storable(payload)
	for _, r := range receivers {
		id := "msg_" + randomHex(12)
		if _, err := tx.Exec(ctx, q("WebhookDeliveryInsert"), id, r.subID, runID, event, r.url, payload); err != nil {
			return fmt.Errorf("insert webhook delivery: %w", err)
		}
		if _, err := s.river.InsertTx(ctx, tx, WebhookArgs{DeliveryID: id}, nil); err != nil {
			return fmt.Errorf("enqueue webhook.deliver: %w", err)
		}
	}
	return nil
}

// deliverWebhook POSTs a stored delivery; an error (non-2xx, network) makes River retry it,
// and on the last attempt the delivery is marked failed.
func (s *Store) deliverWebhook(ctx context.Context, id string, lastAttempt bool) error {
	var (
		url, status    string
		toSubscription bool
		sealed         []byte
		plain          *string
		payload        []byte
	)
	err := s.pool.QueryRow(ctx, q("WebhookDeliveryGet"), id).Scan(&url, &toSubscription, &sealed, &plain, &payload, &status)
	if isNoRows(err) || status == "delivered" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load webhook delivery %s: %w", id, err)
	}
	where := whereRunWebhook
	if toSubscription {
		where = whereSubscription
	}
	secret, err := s.openSecret(sealed, plain, where)
	if err != nil {
		return fmt.Errorf("webhook delivery %s: %w", id, err)
	}
	sendErr := s.postSigned(ctx, url, secret, id, payload, nil)
	var lastErr *string
	if sendErr != nil {
		msg := sendErr.Error()
		lastErr = &msg
	}
	if _, err := s.pool.Exec(ctx, q("WebhookDeliveryAttempt"), id, lastErr, lastAttempt); err != nil {
		return fmt.Errorf("record webhook attempt %s: %w", id, err)
	}
	return sendErr
}

// postSigned POSTs body as JSON to url with Standard Webhooks headers (signed when secret is
// set, by internal/signing's rule) and extra headers; any status outside 2xx is an error.
func (s *Store) postSigned(ctx context.Context, url, secret, msgID string, body []byte, extra http.Header) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range extra {
		req.Header[k] = v
	}
	if err := signing.Sign(req.Header, secret, msgID, time.Now(), body); err != nil {
		return err
	}
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("POST %s: status %d", url, resp.StatusCode)
	}
	return nil
}

// cancelCall asks the call's toolset to cancel its durable work.
func (s *Store) cancelCall(ctx context.Context, runID string, callID int) error {
	var (
		key, toolset, path, url string
		handle, sealed          []byte
		secret                  *string
	)
	err := s.pool.QueryRow(ctx, q("CallGetForCancel"), runID, callID).Scan(&key, &toolset, &path, &handle, &url, &secret, &sealed)
	if isNoRows(err) { // toolset gone: nothing to tell
		return nil
	}
	if err != nil {
		return fmt.Errorf("load call %s: %w", CallKey(runID, callID), err)
	}
	path = strings.TrimPrefix(path, toolset+".") // the toolset's own name for the tool
	body, err := json.Marshal(map[string]any{"cancel": map[string]any{"tool": path, "key": key, "handle": json.RawMessage(handle)}})
	if err != nil {
		return fmt.Errorf("encode cancel: %w", err)
	}
	sec, err := s.openSecret(sealed, secret, whereToolset)
	if err != nil {
		return fmt.Errorf("cancel %s: %w", key, err)
	}
	// The cancel has its own idempotency key (the tool protocol's "<key>:cancel", as
	// internal/toolset's CancelKey): under the call's key a toolset would replay the call.
	cancelKey := key + ":cancel"
	return s.postSigned(ctx, url, sec, cancelKey, body, http.Header{"Idempotency-Key": {cancelKey}})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

package durable

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/toolcall"
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

// DefaultWebhookDisableAfter is how many deliveries in a row of a subscription may fail, each
// after all its attempts, before the subscription is disabled (Config.WebhookDisableAfter).
const DefaultWebhookDisableAfter = 20

// Subscription is a webhook subscription: events of every run go to URL.
type Subscription struct {
	ID  string
	URL string
	// Secret signs the deliveries. It is stored sealed and never read back: the subscriptions
	// the store returns have it empty.
	Secret string
	Events []string
	// Enabled is false once the subscription was disabled, by hand or after
	// Config.WebhookDisableAfter failed deliveries in a row (DisabledReason says which); a
	// disabled subscription gets no deliveries.
	Enabled        bool
	DisabledReason string
	// ConsecutiveFailures counts the deliveries that failed since the latest delivered one.
	ConsecutiveFailures int
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// SubscriptionUpdate changes a subscription: nil fields are left as they are. Enabling a
// subscription clears its DisabledReason and its ConsecutiveFailures.
type SubscriptionUpdate struct {
	URL     *string
	Events  []string
	Secret  *string
	Enabled *bool
}

// Delivery is one event sent to one receiver (a subscription, or a run's own webhook), with
// the record of its attempts. Its ID is the webhook-id header of every attempt.
type Delivery struct {
	ID string
	// SubscriptionID is empty for a delivery to the run's own webhook.
	SubscriptionID string
	RunID          string
	EventType      string
	URL            string
	// Status is pending (being attempted), delivered (a 2xx answer) or failed (attempts ran out,
	// or its subscription was disabled).
	Status   string
	Attempts int
	// LastStatusCode is the receiver's status of the latest attempt (0: no answer, or none yet).
	LastStatusCode int
	LastError      string
	// Redeliveries counts the redeliveries asked for with Redeliver.
	Redeliveries int
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeliveredAt  *time.Time
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

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
	sub.ID, sub.Secret, sub.Enabled, sub.UpdatedAt = id.String(), "", true, sub.CreatedAt
	return sub, nil
}

func scanSubscription(row pgx.Row) (Subscription, error) {
	var sub Subscription
	err := row.Scan(&sub.ID, &sub.URL, &sub.Events, &sub.Enabled, &sub.DisabledReason, &sub.ConsecutiveFailures, &sub.CreatedAt, &sub.UpdatedAt)
	return sub, err
}

// subscriptionID parses a subscription id; one that is not a UUID names no subscription.
func subscriptionID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return uuid.UUID{}, ErrWebhookNotFound
	}
	return u, nil
}

// ListSubscriptions returns every webhook subscription, oldest first.
func (s *Store) ListSubscriptions(ctx context.Context) ([]Subscription, error) {
	rows, err := s.pool.Query(ctx, q("WebhookSubscriptionList"))
	if err != nil {
		return nil, fmt.Errorf("list webhook subscriptions: %w", err)
	}
	subs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Subscription, error) { return scanSubscription(r) })
	if err != nil {
		return nil, fmt.Errorf("list webhook subscriptions: %w", err)
	}
	return subs, nil
}

// GetSubscription returns a webhook subscription, or ErrWebhookNotFound.
func (s *Store) GetSubscription(ctx context.Context, id string) (Subscription, error) {
	u, err := subscriptionID(id)
	if err != nil {
		return Subscription{}, err
	}
	sub, err := scanSubscription(s.pool.QueryRow(ctx, q("WebhookSubscriptionGet"), u))
	if isNoRows(err) {
		return Subscription{}, ErrWebhookNotFound
	}
	if err != nil {
		return Subscription{}, fmt.Errorf("get webhook subscription %s: %w", id, err)
	}
	return sub, nil
}

// UpdateSubscription changes a webhook subscription and returns it, or ErrWebhookNotFound.
// Deliveries still being attempted go to the new URL, signed with the new secret.
func (s *Store) UpdateSubscription(ctx context.Context, id string, up SubscriptionUpdate) (Subscription, error) {
	u, err := subscriptionID(id)
	if err != nil {
		return Subscription{}, err
	}
	var sealed []byte
	if up.Secret != nil {
		if sealed, err = s.seal(*up.Secret, whereSubscription); err != nil {
			return Subscription{}, fmt.Errorf("update webhook subscription: %w", err)
		}
	}
	sub, err := scanSubscription(s.pool.QueryRow(ctx, q("WebhookSubscriptionUpdate"), u, up.URL, up.Events, sealed, up.Enabled))
	if isNoRows(err) {
		return Subscription{}, ErrWebhookNotFound
	}
	if err != nil {
		return Subscription{}, fmt.Errorf("update webhook subscription %s: %w", id, unstorable(err))
	}
	return sub, nil
}

// DeleteSubscription removes a webhook subscription with its deliveries, or returns
// ErrWebhookNotFound. Its deliveries still pending are not sent.
func (s *Store) DeleteSubscription(ctx context.Context, id string) error {
	u, err := subscriptionID(id)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, q("WebhookSubscriptionDelete"), u)
	if err != nil {
		return fmt.Errorf("delete webhook subscription %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrWebhookNotFound
	}
	return nil
}

// DeliveryFilter selects deliveries: those of a subscription, or those of a run.
type DeliveryFilter struct {
	SubscriptionID string
	RunID          string
}

func scanDelivery(row pgx.Row) (Delivery, error) {
	var (
		d           Delivery
		sub, run    *string
		code        *int
		lastErr     *string
		deliveredAt *time.Time
	)
	err := row.Scan(&d.ID, &sub, &run, &d.EventType, &d.URL, &d.Status, &d.Attempts, &code, &lastErr,
		&d.Redeliveries, &d.CreatedAt, &d.UpdatedAt, &deliveredAt)
	if sub != nil {
		d.SubscriptionID = *sub
	}
	if run != nil {
		d.RunID = *run
	}
	if code != nil {
		d.LastStatusCode = *code
	}
	if lastErr != nil {
		d.LastError = *lastErr
	}
	d.DeliveredAt = deliveredAt
	return d, err
}

// ListDeliveries returns up to limit deliveries of a subscription (ErrWebhookNotFound when
// there is none) or of a run (ErrRunNotFound), newest first.
func (s *Store) ListDeliveries(ctx context.Context, f DeliveryFilter, limit int) ([]Delivery, error) {
	var sub, run *uuid.UUID
	switch {
	case f.SubscriptionID != "":
		if _, err := s.GetSubscription(ctx, f.SubscriptionID); err != nil {
			return nil, err
		}
		u := uuid.MustParse(f.SubscriptionID)
		sub = &u
	case f.RunID != "":
		if err := s.runExists(ctx, f.RunID); err != nil {
			return nil, err
		}
		u, err := uuid.Parse(f.RunID)
		if err != nil {
			return nil, ErrRunNotFound
		}
		run = &u
	default:
		return nil, errors.New("list webhook deliveries: no subscription or run given")
	}
	rows, err := s.pool.Query(ctx, q("WebhookDeliveryList"), sub, run, limit)
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Delivery, error) { return scanDelivery(r) })
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	return out, nil
}

// Redeliver sends a delivered or failed delivery again: with fresh attempts (a new
// webhook.deliver job), under the same webhook-id, to its subscription's current URL. It
// returns ErrDeliveryNotFound, ErrDeliveryInProgress (still pending) or ErrWebhookDisabled
// (its subscription is disabled).
func (s *Store) Redeliver(ctx context.Context, id string) (Delivery, error) {
	var d Delivery
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		d, err = scanDelivery(tx.QueryRow(ctx, q("WebhookDeliveryRedeliver"), id))
		if isNoRows(err) {
			var (
				status  string
				enabled bool
			)
			err := tx.QueryRow(ctx, q("WebhookDeliveryState"), id).Scan(&status, &enabled)
			switch {
			case isNoRows(err):
				return ErrDeliveryNotFound
			case err != nil:
				return err
			case status == DeliveryPending:
				return ErrDeliveryInProgress
			default:
				return ErrWebhookDisabled
			}
		}
		if err != nil {
			return err
		}
		_, err = s.river.InsertTx(ctx, tx, WebhookArgs{DeliveryID: id, Redelivery: d.Redeliveries}, nil)
		return err
	})
	if err != nil {
		return Delivery{}, fmt.Errorf("redeliver %s: %w", id, err)
	}
	return d, nil
}

// webhookReceiver is who gets a webhook event: a subscription, or the run's own webhook
// (subID nil).
type webhookReceiver struct {
	subID *uuid.UUID
	url   string
}

// receiverColumns scans the receivers a fenced statement returns with its lock
// (RunLockFencedReceivers, RunFinishFenced): the run's webhook URL, then the subscriptions' ids
// and URLs.
type receiverColumns struct {
	runURL *string
	subIDs []uuid.UUID
	urls   []string
}

func (c *receiverColumns) dest() []any { return []any{&c.runURL, &c.subIDs, &c.urls} }

// receivers lists them as WebhookReceivers does: the run's webhook first.
func (c *receiverColumns) receivers() []webhookReceiver {
	var out []webhookReceiver
	if c.runURL != nil {
		out = append(out, webhookReceiver{url: *c.runURL})
	}
	for i := range min(len(c.subIDs), len(c.urls)) {
		out = append(out, webhookReceiver{subID: &c.subIDs[i], url: c.urls[i]})
	}
	return out
}

// enqueueWebhooks stores one delivery of event per receiver (the run's webhook, and each
// subscription to the event) and enqueues its webhook.deliver job in tx.
func (s *Store) enqueueWebhooks(ctx context.Context, tx pgx.Tx, runID, event string, data map[string]any) error {
	rows, err := tx.Query(ctx, q("WebhookReceivers"), runID, event)
	if err != nil {
		return fmt.Errorf("webhook receivers: %w", err)
	}
	receivers, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhookReceiver, error) {
		var rc webhookReceiver
		err := r.Scan(&rc.subID, &rc.url)
		return rc, err
	})
	if err != nil {
		return fmt.Errorf("webhook receivers: %w", err)
	}
	return s.enqueueWebhooksTo(ctx, tx, runID, event, data, receivers)
}

// enqueueWebhooksTo is enqueueWebhooks for receivers already read (with the run's lock).
func (s *Store) enqueueWebhooksTo(ctx context.Context, tx pgx.Tx, runID, event string, data map[string]any, receivers []webhookReceiver) error {
	if len(receivers) == 0 {
		return nil
	}
	if p, ok := tx.(*pipeTx); ok {
		// The statements queued before are sent first, as the look-up sends them (see below).
		if err := p.flush(ctx); err != nil {
			return err
		}
	}
	switch event {
	case WebhookCallPending:
		if err := addCallDetails(ctx, tx, runID, data); err != nil {
			return err
		}
	case WebhookRunSuspended:
		if pending, ok := data["pending"].([]map[string]any); ok {
			for _, c := range pending {
				if id, ok := c["callId"].(int); ok {
					c["outcomeUrl"] = OutcomeURL(runID, id)
				}
			}
		}
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

// OutcomeURL is where the outcome of durable call callID of run runID is posted, relative to
// the API's base URL.
func OutcomeURL(runID string, callID int) string {
	return fmt.Sprintf("/v1/runs/%s/calls/%d", runID, callID)
}

// addCallDetails completes a call.pending payload ({runId, callId, key, handle}) with what an
// approver needs to decide without another request: the tool's path and toolset, the call's
// arguments, and the URL to post the outcome to.
func addCallDetails(ctx context.Context, tx pgx.Tx, runID string, data map[string]any) error {
	callID, ok := data["callId"].(int)
	if !ok {
		return fmt.Errorf("call.pending webhook: callId %v is not an int", data["callId"])
	}
	var (
		toolset, path string
		args          []byte
	)
	if err := tx.QueryRow(ctx, q("CallGetDetails"), runID, callID).Scan(&toolset, &path, &args); err != nil {
		return fmt.Errorf("call.pending webhook: load call %s: %w", toolcall.Key(runID, int64(callID)), err)
	}
	data["toolset"], data["path"], data["args"] = toolset, path, json.RawMessage(args)
	data["outcomeUrl"] = OutcomeURL(runID, callID)
	return nil
}

// deliverWebhook POSTs a stored delivery; an error (non-2xx, network) makes River retry it,
// and on the last attempt the delivery is marked failed. A failed delivery of a subscription
// counts towards disabling it; a delivered one resets the count.
func (s *Store) deliverWebhook(ctx context.Context, id string, lastAttempt bool) error {
	var (
		url, status string
		subID       *string
		sealed      []byte
		plain       *string
		payload     []byte
		enabled     bool
	)
	err := s.pool.QueryRow(ctx, q("WebhookDeliveryGet"), id).Scan(&url, &subID, &sealed, &plain, &payload, &status, &enabled)
	if isNoRows(err) || (err == nil && status != DeliveryPending) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load webhook delivery %s: %w", id, err)
	}
	if !enabled {
		if _, err := s.pool.Exec(ctx, q("WebhookDeliverySkip"), id, "not sent: the subscription is disabled"); err != nil {
			return fmt.Errorf("skip webhook delivery %s: %w", id, err)
		}
		return nil
	}
	where := whereRunWebhook
	if subID != nil {
		where = whereSubscription
	}
	secret, err := s.openSecret(sealed, plain, where)
	if err != nil {
		return fmt.Errorf("webhook delivery %s: %w", id, err)
	}
	answered, sendErr := s.postSignedStatus(ctx, url, secret, id, payload, nil)
	var (
		lastErr *string
		code    *int
	)
	if sendErr != nil {
		msg := sendErr.Error()
		lastErr = &msg
	}
	if answered != 0 {
		code = &answered
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var after string
		err := tx.QueryRow(ctx, q("WebhookDeliveryAttempt"), id, lastErr, lastAttempt, code, url).Scan(&after)
		if isNoRows(err) || subID == nil {
			return nil
		}
		if err != nil {
			return err
		}
		switch after {
		case DeliveryDelivered:
			_, err = tx.Exec(ctx, q("WebhookSubscriptionDelivered"), *subID)
		case DeliveryFailed:
			reason := fmt.Sprintf("disabled after %d deliveries in a row failed; the last: %s", s.cfg.WebhookDisableAfter, *lastErr)
			var still bool
			err = tx.QueryRow(ctx, q("WebhookSubscriptionFailed"), *subID, s.cfg.WebhookDisableAfter, reason).Scan(&still)
			if err == nil && !still {
				s.cfg.Logger.WarnContext(ctx, "webhook subscription disabled", "subscription", *subID, "reason", reason)
			}
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("record webhook attempt %s: %w", id, err)
	}
	return sendErr
}

// postSignedStatus POSTs body as JSON to url with Standard Webhooks headers (signed when secret
// is set, by internal/signing's rule) and extra headers, and returns the receiver's status code
// (0: no answer); any status outside 2xx is an error.
func (s *Store) postSignedStatus(ctx context.Context, url, secret, msgID string, body []byte, extra http.Header) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("build request to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range extra {
		req.Header[k] = v
	}
	if err := signing.Sign(req.Header, secret, msgID, time.Now(), body); err != nil {
		return 0, err
	}
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("POST %s: %w", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("POST %s: status %d", url, resp.StatusCode)
	}
	return resp.StatusCode, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

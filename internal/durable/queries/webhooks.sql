-- name: WebhookSubscriptionInsert
INSERT INTO webhook_subscriptions (url, secret_sealed, events) VALUES ($1, $2, $3)
RETURNING id, created_at;

-- name: WebhookSubscriptionList
SELECT id::text, url, events, enabled, coalesce(disabled_reason, ''), consecutive_failures, created_at, updated_at
FROM webhook_subscriptions ORDER BY created_at, id;

-- name: WebhookSubscriptionGet
SELECT id::text, url, events, enabled, coalesce(disabled_reason, ''), consecutive_failures, created_at, updated_at
FROM webhook_subscriptions WHERE id = $1;

-- name: WebhookSubscriptionUpdate
-- Changes the fields given (NULL: unchanged). Enabling clears the reason and the failure count.
UPDATE webhook_subscriptions
SET url = coalesce($2, url),
    events = coalesce($3, events),
    secret_sealed = coalesce($4, secret_sealed),
    secret = CASE WHEN $4::bytea IS NULL THEN secret ELSE NULL END,
    enabled = coalesce($5, enabled),
    disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason
                           WHEN $5::boolean THEN NULL
                           WHEN enabled THEN 'disabled through the API'
                           ELSE disabled_reason END,
    consecutive_failures = CASE WHEN $5::boolean THEN 0 ELSE consecutive_failures END,
    updated_at = now()
WHERE id = $1
RETURNING id::text, url, events, enabled, coalesce(disabled_reason, ''), consecutive_failures, created_at, updated_at;

-- name: WebhookSubscriptionDelete
DELETE FROM webhook_subscriptions WHERE id = $1;

-- name: WebhookSubscriptionDelivered
UPDATE webhook_subscriptions SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0;

-- name: WebhookSubscriptionFailed
-- A delivery of subscription $1 failed for good: count it, and disable the subscription once
-- $2 deliveries in a row failed, with reason $3. Returns whether it is still enabled.
UPDATE webhook_subscriptions
SET consecutive_failures = consecutive_failures + 1,
    enabled = enabled AND consecutive_failures + 1 < $2,
    disabled_reason = CASE WHEN enabled AND consecutive_failures + 1 >= $2 THEN $3 ELSE disabled_reason END,
    updated_at = CASE WHEN enabled AND consecutive_failures + 1 >= $2 THEN now() ELSE updated_at END
WHERE id = $1
RETURNING enabled;

-- name: WebhookReceivers
-- Who gets event $2 of run $1: the run's own webhook first (no subscription id), then the
-- enabled subscriptions to the event, oldest first.
-- A delivery refers to its secret (its subscription's, or its run's webhook's) and keeps no copy.
SELECT sub_id, url FROM (
    SELECT 0 AS rank, NULL::uuid AS sub_id, webhook_url AS url, NULL::timestamptz AS created_at
    FROM runs WHERE id = $1 AND coalesce(webhook_url, '') <> ''
    UNION ALL
    SELECT 1, id, url, created_at FROM webhook_subscriptions WHERE enabled AND $2 = ANY (events)
) receivers
ORDER BY rank, created_at;

-- name: WebhookDeliveryInsert
INSERT INTO webhook_deliveries (id, subscription_id, run_id, event_type, url, payload)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: WebhookDeliveryGet
-- The delivery with its secret: its subscription's, or (without one) its run's webhook's. A
-- subscription's delivery goes to the subscription's current URL, and is not sent while the
-- subscription is disabled.
SELECT coalesce(s.url, d.url), d.subscription_id::text,
       coalesce(s.secret_sealed, r.webhook_secret_sealed), coalesce(s.secret, r.webhook_secret),
       d.payload, d.status, coalesce(s.enabled, true)
FROM webhook_deliveries d
LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
LEFT JOIN runs r ON r.id = d.run_id AND d.subscription_id IS NULL
WHERE d.id = $1;

-- name: WebhookDeliveryAttempt
-- Records an attempt at $5: error $2 (NULL: delivered), the receiver's status code $4 (NULL:
-- no answer); $3: it was the last attempt, so an error fails the delivery.
UPDATE webhook_deliveries
SET attempts = attempts + 1, last_error = $2, last_status_code = $4, url = $5, updated_at = now(),
    status = CASE WHEN $2::text IS NULL THEN 'delivered'
                  WHEN $3::boolean THEN 'failed'
                  ELSE status END,
    delivered_at = CASE WHEN $2::text IS NULL THEN now() ELSE delivered_at END
WHERE id = $1 AND status = 'pending'
RETURNING status;

-- name: WebhookDeliverySkip
-- A pending delivery of a disabled subscription fails without an attempt.
UPDATE webhook_deliveries
SET status = 'failed', last_error = $2, updated_at = now()
WHERE id = $1 AND status = 'pending';

-- name: WebhookDeliveryList
-- Deliveries of subscription $1 or of run $2 (whichever is not NULL), newest first.
SELECT id, subscription_id::text, run_id::text, event_type, url, status, attempts, last_status_code,
       last_error, redeliveries, created_at, updated_at, delivered_at
FROM webhook_deliveries
WHERE ($1::uuid IS NULL OR subscription_id = $1) AND ($2::uuid IS NULL OR run_id = $2)
ORDER BY created_at DESC, id DESC
LIMIT $3;

-- name: WebhookDeliveryRedeliver
-- Makes a finished delivery pending again with fresh attempts (its subscription, if any,
-- enabled); the caller enqueues the job. Returns the delivery.
UPDATE webhook_deliveries d
SET status = 'pending', attempts = 0, last_error = NULL, last_status_code = NULL,
    delivered_at = NULL, redeliveries = redeliveries + 1, updated_at = now()
WHERE d.id = $1 AND d.status <> 'pending'
  AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND NOT s.enabled)
RETURNING id, subscription_id::text, run_id::text, event_type, url, status, attempts, last_status_code,
          last_error, redeliveries, created_at, updated_at, delivered_at;

-- name: WebhookDeliveryState
SELECT d.status, coalesce(s.enabled, true)
FROM webhook_deliveries d LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
WHERE d.id = $1;

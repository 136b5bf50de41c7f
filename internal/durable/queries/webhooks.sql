-- name: WebhookSubscriptionInsert
INSERT INTO webhook_subscriptions (url, secret_sealed, events) VALUES ($1, $2, $3)
RETURNING id, created_at;

-- name: WebhookReceivers
-- Who gets event $2 of run $1: the run's own webhook first (no subscription id), then the
-- subscriptions to the event, oldest first.
-- A delivery refers to its secret (its subscription's, or its run's webhook's) and keeps no copy.
SELECT sub_id, url FROM (
    SELECT 0 AS rank, NULL::uuid AS sub_id, webhook_url AS url, NULL::timestamptz AS created_at
    FROM runs WHERE id = $1 AND coalesce(webhook_url, '') <> ''
    UNION ALL
    SELECT 1, id, url, created_at FROM webhook_subscriptions WHERE $2 = ANY (events)
) receivers
ORDER BY rank, created_at;

-- name: WebhookDeliveryInsert
INSERT INTO webhook_deliveries (id, subscription_id, run_id, event_type, url, payload)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: WebhookDeliveryGet
-- The delivery with its secret: its subscription's, or (without one) its run's webhook's.
SELECT d.url, d.subscription_id IS NOT NULL,
       coalesce(s.secret_sealed, r.webhook_secret_sealed), coalesce(s.secret, r.webhook_secret),
       d.payload, d.status
FROM webhook_deliveries d
LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
LEFT JOIN runs r ON r.id = d.run_id AND d.subscription_id IS NULL
WHERE d.id = $1;

-- name: WebhookDeliveryAttempt
UPDATE webhook_deliveries
SET attempts = attempts + 1, last_error = $2,
    status = CASE WHEN $2::text IS NULL THEN 'delivered'
                  WHEN $3::boolean THEN 'failed'
                  ELSE status END,
    delivered_at = CASE WHEN $2::text IS NULL THEN now() ELSE delivered_at END
WHERE id = $1;

-- name: WebhookSubscriptionInsert
INSERT INTO webhook_subscriptions (url, secret, events) VALUES ($1, $2, $3)
RETURNING id, created_at;

-- name: WebhookReceivers
-- Who gets event $2 of run $1: the run's own webhook first (no subscription id), then the
-- subscriptions to the event, oldest first.
SELECT sub_id, url, secret FROM (
    SELECT 0 AS rank, NULL::uuid AS sub_id, webhook_url AS url, coalesce(webhook_secret, '') AS secret,
           NULL::timestamptz AS created_at
    FROM runs WHERE id = $1 AND coalesce(webhook_url, '') <> ''
    UNION ALL
    SELECT 1, id, url, secret, created_at FROM webhook_subscriptions WHERE $2 = ANY (events)
) receivers
ORDER BY rank, created_at;

-- name: WebhookDeliveryInsert
INSERT INTO webhook_deliveries (id, subscription_id, run_id, event_type, url, secret, payload)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: WebhookDeliveryGet
SELECT url, secret, payload, status FROM webhook_deliveries WHERE id = $1;

-- name: WebhookDeliveryAttempt
UPDATE webhook_deliveries
SET attempts = attempts + 1, last_error = $2,
    status = CASE WHEN $2::text IS NULL THEN 'delivered'
                  WHEN $3::boolean THEN 'failed'
                  ELSE status END,
    delivered_at = CASE WHEN $2::text IS NULL THEN now() ELSE delivered_at END
WHERE id = $1;

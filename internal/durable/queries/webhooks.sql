-- name: WebhookSubscriptionInsert
INSERT INTO webhook_subscriptions (url, secret, events) VALUES ($1, $2, $3)
RETURNING id, created_at;

-- name: WebhookSubscriptionsFor
SELECT id, url, secret FROM webhook_subscriptions WHERE $1 = ANY (events) ORDER BY created_at;

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

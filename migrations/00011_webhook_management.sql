-- +goose Up
-- Subscriptions can be disabled (by hand, or after too many deliveries in a row failed: then
-- disabled_reason says why); a disabled subscription gets no new deliveries. Deliveries record
-- the status code of their latest attempt, when they last changed, and how often they were
-- redelivered by hand (each redelivery is a new webhook.deliver job with fresh attempts).
ALTER TABLE webhook_subscriptions
    ADD COLUMN enabled              boolean NOT NULL DEFAULT true,
    ADD COLUMN disabled_reason      text,
    ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0, -- failed deliveries since the latest delivered one
    ADD COLUMN updated_at           timestamptz NOT NULL DEFAULT now();
ALTER TABLE webhook_deliveries
    ADD COLUMN last_status_code integer,
    ADD COLUMN redeliveries     integer NOT NULL DEFAULT 0,
    ADD COLUMN updated_at       timestamptz NOT NULL DEFAULT now();
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at);

-- +goose Down
DROP INDEX webhook_deliveries_subscription_idx;
ALTER TABLE webhook_deliveries DROP COLUMN updated_at, DROP COLUMN redeliveries, DROP COLUMN last_status_code;
ALTER TABLE webhook_subscriptions DROP COLUMN updated_at, DROP COLUMN consecutive_failures,
    DROP COLUMN disabled_reason, DROP COLUMN enabled;

-- +goose Up
-- Signing secrets are stored encrypted (AES-256-GCM under CODEMODE_SECRET_KEY, package
-- internal/secretbox) in the *_sealed columns. The plaintext columns stay only so that secrets
-- stored before this migration can be read once: the first server or worker that starts with
-- a key seals them and clears the plaintext (durable.Store.PrepareSecrets; SQL has no key to
-- do it here). A delivery no longer keeps a copy of its secret: it refers to its subscription,
-- or to its run's webhook, and reads the secret from there.
ALTER TABLE toolsets ADD COLUMN secret_sealed bytea;
ALTER TABLE runs ADD COLUMN webhook_secret_sealed bytea;
ALTER TABLE webhook_subscriptions ADD COLUMN secret_sealed bytea;
ALTER TABLE webhook_subscriptions ALTER COLUMN secret DROP NOT NULL;
ALTER TABLE webhook_deliveries DROP COLUMN secret;

-- +goose Down
-- Sealed secrets cannot be decrypted in SQL: rolling back loses them (toolsets and webhooks
-- must then be registered again with their secrets).
ALTER TABLE webhook_deliveries ADD COLUMN secret text NOT NULL DEFAULT '';
UPDATE webhook_subscriptions SET secret = '' WHERE secret IS NULL;
ALTER TABLE webhook_subscriptions ALTER COLUMN secret SET NOT NULL;
ALTER TABLE webhook_subscriptions DROP COLUMN secret_sealed;
ALTER TABLE runs DROP COLUMN webhook_secret_sealed;
ALTER TABLE toolsets DROP COLUMN secret_sealed;

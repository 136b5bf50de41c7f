-- +goose Up
CREATE TABLE toolsets (
    name        text PRIMARY KEY CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_]*$'),
    url         text NOT NULL,
    secret      text,
    description text NOT NULL DEFAULT '',
    manifest    jsonb NOT NULL DEFAULT '{"tools":[]}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_subscriptions (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    url        text NOT NULL,
    secret     text NOT NULL,
    events     text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
    id              text PRIMARY KEY,            -- the stable webhook-id header
    subscription_id uuid REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    run_id          uuid REFERENCES runs (id) ON DELETE CASCADE,
    event_type      text NOT NULL,
    url             text NOT NULL,
    secret          text NOT NULL DEFAULT '',
    payload         jsonb NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz
);
CREATE INDEX webhook_deliveries_run_idx ON webhook_deliveries (run_id);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_subscriptions;
DROP TABLE toolsets;

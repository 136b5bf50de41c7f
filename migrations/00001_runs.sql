-- +goose Up
CREATE TABLE runs (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    status           text NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'running', 'suspended', 'succeeded', 'failed', 'cancelled')),
    code             text NOT NULL,
    limits           jsonb NOT NULL DEFAULT '{}',
    toolsets         text[],                     -- NULL: every registered toolset
    webhook_url      text,
    webhook_secret   text,
    idempotency_key  text UNIQUE,
    request_hash     bytea,
    lease_owner      bigint,                     -- River job id of the current driver
    lease_expires_at timestamptz,
    fence            bigint NOT NULL DEFAULT 0,  -- bumped at each lease; stale drivers' writes fail
    snapshot_seq     integer NOT NULL DEFAULT 0, -- latest snapshot; 0: none
    event_seq        bigint NOT NULL DEFAULT 0,  -- last run_events.seq
    result           jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);
CREATE INDEX runs_created_idx ON runs (created_at DESC, id DESC);
CREATE INDEX runs_status_created_idx ON runs (status, created_at DESC, id DESC);

CREATE TABLE snapshots (
    run_id     uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq        integer NOT NULL CHECK (seq > 0),
    state      bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE calls (
    run_id     uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    call_id    integer NOT NULL CHECK (call_id > 0),
    key        text NOT NULL UNIQUE,             -- <runId>:<callId>
    toolset    text NOT NULL DEFAULT '',
    path       text NOT NULL,
    args       jsonb NOT NULL DEFAULT 'null',
    durable    boolean NOT NULL DEFAULT false,
    status     text NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'pending', 'succeeded', 'failed', 'cancelled')),
    handle     jsonb,
    applied    boolean NOT NULL DEFAULT true,  -- false: outcome posted, not yet given to the program
    outcome    jsonb,                            -- {"ok":true,"value":X} | {"ok":false,"error":{...}}
    started_at timestamptz NOT NULL DEFAULT now(),
    settled_at timestamptz,
    PRIMARY KEY (run_id, call_id)
);
CREATE INDEX calls_pending_idx ON calls (run_id) WHERE status = 'pending';

CREATE TABLE run_events (
    run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq    bigint NOT NULL,
    type   text NOT NULL,
    data   jsonb NOT NULL DEFAULT '{}',
    at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (run_id, seq)
);

-- +goose Down
DROP TABLE run_events;
DROP TABLE calls;
DROP TABLE snapshots;
DROP TABLE runs;

-- +goose Up
-- A driver keeps its lease alive by heartbeats; a run whose lease expired while it was
-- running lost its worker (crash, kill) and is re-driven by another worker, which counts it.
ALTER TABLE runs
    ADD COLUMN lease_worker  text,                       -- worker id of the current driver
    ADD COLUMN redriven_from text,                       -- worker whose lease expired; cleared by the next lease
    ADD COLUMN crashes       integer NOT NULL DEFAULT 0; -- re-drives after a lost worker since the latest snapshot
CREATE INDEX runs_lease_expiry_idx ON runs (lease_expires_at) WHERE status = 'running';

-- +goose Down
DROP INDEX runs_lease_expiry_idx;
ALTER TABLE runs DROP COLUMN crashes, DROP COLUMN redriven_from, DROP COLUMN lease_worker;

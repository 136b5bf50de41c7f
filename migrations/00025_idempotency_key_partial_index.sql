-- +goose Up
-- Only runs created with an idempotency key are indexed by it. The unique constraint's index
-- had an entry for every run, NULL for most, and a new one for each version of a run's row
-- that is not a HOT update (each change of status): an index write per status change that no
-- look-up ever used. Keys stay unique among the runs that have one.
ALTER TABLE runs DROP CONSTRAINT runs_idempotency_key_key;
CREATE UNIQUE INDEX runs_idempotency_key_idx ON runs (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- +goose Down
DROP INDEX runs_idempotency_key_idx;
ALTER TABLE runs ADD CONSTRAINT runs_idempotency_key_key UNIQUE (idempotency_key);

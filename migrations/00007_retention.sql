-- +goose Up
-- Retention: the snapshots, events and webhook deliveries of runs finished longer ago than the
-- workers' retention are deleted by a periodic job, which then marks the run pruned. The runs
-- row and its calls are kept. The index finds the finished runs still to prune, in order.
ALTER TABLE runs ADD COLUMN pruned_at timestamptz; -- when the retention job deleted its data
CREATE INDEX runs_unpruned_finished_idx ON runs (finished_at, id) WHERE pruned_at IS NULL AND finished_at IS NOT NULL;

-- +goose Down
DROP INDEX runs_unpruned_finished_idx;
ALTER TABLE runs DROP COLUMN pruned_at;

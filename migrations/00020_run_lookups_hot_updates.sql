-- +goose Up
-- The partial index on running runs' lease expiry goes: the search for expired leases finds
-- running runs through runs_status_created_idx instead, which is as good while few runs are
-- running at once. Without it a lease extension (every journal transaction makes one)
-- changes no indexed column and can be a HOT update, written beside the old version with no
-- new index entries; the free space left in each page (fillfactor) gives those updates room.
-- The index also drew the planner, on a young table without statistics, into scanning every
-- running run's entries for statements that look up one run by id.
DROP INDEX runs_lease_expiry_idx;
ALTER TABLE runs SET (fillfactor = 80);

-- +goose Down
ALTER TABLE runs RESET (fillfactor);
CREATE INDEX runs_lease_expiry_idx ON runs (lease_expires_at) WHERE status = 'running';

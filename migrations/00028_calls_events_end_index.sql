-- +goose Up
-- A page of a run's events reads the calls whose kept events (migration 00027) end after the
-- page's start through this index, not by visiting every call of the run: a live stream of a
-- run of thousands of calls reads a page after each of them. A call's record then writes one
-- row and two index entries.
CREATE INDEX calls_events_end_idx ON calls (run_id, events_end) WHERE events_end IS NOT NULL;

-- +goose Down
DROP INDEX calls_events_end_idx;

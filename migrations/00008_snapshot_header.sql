-- +goose Up
-- A run's state in two parts: header holds the run's own bookkeeping (limits, call ids, active
-- time, calls) and state the interpreter's snapshot. A snapshot written before this column
-- existed has no header: its state is the whole run as one document, which the engine still
-- reads.
ALTER TABLE snapshots ADD COLUMN header bytea;

-- +goose Down
ALTER TABLE snapshots DROP COLUMN header;

-- +goose Up
-- Where a run came from when it was started from another one, a retry (the same program
-- again) or a fork (from a point of the other's history, its calls up to there answered from
-- the other's records), or by a schedule (at one of its ticks; no foreign key, so the link
-- outlives a deleted schedule). A table of its own, so that the runs table and every query reading it
-- stay as they are; a run started from scratch has no row.
CREATE TABLE run_lineage (
    run_id          uuid PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    retried_from    uuid REFERENCES runs (id) ON DELETE SET NULL,
    forked_from     uuid REFERENCES runs (id) ON DELETE SET NULL,
    forked_from_seq integer CHECK (forked_from_seq >= 0),
    replayed_calls  integer NOT NULL DEFAULT 0,
    schedule_id     uuid,
    schedule_tick   timestamptz
);
CREATE INDEX run_lineage_schedule_idx ON run_lineage (schedule_id, schedule_tick) WHERE schedule_id IS NOT NULL;
CREATE INDEX run_lineage_retried_from_idx ON run_lineage (retried_from) WHERE retried_from IS NOT NULL;
CREATE INDEX run_lineage_forked_from_idx ON run_lineage (forked_from) WHERE forked_from IS NOT NULL;

-- +goose Down
DROP TABLE run_lineage;

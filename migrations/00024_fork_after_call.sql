-- +goose Up
-- A fork's point may be a settled call instead of a snapshot: forked_after_call is the call
-- of forked_from whose settlement is the point (the calls settled up to it, itself included,
-- answer the new run's program); forked_from_seq is then NULL. Fork points no longer depend
-- on how often the original happened to checkpoint.
ALTER TABLE run_lineage ADD COLUMN forked_after_call integer CHECK (forked_after_call >= 1);

-- +goose Down
ALTER TABLE run_lineage DROP COLUMN forked_after_call;

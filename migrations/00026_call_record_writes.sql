-- +goose Up
-- A tool call's record (its calls row and its two events) costs fewer writes:
--
-- * calls.key (<runId>:<callId>) loses its unique index. The key is made from the primary key
--   (run_id, call_id), so it is unique with it, and no look-up goes by it: the index was one
--   more B-tree insertion, with its uniqueness probe, for every call.
-- * calls and run_events lose their foreign keys to runs. Every statement that writes them
--   reaches the run's row first, in the same statement or transaction (a fenced UPDATE of the
--   run, or its lock): a row for a run that does not exist is never written. The keys'
--   checks (a look-up of the run for each row inserted, three for each call) were the largest
--   part of a call's record after the rows themselves.
--
-- Deleting runs still deletes their calls and events, as the foreign keys' ON DELETE CASCADE
-- did: a trigger on runs does it, once per DELETE statement.
ALTER TABLE calls DROP CONSTRAINT calls_key_key;
ALTER TABLE calls DROP CONSTRAINT calls_run_id_fkey;
ALTER TABLE run_events DROP CONSTRAINT run_events_run_id_fkey;

-- +goose StatementBegin
CREATE FUNCTION codemode_delete_run_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM calls WHERE run_id IN (SELECT id FROM deleted_runs);
    DELETE FROM run_events WHERE run_id IN (SELECT id FROM deleted_runs);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER runs_delete_records
    AFTER DELETE ON runs
    REFERENCING OLD TABLE AS deleted_runs
    FOR EACH STATEMENT
    EXECUTE FUNCTION codemode_delete_run_records();

-- +goose Down
DROP TRIGGER runs_delete_records ON runs;
DROP FUNCTION codemode_delete_run_records();
DELETE FROM calls c WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = c.run_id);
DELETE FROM run_events e WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = e.run_id);
ALTER TABLE run_events ADD CONSTRAINT run_events_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE calls ADD CONSTRAINT calls_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE calls ADD CONSTRAINT calls_key_key UNIQUE (key);

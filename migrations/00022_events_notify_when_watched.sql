-- +goose Up
-- A run's events are announced (NOTIFY codemode_run_events) only while somebody watches them:
-- a live event stream marks its run watched (runs.events_watched_until, a lease it renews
-- while it is open) before it first reads the run's events. A notification wakes every
-- listening connection of the cluster and is the dearest part of a small journal
-- transaction, and most runs are never watched.
--
-- The mark is on the run's row, which every event-appending transaction updates: a mark
-- made before such a transaction's update is seen by it (on the row's latest version), and
-- one made after waits for it to commit and is followed by the stream's read. Either way the
-- stream misses nothing. A stream that ends leaves its mark to expire.
ALTER TABLE runs ADD COLUMN events_watched_until timestamptz;
DROP TRIGGER runs_events_notify ON runs;
CREATE TRIGGER runs_events_notify
    AFTER UPDATE OF event_seq ON runs
    FOR EACH ROW
    WHEN (OLD.event_seq IS DISTINCT FROM NEW.event_seq AND NEW.events_watched_until > now())
    EXECUTE FUNCTION codemode_notify_run_events();

-- +goose Down
DROP TRIGGER runs_events_notify ON runs;
CREATE TRIGGER runs_events_notify
    AFTER UPDATE OF event_seq ON runs
    FOR EACH ROW
    WHEN (OLD.event_seq IS DISTINCT FROM NEW.event_seq)
    EXECUTE FUNCTION codemode_notify_run_events();
ALTER TABLE runs DROP COLUMN events_watched_until;

-- +goose Up
-- A run's status changes are announced (NOTIFY codemode_run_status) only while somebody waits
-- on the run in another way than in the process that drives it: a wait that finds the run not
-- yet as it wants marks it waited on (runs.status_watched_until, up to the wait's end), then
-- rereads. A notification wakes every listening connection of the cluster, and most status
-- changes have nobody waiting (or a waiter the driving process wakes itself).
--
-- As with events (migration 00022), the mark is on the run's row, which every status change
-- updates: a change after the mark sees it and is announced; a change before it, or under way
-- while it is made, is returned by the marking statement itself.
ALTER TABLE runs ADD COLUMN status_watched_until timestamptz;
DROP TRIGGER runs_status_notify ON runs;
CREATE TRIGGER runs_status_notify
    AFTER UPDATE OF status ON runs
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status_watched_until > now())
    EXECUTE FUNCTION codemode_notify_run_status();

-- +goose Down
DROP TRIGGER runs_status_notify ON runs;
CREATE TRIGGER runs_status_notify
    AFTER UPDATE OF status ON runs
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION codemode_notify_run_status();
ALTER TABLE runs DROP COLUMN status_watched_until;

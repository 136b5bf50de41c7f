-- +goose Up
-- Every change of a run's status is announced on the channel codemode_run_status (payload:
-- "<run id> <new status>"), delivered when the changing transaction commits, so that API requests waiting on a
-- run (?wait=) wake at once instead of polling.
-- +goose StatementBegin
CREATE FUNCTION codemode_notify_run_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('codemode_run_status', NEW.id::text || ' ' || NEW.status);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER runs_status_notify
    AFTER UPDATE OF status ON runs
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION codemode_notify_run_status();

-- +goose Down
DROP TRIGGER runs_status_notify ON runs;
DROP FUNCTION codemode_notify_run_status();

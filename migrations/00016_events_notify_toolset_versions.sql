-- +goose Up
-- Every transaction that appends events to a run's timeline (runs.event_seq moves) announces
-- the run on the channel codemode_run_events (payload: the run id), delivered when it commits,
-- so that live event streams wake at once instead of polling. PostgreSQL folds the identical
-- notifications of one transaction into one.
-- +goose StatementBegin
CREATE FUNCTION codemode_notify_run_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('codemode_run_events', NEW.id::text);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER runs_events_notify
    AFTER UPDATE OF event_seq ON runs
    FOR EACH ROW
    WHEN (OLD.event_seq IS DISTINCT FROM NEW.event_seq)
    EXECUTE FUNCTION codemode_notify_run_events();

-- Toolset versions: every registration or update of a toolset gets a new version (from one
-- sequence, so a name deleted and registered again never reuses one), its manifest kept in
-- toolset_manifests. A run records the versions of its toolsets when it is created
-- (runs.toolset_versions, {name: version}) and is driven with those manifests whatever
-- updates come later; the URL and secret are the toolset's current ones. A run created before
-- this migration has none recorded and uses the current manifests, as before.
CREATE SEQUENCE toolset_version_seq;
ALTER TABLE toolsets ADD COLUMN version bigint NOT NULL DEFAULT nextval('toolset_version_seq');
CREATE TABLE toolset_manifests (
    name     text NOT NULL,
    version  bigint NOT NULL,
    manifest json NOT NULL,  -- json like toolsets.manifest (migration 00004)
    PRIMARY KEY (name, version)
);
INSERT INTO toolset_manifests (name, version, manifest) SELECT name, version, manifest FROM toolsets;
ALTER TABLE runs ADD COLUMN toolset_versions jsonb;

-- +goose Down
ALTER TABLE runs DROP COLUMN toolset_versions;
DROP TABLE toolset_manifests;
ALTER TABLE toolsets DROP COLUMN version;
DROP SEQUENCE toolset_version_seq;
DROP TRIGGER runs_events_notify ON runs;
DROP FUNCTION codemode_notify_run_events();

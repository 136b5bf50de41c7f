-- +goose Up
-- A call whose start and settlement are written together (the common case: every call that
-- settles within the start delay) keeps the events its record appends in its own row, instead
-- of as rows of run_events: the call's call.started and call.settled events and the events
-- queued before them (console lines, the drive's started or resumed event). Those are the
-- events numbered events_end - cardinality(event_types) + 1 to events_end, in order: types
-- event_types, data event_data (JSON texts, like run_events.data) and time events_at. The
-- record then writes one row and one index entry where it wrote three rows and three: the
-- events' rows and their primary key entries were more than half of a call's writes.
--
-- A run's timeline is run_events and these, merged by sequence number: the view run_timeline
-- (for people reading the database; EventList skips the calls whose events all come before
-- the page it reads). Other records (a call's start written on its own, its pending and
-- posted outcomes, checkpoints, suspends, the run's end) still write run_events rows. The
-- retention pass clears these columns with the rest of a finished run's events.
ALTER TABLE calls
    ADD COLUMN event_types text[],
    ADD COLUMN event_data text[],
    ADD COLUMN events_end bigint,
    ADD COLUMN events_at timestamptz;

CREATE VIEW run_timeline AS
SELECT run_id, seq, type, data, at FROM run_events
UNION ALL
SELECT c.run_id, c.events_end - cardinality(c.event_types) + e.n, e.type, e.data::json, c.events_at
FROM calls c CROSS JOIN LATERAL unnest(c.event_types, c.event_data) WITH ORDINALITY AS e(type, data, n)
WHERE c.events_end IS NOT NULL;

-- +goose Down
DROP VIEW run_timeline;
INSERT INTO run_events (run_id, seq, type, data, at)
SELECT c.run_id, c.events_end - cardinality(c.event_types) + e.n, e.type, e.data::json, c.events_at
FROM calls c CROSS JOIN LATERAL unnest(c.event_types, c.event_data) WITH ORDINALITY AS e(type, data, n)
WHERE c.events_end IS NOT NULL;
ALTER TABLE calls
    DROP COLUMN event_types,
    DROP COLUMN event_data,
    DROP COLUMN events_end,
    DROP COLUMN events_at;

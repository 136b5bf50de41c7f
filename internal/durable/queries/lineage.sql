-- name: LineageInsert
INSERT INTO run_lineage (run_id, retried_from, forked_from, forked_from_seq, replayed_calls, forked_after_call)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: LineageGet
-- Where run $1 came from, and the runs started from it; no row when the run does not exist.
SELECT l.retried_from, l.forked_from, l.forked_from_seq, l.forked_after_call, coalesce(l.replayed_calls, 0), l.schedule_id, l.schedule_tick,
       coalesce((SELECT array_agg(d.run_id ORDER BY d.run_id) FROM run_lineage d
                 WHERE d.retried_from = $1 OR d.forked_from = $1), '{}')
FROM runs r LEFT JOIN run_lineage l ON l.run_id = r.id
WHERE r.id = $1;

-- name: ForkPointEvent
-- The event of run $1 that recorded its snapshot $2 (a checkpoint, a suspension or a yield).
SELECT seq FROM run_events
WHERE run_id = $1 AND type IN ('checkpointed', 'suspended', 'yielded') AND (data->>'seq')::integer = $2
ORDER BY seq LIMIT 1;

-- name: ForkPointCallEvent
-- The event of run $1 that recorded the settlement of its call $2: a row of run_events, or the
-- last of the events kept in the call's row (migration 00027), a record's call.settled event
-- coming after those queued before it.
SELECT seq FROM run_events
WHERE run_id = $1 AND type = 'call.settled' AND (data->>'callId')::integer = $2
UNION ALL
SELECT events_end FROM calls
WHERE run_id = $1 AND call_id = $2 AND events_end IS NOT NULL
ORDER BY seq LIMIT 1;

-- name: ForkCopyCalls
-- Copies to run $2, under its keys, the calls of run $1 that had settled before its event $3
-- (their call.settled event a row of run_events, or the last of those kept in their row):
-- the new run's program is answered from them instead of calling the tools again. They are
-- marked applied, being records of a replay, not outcomes waiting for a suspended program.
INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, status, handle, applied, outcome, started_at, settled_at)
SELECT $2::uuid, c.call_id, $2::uuid::text || ':' || c.call_id, c.toolset, c.path, c.args, c.durable, c.status, c.handle, true,
       c.outcome, c.started_at, c.settled_at
FROM calls c
WHERE c.run_id = $1 AND c.outcome IS NOT NULL
  AND (c.events_end < $3
       OR c.call_id IN (SELECT (e.data->>'callId')::integer FROM run_events e
                        WHERE e.run_id = $1 AND e.type = 'call.settled' AND e.seq < $3));

-- name: RetentionRuns
-- Up to $3 runs finished before now() - $1 microseconds whose data is not pruned yet, after
-- (finished_at, id) > $2 (NULL: from the oldest), oldest first.
SELECT id, finished_at FROM runs
WHERE pruned_at IS NULL AND finished_at IS NOT NULL
  AND finished_at < now() - $1::bigint * interval '1 microsecond'
  AND ($2::timestamptz IS NULL OR (finished_at, id) > ($2, $4::uuid))
ORDER BY finished_at, id
LIMIT $3;

-- name: RetentionDeleteSnapshots
-- Deletes up to $2 snapshots of runs $1.
DELETE FROM snapshots WHERE (run_id, seq) IN (
    SELECT run_id, seq FROM snapshots WHERE run_id = ANY ($1::uuid[]) LIMIT $2
);

-- name: RetentionDeleteEvents
-- Deletes up to $2 events of runs $1.
DELETE FROM run_events WHERE (run_id, seq) IN (
    SELECT run_id, seq FROM run_events WHERE run_id = ANY ($1::uuid[]) LIMIT $2
);

-- name: RetentionDeleteCallEvents
-- Deletes the events kept in the rows of up to $2 calls of runs $1 (migration 00027), keeping
-- the calls. Returns how many calls' rows it cleared and how many events they held.
WITH cleared AS (
    UPDATE calls c SET event_types = NULL, event_data = NULL, events_end = NULL, events_at = NULL
    FROM (SELECT run_id, call_id, cardinality(event_types) AS events FROM calls
          WHERE run_id = ANY ($1::uuid[]) AND events_end IS NOT NULL LIMIT $2 FOR UPDATE) x
    WHERE c.run_id = x.run_id AND c.call_id = x.call_id
    RETURNING x.events
)
SELECT count(*), coalesce(sum(events), 0) FROM cleared;

-- name: RetentionDeleteDeliveries
-- Deletes up to $2 webhook deliveries of runs $1 that are no longer being attempted.
DELETE FROM webhook_deliveries WHERE id IN (
    SELECT id FROM webhook_deliveries WHERE run_id = ANY ($1::uuid[]) AND status <> 'pending' LIMIT $2
);

-- name: RetentionMarkPruned
-- Marks runs $1 pruned, but those with a delivery still being attempted: they are visited
-- again by the next pass, when the delivery has ended.
UPDATE runs r SET pruned_at = now()
WHERE id = ANY ($1::uuid[])
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.run_id = r.id AND d.status = 'pending');

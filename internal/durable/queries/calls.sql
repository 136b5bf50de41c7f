-- name: CallGetForUpdate
SELECT status, handle, outcome FROM calls WHERE run_id = $1 AND call_id = $2 FOR UPDATE;

-- name: CallGet
SELECT status, handle, outcome, path FROM calls WHERE run_id = $1 AND call_id = $2;

-- name: CallInsert
INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: CallSettle
UPDATE calls
SET status = $3, outcome = $4, settled_at = now(), applied = $5
WHERE run_id = $1 AND call_id = $2 AND status IN ('running', 'pending');

-- name: CallSetPending
UPDATE calls SET status = 'pending', durable = true, handle = $3
WHERE run_id = $1 AND call_id = $2 AND status IN ('running', 'pending');

-- name: CallList
SELECT call_id, key, toolset, path, args, durable, status, handle, outcome, started_at, settled_at
FROM calls WHERE run_id = $1 ORDER BY call_id;

-- name: CallListPending
SELECT call_id, key, toolset, path, args, durable, status, handle, outcome, started_at, settled_at
FROM calls WHERE run_id = $1 AND status = 'pending' ORDER BY call_id;

-- name: CallListUnapplied
SELECT call_id, outcome FROM calls
WHERE run_id = $1 AND outcome IS NOT NULL AND NOT applied ORDER BY call_id;

-- name: CallMarkApplied
UPDATE calls SET applied = true WHERE run_id = $1 AND call_id = ANY ($2::integer[]);

-- name: CallCancelPending
UPDATE calls SET status = 'cancelled', settled_at = now()
WHERE run_id = $1 AND status IN ('running', 'pending')
RETURNING call_id, handle IS NOT NULL;

-- name: CallGetForCancel
SELECT c.key, c.toolset, c.path, c.handle, t.url, t.secret, t.secret_sealed
FROM calls c JOIN toolsets t ON t.name = c.toolset
WHERE c.run_id = $1 AND c.call_id = $2;

-- name: CallListPendingOrUnapplied
-- What a suspension reads of its run's calls: the pending ones (as CallListPending) and those
-- whose posted outcome the program has not been given yet, each saying which it is.
SELECT call_id, key, toolset, path, args, durable, status, handle, outcome, started_at, settled_at,
       status = 'pending' AS pending, (outcome IS NOT NULL AND NOT applied) AS unapplied
FROM calls WHERE run_id = $1 AND (status = 'pending' OR (outcome IS NOT NULL AND NOT applied))
ORDER BY call_id;

-- name: CallInsertFenced
-- CallInsert, only while the run is running under fence $8 (see Lease.oneShot).
INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable)
SELECT $1, $2, $3, $4, $5, $6, $7
WHERE EXISTS (SELECT 1 FROM runs WHERE id = $1 AND fence = $8 AND (status = 'running') IS TRUE);

-- name: CallSettleFenced
-- CallSettle, only while the run is running under fence $6 (see Lease.oneShot).
UPDATE calls
SET status = $3, outcome = $4, settled_at = now(), applied = $5
WHERE run_id = $1 AND call_id = $2 AND status IN ('running', 'pending')
  AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND fence = $6 AND (status = 'running') IS TRUE);

-- name: CallGetDetails
SELECT toolset, path, args FROM calls WHERE run_id = $1 AND call_id = $2;

-- name: CallInsertPendingFenced
-- CallInsertFenced (under fence $7) and CallSetPending in one: a durable call started at $8
-- whose start was not written before it answered pending with handle $9 (see Lease.CallPending).
INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, started_at, status, handle)
SELECT $1, $2, $3, $4, $5, $6, true, $8, 'pending', $9
WHERE EXISTS (SELECT 1 FROM runs WHERE id = $1 AND fence = $7 AND (status = 'running') IS TRUE);

-- name: CallSettlePosted
-- The writes of an outcome posted to a process with a free direct slot, in one statement after
-- RunLockForUpdate and CallGetForUpdate in the same transaction: call $2 of run $1, when it is
-- pending with no outcome, is settled with status $3 and outcome $4 (not yet applied), its
-- call.settled event (data $5) is appended and, when the run is suspended, the run is leased
-- to worker $6 for $7 (as RunLeaseResume does for its current snapshot; the run's row is
-- written once). Returns no row when nothing was settled; else whether the run was leased,
-- and the lease's fence, snapshot sequence, lost worker (as RunLeaseResume) and crashes.
WITH settled AS (
    UPDATE calls SET status = $3, outcome = $4, settled_at = now(), applied = false
    WHERE run_id = $1 AND call_id = $2 AND status = 'pending' AND outcome IS NULL
    RETURNING call_id
), run AS (
    UPDATE runs r
    SET event_seq = r.event_seq + 1,
        status = CASE WHEN o.lease THEN 'running' ELSE r.status END,
        fence = CASE WHEN o.lease THEN r.fence + 1 ELSE r.fence END,
        lease_owner = CASE WHEN o.lease THEN NULL ELSE r.lease_owner END,
        lease_worker = CASE WHEN o.lease THEN $6 ELSE r.lease_worker END,
        redriven_from = CASE WHEN o.lease THEN NULL ELSE r.redriven_from END,
        lease_expires_at = CASE WHEN o.lease THEN now() + $7::interval ELSE r.lease_expires_at END,
        updated_at = CASE WHEN o.lease THEN now() ELSE r.updated_at END
    FROM (SELECT status = 'suspended' AS lease, redriven_from FROM runs WHERE id = $1) o
    WHERE r.id = $1 AND EXISTS (SELECT FROM settled)
    RETURNING r.event_seq, o.lease, r.fence, r.snapshot_seq, o.redriven_from, r.crashes
), event AS (
    INSERT INTO run_events (run_id, seq, type, data) SELECT $1, event_seq, 'call.settled', $5::json FROM run
)
SELECT lease, fence, snapshot_seq, redriven_from, crashes FROM run;

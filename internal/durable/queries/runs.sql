-- name: RunInsert
-- Inserts run $9 with its "created" event (sequence 1) and its run.execute job, and returns it
-- as RunGet does; no row (and no job) when the idempotency key exists.
--
-- The job row is what River's insert writes for ExecuteArgs (see executeJob): args {"run_id"},
-- kind $10, queue $11, at most $12 attempts, priority $13, available now, no unique key. With
-- payload $14, River's producers are told a job is available, as River's insert notifies them
-- (channel <schema>.river_insert).
WITH run AS (
    INSERT INTO runs (id, code, limits, toolsets, webhook_url, webhook_secret_sealed, idempotency_key, request_hash, event_seq, input,
                      toolset_versions)
    VALUES ($9, $1, $2, $3, $4, $5, $6, $7, 1, $8,
            -- the versions of the toolsets the run may use (see migration 00016)
            (SELECT coalesce(jsonb_object_agg(name, version), '{}') FROM toolsets WHERE $3::text[] IS NULL OR name = ANY ($3::text[])))
    ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING id, status, code, limits, toolsets, webhook_url, NULL::text AS webhook_secret, result, snapshot_seq,
              created_at, updated_at, finished_at, input
), created AS (
    INSERT INTO run_events (run_id, seq, type) SELECT id, 1, 'created' FROM run
), job AS (
    INSERT INTO river_job (args, kind, max_attempts, priority, queue, state, scheduled_at, metadata, tags)
    SELECT jsonb_build_object('run_id', id::text), $10, $12, $13, $11, 'available', now(), '{}', '{}'
    FROM run
)
SELECT run.* FROM run
LEFT JOIN LATERAL (SELECT pg_notify(current_schema() || '.river_insert', $14::text) WHERE $14::text IS NOT NULL) n ON true;

-- name: RunInsertLeased
-- Inserts run $8 as RunInsert does (no idempotency key), already leased to worker $9 for $10
-- under fence 1, to be driven at once by that worker (see direct.go): status running, its
-- "created" event, no River job (lease_owner NULL). Returns it as RunGet does, followed by the
-- toolsets it may use as ToolsetListOfRun reads them (in its order, by name) after a column saying
-- whether the row has one: a row per toolset, or one row with none (false, then empty
-- columns) when the run may use no toolset. No row (and nothing stored) when a toolset named
-- in $3 does not exist. ToolsetListOfRun cannot be in the same statement: the run it reads is
-- inserted here, and a statement's parts do not see each other's writes.
WITH versions AS (
    SELECT coalesce(jsonb_object_agg(name, version), '{}') AS versions, count(*) AS found
    FROM toolsets WHERE $3::text[] IS NULL OR name = ANY ($3::text[])
), run AS (
    INSERT INTO runs (id, code, limits, toolsets, webhook_url, webhook_secret_sealed, request_hash, event_seq, input,
                      toolset_versions, status, fence, lease_worker, lease_expires_at)
    SELECT $8, $1, $2, $3, $4, $5, $6, 1, $7, v.versions, 'running', 1, $9, now() + $10::interval
    FROM versions v
    WHERE $3::text[] IS NULL OR v.found = (SELECT count(DISTINCT t) FROM unnest($3::text[]) t)
    RETURNING id, status, code, limits, toolsets, webhook_url, NULL::text AS webhook_secret, result, snapshot_seq,
              created_at, updated_at, finished_at, input
), created AS (
    INSERT INTO run_events (run_id, seq, type) SELECT id, 1, 'created' FROM run
)
SELECT run.*, v.key IS NOT NULL, coalesce(v.key, ''), coalesce(t.url, ''), t.secret, t.secret_sealed,
       coalesce(t.description, ''), coalesce(m.manifest, t.manifest, '{"tools":[]}'), coalesce(t.created_at, now()),
       coalesce(t.kind, 'http'), t.source, t.auth_sealed, t.name IS NULL
FROM run CROSS JOIN versions vs
LEFT JOIN LATERAL jsonb_each_text(vs.versions) v ON true
LEFT JOIN toolsets t ON t.name = v.key
LEFT JOIN toolset_manifests m ON m.name = v.key AND m.version = v.value::bigint
ORDER BY v.key;

-- name: RunByIdempotencyKey
SELECT id, request_hash FROM runs WHERE idempotency_key = $1;

-- name: RunGet
SELECT id, status, code, limits, toolsets, webhook_url, NULL::text AS webhook_secret, result, snapshot_seq,
       created_at, updated_at, finished_at, input
FROM runs WHERE id = $1;

-- name: RunGetPending
-- RunGet with the run's lineage (as LineageGet reads it) and its pending calls (as
-- CallListPending reads them) in the same snapshot: a row per pending call, in call order, or
-- one row with NULL call columns when it has none.
SELECT r.id, r.status, r.code, r.limits, r.toolsets, r.webhook_url, NULL::text AS webhook_secret, r.result, r.snapshot_seq,
       r.created_at, r.updated_at, r.finished_at, r.input,
       l.retried_from, l.forked_from, l.forked_from_seq, l.forked_after_call, coalesce(l.replayed_calls, 0), l.schedule_id, l.schedule_tick,
       coalesce((SELECT array_agg(d.run_id ORDER BY d.run_id) FROM run_lineage d
                 WHERE d.retried_from = $1 OR d.forked_from = $1), '{}'),
       c.call_id, c.key, c.toolset, c.path, c.args, c.durable, c.status, c.handle, c.outcome, c.started_at, c.settled_at
FROM runs r
LEFT JOIN run_lineage l ON l.run_id = r.id
LEFT JOIN calls c ON c.run_id = r.id AND c.status = 'pending'
WHERE r.id = $1
ORDER BY c.call_id;

-- name: RunList
SELECT id, status, code, limits, toolsets, webhook_url, NULL::text AS webhook_secret, result, snapshot_seq,
       created_at, updated_at, finished_at, input
FROM runs
WHERE ($1::text IS NULL OR status = $1)
  -- runs naming the toolset, or naming none and having called it
  AND ($2::text IS NULL OR $2 = ANY (toolsets)
       OR (toolsets IS NULL AND EXISTS (SELECT 1 FROM calls c WHERE c.run_id = runs.id AND c.toolset = $2)))
  AND ($3::timestamptz IS NULL OR created_at > $3)
  AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5::uuid))
  -- runs a schedule started (run_lineage_schedule_idx)
  AND ($7::uuid IS NULL OR EXISTS (SELECT 1 FROM run_lineage l WHERE l.run_id = runs.id AND l.schedule_id = $7))
ORDER BY created_at DESC, id DESC
LIMIT $6;

-- name: RunLockForUpdate
SELECT status, snapshot_seq, fence FROM runs WHERE id = $1 FOR UPDATE;

-- name: RunLockFenced
-- Locks the row of a run still leased under fence $2 and extends the lease by $3. With $4 set,
-- the transaction commits with synchronous_commit $4 (set_config, local to the transaction, in
-- the statement rather than one of its own, as RunLeaseExecute does; the condition on it only
-- keeps the setting from being planned away).
UPDATE runs SET lease_expires_at = now() + $3::interval, updated_at = now()
FROM (SELECT set_config('synchronous_commit', coalesce($4::text, current_setting('synchronous_commit')), true) AS commit_mode) m
WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
RETURNING snapshot_seq;

-- name: RunLockFencedReceivers
-- RunLockFenced, also returning who gets event $4 of the run (as WebhookReceivers, saving its
-- statement): the run's own webhook URL (NULL when none), and the ids and URLs of the enabled
-- subscriptions to the event, oldest first. $5 is RunLockFenced's commit mode.
UPDATE runs SET lease_expires_at = now() + $3::interval, updated_at = now()
FROM (SELECT set_config('synchronous_commit', coalesce($5::text, current_setting('synchronous_commit')), true) AS commit_mode) m
WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
RETURNING snapshot_seq, nullif(webhook_url, ''),
          ARRAY(SELECT id FROM webhook_subscriptions WHERE enabled AND $4 = ANY (events) ORDER BY created_at, id),
          ARRAY(SELECT url FROM webhook_subscriptions WHERE enabled AND $4 = ANY (events) ORDER BY created_at, id);

-- name: RunLockFencedNoReceivers
-- RunLockFencedReceivers for a transaction sent with its COMMIT, which expects the lease held
-- and nobody to get event $4 of the run ('': no event, as RunLockFenced): when either does not
-- hold, the statement refuses (codemode_refuse), aborting the transaction. Returns the run's
-- snapshot sequence.
WITH locked AS (
    UPDATE runs SET lease_expires_at = now() + $3::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($5::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING snapshot_seq, webhook_url
)
SELECT locked.snapshot_seq,
       CASE WHEN locked.snapshot_seq IS NULL OR nullif(locked.webhook_url, '') IS NOT NULL
                 OR EXISTS (SELECT FROM webhook_subscriptions WHERE enabled AND $4 = ANY (events))
            THEN codemode_refuse('the write has webhooks to enqueue, or lost its lease') END
FROM (VALUES (1)) AS one LEFT JOIN locked ON true;

-- name: EventsInsertLockingNoReceivers
-- RunLockFencedNoReceivers ($1 run, $2 fence, $3 lease extension, $4 event, $5 commit mode)
-- that also appends events: types $6 with data $7 (JSON texts), in order, in the same update
-- of the run's row (the events of a transaction sent with its COMMIT, which would otherwise
-- write the row twice). Refuses as RunLockFencedNoReceivers does; returns the run's snapshot
-- sequence.
WITH locked AS (
    UPDATE runs SET event_seq = event_seq + cardinality($6::text[]), lease_expires_at = now() + $3::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($5::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING event_seq, snapshot_seq, webhook_url
), events AS (
    INSERT INTO run_events (run_id, seq, type, data)
    SELECT $1, locked.event_seq - cardinality($6::text[]) + e.n, e.type, e.data::json
    FROM locked, unnest($6::text[], $7::text[]) WITH ORDINALITY AS e(type, data, n)
)
SELECT locked.snapshot_seq,
       CASE WHEN locked.snapshot_seq IS NULL OR nullif(locked.webhook_url, '') IS NOT NULL
                 OR EXISTS (SELECT FROM webhook_subscriptions WHERE enabled AND $4 = ANY (events))
            THEN codemode_refuse('the write has webhooks to enqueue, or lost its lease') END
FROM (VALUES (1)) AS one LEFT JOIN locked ON true;

-- name: EventsInsertLockingCallPendingNoReceivers
-- EventsInsertLockingNoReceivers ($1–$7), also inserting the row of a durable call whose start
-- was not written before it answered pending: call $8 (key $9, toolset $10, path $11, args
-- $12) started at $13, pending with handle $14 (as CallInsertPendingFenced does, the lock
-- standing for its fence check). Refuses as EventsInsertLockingNoReceivers does (then nothing
-- is written); returns the run's snapshot sequence.
WITH locked AS (
    UPDATE runs SET event_seq = event_seq + cardinality($6::text[]), lease_expires_at = now() + $3::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($5::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING event_seq, snapshot_seq, webhook_url
), events AS (
    INSERT INTO run_events (run_id, seq, type, data)
    SELECT $1, locked.event_seq - cardinality($6::text[]) + e.n, e.type, e.data::json
    FROM locked, unnest($6::text[], $7::text[]) WITH ORDINALITY AS e(type, data, n)
), call AS (
    INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, started_at, status, handle)
    SELECT $1, $8, $9, $10, $11, $12, true, $13, 'pending', $14 FROM locked
)
SELECT locked.snapshot_seq,
       CASE WHEN locked.snapshot_seq IS NULL OR nullif(locked.webhook_url, '') IS NOT NULL
                 OR EXISTS (SELECT FROM webhook_subscriptions WHERE enabled AND $4 = ANY (events))
            THEN codemode_refuse('the write has webhooks to enqueue, or lost its lease') END
FROM (VALUES (1)) AS one LEFT JOIN locked ON true;

-- name: RunLeaseExecute
-- Leases the run to job $2 of worker $4; returns the worker whose lost lease made the run
-- re-driven (NULL when it was not), and the run's count of such re-drives. With $5 set, the
-- transaction commits with synchronous_commit $5 (set_config, local to the transaction, in
-- the statement rather than one of its own; old.commit_mode is never NULL, the condition only
-- keeps the setting from being planned away).
UPDATE runs r
SET status = 'running', fence = r.fence + 1, lease_owner = $2, lease_worker = $4, redriven_from = NULL,
    lease_expires_at = now() + $3::interval, updated_at = now()
FROM (SELECT redriven_from,
             set_config('synchronous_commit', coalesce($5::text, current_setting('synchronous_commit')), true) AS commit_mode
      FROM runs WHERE id = $1 FOR UPDATE) old
WHERE r.id = $1 AND old.commit_mode IS NOT NULL
  AND (r.status = 'queued'
       OR (r.status = 'running' AND (r.lease_owner = $2 OR r.lease_expires_at < now())))
RETURNING r.fence, r.snapshot_seq, old.redriven_from, r.crashes;

-- name: RunLeaseResume
-- As RunLeaseExecute, for a run suspended or queued at snapshot $5, with synchronous_commit $6.
UPDATE runs r
SET status = 'running', fence = r.fence + 1, lease_owner = $2, lease_worker = $4, redriven_from = NULL,
    lease_expires_at = now() + $3::interval, updated_at = now()
FROM (SELECT redriven_from,
             set_config('synchronous_commit', coalesce($6::text, current_setting('synchronous_commit')), true) AS commit_mode
      FROM runs WHERE id = $1 FOR UPDATE) old
WHERE r.id = $1 AND old.commit_mode IS NOT NULL
  AND ((r.status IN ('suspended', 'queued') AND r.snapshot_seq = $5)
       OR (r.status = 'running' AND (r.lease_owner = $2 OR r.lease_expires_at < now())))
RETURNING r.fence, r.snapshot_seq, old.redriven_from, r.crashes;

-- name: RunLeaseOwner
SELECT lease_owner FROM runs WHERE id = $1;

-- name: RunHeartbeat
-- Extends the lease of a run still leased under fence $2; no row when the lease was lost.
UPDATE runs SET lease_expires_at = now() + $3::interval
WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE
RETURNING id;

-- name: RunMarkEventsWatched
-- Marks run $1's events watched for $2 more (migration 00022): until then every transaction
-- that appends events to it notifies codemode_run_events. A finished run gets no more events
-- and is left alone.
UPDATE runs SET events_watched_until = greatest(events_watched_until, now() + $2::interval)
WHERE id = $1 AND finished_at IS NULL;

-- name: RunMarkStatusWatched
-- Marks run $1 waited on for $2 more (migration 00023): until then its status changes are
-- announced on codemode_run_status. Returns its status, as of any change the mark waited
-- for; no row when it is finished (or gone).
UPDATE runs SET status_watched_until = greatest(status_watched_until, now() + $2::interval)
WHERE id = $1 AND finished_at IS NULL
RETURNING status;

-- name: RunListExpired
-- Runs whose driver stopped heartbeating, oldest expiry first, locked for the caller.
SELECT id, lease_owner, coalesce(lease_worker, ''), snapshot_seq, crashes FROM runs
WHERE status = 'running' AND lease_expires_at < now()
ORDER BY lease_expires_at
LIMIT $1
FOR UPDATE SKIP LOCKED;

-- name: RunRequeue
-- Puts a running run back on the queue, fencing off its driver: a re-drive after its worker
-- was lost ($3 true: counted in crashes, and the worker remembered for the redriven event) or
-- a drain that ran out of time. Returns the new fence.
UPDATE runs
SET status = 'queued', fence = fence + 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = now(),
    crashes = crashes + CASE WHEN $3::boolean THEN 1 ELSE 0 END,
    redriven_from = CASE WHEN $3::boolean THEN coalesce(lease_worker, '') ELSE redriven_from END
WHERE id = $1 AND (status = 'running') IS TRUE AND ($2::bigint IS NULL OR fence = $2)
RETURNING fence, snapshot_seq;


-- name: RunFinishFenced
-- Ends run $1, still leased under fence $2, with status $3 and result $4, and appends its
-- events: types $5 with data $6 (JSON texts, stored as json, not jsonb, which refuses U+0000),
-- in order. Returns one row: whether the lease was still held (nothing was written when it
-- was not), who gets the run's webhook event $7 (as RunLockFencedReceivers), the ids of the
-- cancelled calls with a handle (durable work to cancel at its tool; with $8, the calls still
-- running or pending are cancelled, as CallCancelPending does) and the run's finished_at (also
-- its updated_at). With $9 the caller expects the lease held, nobody to get the webhook and no
-- durable work to cancel, and sends its COMMIT with the statement: when any of that does not
-- hold, the statement refuses (codemode_refuse), aborting the transaction; the receivers are
-- then not read (NULL), the refusal standing for their absence. It also marks the
-- posted outcomes $10 applied (as CallMarkApplied) and, with $11, deletes the run's snapshots
-- (as SnapshotDeleteRun): a finished run is never resumed.
WITH run AS (
    UPDATE runs
    SET status = $3, result = $4, finished_at = now(), updated_at = now(),
        lease_owner = NULL, lease_expires_at = NULL, event_seq = event_seq + cardinality($5::text[])
    WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE
    RETURNING event_seq, webhook_url, finished_at
), events AS (
    INSERT INTO run_events (run_id, seq, type, data)
    SELECT $1, run.event_seq - cardinality($5::text[]) + e.n, e.type, e.data::json
    FROM run, unnest($5::text[], $6::text[]) WITH ORDINALITY AS e(type, data, n)
), cancelled AS (
    UPDATE calls SET status = 'cancelled', settled_at = now()
    WHERE run_id = $1 AND status IN ('running', 'pending') AND $8::boolean AND EXISTS (SELECT FROM run)
    RETURNING call_id, handle IS NOT NULL AS has_handle
), applied AS (
    UPDATE calls SET applied = true
    WHERE run_id = $1 AND call_id = ANY ($10::integer[]) AND EXISTS (SELECT FROM run)
), pruned AS (
    DELETE FROM snapshots WHERE run_id = $1 AND $11::boolean AND EXISTS (SELECT FROM run)
)
SELECT run.event_seq IS NOT NULL, nullif(run.webhook_url, ''),
       CASE WHEN NOT $9::boolean THEN
           ARRAY(SELECT id FROM webhook_subscriptions WHERE enabled AND $7 = ANY (events) ORDER BY created_at, id) END,
       CASE WHEN NOT $9::boolean THEN
           ARRAY(SELECT url FROM webhook_subscriptions WHERE enabled AND $7 = ANY (events) ORDER BY created_at, id) END,
       ARRAY(SELECT call_id FROM cancelled WHERE has_handle ORDER BY call_id), run.finished_at,
       CASE WHEN $9::boolean AND (run.event_seq IS NULL OR nullif(run.webhook_url, '') IS NOT NULL
                                  OR EXISTS (SELECT FROM webhook_subscriptions WHERE enabled AND $7 = ANY (events))
                                  OR EXISTS (SELECT FROM cancelled WHERE has_handle))
            THEN codemode_refuse('the finish has webhooks or cancellations to enqueue, or lost its lease') END
FROM (VALUES (1)) AS one LEFT JOIN run ON true;

-- name: RunSuspendFenced
-- A suspension sent with its COMMIT (see Lease.suspendOneTrip) in one statement, which writes
-- the run's row once where a lock, a snapshot and a release would write three versions of it:
-- run $1, still leased under fence $2, is parked as suspended with its lease released, snapshot
-- $5 (header $6, state $7) becomes its latest (the older ones are deleted and the count of lost
-- workers restarts, as SnapshotWrite does) and its events are appended: types $3 with data $4
-- (JSON texts), in order, then its suspended event, whose data is $8, the ids of the run's
-- pending calls (a JSON array), then $9. The statement refuses (codemode_refuse), aborting the
-- transaction, when the lease is lost, when somebody gets the run.suspended webhook (the run's
-- own URL or an enabled subscription) or when the run has posted outcomes its program was not
-- given (their resume must be enqueued): the suspension is then made the two-trip way. The
-- caller holds the run's row lock (RunLockForUpdate, a statement of its own, so that this
-- statement reads the calls as an outcome posted before the lock left them).
WITH locked AS (
    UPDATE runs
    SET status = 'suspended', updated_at = now(), lease_owner = NULL, lease_expires_at = NULL,
        event_seq = event_seq + cardinality($3::text[]) + 1, snapshot_seq = $5, crashes = 0
    WHERE id = $1 AND fence = $2 AND (status = 'running') IS TRUE
    RETURNING event_seq, webhook_url
), pruned AS (
    DELETE FROM snapshots WHERE run_id = $1 AND seq < $5 AND EXISTS (SELECT FROM locked)
), snapshot AS (
    INSERT INTO snapshots (run_id, seq, header, state) SELECT $1, $5, $6, $7 FROM locked
), events AS (
    INSERT INTO run_events (run_id, seq, type, data)
    SELECT $1, locked.event_seq - cardinality($3::text[]) - 1 + e.n, e.type, e.data::json
    FROM locked,
         unnest($3::text[] || 'suspended'::text,
                $4::text[] || ($8::text || coalesce((SELECT array_to_json(array_agg(call_id ORDER BY call_id))::text
                                                     FROM calls WHERE run_id = $1 AND status = 'pending'), '[]')
                               || $9::text)) WITH ORDINALITY AS e(type, data, n)
)
SELECT CASE WHEN locked.event_seq IS NULL OR nullif(locked.webhook_url, '') IS NOT NULL
                 OR EXISTS (SELECT FROM webhook_subscriptions WHERE enabled AND 'run.suspended' = ANY (events))
                 OR EXISTS (SELECT FROM calls WHERE run_id = $1 AND outcome IS NOT NULL AND NOT applied)
            THEN codemode_refuse('the suspension has webhooks to enqueue or posted outcomes to resume with, or lost its lease') END
FROM (VALUES (1)) AS one LEFT JOIN locked ON true;

-- name: RunReleaseEvent
-- Parks run $1 with status $2 (suspended, or queued when it yielded), its lease released, and
-- appends event $3 with data $4, in one statement (one new version of the run's row). The
-- caller holds the run's row lock.
WITH s AS (
    UPDATE runs
    SET status = $2, updated_at = now(), lease_owner = NULL, lease_expires_at = NULL, event_seq = event_seq + 1
    WHERE id = $1
    RETURNING event_seq
)
INSERT INTO run_events (run_id, seq, type, data) SELECT $1, event_seq, $3, $4 FROM s;

-- name: RunCancel
UPDATE runs
SET status = 'cancelled', fence = fence + 1, finished_at = now(), updated_at = now(),
    lease_owner = NULL, lease_expires_at = NULL
WHERE id = $1;

-- name: SnapshotWrite
-- Inserts snapshot $2 of run $1 (header $3, state $4) and makes it the run's latest
-- (runs.snapshot_seq), in one statement: the older ones are deleted, since resuming only ever
-- reads the latest, and the count of lost workers restarts, since a new snapshot is progress
-- past every earlier crash. The caller holds the run's row lock.
WITH pruned AS (
    DELETE FROM snapshots WHERE run_id = $1 AND seq < $2
), latest AS (
    UPDATE runs SET snapshot_seq = $2, crashes = 0, updated_at = now() WHERE id = $1
)
INSERT INTO snapshots (run_id, seq, header, state) VALUES ($1, $2, $3, $4);

-- name: SnapshotDeleteRun
-- Deletes every snapshot of a run that ended: it is never resumed again.
DELETE FROM snapshots WHERE run_id = $1;

-- name: SnapshotGet
SELECT header, state FROM snapshots WHERE run_id = $1 AND seq = $2;

-- name: EventInsert
-- Appends an event with the run's next sequence number.
WITH s AS (UPDATE runs SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq)
INSERT INTO run_events (run_id, seq, type, data) SELECT $1, event_seq, $2, $3 FROM s;

-- name: EventInsertLocking
-- Appends an event, only while the run is running under fence $4, and extends the lease by $5
-- as RunLockFenced does, which it stands for as the first statement of a transaction (see
-- Lease.oneShot): it returns the event's sequence number, no row when the lease was lost. $6 is
-- RunLockFenced's commit mode.
WITH s AS (
    UPDATE runs SET event_seq = event_seq + 1, lease_expires_at = now() + $5::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($6::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $4 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING event_seq
)
INSERT INTO run_events (run_id, seq, type, data) SELECT $1, event_seq, $2, $3 FROM s
RETURNING seq;

-- name: EventsInsertLocking
-- EventInsertLocking for several events: types $2 with data $3 (JSON texts), in order. Returns
-- their sequence numbers, no row when the lease was lost. $6 is RunLockFenced's commit mode.
WITH s AS (
    UPDATE runs SET event_seq = event_seq + cardinality($2::text[]), lease_expires_at = now() + $5::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($6::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $4 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING event_seq
)
INSERT INTO run_events (run_id, seq, type, data)
SELECT $1, s.event_seq - cardinality($2::text[]) + e.n, e.type, e.data::json
FROM s, unnest($2::text[], $3::text[]) WITH ORDINALITY AS e(type, data, n)
RETURNING seq;

-- name: EventsInsertLockingCallSettled
-- EventsInsertLocking ($1–$6), also inserting a settled call's row: call $7 (key $8, toolset
-- $9, path $10, args $11, durable $12) started at $13, whose start was not written before it
-- settled with status $14 and outcome $15 (see Lease.CallStarted), the lock standing for the
-- fence check. The events are kept in the call's row (event_types, event_data, events_end,
-- events_at; migration 00027), not as rows of run_events. Returns the first event's sequence
-- number, no row when the lease was lost (then nothing is written).
WITH s AS (
    UPDATE runs SET event_seq = event_seq + cardinality($2::text[]), lease_expires_at = now() + $5::interval, updated_at = now()
    FROM (SELECT set_config('synchronous_commit', coalesce($6::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE id = $1 AND fence = $4 AND (status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING event_seq
), call AS (
    INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, started_at, status, outcome, settled_at, applied,
                       event_types, event_data, events_end, events_at)
    SELECT $1, $7, $8, $9, $10, $11, $12, $13, $14, $15, now(), true, $2::text[], $3::text[], s.event_seq, clock_timestamp()
    FROM s
)
SELECT event_seq - cardinality($2::text[]) + 1 FROM s;

-- name: PlanJoinsByIndex
-- Has the statements that follow in the transaction join by index lookups: a join of runs with
-- a short list of ids (EventsInsertLockingCallsSettled) is otherwise planned as a sequential
-- scan of runs and a hash join while the table is young (small, never analyzed), and a
-- connection's cached plan keeps it until the table's statistics change.
SELECT set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
       set_config('enable_mergejoin', 'off', true);

-- name: EventsInsertLockingCallsSettled
-- The records of settled calls of distinct runs, each written as EventsInsertLockingCallSettled
-- writes one, in one statement (journalGroup merges the records of a group so). Per record,
-- in parallel arrays: run $1, fence $2, its number of events $3, call $4 (key $5, toolset $6,
-- path $7, args $8, durable $9) started at $10 with status $11 and outcome $12, and the index
-- $13 of its first event in the events of every record, in order: types $14, data $15; lease
-- extension $16 and commit mode $17 for all. Returns the number of each record whose lease
-- was found (a record whose lease was lost writes nothing). Sent after PlanJoinsByIndex, so
-- that each run is found by its primary key. The run ids come as texts: pgx sends a list of
-- strings as text[] at once, where as uuid[] it first tries, and fails, to encode them in
-- binary.
WITH w AS (
    SELECT * FROM unnest($1::text[]::uuid[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::boolean[], $10::timestamptz[], $11::text[], $12::text[], $13::int[])
        WITH ORDINALITY AS w(run_id, fence, event_count, call_id, key, toolset, path, args, durable, started_at, status, outcome,
                             first_event, n)
), s AS (
    UPDATE runs r SET event_seq = r.event_seq + w.event_count, lease_expires_at = now() + $16::interval, updated_at = now()
    FROM w, (SELECT set_config('synchronous_commit', coalesce($17::text, current_setting('synchronous_commit')), true) AS commit_mode) m
    WHERE r.id = w.run_id AND r.fence = w.fence AND (r.status = 'running') IS TRUE AND m.commit_mode IS NOT NULL
    RETURNING w.n, r.id, r.event_seq
), call AS (
    INSERT INTO calls (run_id, call_id, key, toolset, path, args, durable, started_at, status, outcome, settled_at, applied,
                       event_types, event_data, events_end, events_at)
    SELECT s.id, w.call_id, w.key, w.toolset, w.path, w.args::json, w.durable, w.started_at, w.status, w.outcome::json, now(), true,
           ($14::text[])[w.first_event : w.first_event + w.event_count - 1],
           ($15::text[])[w.first_event : w.first_event + w.event_count - 1], s.event_seq, clock_timestamp()
    FROM s JOIN w ON w.n = s.n
)
SELECT n FROM s;

-- name: EventList
-- Up to $3 events of run $1 numbered above $2, in order: its rows of run_events and the events
-- kept in its calls' rows (migration 00027).
SELECT seq, type, data, at FROM run_events WHERE run_id = $1 AND seq > $2
UNION ALL
SELECT c.events_end - cardinality(c.event_types) + e.n, e.type, e.data::json, c.events_at
FROM calls c CROSS JOIN LATERAL unnest(c.event_types, c.event_data) WITH ORDINALITY AS e(type, data, n)
WHERE c.run_id = $1 AND c.events_end > $2 AND c.events_end - cardinality(c.event_types) + e.n > $2
ORDER BY seq LIMIT $3;


-- name: RunDriveInput
-- What a drive needs once it took the lease: the run's code, limits and toolset names, the
-- highest call id recorded so far (calls above it are new), its input, whether it has a
-- webhook of its own, its latest snapshot
-- (runs.snapshot_seq; NULLs when it has none) and the posted outcomes the program has not seen
-- (a JSON array of {"callId", "outcome"}, in call order; NULL when none). Sent right after the
-- lease UPDATE, as a statement of its own so that it sees every write of earlier drivers.
SELECT r.code, r.limits, r.toolsets, (SELECT coalesce(max(call_id), 0) FROM calls WHERE run_id = $1), r.input,
       nullif(r.webhook_url, '') IS NOT NULL, s.header, s.state,
       (SELECT json_agg(json_build_object('callId', c.call_id, 'outcome', c.outcome) ORDER BY c.call_id)
        FROM calls c WHERE c.run_id = $1 AND c.outcome IS NOT NULL AND NOT c.applied)
FROM runs r LEFT JOIN snapshots s ON s.run_id = r.id AND s.seq = r.snapshot_seq
WHERE r.id = $1;

-- name: ToolsetListOfRun
-- The toolsets run $1 may use, with the manifests of the versions recorded when it was created
-- and, last, whether the toolset has been deleted since (its URL, secret and description are
-- then empty), with the toolset's kind, source and sealed auth as they are now. A run created before migration 00016 recorded no versions: every toolset when
-- it names none, else the named ones, with their current manifests.
SELECT v.key, coalesce(t.url, ''), t.secret, t.secret_sealed, coalesce(t.description, ''),
       coalesce(m.manifest, t.manifest, '{"tools":[]}'), coalesce(t.created_at, now()),
       coalesce(t.kind, 'http'), t.source, t.auth_sealed, t.name IS NULL
FROM runs r
CROSS JOIN LATERAL jsonb_each_text(r.toolset_versions) v
LEFT JOIN toolsets t ON t.name = v.key
LEFT JOIN toolset_manifests m ON m.name = v.key AND m.version = v.value::bigint
WHERE r.id = $1
UNION ALL
SELECT name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed, false FROM toolsets
WHERE (SELECT toolset_versions IS NULL AND (toolsets IS NULL OR toolsets.name = ANY (toolsets)) FROM runs WHERE id = $1)
ORDER BY 1;


-- name: ScheduleInsert
INSERT INTO schedules (code, input, toolsets, limits, cron, every_ms, timezone, overlap, next_tick)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at;

-- name: ScheduleGet
SELECT id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at
FROM schedules WHERE id = $1;

-- name: ScheduleList
-- A page of $3 schedules, oldest first, after the one created at $1 with id $2 (NULL: from
-- the oldest).
SELECT id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at
FROM schedules
WHERE $1::timestamptz IS NULL OR (created_at, id) > ($1, $2::uuid)
ORDER BY created_at, id
LIMIT $3;

-- name: ScheduleGetForUpdate
SELECT id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at
FROM schedules WHERE id = $1 FOR UPDATE;

-- name: ScheduleUpdate
-- Stores a schedule as changed (UpdateSchedule); updated_at moves, so that a pass that read
-- it before cannot claim its tick (ScheduleClaimTick).
UPDATE schedules SET code = $2, input = $3, toolsets = $4, limits = $5, cron = $6, every_ms = $7,
    timezone = $8, overlap = $9, next_tick = $10, updated_at = now()
WHERE id = $1
RETURNING id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at;

-- name: ScheduleDelete
DELETE FROM schedules WHERE id = $1;

-- name: ScheduleSetPaused
-- Pauses ($2 true) or resumes a schedule; resuming sets the next tick ($3), since the ticks
-- that passed while it was paused are not fired.
UPDATE schedules SET paused = $2, next_tick = coalesce($3, next_tick), updated_at = now()
WHERE id = $1
RETURNING id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at;

-- name: ScheduleDue
-- The schedules with a tick to fire.
SELECT id, code, input, toolsets, limits, cron, every_ms, timezone, overlap, paused, next_tick, created_at, updated_at
FROM schedules WHERE NOT paused AND next_tick <= $1 ORDER BY next_tick LIMIT $2;

-- name: ScheduleClaimTick
-- Locks a schedule whose next tick is still $2 and that is still as the pass read it (updated
-- at $3): a pass that fired the tick first has moved it on, and a change made since
-- (UpdateSchedule) is fired by the next pass, with what it changed.
SELECT 1 FROM schedules WHERE id = $1 AND next_tick = $2 AND updated_at = $3 AND NOT paused FOR UPDATE;

-- name: ScheduleAdvance
UPDATE schedules SET next_tick = $2, updated_at = now() WHERE id = $1;

-- name: ScheduleTickInsert
INSERT INTO schedule_ticks (schedule_id, tick, run_id, skipped) VALUES ($1, $2, $3, $4)
ON CONFLICT (schedule_id, tick) DO NOTHING;

-- name: ScheduleHasActiveRun
-- Whether a run started by the schedule has not finished.
SELECT EXISTS (SELECT 1 FROM schedule_ticks t JOIN runs r ON r.id = t.run_id
               WHERE t.schedule_id = $1 AND r.status NOT IN ('succeeded', 'failed', 'cancelled'));

-- name: ScheduleTicks
-- The latest ticks of a schedule, newest first.
SELECT tick, run_id, skipped FROM schedule_ticks WHERE schedule_id = $1 ORDER BY tick DESC LIMIT $2;

-- name: LineageInsertScheduled
INSERT INTO run_lineage (run_id, schedule_id, schedule_tick) VALUES ($1, $2, $3);

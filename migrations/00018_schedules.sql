-- +goose Up
-- Scheduled runs: a program started at every tick of a cron expression (in a time zone) or of
-- a fixed interval. next_tick is the next tick to fire; a pass of the schedule.tick job fires
-- the due ones.
CREATE TABLE schedules (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code       text NOT NULL,
    input      json,
    toolsets   text[],
    limits     jsonb NOT NULL DEFAULT '{}',
    cron       text,
    every_ms   bigint CHECK (every_ms >= 1000),
    timezone   text NOT NULL DEFAULT 'UTC',
    overlap    text NOT NULL DEFAULT 'skip' CHECK (overlap IN ('skip', 'queue', 'allow')),
    paused     boolean NOT NULL DEFAULT false,
    next_tick  timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((cron IS NULL) <> (every_ms IS NULL))
);
CREATE INDEX schedules_due_idx ON schedules (next_tick) WHERE NOT paused;

-- Every tick a schedule consumed: the run started for it, or why none was. The primary key is
-- what makes a tick start at most one run, however many workers fire schedules at once.
CREATE TABLE schedule_ticks (
    schedule_id uuid NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    tick        timestamptz NOT NULL,
    run_id      uuid REFERENCES runs (id) ON DELETE SET NULL,
    skipped     text,  -- why no run was started (NULL when one was)
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (schedule_id, tick)
);
CREATE INDEX schedule_ticks_run_idx ON schedule_ticks (run_id) WHERE run_id IS NOT NULL;

-- +goose Down
DROP TABLE schedule_ticks;
DROP TABLE schedules;

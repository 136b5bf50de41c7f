-- +goose Up
-- Documents a program makes (results, call arguments, handles, outcomes, events, webhook
-- payloads) and a toolset's manifest are stored as json, which keeps their text exactly,
-- rather than jsonb, which cannot hold the string escape \u0000 (a program's "a\u0000b"). No
-- query reads inside these columns. Stored jsonb values convert to their json text.
-- See docs/data.md.
ALTER TABLE runs ALTER COLUMN result TYPE json USING result::json;

ALTER TABLE calls ALTER COLUMN args DROP DEFAULT;
ALTER TABLE calls ALTER COLUMN args TYPE json USING args::json;
ALTER TABLE calls ALTER COLUMN args SET DEFAULT 'null';
ALTER TABLE calls ALTER COLUMN handle TYPE json USING handle::json;
ALTER TABLE calls ALTER COLUMN outcome TYPE json USING outcome::json;

ALTER TABLE run_events ALTER COLUMN data DROP DEFAULT;
ALTER TABLE run_events ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE run_events ALTER COLUMN data SET DEFAULT '{}';

ALTER TABLE webhook_deliveries ALTER COLUMN payload TYPE json USING payload::json;

ALTER TABLE toolsets ALTER COLUMN manifest DROP DEFAULT;
ALTER TABLE toolsets ALTER COLUMN manifest TYPE json USING manifest::json;
ALTER TABLE toolsets ALTER COLUMN manifest SET DEFAULT '{"tools":[]}';

-- +goose Down
-- Fails if a stored document holds \u0000, which jsonb cannot represent.
ALTER TABLE toolsets ALTER COLUMN manifest DROP DEFAULT;
ALTER TABLE toolsets ALTER COLUMN manifest TYPE jsonb USING manifest::jsonb;
ALTER TABLE toolsets ALTER COLUMN manifest SET DEFAULT '{"tools":[]}';

ALTER TABLE webhook_deliveries ALTER COLUMN payload TYPE jsonb USING payload::jsonb;

ALTER TABLE run_events ALTER COLUMN data DROP DEFAULT;
ALTER TABLE run_events ALTER COLUMN data TYPE jsonb USING data::jsonb;
ALTER TABLE run_events ALTER COLUMN data SET DEFAULT '{}';

ALTER TABLE calls ALTER COLUMN outcome TYPE jsonb USING outcome::jsonb;
ALTER TABLE calls ALTER COLUMN handle TYPE jsonb USING handle::jsonb;
ALTER TABLE calls ALTER COLUMN args DROP DEFAULT;
ALTER TABLE calls ALTER COLUMN args TYPE jsonb USING args::jsonb;
ALTER TABLE calls ALTER COLUMN args SET DEFAULT 'null';

ALTER TABLE runs ALTER COLUMN result TYPE jsonb USING result::jsonb;

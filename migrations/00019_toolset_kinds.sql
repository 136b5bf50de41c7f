-- +goose Up
-- Toolsets of other kinds than the tool protocol: an OpenAPI document or an MCP server.
-- source holds the kind's configuration without credentials; auth_sealed holds the
-- credentials the worker applies, sealed like secret_sealed (migration 00006).
ALTER TABLE toolsets ADD COLUMN kind text NOT NULL DEFAULT 'http' CHECK (kind IN ('http', 'openapi', 'mcp'));
ALTER TABLE toolsets ADD COLUMN source jsonb;
ALTER TABLE toolsets ADD COLUMN auth_sealed bytea;

-- +goose Down
ALTER TABLE toolsets DROP COLUMN auth_sealed;
ALTER TABLE toolsets DROP COLUMN source;
ALTER TABLE toolsets DROP COLUMN kind;

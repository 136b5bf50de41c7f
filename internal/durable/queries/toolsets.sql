-- name: ToolsetInsert
-- Registers a toolset and keeps its manifest as its first version.
WITH t AS (
    INSERT INTO toolsets (name, url, secret_sealed, description, manifest, kind, source, auth_sealed)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (name) DO NOTHING
    RETURNING name, version, manifest, created_at
), m AS (
    INSERT INTO toolset_manifests (name, version, manifest) SELECT name, version, manifest FROM t
)
SELECT created_at FROM t;

-- name: ToolsetUpdate
-- Replaces the manifest $5 and, when not NULL, the URL $2, the sealed secret $3 (replace: $6)
-- and the description $4 of toolset $1, and the sealed auth $7 (replace: $8), as a new version
-- whose manifest is kept; returns the updated row as ToolsetGet does (no row: no such toolset).
WITH t AS (
    UPDATE toolsets
    SET url = coalesce($2, url),
        secret = CASE WHEN $6 THEN NULL ELSE secret END,
        secret_sealed = CASE WHEN $6 THEN $3 ELSE secret_sealed END,
        description = coalesce($4, description),
        auth_sealed = CASE WHEN $8 THEN $7 ELSE auth_sealed END,
        manifest = $5, version = nextval('toolset_version_seq'), updated_at = now()
    WHERE name = $1
    RETURNING name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed, version
), m AS (
    INSERT INTO toolset_manifests (name, version, manifest) SELECT name, version, manifest FROM t
)
SELECT name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed FROM t;

-- name: ToolsetRunsUsing
-- Up to 10 runs not yet final that may call toolset $1 (see Store.DeleteToolset).
SELECT id FROM runs
WHERE status IN ('queued', 'running', 'suspended')
  AND (toolset_versions ? $1 OR (toolset_versions IS NULL AND (toolsets IS NULL OR $1 = ANY (toolsets))))
ORDER BY created_at
LIMIT 10;

-- name: ToolsetManifestsPrune
-- Deletes the kept manifests of toolset $1 that no run still to be driven recorded, except
-- the current one (every version, once the toolset is deleted).
DELETE FROM toolset_manifests m
WHERE m.name = $1
  AND m.version IS DISTINCT FROM (SELECT version FROM toolsets WHERE name = $1)
  AND NOT EXISTS (
      SELECT 1 FROM runs r
      WHERE r.status IN ('queued', 'running', 'suspended') AND (r.toolset_versions ->> $1)::bigint = m.version
  );

-- name: ToolsetGet
SELECT name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed FROM toolsets WHERE name = $1;

-- name: ToolsetList
SELECT name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed FROM toolsets ORDER BY name;

-- name: ToolsetListNamed
SELECT name, url, secret, secret_sealed, description, manifest, created_at, kind, source, auth_sealed FROM toolsets
WHERE name = ANY ($1::text[]) ORDER BY name;

-- name: ToolsetDelete
DELETE FROM toolsets WHERE name = $1;

-- name: ToolsetLock
SELECT 1 FROM toolsets WHERE name = $1 FOR UPDATE;

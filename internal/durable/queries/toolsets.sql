-- name: ToolsetInsert
INSERT INTO toolsets (name, url, secret_sealed, description, manifest)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (name) DO NOTHING
RETURNING created_at;

-- name: ToolsetGet
SELECT name, url, secret, secret_sealed, description, manifest, created_at FROM toolsets WHERE name = $1;

-- name: ToolsetList
SELECT name, url, secret, secret_sealed, description, manifest, created_at FROM toolsets ORDER BY name;

-- name: ToolsetListNamed
SELECT name, url, secret, secret_sealed, description, manifest, created_at FROM toolsets
WHERE name = ANY ($1::text[]) ORDER BY name;

-- name: ToolsetDelete
DELETE FROM toolsets WHERE name = $1;

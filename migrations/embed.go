// Package migrations holds codemode's SQL schema migrations (goose format, applied in file
// order) and embeds them so the binaries carry their own schema. River's tables are migrated
// separately by internal/durable/migrate.
package migrations

import "embed"

// FS holds the *.sql migration files.
//
//go:embed *.sql
var FS embed.FS

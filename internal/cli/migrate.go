package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/codemode/codemode/internal/durable/migrate"
)

// runMigrate is `codemode migrate`: it applies codemode's and River's migrations to
// DATABASE_URL (or --database-url).
func runMigrate(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	dbURL := fs.String("database-url", env.Getenv("DATABASE_URL"), "PostgreSQL connection string (DATABASE_URL)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		return ExitUsage
	}
	if *dbURL == "" {
		fmt.Fprintln(env.Stderr, "codemode migrate: DATABASE_URL (or --database-url) is required")
		return ExitUsage
	}
	pool, err := pgxpool.New(ctx, *dbURL)
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode migrate: connect:", err)
		return ExitFailed
	}
	defer pool.Close()
	if err := migrate.Up(ctx, pool); err != nil {
		fmt.Fprintln(env.Stderr, "codemode migrate:", err)
		return ExitFailed
	}
	fmt.Fprintln(env.Stdout, "migrations applied")
	return ExitOK
}

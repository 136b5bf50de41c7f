package cli

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/codemode/codemode/internal/config"
	"github.com/codemode/codemode/internal/durable/migrate"
)

// newMigrateCmd is `codemode migrate`: it applies codemode's and River's migrations to
// DATABASE_URL (or --database-url).
func newMigrateCmd(env Env) *cobra.Command {
	var dbURL string
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply codemode's and River's database migrations",
		Long: `Apply codemode's and River's database migrations to DATABASE_URL (or --database-url).
Applying them again is a no-op.`,
		Example: `  DATABASE_URL=postgres://codemode@db/codemode codemode migrate
  codemode migrate --database-url postgres://codemode@db/codemode`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dbURL == "" {
				return errors.New("DATABASE_URL (or --database-url) is required")
			}
			if err := config.CheckDatabaseURL(dbURL); err != nil {
				return err // a usage error, as a flag that does not parse
			}
			pool, err := pgxpool.New(cmd.Context(), dbURL)
			if err != nil {
				return failed(fmt.Errorf("connect: %w", err))
			}
			defer pool.Close()
			if err := migrate.Up(cmd.Context(), pool); err != nil {
				return failed(err)
			}
			fmt.Fprintln(env.Stdout, "migrations applied")
			return nil
		},
	}
	config.SecretStringVar(cmd.Flags(), &dbURL, "database-url", env.Getenv("DATABASE_URL"), "PostgreSQL connection string (default $DATABASE_URL)")
	return cmd
}

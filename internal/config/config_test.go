package config

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/api"
)

func TestParse(t *testing.T) {
	t.Parallel()
	const db = "postgres://db/codemode"
	tests := []struct {
		name    string
		process Process
		env     map[string]string
		args    []string
		check   func(t *testing.T, c Config)
		wantErr string
		wantIs  error
	}{
		{name: "server defaults", process: Server, env: map[string]string{"DATABASE_URL": db}, check: func(t *testing.T, c Config) {
			require.Equal(t, db, c.DatabaseURL)
			require.Equal(t, "127.0.0.1:8080", c.Listen)
			require.Equal(t, 30*time.Second, c.ShutdownTimeout)
			require.False(t, c.Migrate)
		}},
		{name: "environment", process: Worker, env: map[string]string{"DATABASE_URL": db, "CODEMODE_WORKER_RUNS": "3",
			"CODEMODE_WORKER_ID": "w1", "CODEMODE_MIGRATE": "true", "CODEMODE_LOG_LEVEL": "warn"}, check: func(t *testing.T, c Config) {
			require.Equal(t, 3, c.WorkerRuns)
			require.Equal(t, "w1", c.WorkerID)
			require.True(t, c.Migrate)
			require.Equal(t, "warn", c.LogLevel)
			require.Equal(t, 60*time.Second, c.DrainTimeout)
			require.Equal(t, 5*time.Minute, c.DriveTimeout)
			require.Equal(t, "127.0.0.1:9090", c.MetricsListen)
			require.Equal(t, 7*24*time.Hour, c.Retention)
			require.Equal(t, 7*24*time.Hour, c.WorkerRetention())
		}},
		{name: "metrics address", process: Worker, env: map[string]string{"DATABASE_URL": db, "CODEMODE_WORKER_LISTEN": "0.0.0.0:9100"}, check: func(t *testing.T, c Config) {
			require.Equal(t, "0.0.0.0:9100", c.MetricsListen)
		}},
		{name: "metrics endpoint off", process: Worker, env: map[string]string{"DATABASE_URL": db, "CODEMODE_WORKER_LISTEN": "0.0.0.0:9100"},
			args: []string{"--metrics-listen="}, check: func(t *testing.T, c Config) { require.Empty(t, c.MetricsListen) }},
		{name: "retention", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--retention", "36h"},
			check: func(t *testing.T, c Config) { require.Equal(t, 36*time.Hour, c.WorkerRetention()) }},
		{name: "retention 0 keeps data forever", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--retention", "0"},
			check: func(t *testing.T, c Config) { require.Negative(t, c.WorkerRetention()) }},
		{name: "negative retention", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--retention", "-1h"}, wantErr: "--retention"},
		{name: "flags override the environment", process: Worker, env: map[string]string{"DATABASE_URL": "postgres://other", "CODEMODE_WORKER_RUNS": "3"},
			args: []string{"--database-url", db, "--runs", "7", "--drive-timeout", "2m", "--rescue-after", "3m", "--migrate"}, check: func(t *testing.T, c Config) {
				require.Equal(t, db, c.DatabaseURL)
				require.Equal(t, 7, c.WorkerRuns)
				require.Equal(t, 2*time.Minute, c.DriveTimeout)
				require.Equal(t, 3*time.Minute, c.RescueAfter)
				require.True(t, c.Migrate)
			}},
		{name: "dev needs no database", process: Dev, args: []string{"--data", "/tmp/x", "--listen", "localhost:9"}, check: func(t *testing.T, c Config) {
			require.Empty(t, c.DatabaseURL)
			require.Equal(t, "/tmp/x", c.DataDir)
			require.Equal(t, "localhost:9", c.Listen)
		}},
		{name: "dev default data dir", process: Dev, check: func(t *testing.T, c Config) { require.Equal(t, ".codemode", c.DataDir) }},
		{name: "dev runs", process: Dev, args: []string{"--runs", "32"}, check: func(t *testing.T, c Config) { require.Equal(t, 32, c.WorkerRuns) }},
		{name: "dev needs a run slot", process: Dev, args: []string{"--runs", "0"}, wantErr: "--runs) is 0"},
		{name: "token allows a public address", process: Server, env: map[string]string{"DATABASE_URL": db, "CODEMODE_API_TOKEN": "t"},
			args: []string{"--listen", "0.0.0.0:8080"}, check: func(t *testing.T, c Config) { require.Equal(t, "t", c.APIToken) }},
		{name: "migrate-only does not listen", process: Server, env: map[string]string{"DATABASE_URL": db},
			args: []string{"--migrate-only", "--listen", "0.0.0.0:1"}, check: func(t *testing.T, c Config) { require.True(t, c.MigrateOnly) }},

		{name: "server needs a database", process: Server, wantErr: "DATABASE_URL (or --database-url) is required"},
		{name: "worker needs a database", process: Worker, wantErr: "DATABASE_URL (or --database-url) is required"},
		{name: "public address without token", process: Server, env: map[string]string{"DATABASE_URL": db}, args: []string{"--listen", "0.0.0.0:8080"}, wantIs: api.ErrInsecureListen},
		{name: "dev public address without token", process: Dev, args: []string{"--listen", "0.0.0.0:8080"}, wantIs: api.ErrInsecureListen},
		{name: "bad log level", process: Dev, args: []string{"--log-level", "loud"}, wantErr: `log level "loud"`},
		{name: "bad runs variable", process: Worker, env: map[string]string{"DATABASE_URL": db, "CODEMODE_WORKER_RUNS": "many"}, wantErr: "CODEMODE_WORKER_RUNS"},
		{name: "bad migrate variable", process: Server, env: map[string]string{"DATABASE_URL": db, "CODEMODE_MIGRATE": "yes please"}, wantErr: "CODEMODE_MIGRATE"},
		{name: "bad metrics address", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--metrics-listen", "9090"}, wantErr: "--metrics-listen"},
		{name: "no runs", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--runs", "0"}, wantErr: "at least 1"},
		{name: "rescue before drive timeout", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--rescue-after", "1m"}, wantErr: "shorter than --drive-timeout"},
		{name: "worker has no listen flag", process: Worker, env: map[string]string{"DATABASE_URL": db}, args: []string{"--listen", "x"}, wantErr: "unknown flag: --listen"},
		{name: "server has no data flag", process: Server, env: map[string]string{"DATABASE_URL": db}, args: []string{"--data", "x"}, wantErr: "unknown flag: --data"},
		{name: "bad duration", process: Server, env: map[string]string{"DATABASE_URL": db}, args: []string{"--shutdown-timeout", "soon"}, wantErr: "invalid argument"},
		{name: "database URL that does not parse", process: Server, env: map[string]string{"DATABASE_URL": "not a url"}, wantErr: "is not a PostgreSQL connection string"},
		{name: "worker database URL with a bad port", process: Worker, args: []string{"--database-url", "postgres://u:pw@db:port/x"}, wantErr: "u:xxxxx@db:port"},
		{name: "dev database URL that does not parse", process: Dev, args: []string{"--database-url", "postgres://%zz/x"}, wantErr: "is not a PostgreSQL connection string"},
		{name: "argument", process: Server, env: map[string]string{"DATABASE_URL": db}, args: []string{"serve"}, wantErr: `unexpected argument "serve"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			c, err := Parse(tt.process, tt.args, func(k string) string { return tt.env[k] }, &stderr)
			if tt.check != nil {
				require.NoError(t, err)
				tt.check(t, c)
				return
			}
			require.Error(t, err)
			require.ErrorIs(t, err, ErrUsage)
			if tt.wantIs != nil {
				require.ErrorIs(t, err, tt.wantIs)
			}
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestParseHelp(t *testing.T) {
	t.Parallel()
	for _, p := range []Process{Server, Worker, Dev} {
		var stderr bytes.Buffer
		env := map[string]string{"DATABASE_URL": "postgres://u:pw-s3cret@db/x"}
		c, err := Parse(p, []string{"-h"}, func(k string) string { return env[k] }, &stderr)
		require.True(t, errors.Is(err, pflag.ErrHelp), "%s: %v", p, err)
		require.False(t, errors.Is(err, ErrUsage))
		require.Contains(t, stderr.String(), "--database-url")
		require.Contains(t, stderr.String(), "--log-level")
		require.NotContains(t, stderr.String(), "s3cret", "help never shows the connection string")
		require.Equal(t, env["DATABASE_URL"], c.DatabaseURL, "the default still applies")
	}
}

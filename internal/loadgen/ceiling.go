package loadgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/codemode/codemode/internal/pgcluster"
)

// CeilingScenario names the raw PostgreSQL measurement in results.
const CeilingScenario = "pg-ceiling"

// ceilingSchema holds the scratch copies of the service's tables that the ceiling works on; it
// is created and dropped by Ceiling, so the service's own tables are never touched.
const ceilingSchema = "loadgen_ceiling"

// ceilingScript is one run's bare lifecycle in three transactions, as the service needs at
// least: create the run with its execute job; take the job and lease the run; store the
// result and complete the job. Each client takes the job it created, by id: a queue's fetch
// by state and priority costs at least that, so the ceiling errs on the high side. It works on
// copies of the service's tables (same columns, constraints and indexes), with PostgreSQL's
// commit settings as the database has them.
const ceilingScript = `BEGIN;
INSERT INTO loadgen_ceiling.runs (code) VALUES ('1 + 1') RETURNING id AS run_id \gset
INSERT INTO loadgen_ceiling.river_job (kind, args, queue, state, max_attempts, priority, scheduled_at)
  VALUES ('run.execute', jsonb_build_object('runId', ':run_id'), 'runs', 'available', 25, 1, now())
  RETURNING id AS job_id \gset
COMMIT;
BEGIN;
UPDATE loadgen_ceiling.river_job SET state = 'running', attempt = attempt + 1, attempted_at = now()
  WHERE id = :job_id AND state = 'available'
  RETURNING args->>'runId' AS taken_run \gset
UPDATE loadgen_ceiling.runs SET status = 'running', fence = fence + 1, lease_owner = :job_id,
  lease_expires_at = now() + interval '1 minute', updated_at = now()
  WHERE id = ':taken_run'::uuid;
COMMIT;
BEGIN;
UPDATE loadgen_ceiling.runs SET status = 'succeeded', result = '{"ok": true, "value": 2, "logs": []}',
  finished_at = now(), updated_at = now()
  WHERE id = ':taken_run'::uuid;
UPDATE loadgen_ceiling.river_job SET state = 'completed', finalized_at = now() WHERE id = :job_id;
COMMIT;
`

// Ceiling measures what the database at dbURL allows for the bare lifecycle of a trivial run
// (ceilingScript), with pgbench and concurrency clients for duration: the figure the service's
// trivial runs are compared with. The database must hold the service's schema (runs and
// river_job), which Ceiling copies into a scratch schema and drops afterwards.
func Ceiling(ctx context.Context, dbURL string, concurrency int, duration time.Duration) (Result, error) {
	res := Result{Scenario: CeilingScenario, Measures: "pgbench: insert run + job; take; finish", Concurrency: concurrency}
	pgbench, err := findPgbench()
	if err != nil {
		return res, err
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return res, fmt.Errorf("loadgen: ceiling: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	drop, err := scratchSchema(ctx, conn, ceilingSchema, "runs", "river_job")
	if err != nil {
		return res, fmt.Errorf("loadgen: ceiling: %w", err)
	}
	defer drop()

	dir, err := os.MkdirTemp("", "loadgen-ceiling")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "lifecycle.sql")
	if err := os.WriteFile(script, []byte(ceilingScript), 0o644); err != nil {
		return res, err
	}
	secs := max(1, int(duration.Round(time.Second)/time.Second))
	cmd := exec.CommandContext(ctx, pgbench, "--no-vacuum", "--file", script,
		"--client", strconv.Itoa(concurrency), "--jobs", strconv.Itoa(min(concurrency, 4)),
		"--time", strconv.Itoa(secs), "--log", "--log-prefix", filepath.Join(dir, "tx"), dbURL)
	cmd.Dir = dir
	meter := newCPUMeter(ctx, conn)
	cpuBefore := meter.sample()
	out, err := cmd.CombinedOutput()
	cpuAfter := meter.sample()
	if err != nil {
		return res, fmt.Errorf("loadgen: pgbench: %w\n%s", err, out)
	}
	latencies, err := readPgbenchLogs(dir)
	if err != nil {
		return res, err
	}
	res.Runs = len(latencies)
	res.Errors = countPgbenchFailures(string(out))
	res.Elapsed = time.Duration(secs) * time.Second
	res.RunsPerSec = float64(res.Runs) / float64(secs)
	res.Latency = summarize(latencies)
	res.CPU = perRun(cpuBefore, cpuAfter, res.Runs, true)
	res.Machine = machineLoad(cpuBefore, cpuAfter)
	return res, nil
}

// findPgbench returns pgbench from PATH or from the PostgreSQL installation codemode dev uses.
func findPgbench() (string, error) {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	dir, err := pgcluster.FindBinDir()
	if err != nil {
		return "", fmt.Errorf("loadgen: the ceiling needs pgbench: %w", err)
	}
	p := filepath.Join(dir, "pgbench")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("loadgen: the ceiling needs pgbench, not found on PATH or in %s", dir)
	}
	return p, nil
}

// readPgbenchLogs reads the latency of every transaction from pgbench's per-transaction logs
// (one file per thread; the third field is the latency in microseconds).
func readPgbenchLogs(dir string) ([]time.Duration, error) {
	files, err := filepath.Glob(filepath.Join(dir, "tx.*"))
	if err != nil || len(files) == 0 {
		return nil, errors.New("loadgen: pgbench wrote no transaction log")
	}
	var out []time.Duration
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 3 {
				continue
			}
			us, err := strconv.ParseInt(fields[2], 10, 64)
			if err != nil { // "failed" or "skipped" in place of a latency
				continue
			}
			out = append(out, time.Duration(us)*time.Microsecond)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countPgbenchFailures reads "number of failed transactions: N" from pgbench's summary.
func countPgbenchFailures(summary string) int {
	for _, line := range strings.Split(summary, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "number of failed transactions:"); ok {
			if n, err := strconv.Atoi(strings.Fields(rest)[0]); err == nil {
				return n
			}
		}
	}
	return 0
}

// scratchSchema creates schema (dropping any left from an earlier measurement) with copies of
// the service's tables (columns, defaults, constraints and indexes; foreign keys are the
// caller's), and returns what drops it again.
func scratchSchema(ctx context.Context, conn *pgx.Conn, schema string, tables ...string) (drop func(), err error) {
	dropSQL := "DROP SCHEMA IF EXISTS " + schema + " CASCADE"
	if _, err := conn.Exec(ctx, dropSQL); err != nil {
		return nil, err
	}
	create := "CREATE SCHEMA " + schema + ";"
	for _, t := range tables {
		create += fmt.Sprintf("\nCREATE TABLE %s.%s (LIKE public.%s INCLUDING ALL);", schema, t, t)
	}
	drop = func() { _, _ = conn.Exec(context.WithoutCancel(ctx), dropSQL) }
	if _, err := conn.Exec(ctx, create); err != nil {
		drop()
		return nil, fmt.Errorf("copy the service's tables: %w", err)
	}
	return drop, nil
}

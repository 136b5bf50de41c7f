package loadgen

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Counts is what one scenario cost the database per run, counted rather than timed, so it
// holds on a busy machine: every statement the service (API and worker) sent, the
// transactions that wrote, every commit, the disk flushes of the write-ahead log and, when the
// service runs in this process, the round trips to PostgreSQL. They include River's own
// queries (fetching, completing jobs, maintenance) and the API's reads while requests wait, as
// they fall during the scenario.
type Counts struct {
	// Runs is the number of runs the counts are divided by: every run the scenario drove,
	// warm-up and stragglers after the measured window included.
	Runs int `json:"runs"`
	// Statements counts the statements the service sent, when it runs in this process;
	// otherwise as pg_stat_statements does (top level), which misses BEGIN, COMMIT and SET
	// LOCAL sent in a pipeline.
	Statements float64 `json:"statements"`
	// Tracked counts statements as pg_stat_statements does.
	Tracked float64 `json:"tracked"`
	// WriteXacts counts transactions that were given a transaction id: those that wrote.
	WriteXacts float64 `json:"writeXacts"`
	// Commits counts committed transactions (pg_stat_database.xact_commit), reading ones
	// included (every statement outside a transaction block is one).
	Commits float64 `json:"commits"`
	// WALSyncs counts flushes of the write-ahead log to disk (pg_stat_wal.wal_sync): commits
	// that waited for the disk, several at a time when they coincide, and the background
	// flushes of asynchronous commits.
	WALSyncs float64 `json:"walSyncs"`
	// RoundTrips counts exchanges with PostgreSQL (a pipelined batch is one); 0 when the
	// service does not run in this process.
	RoundTrips float64 `json:"roundTrips,omitempty"`
	// Top lists the statements sent most often, per run.
	Top []StatementCount `json:"top,omitempty"`
}

// StatementCount is how often one statement was sent per run.
type StatementCount struct {
	Calls float64 `json:"calls"`
	Query string  `json:"query"`
}

// Counter reads the database's counters for Counts.
type Counter struct {
	// DatabaseURL is the service's database; its server must load pg_stat_statements
	// (shared_preload_libraries), whose extension Counter creates if it is missing.
	DatabaseURL string
	// RoundTrips returns the round trips the service made so far, and the statements it
	// sent; nil when unknown.
	RoundTrips func() (trips, statements int64)
	// Settle is how long to wait after a scenario before reading counters PostgreSQL's
	// backends report only from time to time (commits, write-ahead log flushes: within 10 s of
	// going idle). Default 11 s; negative: do not wait (those two are then incomplete).
	Settle time.Duration
	// Top is how many of the most frequent statements Counts lists. Default 0: none.
	Top int
}

// sample is the counters at one moment.
type sample struct {
	statements map[string]int64
	xid        int64
	commits    int64
	walSyncs   int64
	roundTrips int64
	sent       int64
}

// counterMark marks the generator's own reads, left out of the statements counted.
const counterMark = "/* loadgen counters */"

func (c *Counter) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, c.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("loadgen: counts: %w", err)
	}
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("loadgen: counts need pg_stat_statements (shared_preload_libraries): %w", err)
	}
	return conn, nil
}

func (c *Counter) sample(ctx context.Context, conn *pgx.Conn) (sample, error) {
	s := sample{statements: map[string]int64{}}
	if c.RoundTrips != nil {
		s.roundTrips, s.sent = c.RoundTrips()
	}
	rows, err := conn.Query(ctx, counterMark+` SELECT query, sum(calls)::bigint FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%loadgen counters%'
GROUP BY query`)
	if err != nil {
		return s, fmt.Errorf("loadgen: counts: %w", err)
	}
	for rows.Next() {
		var (
			query string
			calls int64
		)
		if err := rows.Scan(&query, &calls); err != nil {
			return s, err
		}
		s.statements[query] += calls
	}
	if err := rows.Err(); err != nil {
		return s, fmt.Errorf("loadgen: counts: %w", err)
	}
	// The next transaction id to be given out (reading it gives none out).
	err = conn.QueryRow(ctx, counterMark+` SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
(SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
(SELECT wal_sync FROM pg_stat_wal)`).Scan(&s.xid, &s.commits, &s.walSyncs)
	if err != nil {
		return s, fmt.Errorf("loadgen: counts: %w", err)
	}
	return s, nil
}

// counts divides the change from before to after by runs.
func (c *Counter) counts(before, after sample, runs int) *Counts {
	if runs <= 0 {
		return &Counts{}
	}
	n := float64(runs)
	out := &Counts{Runs: runs}
	out.WriteXacts = float64(after.xid-before.xid) / n
	out.Commits = float64(after.commits-before.commits) / n
	out.WALSyncs = float64(after.walSyncs-before.walSyncs) / n
	var (
		top     []StatementCount
		tracked int64
	)
	for query, calls := range after.statements {
		d := calls - before.statements[query]
		if d <= 0 {
			continue
		}
		tracked += d
		top = append(top, StatementCount{Calls: float64(d) / n, Query: oneLine(query)})
	}
	// Summed as counts, then divided: per-run figures compared with Statements (also a count
	// divided by the runs) must not differ by rounding.
	out.Tracked = float64(tracked) / n
	sort.Slice(top, func(i, j int) bool {
		if top[i].Calls != top[j].Calls {
			return top[i].Calls > top[j].Calls
		}
		return top[i].Query < top[j].Query
	})
	if len(top) > c.Top {
		top = top[:c.Top]
	}
	out.Top = top
	out.Statements = out.Tracked
	if c.RoundTrips != nil {
		out.Statements = float64(after.sent-before.sent) / n
		out.RoundTrips = float64(after.roundTrips-before.roundTrips) / n
	}
	return out
}

// oneLine shortens a statement to its first 120 characters on one line.
func oneLine(query string) string {
	query = strings.Join(strings.Fields(query), " ")
	if len(query) > 120 {
		query = query[:117] + "..."
	}
	return query
}

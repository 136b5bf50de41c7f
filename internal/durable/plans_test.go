package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

// runByID matches a statement that reads or writes one run by its id (the first parameter).
var runByID = regexp.MustCompile(`(?:FROM|UPDATE) runs(?: r)?\s[\s\S]*?WHERE (?:r\.)?id = \$1\b`)

// TestRunLookupsUseThePrimaryKey checks that every statement finding one run by id reaches it
// through runs_pkey, on a young table that was never analyzed, as a new deployment has. With a
// plan that scans an index on status instead (a partial index on running runs looks cheapest
// to a planner without statistics), every fenced write walks the entries of all running runs,
// dead versions included, and a cached generic plan keeps doing so for the connection's life.
func TestRunLookupsUseThePrimaryKey(t *testing.T) {
	t.Parallel()
	ctx, conn := freshConn(t)
	_, err := conn.Exec(ctx, `INSERT INTO runs (code, status) SELECT '1', 'succeeded' FROM generate_series(1, 50)`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan")
	require.NoError(t, err)

	params := regexp.MustCompile(`\$(\d+)`)
	checked := 0
	check := func(name, text string) {
		n := 0
		for _, m := range params.FindAllStringSubmatch(text, -1) {
			k, _ := strconv.Atoi(m[1])
			n = max(n, k)
		}
		checked++
		stmt := fmt.Sprintf("plan_%d", checked)
		_, err := conn.Exec(ctx, "PREPARE "+stmt+" AS "+text)
		require.NoError(t, err, name)
		args := "("
		for k := range n {
			if k > 0 {
				args += ", "
			}
			args += "NULL"
		}
		args += ")"
		if n == 0 {
			args = ""
		}
		var plan json.RawMessage
		require.NoError(t, conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE "+stmt+args).Scan(&plan), name)
		for _, scan := range scansOf(t, plan, "runs") {
			if scan != "Index Scan using runs_pkey" && scan != "Index Only Scan using runs_pkey" {
				t.Errorf("%s: reaches runs by %s, want the primary key\n%s", name, scan, plan)
			}
		}
	}
	names := make([]string, 0, len(queries))
	for name, text := range queries {
		if runByID.MatchString(text) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	require.GreaterOrEqual(t, len(names), 10, "statements finding a run by id")
	for _, name := range names {
		check(name, queries[name])
	}

	// The merged records of a journal group join runs with a list of ids: they are sent after
	// PlanJoinsByIndex, in its transaction.
	_, err = conn.Exec(ctx, "BEGIN")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, queries["PlanJoinsByIndex"])
	require.NoError(t, err)
	check("EventsInsertLockingCallsSettled", queries["EventsInsertLockingCallsSettled"])
	_, err = conn.Exec(ctx, "ROLLBACK")
	require.NoError(t, err)
}

type planNode struct {
	Type     string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Index    string     `json:"Index Name"`
	Plans    []planNode `json:"Plans"`
}

// TestIdempotencyKeyIndexHoldsKeyedRunsOnly checks that only runs created with an idempotency
// key are in its index (no entry per version of every other run's row, migration 00025) and
// that the look-up by key still goes through it, with a generic plan.
func TestIdempotencyKeyIndexHoldsKeyedRunsOnly(t *testing.T) {
	t.Parallel()
	ctx, conn := freshConn(t)
	_, err := conn.Exec(ctx, `INSERT INTO runs (code, status, idempotency_key)
		SELECT '1', 'succeeded', CASE WHEN i % 10 = 0 THEN 'key-' || i END FROM generate_series(1, 200) i`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `UPDATE runs SET status = 'cancelled'`) // a second version of every row
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `VACUUM runs`) // counts the live entries of the table's indexes
	require.NoError(t, err)
	var entries float64
	require.NoError(t, conn.QueryRow(ctx, `SELECT i.reltuples FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
		WHERE x.indrelid = 'runs'::regclass AND x.indisunique AND pg_get_indexdef(x.indexrelid) LIKE '%(idempotency_key)%'`).Scan(&entries))
	require.Equal(t, float64(20), entries, "entries of the idempotency key's index: the keyed runs")

	_, err = conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "PREPARE by_key AS "+queries["RunByIdempotencyKey"])
	require.NoError(t, err)
	var plan json.RawMessage
	require.NoError(t, conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE by_key('key-10')").Scan(&plan))
	require.Equal(t, []string{"Index Scan using runs_idempotency_key_idx"}, scansOf(t, plan, "runs"))
	var id string
	require.NoError(t, conn.QueryRow(ctx, "EXECUTE by_key('key-10')").Scan(&id, new([]byte)))

	_, err = conn.Exec(ctx, `INSERT INTO runs (code, idempotency_key) VALUES ('1', 'key-10')`)
	require.ErrorContains(t, err, "runs_idempotency_key_idx", "keys stay unique")
}

// freshConn is a connection to a new, migrated database of its own, released when the test
// ends: settings a test makes on it stay with it.
func freshConn(t *testing.T) (context.Context, *pgxpool.Conn) {
	t.Helper()
	pool, _ := pgtest.NewDB(t)
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	t.Cleanup(conn.Release)
	return ctx, conn
}

// TestEventPagesReachCallsByTheirEventsEnd checks that a page of a run's events finds the
// calls whose kept events end after the page's start through calls_events_end_idx, with a
// generic plan, instead of visiting every call of the run: a live stream of a run of
// thousands of calls reads a page after each of them.
func TestEventPagesReachCallsByTheirEventsEnd(t *testing.T) {
	t.Parallel()
	ctx, conn := freshConn(t)
	_, err := conn.Exec(ctx, `WITH r AS (INSERT INTO runs (code, status) SELECT '1', 'running' FROM generate_series(1, 20) RETURNING id)
		INSERT INTO calls (run_id, call_id, key, path, status, event_types, event_data, events_end, events_at)
		SELECT r.id, c, r.id || ':' || c, 't.a', 'succeeded', ARRAY['call.started', 'call.settled'], ARRAY['{}', '{}'], 2 * c + 1, now()
		FROM r, generate_series(1, 200) c`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "ANALYZE calls")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "PREPARE page AS "+queries["EventList"])
	require.NoError(t, err)
	var runID string
	require.NoError(t, conn.QueryRow(ctx, "SELECT run_id::text FROM calls LIMIT 1").Scan(&runID))
	var plan json.RawMessage
	require.NoError(t, conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE page('"+runID+"', 390, 100)").Scan(&plan))
	calls := scansOf(t, plan, "calls")
	require.NotEmpty(t, calls, "%s", plan)
	for _, scan := range calls {
		require.Contains(t, []string{"Index Scan using calls_events_end_idx", "Bitmap Heap Scan"}, scan, "%s", plan)
	}
	require.Contains(t, indexesOf(t, plan), "calls_events_end_idx", "%s", plan)
}

// indexesOf lists the indexes the nodes of plan read.
func indexesOf(t *testing.T, plan json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, n := range planNodes(t, plan) {
		if n.Index != "" {
			out = append(out, n.Index)
		}
	}
	return out
}

// scansOf lists how each node of plan that reads table reads it ("Index Scan using
// runs_pkey", "Seq Scan", "Bitmap Heap Scan"...).
func scansOf(t *testing.T, plan json.RawMessage, table string) []string {
	t.Helper()
	var out []string
	for _, n := range planNodes(t, plan) {
		if n.Relation == table && n.Type != "ModifyTable" {
			s := n.Type
			if n.Index != "" {
				s += " using " + n.Index
			}
			out = append(out, s)
		}
	}
	return out
}

// planNodes lists the nodes of plan, every level.
func planNodes(t *testing.T, plan json.RawMessage) []planNode {
	t.Helper()
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	require.NoError(t, json.Unmarshal(plan, &doc))
	var out []planNode
	var walk func(n planNode)
	walk = func(n planNode) {
		out = append(out, n)
		for _, c := range n.Plans {
			walk(c)
		}
	}
	for _, d := range doc {
		walk(d.Plan)
	}
	return out
}

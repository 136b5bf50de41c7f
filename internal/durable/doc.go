// Package durable owns codemode's persistence and jobs: the PostgreSQL store of runs,
// snapshots, calls, events, toolsets and webhooks; the River jobs that drive runs
// (run.execute, run.resume), deliver webhooks and cancel durable calls; the run lease with its
// fencing sequence; outcome recording; and cancellation. It is the only package that writes SQL
// (besides migrations) or enqueues River jobs.
//
// SQL lives in queries/*.sql (one file per table, one "-- name: NounVerb" block per query),
// embedded and run through pgx; the schema is in /migrations (see package migrate).
//
// The code-mode runtime is reached only through the Engine interface (engine.go): a worker
// takes a run's lease, hands the engine a Host whose every write is fenced by the lease, and
// stores the Outcome (finished, suspended, or yielded for a drain) in one transaction together
// with the jobs and webhooks it causes.
package durable

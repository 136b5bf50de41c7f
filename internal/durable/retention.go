package durable

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
)

// QueueMaintenance is the queue of the retention job.
const QueueMaintenance = "maintenance"

// RetentionArgs is the retention.prune job: delete the snapshots, events and finished webhook
// deliveries of runs finished more than RetentionMicros ago. Each worker schedules it every
// WorkerConfig.RetentionInterval, but only River's elected leader inserts periodic jobs, and
// the job is unique per period: one pass runs per period across the workers.
type RetentionArgs struct {
	// RetentionMicros is how long a finished run's data is kept, in microseconds.
	RetentionMicros int64 `json:"retention_us"`
}

// Kind implements river.JobArgs.
func (RetentionArgs) Kind() string { return "retention.prune" }

// PruneStats counts what one retention pass deleted.
type PruneStats struct {
	// Runs is how many runs were marked pruned (their data all deleted).
	Runs int
	// Snapshots and Deliveries are the rows deleted; Events the events, rows of run_events
	// or kept in calls' rows (whose rows stay).
	Snapshots, Events, Deliveries int64
	// Statements is how many DELETE (or, for calls' events, UPDATE) statements ran, each of
	// at most the batch size.
	Statements int
}

// PruneFinished deletes the snapshots, events and webhook deliveries of runs that finished
// more than retention ago, keeping the runs rows (status, result, timestamps) and their calls.
// It works through the runs batch at a time, and deletes at most batch rows per statement,
// each in a transaction of its own, so a large backlog never holds locks for long. A delivery
// still being attempted is kept, and its run is visited again by a later pass. A run whose
// data is all gone is marked pruned (runs.pruned_at) and never visited again.
func (s *Store) PruneFinished(ctx context.Context, retention time.Duration, batch int) (PruneStats, error) {
	var stats PruneStats
	if batch < 1 {
		return stats, fmt.Errorf("durable: prune batch %d: must be positive", batch)
	}
	var (
		afterAt *time.Time
		afterID string
	)
	for {
		rows, err := s.pool.Query(ctx, q("RetentionRuns"), retention.Microseconds(), afterAt, batch, nullUUID(afterID))
		if err != nil {
			return stats, fmt.Errorf("runs to prune: %w", err)
		}
		var ids []string
		for rows.Next() {
			var (
				id string
				at time.Time
			)
			if err := rows.Scan(&id, &at); err != nil {
				rows.Close()
				return stats, fmt.Errorf("runs to prune: %w", err)
			}
			ids, afterAt, afterID = append(ids, id), &at, id
		}
		if err := rows.Err(); err != nil {
			return stats, fmt.Errorf("runs to prune: %w", err)
		}
		if len(ids) == 0 {
			return stats, nil
		}
		for _, step := range []struct {
			query  string
			count  *int64
			counts bool // the statement answers the rows it changed and what they held
		}{
			{"RetentionDeleteSnapshots", &stats.Snapshots, false},
			{"RetentionDeleteEvents", &stats.Events, false},
			{"RetentionDeleteCallEvents", &stats.Events, true},
			{"RetentionDeleteDeliveries", &stats.Deliveries, false},
		} {
			for {
				rows, deleted, err := s.pruneBatch(ctx, step.query, step.counts, ids, batch)
				if err != nil {
					return stats, fmt.Errorf("prune finished runs (%s): %w", step.query, err)
				}
				stats.Statements++
				*step.count += deleted
				if rows < int64(batch) {
					break
				}
			}
		}
		tag, err := s.pool.Exec(ctx, q("RetentionMarkPruned"), ids)
		if err != nil {
			return stats, fmt.Errorf("mark runs pruned: %w", err)
		}
		stats.Runs += int(tag.RowsAffected())
		if len(ids) < batch {
			return stats, nil
		}
	}
}

// nullUUID is nil for "", else id.
func nullUUID(id string) any {
	if id == "" {
		return nil
	}
	return id
}

// retentionJob is the periodic job of a worker whose Retention is positive.
func retentionJob(cfg WorkerConfig) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(cfg.RetentionInterval),
		func() (river.JobArgs, *river.InsertOpts) {
			return RetentionArgs{RetentionMicros: cfg.Retention.Microseconds()}, &river.InsertOpts{
				Queue: QueueMaintenance,
				// A leader elected within the period of another's job does not add a second.
				UniqueOpts: river.UniqueOpts{ByPeriod: cfg.RetentionInterval},
			}
		},
		&river.PeriodicJobOpts{ID: RetentionArgs{}.Kind(), RunOnStart: true})
}

// pruneBatch runs one statement of a retention pass on runs ids: rows is how many rows it
// deleted or changed (a full batch means more may be left), deleted what it deleted. A
// statement that counts answers both (the calls' rows it cleared and the events they held);
// for any other, both are its rows.
func (s *Store) pruneBatch(ctx context.Context, query string, counts bool, ids []string, batch int) (rows, deleted int64, err error) {
	if counts {
		err = s.pool.QueryRow(ctx, q(query), ids, batch).Scan(&rows, &deleted)
		return rows, deleted, err
	}
	tag, err := s.pool.Exec(ctx, q(query), ids, batch)
	return tag.RowsAffected(), tag.RowsAffected(), err
}

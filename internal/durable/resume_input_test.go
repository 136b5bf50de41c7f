package durable

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// resumeInput loads snapshot seq and the posted outcomes not yet given to the program, as a
// drive reads them with its lease (acquire), for tests that check what was stored.
func (s *Store) resumeInput(ctx context.Context, runID string, seq int) (Snapshot, []Settled, error) {
	var snapshot Snapshot
	err := s.pool.QueryRow(ctx, q("SnapshotGet"), runID, seq).Scan(&snapshot.Header, &snapshot.State)
	if isNoRows(err) {
		// Only the run's lease holder writes snapshots, and a newer one deletes the older
		// ones: snapshot seq, the latest when this driver took the lease, is gone only when
		// another driver (or a cancel) took the run since.
		return Snapshot{}, nil, fmt.Errorf("%w: snapshot %d of run %s was superseded", ErrLeaseLost, seq, runID)
	}
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("load snapshot %d of run %s: %w", seq, runID, err)
	}
	rows, err := s.pool.Query(ctx, q("CallListUnapplied"), runID)
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("posted outcomes of run %s: %w", runID, err)
	}
	settled, err := pgx.CollectRows(rows, scanUnapplied)
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("posted outcomes of run %s: %w", runID, err)
	}
	return snapshot, settled, nil
}

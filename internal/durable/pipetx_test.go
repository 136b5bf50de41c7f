package durable

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// A pipelined transaction is one transaction whether it is sent whole at its commit (an
// implicit one, without BEGIN and COMMIT) or over several round trips (BEGIN sent with the
// first): all its statements commit together, or none does.
func TestPipeTxIsOneTransaction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	run, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "original"})
	require.NoError(t, err)
	code := func() string {
		var c string
		require.NoError(t, b.store.pool.QueryRow(b.ctx, "SELECT code FROM runs WHERE id = $1", run.ID).Scan(&c))
		return c
	}
	txid := func(tx *pipeTx, into *int64) {
		tx.queueRow(func(r pgx.Row) error { return r.Scan(into) }, "SELECT txid_current()")
	}
	for _, tc := range []struct {
		name      string
		trips     int // round trips before the commit's
		fail      bool
		wantCode  string
		wantError bool
	}{
		{name: "whole", wantCode: "whole"},
		{name: "whole, failing", fail: true, wantCode: "whole", wantError: true},
		{name: "two trips", trips: 1, wantCode: "two trips"},
		{name: "two trips, failing", trips: 1, fail: true, wantCode: "two trips", wantError: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first, second int64
			err := b.store.inPipe(b.ctx, func(tx *pipeTx) error {
				_, _ = tx.Exec(b.ctx, "UPDATE runs SET code = $2 WHERE id = $1", run.ID, tc.name)
				txid(tx, &first)
				if tc.trips > 0 {
					var one int
					if err := tx.QueryRow(b.ctx, "SELECT 1").Scan(&one); err != nil {
						return err
					}
					require.Equal(t, byte('T'), tx.Conn().PgConn().TxStatus(), "BEGIN went with the first round trip")
				}
				_, _ = tx.Exec(b.ctx, "UPDATE runs SET limits = '{}' WHERE id = $1", run.ID)
				if tc.fail {
					_, _ = tx.Exec(b.ctx, "SELECT 1 / 0")
				}
				txid(tx, &second)
				return nil
			})
			if tc.wantError {
				require.ErrorContains(t, err, "division by zero")
			} else {
				require.NoError(t, err)
				require.Equal(t, first, second, "one transaction")
			}
			require.Equal(t, tc.wantCode, code())
			var idle int
			require.NoError(t, b.store.pool.QueryRow(b.ctx, `SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&idle))
			require.Zero(t, idle, "no connection left in a transaction")
		})
	}
}

// A pipelined transaction with nothing to send commits without a round trip.
func TestPipeTxEmptyCommits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	require.NoError(t, b.store.inPipe(context.Background(), func(*pipeTx) error { return nil }))
}

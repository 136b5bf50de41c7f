package durable

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pipeTx is a transaction whose statements are pipelined: Exec queues a statement and returns
// at once; the queue is sent in one round trip before the next statement that returns rows
// (Query, QueryRow, SendBatch, CopyFrom) and with the COMMIT. The transaction's BEGIN travels
// with its first statements. A transaction sent whole at its commit, in one round trip, has
// no BEGIN and COMMIT: a pipelined batch ends with one Sync, and PostgreSQL runs it as one
// implicit transaction, committed at the Sync or rolled back at the first error
// (TestBatchIsOneImplicitTransaction). A failed statement aborts the transaction, so an Exec's error is
// reported by the next flush instead (by Commit at the latest) and nothing after it commits.
// Exec's command tag is therefore always empty: callers that need a row count must use Query.
type pipeTx struct {
	conn    *pgxpool.Conn
	pending pgx.Batch
	// reads read the answers of the pending statements queued by queueRow and queueRead, by
	// the index in pending of the first statement each reads.
	reads map[int]queuedRead
	begun bool // BEGIN was sent: the transaction takes more than one round trip
	done  bool
}

var _ pgx.Tx = (*pipeTx)(nil)

// beginPipe acquires a connection for a pipelined transaction; BEGIN goes with the first
// statements sent before the commit, if any.
func (s *Store) beginPipe(ctx context.Context) (*pipeTx, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return &pipeTx{conn: conn}, nil
}

// queuedRead reads the answers of n queued statements from the batch they were sent in.
type queuedRead struct {
	n    int
	read func(pgx.BatchResults) error
}

// queueRow queues a statement like Exec, whose row (at most one) scan reads when the queue is
// sent: its answer arrives with the statements queued after it, in the same round trip.
func (t *pipeTx) queueRow(scan func(pgx.Row) error, sql string, args ...any) {
	t.queueRead(func(b *pgx.Batch) { b.Queue(sql, args...) },
		func(br pgx.BatchResults) error { return scan(br.QueryRow()) })
}

// queueRead queues the statements queue adds to a batch, whose answers read reads, in order,
// when the queue is sent (with the statements queued after them, in the same round trip).
func (t *pipeTx) queueRead(queue func(*pgx.Batch), read func(pgx.BatchResults) error) {
	if t.reads == nil {
		t.reads = map[int]queuedRead{}
	}
	first := len(t.pending.QueuedQueries)
	queue(&t.pending)
	t.reads[first] = queuedRead{n: len(t.pending.QueuedQueries) - first, read: read}
}

// take returns the queued statements and their reads, leaving the queue empty, after BEGIN
// when they are the first sent before the commit.
func (t *pipeTx) take() (pgx.Batch, map[int]queuedRead) {
	b, reads := t.pending, t.reads
	t.pending, t.reads = pgx.Batch{}, nil
	if t.begun {
		return b, reads
	}
	t.begun = true
	var begun pgx.Batch
	begun.Queue("BEGIN")
	begun.QueuedQueries = append(begun.QueuedQueries, b.QueuedQueries...)
	shifted := make(map[int]queuedRead, len(reads))
	for i, r := range reads {
		shifted[i+1] = r
	}
	return begun, shifted
}

// takeWhole returns the queued statements and their reads as a whole transaction sent at its
// commit: as they are when nothing was sent before (one implicit transaction), else followed
// by COMMIT.
func (t *pipeTx) takeWhole() (pgx.Batch, map[int]queuedRead) {
	if t.begun {
		t.pending.Queue("COMMIT")
		return t.take()
	}
	b, reads := t.pending, t.reads
	t.pending, t.reads = pgx.Batch{}, nil
	t.begun = true // sent: a failure leaves it to be rolled back
	return b, reads
}

// readQueued reads the results of the first n statements of a sent batch, with their reads.
func readQueued(br pgx.BatchResults, n int, reads map[int]queuedRead) error {
	for i := 0; i < n; {
		if r, ok := reads[i]; ok {
			if err := r.read(br); err != nil {
				return err
			}
			i += r.n
			continue
		}
		if _, err := br.Exec(); err != nil {
			return err
		}
		i++
	}
	return nil
}

// flush sends the queued statements and reads their results.
func (t *pipeTx) flush(ctx context.Context) error {
	if len(t.pending.QueuedQueries) == 0 {
		return nil
	}
	return t.send(ctx, t.take)
}

// send sends the statements take returns and reads their results.
func (t *pipeTx) send(ctx context.Context, take func() (pgx.Batch, map[int]queuedRead)) error {
	b, reads := take()
	br := t.conn.SendBatch(ctx, &b)
	err := readQueued(br, len(b.QueuedQueries), reads)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err
}

// Exec implements pgx.Tx: the statement is queued (see pipeTx).
func (t *pipeTx) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if t.done {
		return pgconn.CommandTag{}, pgx.ErrTxClosed
	}
	t.pending.Queue(sql, args...)
	return pgconn.CommandTag{}, nil
}

// Query implements pgx.Tx, after sending the queued statements with it.
func (t *pipeTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if t.done {
		return nil, pgx.ErrTxClosed
	}
	if len(t.pending.QueuedQueries) == 0 {
		return t.conn.Query(ctx, sql, args...)
	}
	b, reads := t.take()
	n := len(b.QueuedQueries)
	b.Queue(sql, args...)
	br := t.conn.SendBatch(ctx, &b)
	if err := readQueued(br, n, reads); err != nil {
		_ = br.Close()
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

// batchRows closes the batch its rows came from when they are closed.
type batchRows struct {
	pgx.Rows
	br     pgx.BatchResults
	closed bool
}

func (r *batchRows) Close() {
	r.Rows.Close()
	if !r.closed {
		r.closed = true
		_ = r.br.Close()
	}
}

func (r *batchRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Err() error { return r.Rows.Err() }

// QueryRow implements pgx.Tx.
func (t *pipeTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	rows, err := t.Query(ctx, sql, args...)
	return errRow{rows: rows, err: err}
}

type errRow struct {
	rows pgx.Rows
	err  error
}

func (r errRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}

// SendBatch implements pgx.Tx.
func (t *pipeTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := t.flush(ctx); err != nil {
		return errBatch{err: err}
	}
	return t.conn.SendBatch(ctx, b)
}

type errBatch struct{ err error }

func (e errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, e.err }
func (e errBatch) Query() (pgx.Rows, error)         { return nil, e.err }
func (e errBatch) QueryRow() pgx.Row                { return errRow{err: e.err} }
func (e errBatch) Close() error                     { return e.err }
func (e errBatch) Tx() pgx.Tx                       { return nil }

// CopyFrom implements pgx.Tx.
func (t *pipeTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	return t.conn.CopyFrom(ctx, table, cols, src)
}

// Prepare implements pgx.Tx.
func (t *pipeTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	return t.conn.Conn().Prepare(ctx, name, sql)
}

// LargeObjects implements pgx.Tx.
func (t *pipeTx) LargeObjects() pgx.LargeObjects { panic("durable: pipeTx has no large objects") }

// Conn implements pgx.Tx.
func (t *pipeTx) Conn() *pgx.Conn { return t.conn.Conn() }

// Begin implements pgx.Tx: a nested transaction (savepoint) is not supported.
func (t *pipeTx) Begin(context.Context) (pgx.Tx, error) {
	return nil, errors.New("durable: pipeTx does not nest transactions")
}

// Commit sends the queued statements with the COMMIT and releases the connection.
func (t *pipeTx) Commit(ctx context.Context) error {
	if t.done {
		return pgx.ErrTxClosed
	}
	var err error
	if len(t.pending.QueuedQueries) > 0 || t.begun {
		err = t.send(ctx, t.takeWhole)
	}
	if err == nil && t.conn.Conn().PgConn().TxStatus() != 'I' {
		err = fmt.Errorf("commit: transaction still open (status %c)", t.conn.Conn().PgConn().TxStatus())
	}
	if err != nil {
		_ = t.Rollback(ctx)
		return err
	}
	t.done = true
	t.conn.Release()
	return nil
}

// Rollback rolls back and releases the connection; it does nothing after Commit.
func (t *pipeTx) Rollback(ctx context.Context) error {
	if t.done {
		return nil
	}
	t.done = true
	var err error
	if t.begun && t.conn.Conn().PgConn().TxStatus() != 'I' {
		_, err = t.conn.Exec(ctx, "ROLLBACK")
	}
	// A connection left in a transaction is closed by the pool rather than reused.
	t.conn.Release()
	return err
}

// isRefusal reports whether err is a statement's refusal (codemode_refuse, SQLSTATE CM001).
func isRefusal(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "CM001"
}

// inPipe runs fn in a pipelined transaction (pipeTx), committing when it returns nil.
func (s *Store) inPipe(ctx context.Context, fn func(tx *pipeTx) error) error {
	tx, err := s.beginPipe(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

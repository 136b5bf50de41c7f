package durable

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// roundTrips counts the exchanges with PostgreSQL of the pools OpenPool opened in this process:
// each query or statement sent on its own, each batch (pipelined, one exchange however many
// statements it holds), prepare and copy. It is what a run costs in waits on the database,
// whatever the number of statements; loadgen divides it by runs (-pg-counts).
//
// statementsSent counts the statements they sent, transaction control (BEGIN, COMMIT, SET
// LOCAL) included, which pg_stat_statements leaves out when they come in a pipeline.
var roundTrips, statementsSent atomic.Int64

// RoundTrips returns the exchanges with PostgreSQL made so far by the pools OpenPool opened in
// this process, and the statements they sent.
func RoundTrips() (trips, statements int64) { return roundTrips.Load(), statementsSent.Load() }

// roundTripCounter is the pgx tracer that counts them.
type roundTripCounter struct{}

var (
	_ pgx.QueryTracer    = roundTripCounter{}
	_ pgx.BatchTracer    = roundTripCounter{}
	_ pgx.PrepareTracer  = roundTripCounter{}
	_ pgx.CopyFromTracer = roundTripCounter{}
)

func (roundTripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	roundTrips.Add(1)
	statementsSent.Add(1)
	return ctx
}

func (roundTripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (roundTripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	roundTrips.Add(1)
	if data.Batch != nil {
		statementsSent.Add(int64(data.Batch.Len()))
	}
	return ctx
}

func (roundTripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (roundTripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (roundTripCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	roundTrips.Add(1)
	return ctx
}

func (roundTripCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

func (roundTripCounter) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	roundTrips.Add(1)
	return ctx
}

func (roundTripCounter) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

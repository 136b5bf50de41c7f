package durable

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is the connection pool size OpenPool uses unless the connection string sets
// pool_max_conns. pgx's own default, max(4, CPUs), makes API requests queue behind the
// workers' transactions under load: a run takes several short transactions and every waiting
// request rereads its run.
const DefaultMaxConns = 32

// OpenPool connects a pool to the database at url for the service (server, worker, codemode
// dev), with DefaultMaxConns connections unless url sets pool_max_conns.
func OpenPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.ConnConfig.Tracer == nil {
		cfg.ConnConfig.Tracer = roundTripCounter{}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return pool, nil
}

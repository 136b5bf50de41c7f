package durable

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
)

func TestOpenPoolSize(t *testing.T) {
	t.Parallel()
	_, url := pgtest.NewDB(t)
	withMax := url + " pool_max_conns=5" // keyword/value form
	if strings.Contains(url, "://") {
		withMax = url + "?pool_max_conns=5"
		if strings.Contains(url, "?") {
			withMax = url + "&pool_max_conns=5"
		}
	}
	tests := []struct {
		name string
		url  string
		want int32
	}{
		{name: "default", url: url, want: DefaultMaxConns},
		{name: "set by the connection string", url: withMax, want: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pool, err := OpenPool(context.Background(), tt.url)
			require.NoError(t, err)
			defer pool.Close()
			require.Equal(t, tt.want, pool.Config().MaxConns)
			require.NoError(t, pool.Ping(context.Background()))
		})
	}
	_, err := OpenPool(context.Background(), "postgres://%zz")
	require.ErrorContains(t, err, "connect:")
}

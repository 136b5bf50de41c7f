package main

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRefusesToStartWithoutRuntime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		wantErr error
		wantMsg string
	}{
		{name: "no database", env: map[string]string{}, wantMsg: "DATABASE_URL"},
		{name: "no runtime wired", env: map[string]string{"DATABASE_URL": "postgres://127.0.0.1:1/x"}, wantErr: errNoRuntime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := run(context.Background(), nil, func(k string) string { return tt.env[k] }, io.Discard)
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			require.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}

package config

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"
)

// pcOf returns a program counter inside fn, as slog records one for the code that logs.
func pcOf(fn any) uintptr { return reflect.ValueOf(fn).Pointer() + 1 }

func ownCode() {}

func TestNewLoggerQuietsRiver(t *testing.T) {
	t.Parallel()
	riverPC, ownPC := pcOf(river.NewClient[any]), pcOf(ownCode)
	tests := []struct {
		name   string
		level  slog.Level
		record slog.Level
		pc     uintptr
		kept   bool
	}{
		{name: "river info at info", level: slog.LevelInfo, record: slog.LevelInfo, pc: riverPC, kept: false},
		{name: "river warn at info", level: slog.LevelInfo, record: slog.LevelWarn, pc: riverPC, kept: true},
		{name: "river error at warn", level: slog.LevelWarn, record: slog.LevelError, pc: riverPC, kept: true},
		{name: "river info at debug", level: slog.LevelDebug, record: slog.LevelInfo, pc: riverPC, kept: true},
		{name: "river debug at debug", level: slog.LevelDebug, record: slog.LevelDebug, pc: riverPC, kept: true},
		{name: "own info at info", level: slog.LevelInfo, record: slog.LevelInfo, pc: ownPC, kept: true},
		{name: "own debug at info", level: slog.LevelInfo, record: slog.LevelDebug, pc: ownPC, kept: false},
		{name: "no pc", level: slog.LevelInfo, record: slog.LevelInfo, kept: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			h := NewLogger(&out, tt.level).With("component", "x").Handler()
			r := slog.NewRecord(time.Now(), tt.record, "Producer job counts", tt.pc)
			if h.Enabled(context.Background(), tt.record) {
				require.NoError(t, h.Handle(context.Background(), r))
			}
			require.Equal(t, tt.kept, bytes.Contains(out.Bytes(), []byte("Producer job counts")), out.String())
		})
	}
}

func TestParseLevel(t *testing.T) {
	t.Parallel()
	l, err := ParseLevel("WARN")
	require.NoError(t, err)
	require.Equal(t, slog.LevelWarn, l)
	_, err = ParseLevel("loud")
	require.ErrorContains(t, err, `log level "loud"`)
}

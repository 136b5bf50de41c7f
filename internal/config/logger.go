package config

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
)

// ParseLevel parses a log level: debug, info, warn or error (any case).
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("log level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// NewLogger returns a text logger writing records at level and above to w. Records that River
// (the job queue) logs below warn, such as its periodic "Producer job counts", are dropped
// unless level is debug: they describe River's internals, not codemode's work.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	h := slog.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	if level > slog.LevelDebug {
		h = &quietRiver{Handler: h}
	}
	return slog.New(h)
}

// riverPrefix starts the function names of River's packages.
const riverPrefix = "github.com/riverqueue/"

// quietRiver drops records below warn made by River's code, found by the caller's program
// counter that slog records with each record.
type quietRiver struct{ slog.Handler }

func (h *quietRiver) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn && r.PC != 0 {
		frame, _ := runtime.CallersFrames([]uintptr{r.PC}).Next()
		if strings.HasPrefix(frame.Function, riverPrefix) {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h *quietRiver) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &quietRiver{Handler: h.Handler.WithAttrs(attrs)}
}

func (h *quietRiver) WithGroup(name string) slog.Handler {
	return &quietRiver{Handler: h.Handler.WithGroup(name)}
}

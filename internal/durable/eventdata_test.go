package durable

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventDataReadsAsMapsDid encodes each event data type beside the map it stands for:
// the stored text must be the same, byte for byte.
func TestEventDataReadsAsMapsDid(t *testing.T) {
	t.Parallel()
	ms := func(n int64) *int64 { return &n }
	str := func(s string) *string { return &s }
	tests := []struct {
		name  string
		typed any
		asMap map[string]any
	}{
		{name: "started", typed: callStartedData{CallID: 3, Path: "ops.echo", Worker: "w1"},
			asMap: map[string]any{"callId": 3, "path": "ops.echo", "worker": "w1"}},
		{name: "started, no worker", typed: callStartedData{CallID: 1, Path: "a<b>&\u2028\"\\"},
			asMap: map[string]any{"callId": 1, "path": "a<b>&\u2028\"\\"}},
		{name: "settled", typed: callSettledData{CallID: 2, DurationMs: ms(0), OK: true, Worker: "w"},
			asMap: map[string]any{"callId": 2, "durationMs": int64(0), "ok": true, "worker": "w"}},
		{name: "settled, failed with an empty message", typed: callSettledData{CallID: 2, Error: str(""), OK: false},
			asMap: map[string]any{"callId": 2, "error": "", "ok": false}},
		{name: "settled, failed", typed: callSettledData{CallID: 9, DurationMs: ms(1234), Error: str("boom \x00 <x>"), Worker: "w"},
			asMap: map[string]any{"callId": 9, "durationMs": int64(1234), "error": "boom \x00 <x>", "ok": false, "worker": "w"}},
		{name: "log", typed: logData{Level: "warn", Text: "hi\n\xed\xa0\x80", Time: "2026-12-04T23:00:00.5Z"},
			asMap: map[string]any{"level": "warn", "text": "hi\n\xed\xa0\x80", "time": "2026-12-04T23:00:00.5Z"}},
		{name: "log, truncated", typed: logData{Level: "log", Text: "…", Time: "t", Truncated: true},
			asMap: map[string]any{"level": "log", "text": "…", "time": "t", "truncated": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := eventData("e", tt.typed)
			require.NoError(t, err)
			want, err := eventData("e", tt.asMap)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

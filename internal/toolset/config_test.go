package toolset

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestConfigWithDefaults(t *testing.T) {
	t.Parallel()
	c := Config{URL: "http://x"}.WithDefaults()
	require.Equal(t, DefaultTimeout, c.Timeout)
	require.Equal(t, int64(DefaultMaxResponseBytes), c.MaxResponseBytes)
	require.Equal(t, DefaultRetries, c.Retries)
	require.Equal(t, Backoff{Initial: DefaultBackoffInitial, Max: DefaultBackoffMax}, c.Backoff)
	require.NotNil(t, c.HTTPClient)
	require.NotNil(t, c.Logger)

	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c = Config{URL: "http://x", HTTPClient: hc, Timeout: time.Second, MaxResponseBytes: 10, Retries: -1, Backoff: Backoff{Initial: 1, Max: 2}}.WithDefaults()
	require.Same(t, hc, c.HTTPClient)
	require.Equal(t, time.Second, c.Timeout)
	require.Equal(t, int64(10), c.MaxResponseBytes)
	require.Equal(t, 0, c.Retries)
	require.Equal(t, Backoff{Initial: 1, Max: 2}, c.Backoff)

	// A client without a redirect rule gets egress's, on a copy.
	plain := &http.Client{}
	c = Config{URL: "http://x", HTTPClient: plain}.WithDefaults()
	require.NotSame(t, plain, c.HTTPClient)
	require.NotNil(t, c.HTTPClient.CheckRedirect)
	require.Nil(t, plain.CheckRedirect)
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     Config
		wantErr bool
	}{
		{name: "ok", cfg: Config{URL: "https://tools.example/api", Name: "ops.v1"}},
		{name: "missing url", cfg: Config{}, wantErr: true},
		{name: "not http", cfg: Config{URL: "ftp://x"}, wantErr: true},
		{name: "no host", cfg: Config{URL: "http://"}, wantErr: true},
		{name: "negative timeout", cfg: Config{URL: "http://x", Timeout: -1}, wantErr: true},
		{name: "negative cap", cfg: Config{URL: "http://x", MaxResponseBytes: -1}, wantErr: true},
		{name: "max below initial", cfg: Config{URL: "http://x", Backoff: Backoff{Initial: time.Second, Max: time.Millisecond}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(tt.cfg)
			if tt.wantErr {
				require.ErrorIs(t, err, ErrInvalidConfig)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	c, err := New(Config{URL: "http://x", Backoff: Backoff{Initial: 100 * time.Millisecond, Max: time.Second}})
	require.NoError(t, err)
	tests := []struct {
		name    string
		attempt int
		lo, hi  time.Duration
	}{
		{name: "first retry", attempt: 1, lo: 50 * time.Millisecond, hi: 100 * time.Millisecond},
		{name: "second retry doubles", attempt: 2, lo: 100 * time.Millisecond, hi: 200 * time.Millisecond},
		{name: "fourth retry", attempt: 4, lo: 400 * time.Millisecond, hi: 800 * time.Millisecond},
		{name: "capped", attempt: 10, lo: 500 * time.Millisecond, hi: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for range 50 {
				d := c.backoff(tt.attempt, -1)
				require.GreaterOrEqual(t, d, tt.lo)
				require.LessOrEqual(t, d, tt.hi)
			}
		})
	}
	require.Equal(t, 3*time.Millisecond, c.backoff(1, 3*time.Millisecond))
	require.Equal(t, time.Duration(0), c.backoff(3, 0))
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	require.Equal(t, time.Duration(-1), parseRetryAfter(""))
	require.Equal(t, time.Duration(-1), parseRetryAfter("soon"))
	require.Equal(t, 2*time.Second, parseRetryAfter(" 2 "))
	require.Equal(t, time.Duration(0), parseRetryAfter(time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)))
	d := parseRetryAfter(time.Now().Add(time.Minute).UTC().Format(http.TimeFormat))
	require.Greater(t, d, 50*time.Second)
}

package jsregexp

import (
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/stretchr/testify/require"
)

// TestMatcherMatchesLikeExec checks that a Matcher, reused across inputs, finds what Exec
// finds, on inputs prepared by NewInput and by NewInputASCII, with and without the u flag.
func TestMatcherMatchesLikeExec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, pattern, flags, input string
	}{
		{name: "captures", pattern: `([a-z]+)(\d+)?`, flags: "g", input: "ab12 cd ef3"},
		{name: "unicode ascii input", pattern: `(?<w>\w)\b`, flags: "gu", input: "one two"},
		{name: "ignore case unicode", pattern: `k`, flags: "giu", input: "xKk"},
		{name: "sticky", pattern: `a`, flags: "y", input: "aab"},
		{name: "empty matches", pattern: `x*`, flags: "g", input: "axb"},
		{name: "fewer groups next", pattern: `(a)|b`, flags: "g", input: "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			re := mustCompile(t, tt.pattern, tt.flags)
			ascii, err := NewInputASCII(tt.input)
			require.NoError(t, err)
			require.Equal(t, len(tt.input), ascii.Len())
			require.Equal(t, u16(tt.input), ascii.Units())
			full := mustInput(t, tt.input, strings.ContainsAny(tt.flags, "uv"))
			m := re.NewMatcher()
			require.Same(t, re, m.Regexp())
			for last := 0; last <= len(tt.input); last++ {
				want, err := re.Exec(u16(tt.input), last, time.Time{})
				require.NoError(t, err)
				for _, in := range []*Input{ascii, full} {
					got, err := m.Exec(in, last, time.Second)
					require.NoError(t, err)
					if want == nil {
						require.Nil(t, got, "lastIndex %d", last)
						continue
					}
					require.NotNil(t, got, "lastIndex %d", last)
					require.Equal(t, *want, *got, "lastIndex %d", last)
				}
			}
		})
	}
}

// TestMatcherTimeout checks that a Matcher's time limit stops a catastrophic match and that
// the next Exec, without a limit, still runs.
func TestMatcherTimeout(t *testing.T) {
	t.Parallel()
	m := mustCompile(t, `^(a+)+$`, "").NewMatcher()
	in, err := NewInputASCII(strings.Repeat("a", 40) + "!")
	require.NoError(t, err)
	start := time.Now()
	_, err = m.Exec(in, 0, 20*time.Millisecond)
	require.ErrorIs(t, err, ErrTimeout)
	require.Less(t, time.Since(start), time.Second)
	ok, err := NewInputASCII("aaa")
	require.NoError(t, err)
	got, err := m.Exec(ok, 0, 0)
	require.NoError(t, err)
	require.Equal(t, [2]int{0, 3}, [2]int{got.Start, got.End})
}

// TestInputASCIITooLarge checks the input cap of NewInputASCII.
func TestInputASCIITooLarge(t *testing.T) {
	t.Parallel()
	_, err := NewInputASCII(strings.Repeat("a", MaxInput+1))
	require.ErrorIs(t, err, ErrInputTooLarge)
}

// TestEngineCopiesKept checks that the engine copies with a time limit are made once per
// limit, up to maxEngines limits, and leave the shared engine without a limit.
func TestEngineCopiesKept(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, "engine-copies-kept", "")
	require.Same(t, re.re, re.engine(0))
	second := re.engine(time.Second)
	require.NotSame(t, re.re, second)
	require.Equal(t, time.Second, second.MatchTimeout)
	require.Same(t, second, re.engine(time.Second))
	for i := range maxEngines {
		re.engine(time.Duration(i+1) * time.Millisecond)
	}
	hour := re.engine(time.Hour) // past maxEngines limits: a copy that is not kept
	require.Equal(t, time.Hour, hour.MatchTimeout)
	require.NotSame(t, hour, re.engine(time.Hour))
	require.Same(t, second, re.engine(time.Second))
	require.Equal(t, regexp2.DefaultMatchTimeout, re.re.MatchTimeout)
}

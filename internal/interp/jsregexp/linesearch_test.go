package jsregexp

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStartsLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		want    bool
	}{
		{`^a`, true},
		{`^`, true},
		{`^a|^b`, true},
		{`^(a|b)c|^[|]d`, true},
		{`^a|b`, false},
		{`a^`, false},
		{`(?:^a)`, false},
		{`^a|`, false},
		{`[^a]`, false},
		{`\^a`, false},
		{`^a\|b`, true},
		{`^a(?:x|y)|^(b|(c))`, true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, startsLines(u16(tt.pattern)), tt.pattern)
	}
}

// TestLineSearchMatches checks that a multiline pattern anchored at line starts, which the
// matcher searches line by line, finds the matches the engine's own search finds: the
// reference wraps the pattern in a group, which hides the anchor from startsLines.
func TestLineSearchMatches(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("filler text for the line search\n", 3)
	inputs := []string{
		"",
		long,
		long + "# heading\n  <div>\n",
		long + "x\r\n# a\r\n\r\n#b",
		long + "a\u2028# b\u2029#c",
		long + "#\n",
		long + "\n\n\n",
		long + "text\n===\nmore\n---\n",
		long + "\U0001F600\n#\U0001F600\n",
	}
	var unitInputs [][]uint16
	for _, s := range inputs {
		unitInputs = append(unitInputs, u16(s))
	}
	unitInputs = append(unitInputs, append(u16(long+"\n"), 0xD800, '#', '\n', 0xDC00, '\n', '#'))
	patterns := []struct{ pattern, flags string }{
		{`^#+ ?(.*)$`, "m"}, {`^#`, "gm"}, {`^$`, "gm"}, {`^ {0,3}(<div\b[^>]*>)`, "im"},
		{`^(.+)[ \t]*\n=+[ \t]*\n+`, "gm"}, {`^(?=#)|^\n`, "gm"}, {`^(?<=\n)#`, "gm"},
		{`^(\S)(?:.*\n)*?\1`, "gm"}, {`^.`, "gmu"}, {`^#.`, "gmu"}, {`^[^]`, "gm"},
		{`^#b`, "ym"},
		{`^#|^f`, ""}, {`^#|^f`, "g"}, {`^(f)|^(#)`, "y"}, {`^\n|^(?:x)`, "i"},
	}
	for _, p := range patterns {
		got := mustCompile(t, p.pattern, p.flags)
		want := mustCompile(t, "(?:"+p.pattern+")", p.flags)
		require.Equal(t, got.flags.Multiline && !got.flags.Sticky, got.lines != nil, p.pattern)
		require.Nil(t, want.lines)
		for _, units := range unitInputs {
			for last := 0; last <= len(units); last++ {
				g, err := got.Exec(units, last, time.Time{})
				require.NoError(t, err)
				w, err := want.Exec(units, last, time.Time{})
				require.NoError(t, err)
				require.Equal(t, w, g, "/%s/%s on %d units from %d", p.pattern, p.flags, len(units), last)
			}
		}
	}
}

// TestLineSearchTimeout checks that a line search honours the time limit over all its
// attempts.
func TestLineSearchTimeout(t *testing.T) {
	t.Parallel()
	re := mustCompile(t, `^(a+)+$`, "m")
	require.NotNil(t, re.lines)
	in, err := NewInputASCII(strings.Repeat(strings.Repeat("a", 28)+"!\n", 50))
	require.NoError(t, err)
	start := time.Now()
	_, err = re.NewMatcher().Exec(in, 0, 20*time.Millisecond)
	require.ErrorIs(t, err, ErrTimeout)
	require.Less(t, time.Since(start), 5*time.Second)
}

// TestStartAnchoredTranslation checks that a pattern without the m flag whose alternatives all
// begin with ^ reaches regexp2 with a leading ^, so that it tries the start of the input only.
func TestStartAnchoredTranslation(t *testing.T) {
	t.Parallel()
	tr, err := translate(u16(`^a|^b(c)`), Flags{})
	require.NoError(t, err)
	require.Equal(t, `^(?:^a|^b(c))`, tr.pattern)
	tr, err = translate(u16(`^a|^b`), Flags{Multiline: true})
	require.NoError(t, err)
	require.Equal(t, `^a|^b`, tr.pattern)
	tr, err = translate(u16(`^a|b`), Flags{})
	require.NoError(t, err)
	require.Equal(t, `^a|b`, tr.pattern)
}

package jsregexp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDuplicateNamesMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		flags   string
		input   string
		want    [][2]int // groups; nil for no match
		names   []string
	}{
		{name: "second alternative", pattern: "(?<x>a)|(?<x>b)", input: "b",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
		{name: "first alternative", pattern: "(?<x>a)|(?<x>b)", input: "a",
			want: [][2]int{{0, 1}, {-1, -1}}, names: []string{"x", "x"}},
		{name: "nested alternatives", pattern: "(?:(?<x>a)|(?<y>b))|(?:(?<x>c)|(?<y>d))", input: "d",
			want: [][2]int{{-1, -1}, {-1, -1}, {-1, -1}, {0, 1}}, names: []string{"x", "y", "x", "y"}},
		{name: "unnamed group between", pattern: "(?<x>a)(b)|(?<x>c)", input: "c",
			want: [][2]int{{-1, -1}, {-1, -1}, {0, 1}}, names: []string{"x", "", "x"}},
		{name: "reference after", pattern: "(?:(?<x>a)|(?<x>b))\\k<x>", input: "bb",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
		{name: "reference needs the participating group", pattern: "^(?:(?<x>a)|(?<x>b))\\k<x>$", input: "ba"},
		{name: "reference with i", pattern: "(?:(?<x>a)|(?<x>b))\\k<x>", flags: "i", input: "bB",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
		{name: "reference inside each alternative", pattern: "(?<x>a)\\k<x>|(?<x>b)\\k<x>", input: "bb",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
		{name: "reference followed by a digit", pattern: "(?:(?<x>a)|(?<x>b))\\k<x>1", input: "aa1",
			want: [][2]int{{0, 1}, {-1, -1}}, names: []string{"x", "x"}},
		{name: "repeated: last iteration wins", pattern: "(?:(?<x>a)|(?<x>b))+", input: "ab",
			want: [][2]int{{-1, -1}, {1, 2}}, names: []string{"x", "x"}},
		{name: "unicode mode", pattern: "(?<x>\\u{1F600})|(?<x>b)\\k<x>", flags: "u", input: "bb",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
		{name: "sticky", pattern: "(?<x>a)|(?<x>b)", flags: "y", input: "b",
			want: [][2]int{{-1, -1}, {0, 1}}, names: []string{"x", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			re := mustCompile(t, tt.pattern, tt.flags)
			m, err := re.Exec(u16(tt.input), 0, time.Now().Add(10*time.Second))
			require.NoError(t, err)
			if tt.want == nil {
				require.Nil(t, m)
				return
			}
			require.NotNil(t, m)
			require.Equal(t, tt.want, m.Groups)
			require.Equal(t, tt.names, m.Names)
			require.Equal(t, tt.names, re.GroupNames())
		})
	}
}

func TestDuplicateNamesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		want    string // "" when valid
	}{
		{name: "same alternative", pattern: "(?<x>a)(?<x>b)", want: "Duplicate capture group name"},
		{name: "nested", pattern: "(?<x>(?<x>a))", want: "Duplicate capture group name"},
		{name: "alternatives of a group, then outside", pattern: "(?:(?<x>a)|(?<x>b))(?<x>c)", want: "Duplicate capture group name"},
		{name: "inner alternative against outer", pattern: "(?<x>a)(?:b|(?<x>c))", want: "Duplicate capture group name"},
		{name: "two of three alternatives clash", pattern: "(?<x>a)|(?<x>b)(?<x>c)", want: "Duplicate capture group name"},
		{name: "different alternatives of the pattern", pattern: "(?<x>a)|(?<x>b)"},
		{name: "different alternatives of a group", pattern: "((?<x>a)|(?<x>b))c"},
		{name: "deeper alternatives", pattern: "(?<x>a)|(?:b(?<x>c)|(?<x>d))"},
		{name: "in lookaheads of different alternatives", pattern: "(?=(?<x>a))|(?!(?<x>b))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(u16(tt.pattern), Flags{})
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tt.want, se.Message)
		})
	}
}

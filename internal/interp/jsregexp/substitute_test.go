package jsregexp

import (
	"slices"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// replace is String.prototype.replace with a regexp and a template, built on Exec and
// Substitute as the interpreter uses them.
func replace(t *testing.T, str, source, flags, template string) string {
	t.Helper()
	re := mustCompile(t, source, flags)
	s := u16(str)
	var out []uint16
	last, lastIndex := 0, 0
	for {
		li := lastIndex
		if !re.Flags().Global {
			li = 0
		}
		m, err := re.Exec(s, li, time.Time{})
		require.NoError(t, err)
		if m == nil {
			break
		}
		captures := make([][]uint16, len(m.Groups))
		for i, g := range m.Groups {
			if g[0] >= 0 {
				captures[i] = slices.Clip(s[g[0]:g[1]:g[1]])
				if captures[i] == nil {
					captures[i] = []uint16{}
				}
			}
		}
		var named func([]uint16) []uint16
		if slices.ContainsFunc(m.Names, func(n string) bool { return n != "" }) {
			named = func(name []uint16) []uint16 {
				for i, n := range m.Names {
					if n == string(utf16.Decode(name)) {
						return captures[i]
					}
				}
				return nil
			}
		}
		out = append(out, s[last:m.Start]...)
		out = Substitute(out, s[m.Start:m.End], s, m.Start, captures, named, u16(template))
		last = m.End
		if !re.Flags().Global {
			break
		}
		lastIndex = m.End
		if m.End == m.Start {
			lastIndex++
		}
	}
	out = append(out, s[last:]...)
	return string(utf16.Decode(out))
}

// The expectations are node 20's str.replace(regexp, template).
func TestSubstitute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                          string
		str, source, flags, tpl, want string
	}{
		{name: "b [$&]", str: "abc", source: "b", flags: "", tpl: "[$&]", want: "a[b]c"},
		{name: "b [$`|$']", str: "abc", source: "b", flags: "", tpl: "[$`|$']", want: "a[a|c]c"},
		{name: "b $$", str: "abc", source: "b", flags: "", tpl: "$$", want: "a$c"},
		{name: "b $", str: "abc", source: "b", flags: "", tpl: "$", want: "a$c"},
		{name: "b x$", str: "abc", source: "b", flags: "", tpl: "x$", want: "ax$c"},
		{name: "(b) $1$1", str: "abc", source: "(b)", flags: "", tpl: "$1$1", want: "abbc"},
		{name: "(b) $2", str: "abc", source: "(b)", flags: "", tpl: "$2", want: "a$2c"},
		{name: "(b) $0", str: "abc", source: "(b)", flags: "", tpl: "$0", want: "a$0c"},
		{name: "(b) $01", str: "abc", source: "(b)", flags: "", tpl: "$01", want: "abc"},
		{name: "(b) $00", str: "abc", source: "(b)", flags: "", tpl: "$00", want: "a$00c"},
		{name: "(b) $10", str: "abc", source: "(b)", flags: "", tpl: "$10", want: "ab0c"},
		{name: "(b) $11", str: "abc", source: "(b)", flags: "", tpl: "$11", want: "ab1c"},
		{name: "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k) $11-$10-$1-$12", str: "abcdefghijkl", source: "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", flags: "", tpl: "$11-$10-$1-$12", want: "k-j-a-a2l"},
		{name: "(x)?b [$1]", str: "abc", source: "(x)?b", flags: "", tpl: "[$1]", want: "a[]c"},
		{name: "(?<n>b) [$<n>]", str: "abc", source: "(?<n>b)", flags: "", tpl: "[$<n>]", want: "a[b]c"},
		{name: "(?<n>b) [$<m>]", str: "abc", source: "(?<n>b)", flags: "", tpl: "[$<m>]", want: "a[]c"},
		{name: "(?<n>b) [$<n]", str: "abc", source: "(?<n>b)", flags: "", tpl: "[$<n]", want: "a[$<n]c"},
		{name: "(b) [$<n>]", str: "abc", source: "(b)", flags: "", tpl: "[$<n>]", want: "a[$<n>]c"},
		{name: "b $a$-$", str: "abc", source: "b", flags: "", tpl: "$a$-$", want: "a$a$-$c"},
		{name: "X <$&$`>", str: "aXbXc", source: "X", flags: "g", tpl: "<$&$`>", want: "a<Xa>b<XaXb>c"},
		{name: "(?<n>x)?b [$<n>]", str: "abc", source: "(?<n>x)?b", flags: "", tpl: "[$<n>]", want: "a[]c"},
		{name: "b $99", str: "abc", source: "b", flags: "", tpl: "$99", want: "a$99c"},
		{name: "(b) $1a$1$", str: "abc", source: "(b)", flags: "", tpl: "$1a$1$", want: "abab$c"},
		{name: "b $`", str: "😀b", source: "b", flags: "", tpl: "$`", want: "😀😀"},
		{name: "(b) $<", str: "abc", source: "(b)", flags: "", tpl: "$<", want: "a$<c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, replace(t, tt.str, tt.source, tt.flags, tt.tpl))
		})
	}
}

func TestSubstituteAppendsToDst(t *testing.T) {
	t.Parallel()
	got := Substitute(u16(">>"), u16("b"), u16("abc"), 1, nil, nil, u16("[$&]"))
	require.Equal(t, ">>[b]", string(utf16.Decode(got)))
	// A position past the end is clamped rather than panicking.
	got = Substitute(nil, u16("zz"), u16("abc"), 7, nil, nil, u16("$`|$'"))
	require.Equal(t, "abc|", string(utf16.Decode(got)))
}

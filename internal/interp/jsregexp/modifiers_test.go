package jsregexp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestModifierMatches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		flags   string
		input   string
		want    bool
	}{
		{name: "add i", pattern: "(?i:a)b", input: "Ab", want: true},
		{name: "add i keeps the rest case-sensitive", pattern: "(?i:a)b", input: "AB"},
		{name: "add i with empty removal", pattern: "(?i-:a)", input: "A", want: true},
		{name: "add i does not reach other alternatives", pattern: "(?i:a)|b", input: "B"},
		{name: "remove i", pattern: "(?-i:a)b", flags: "i", input: "aB", want: true},
		{name: "remove i inside", pattern: "(?-i:a)b", flags: "i", input: "AB"},
		{name: "add i to a class", pattern: "(?i:[a-z])", input: "K", want: true},
		{name: "remove i from a class", pattern: "(?-i:[a-z])", flags: "i", input: "K"},
		{name: "add i to a back reference", pattern: "(a)(?i:\\1)", input: "aA", want: true},
		{name: "remove i from a back reference", pattern: "(a)(?-i:\\1)", flags: "i", input: "aA"},
		{name: "add i to \\w with u folds long s", pattern: "(?i:\\w)", flags: "u", input: "\u017f", want: true},
		{name: "add i to \\w without u keeps ASCII", pattern: "(?i:\\w)", input: "\u017f"},
		{name: "remove i from \\w with u", pattern: "(?-i:\\w)", flags: "ui", input: "\u212a"},
		{name: "remove i from \\B with u", pattern: "(?-i:Z\\B)", flags: "ui", input: "Z\u017f"},
		{name: "add i to \\P{Lu}", pattern: "(?i:\\P{Lu})", flags: "u", input: "A", want: true},
		{name: "add s", pattern: "(?s:.)", input: "\n", want: true},
		{name: "add s for a line separator", pattern: "(?s:.)", input: "\u2028", want: true},
		{name: "add s does not reach outside", pattern: "(?s:a).", input: "a\r"},
		{name: "remove s", pattern: "(?-s:.)", flags: "s", input: "\r"},
		{name: "remove s still matches others", pattern: "(?-s:.)", flags: "s", input: "x", want: true},
		{name: "add m", pattern: "(?m:^b)", input: "a\nb", want: true},
		{name: "add m for a carriage return", pattern: "(?m:a$)", input: "a\rb", want: true},
		{name: "remove m", pattern: "(?-m:^b)", flags: "m", input: "a\nb"},
		{name: "add and remove", pattern: "(?m-s:^.$)", flags: "s", input: "\n\n"},
		{name: "add and remove matches a line", pattern: "(?m-s:^.$)", flags: "s", input: "\nx\n", want: true},
		{name: "all three", pattern: "(?ims:^A.)", input: "b\na\n", want: true},
		{name: "nested removal", pattern: "(?i:a(?-i:b)c)", input: "AbC", want: true},
		{name: "nested removal applies", pattern: "(?i:a(?-i:b)c)", input: "ABC"},
		{name: "nested addition after removal", pattern: "(?-i:a(?i:b)c)", flags: "i", input: "aBc", want: true},
		{name: "quantified group", pattern: "^(?i:ab)+$", input: "abAB", want: true},
		{name: "sticky", pattern: "(?i:a)", flags: "y", input: "A", want: true},
		{name: "v-flag class string", pattern: "(?i:[\\q{ab}])", flags: "v", input: "AB", want: true},
		{name: "lookahead inside", pattern: "(?i:(?=A)a)", input: "a", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			re := mustCompile(t, tt.pattern, tt.flags)
			m, err := re.Exec(u16(tt.input), 0, time.Now().Add(10*time.Second))
			require.NoError(t, err)
			require.Equal(t, tt.want, m != nil)
		})
	}
}

func TestModifierGroupsDoNotCapture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		want    int
	}{
		{name: "plain", pattern: "(?i:a)", want: 0},
		{name: "capture inside", pattern: "(?i:(a))(b)", want: 2},
		{name: "named inside", pattern: "(?-s:(?<x>a))", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, mustCompile(t, tt.pattern, "").NumGroups())
		})
	}
}

func TestModifierErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		flags   string
		want    string
	}{
		{name: "repeated letter", pattern: "(?ii:a)", want: "Repeated flag in flag group"},
		{name: "repeated removed letter", pattern: "(?-mm:a)", want: "Repeated flag in flag group"},
		{name: "added and removed", pattern: "(?i-i:a)", want: "Repeated flag in flag group"},
		{name: "added and removed among others", pattern: "(?ms-is:a)", want: "Repeated flag in flag group"},
		{name: "both empty", pattern: "(?-:a)", want: "Invalid flag group"},
		{name: "two dashes", pattern: "(?i-m-s:a)", want: "Multiple dashes in flag group"},
		{name: "other letter after a modifier", pattern: "(?ig:a)", want: "Invalid flag group"},
		{name: "other letter first", pattern: "(?u:a)", want: "Invalid group"},
		{name: "uppercase", pattern: "(?I:a)", want: "Invalid group"},
		{name: "escaped letter", pattern: "(?\\u0069:a)", want: "Invalid group"},
		{name: "escaped letter after a modifier", pattern: "(?s\\u0069:a)", want: "Invalid flag group"},
		{name: "letter and combining mark", pattern: "(?i\u0301:a)", want: "Invalid flag group"},
		{name: "zero-width joiner", pattern: "(?i\u200d:a)", want: "Invalid flag group"},
		{name: "no colon", pattern: "(?i)a", want: "Invalid group"},
		{name: "no colon after removal", pattern: "(?-i)a", want: "Invalid group"},
		{name: "unfinished", pattern: "(?i", want: "Invalid group"},
		{name: "unicode mode too", pattern: "(?ii:a)", flags: "u", want: "Repeated flag in flag group"},
		{name: "removal of an unknown flag", pattern: "(?-x:a)", flags: "u", want: "Invalid flag group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFlags(tt.flags)
			require.NoError(t, err)
			_, err = Compile(u16(tt.pattern), f)
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tt.want, se.Message)
		})
	}
}

// BenchmarkTranslateModifiers measures the translation of patterns with modifier groups and
// duplicate names against the same patterns without them.
func BenchmarkTranslateModifiers(b *testing.B) {
	for _, bb := range []struct{ name, pattern string }{
		{name: "plain", pattern: `(?:abc(?:def)|(?:^x.$))+(?<n>y)|(?<m>z)\k<m>`},
		{name: "modifiers and duplicate names", pattern: `(?i:abc(?-i:def)|(?m-s:^x.$))+(?<n>y)|(?<n>z)\k<n>`},
	} {
		src := u16(bb.pattern)
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := translate(src, Flags{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

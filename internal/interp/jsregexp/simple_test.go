package jsregexp

import (
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// TestSimpleForm checks which patterns the direct matcher takes.
func TestSimpleForm(t *testing.T) {
	for _, c := range []struct {
		src, flags string
		simple     bool
	}{
		{`s$`, "", true},
		{`"`, "g", true},
		{`%..|.`, "", true},
		{`^\s*-?\d+\.?\d*$`, "", true},
		{`[&<>"'\/]`, "g", true},
		{`[^\s=]+`, "gm", true},
		{`\bfoo\B`, "i", true},
		{`a{2,3}?b*?`, "", true},
		{`[\d-z]`, "", false}, // a range with a class escape at an end
		{`(a)`, "", false},    // a group
		{`a(?=b)`, "", false}, // a lookahead
		{`\1`, "", false},     // a back reference
		{`[é]`, "i", false},   // a non-ASCII member under i
		{`k`, "iu", false},    // i with u folds beyond ASCII
		{`[\uD800-\uDFFF]`, "", false},
		{`\uD83D`, "u", false},
		{`a{`, "", false}, // a literal brace (Annex B)
		{`\p{L}`, "u", false},
		{`[a]`, "v", false},
		{`\cA`, "", false},
	} {
		fl, err := ParseFlags(c.flags)
		require.NoError(t, err)
		re, err := Compile(utf16.Encode([]rune(c.src)), fl)
		require.NoError(t, err, c.src)
		require.Equal(t, c.simple, re.simple != nil, "/%s/%s", c.src, c.flags)
	}
}

// TestSimpleMatchesEngine compares the direct matcher with the engine on random patterns of
// the simple form, every flag combination that keeps it, random inputs and every lastIndex.
func TestSimpleMatchesEngine(t *testing.T) {
	atoms := []string{"a", "b", "A", "k", "s", "S", `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, ".", "[a-c]",
		"[^a-c]", `[\d_]`, `[^\s]`, `[\S]`, `\.`, `\-`, "x", `\n`, "é", `\u00e9`, "[é-ë]", `\x41`, "[]",
		"[^]", `[\w.-]`, `[^"\\]`, `\u2028`, "[A-Z]", "[Z-a]", `[\b]`, `\0`, "-", " "}
	quants := []string{"", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?", "+?", "??", "{0,2}?"}
	asserts := []string{"^", "$", `\b`, `\B`}
	alphabet := []string{"a", "A", "b", "B", " ", "c", "é", "É", "\n", "\r", "1", "_", ".", "-", "x",
		"\u2028", "\u00a0", "\ufeff", "ſ", "\u212a", "k", "K", "s", "S", "\U0001F600", "\"", "\\", "\b", "\x00"}
	flagSets := []string{"", "i", "m", "s", "u", "y", "g", "im", "mu", "su", "iy", "my", "uy", "ims"}
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.Intn(4) + 1; k > 0; k-- {
			switch r := rng.Intn(10); {
			case r == 0 && b.Len() > 0:
				b.WriteString("|")
			case r == 1:
				b.WriteString(asserts[rng.Intn(len(asserts))])
			default:
				b.WriteString(atoms[rng.Intn(len(atoms))] + quants[rng.Intn(len(quants))])
			}
		}
		src := utf16.Encode([]rune(b.String()))
		fl, err := ParseFlags(flagSets[rng.Intn(len(flagSets))])
		require.NoError(t, err)
		re, err := compile(src, fl)
		if err != nil || re.simple == nil {
			continue
		}
		ref, err := compile(src, fl)
		require.NoError(t, err)
		ref.simple = nil
		m, refM := re.NewMatcher(), ref.NewMatcher()
		for k := 0; k < 20; k++ {
			var in strings.Builder
			for l := rng.Intn(12); l > 0; l-- {
				in.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			units := utf16.Encode([]rune(in.String()))
			if rng.Intn(8) == 0 && len(units) > 0 {
				units[rng.Intn(len(units))] = 0xD800 // a lone surrogate
			}
			input, err := NewInput(units, fl.unicodeMode())
			require.NoError(t, err)
			for li := 0; li <= len(units); li++ {
				got, err := m.Exec(input, li, 0)
				require.NoError(t, err)
				want, err := refM.Exec(input, li, 0)
				require.NoError(t, err)
				desc := "/" + b.String() + "/" + fl.String() + " on " + in.String()
				require.Equal(t, want == nil, got == nil, "%s at %d", desc, li)
				if want != nil {
					require.Equal(t, [2]int{want.Start, want.End}, [2]int{got.Start, got.End}, "%s at %d", desc, li)
					require.Empty(t, got.Groups)
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 10000)
}

// TestSimpleGivesUp checks that a search whose backtracking runs past the budget is left to
// the engine, which finds the same result.
func TestSimpleGivesUp(t *testing.T) {
	re, err := Compile(utf16.Encode([]rune(`\s*\s*\s*\s*x`)), Flags{})
	require.NoError(t, err)
	require.NotNil(t, re.simple)
	in, err := NewInputASCII(strings.Repeat(" ", 2000) + "y")
	require.NoError(t, err)
	_, _, res := re.simple.exec(in.runes, 0, false)
	require.Equal(t, simpleGaveUp, res)
	m, err := re.NewMatcher().Exec(in, 0, 0)
	require.NoError(t, err)
	require.Nil(t, m)
}

// BenchmarkSimplePatterns compares the direct matcher with the engine on short inputs, as
// libraries test and escape strings.
func BenchmarkSimplePatterns(b *testing.B) {
	for _, c := range []struct{ name, src, flags, in string }{
		{"alternation", `%..|.`, "", "hello world 12"},
		{"suffix", `s$`, "", "days"},
		{"char_global", `"`, "g", "a\"bcdefg"},
		{"class_escape", `\s`, "", "abcdefghijklmn"},
		{"number", `^\s*-?\d+\.?\d*\s*$`, "", " 12.5 "},
	} {
		fl, err := ParseFlags(c.flags)
		require.NoError(b, err)
		re, err := compile(utf16.Encode([]rune(c.src)), fl)
		require.NoError(b, err)
		require.NotNil(b, re.simple)
		in, err := NewInputASCII(c.in)
		require.NoError(b, err)
		for _, engine := range []bool{false, true} {
			name := c.name + "/direct"
			if engine {
				re.simple = nil
				name = c.name + "/engine"
			}
			m := re.NewMatcher()
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := m.Exec(in, 0, time.Second); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

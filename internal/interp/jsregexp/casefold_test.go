package jsregexp

import (
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/require"
)

// TestLegacyFoldsTable checks the fold table built from unicode.CaseRanges against every BMP
// character.
func TestLegacyFoldsTable(t *testing.T) {
	t.Parallel()
	var want []legacyFold
	for r := rune(0); r <= 0xFFFF; r++ {
		if eq := legacyEquivalents(r); len(eq) > 0 {
			want = append(want, legacyFold{r: r, equiv: eq})
		}
	}
	require.Equal(t, want, legacyFolds())
}

// TestFoldedSetsTranslation checks that with the i flag large sets reach regexp2 closed
// already, so it does not fold them character by character.
func TestFoldedSetsTranslation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, flags string
		want           string // substring of the translation
		unwanted       string // must not occur in it
	}{
		{pattern: `^\D+$`, flags: "i", want: `^[^\d]+$`},
		{pattern: `\S\W`, flags: "iu", want: `[^\s][^\w]`},
		{pattern: `a.b`, flags: "i", want: `a` + dotClass + `b`},
		{pattern: `a.b`, flags: "is", want: `a.b`},
		{pattern: `[\u00A1-\uFFFF]`, flags: "i", want: `(?-i:[`},
		{pattern: `[^\D]`, flags: "i", want: `(?-i:[^`},
		{pattern: `[a-z]\D`, flags: "", want: `[a-z]\D`},
		{pattern: `[a-z\d]`, flags: "i", want: `[a-z\d]`},
		{pattern: `(?i:\D)`, flags: "i", want: `\D`, unwanted: `[^\d]`},
		{pattern: `[\u00A1-\uFFFF](?-i:x)`, flags: "i", unwanted: `(?-i:[`},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"/"+tt.flags, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFlags(tt.flags)
			require.NoError(t, err)
			tr, err := translate(u16(tt.pattern), f)
			require.NoError(t, err)
			require.Contains(t, tr.pattern, tt.want)
			if tt.unwanted != "" {
				require.NotContains(t, tr.pattern, tt.unwanted)
			}
		})
	}
}

// TestFoldedSetsMatch checks that every set the translator closes under case folding matches
// exactly the characters regexp2's own folding gives: the reference is the same pattern
// with an empty modifier group, which leaves folding to regexp2.
func TestFoldedSetsMatch(t *testing.T) {
	t.Parallel()
	patterns := []struct{ pattern, flags string }{
		{`\D`, "i"}, {`\S`, "i"}, {`\W`, "i"}, {`.`, "i"},
		{`\D`, "iu"}, {`\S`, "iu"}, {`\W`, "iu"}, {`.`, "iu"},
		{`[\u00A1-\uFFFF]`, "i"}, {`[^\u00A1-\uFFFF]`, "i"}, {`[a-z_\u00a1-\uffff0-9-]`, "i"},
		{`[\D]`, "i"}, {`[^\W]`, "i"}, {`[\S\d]`, "i"}, {`[\W_]`, "i"}, {`[^\s\S]`, "i"},
		{`[\uD000-\uE0FF]`, "i"}, {`[^\uD7F0-\uDC10]`, "i"}, {`[\u0100-\u04FFk]`, "i"},
		{`[^\u0100-\u04FF]`, "i"}, {`[\u0000-\u0400]`, "i"}, {`[\u1E00-\u2200]`, "i"},
		{`[^\u0041-\u2C00]`, "i"}, {`[\x01-\x08\x0b\x0c\x0e-\x1f\x7f\x21\x23-\x5b\x5d-\x7e\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]`, "i"},
	}
	for _, p := range patterns {
		t.Run(p.pattern+"/"+p.flags, func(t *testing.T) {
			t.Parallel()
			got := mustCompile(t, "^"+p.pattern+"$", p.flags)
			want := mustCompile(t, "^(?:"+p.pattern+")(?i:)$", p.flags)
			var units []uint16
			for c := 0; c <= 0xFFFF; c++ {
				units = append(units[:0], uint16(c))
				g, err := got.Exec(units, 0, time.Time{})
				require.NoError(t, err)
				w, err := want.Exec(units, 0, time.Time{})
				require.NoError(t, err)
				require.Equal(t, w != nil, g != nil, "U+%04X", c)
			}
			for _, r := range []rune{0x10400, 0x10428, 0x1F600, unicode.MaxRune} {
				units = utf16Append(units[:0], r)
				g, err := got.Exec(units, 0, time.Time{})
				require.NoError(t, err)
				w, err := want.Exec(units, 0, time.Time{})
				require.NoError(t, err)
				require.Equal(t, w != nil, g != nil, "U+%04X", r)
			}
		})
	}
}

func utf16Append(dst []uint16, r rune) []uint16 {
	return append(dst, u16(string(r))...)
}

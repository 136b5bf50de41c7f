package interp

import (
	"bytes"
	"fmt"
	"testing"
	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// TestCollatorCacheIsBounded: locales are the program's strings, so a program naming ever new
// ones must not grow the process's collator cache past its bound, and still compares right.
func TestCollatorCacheIsBounded(t *testing.T) {
	for i := range maxCollatorKeys + 50 {
		k := collatorKey{locale: fmt.Sprintf("en-x-t%d", i)}
		if got := k.compare(language.AmericanEnglish, "a", "B"); got != -1 {
			t.Fatalf("compare(a, B) with key %d = %d, want -1", i, got)
		}
	}
	if n := collatorKeys.Load(); n > maxCollatorKeys {
		t.Fatalf("collator cache holds %d keys, bound %d", n, maxCollatorKeys)
	}
	held := 0
	collators.Range(func(any, any) bool { held++; return true })
	if held > maxCollatorKeys {
		t.Fatalf("collator cache holds %d entries, bound %d", held, maxCollatorKeys)
	}
}

// TestLocaleCompareWeighedApart checks the code points x/text weighs unlike ICU (lone
// surrogates, U+FFFD, U+FFFF) against node: alone, among others, inside longer strings, at
// every sensitivity and in tailored locales.
func TestLocaleCompareWeighedApart(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"lone_surrogates_sort", `["\uD800", "\uDC00", "a", "\uFFFF", "\u{10000}"].sort((a, b) => a.localeCompare(b)).map(s => s.codePointAt(0).toString(16)).join()`, "61,10000,d800,dc00,ffff"},
		{"special_order", `["", "\0", "\t", " ", "-", "0", "9", "a", "A", "z", "\u00e1", "\u0301", "\u4e00", "\u{20000}", "\u{10000}", "\u{1F600}", "\uFFFD", "\uFFFE", "\uFFFF", "\uFDD0", "\u{1FFFE}", "\u{10FFFF}", "\uE000", "\u{F0000}", "\u{10FFFD}", "\u0378", "\u{50000}", "\u{E0080}", "\u{2FFFE}", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD800\uD800", "\uDC00\uD800", "\uD7FF"].sort((a, b) => a.localeCompare(b)).map(s => [...s].map(c => c.codePointAt(0).toString(16)).join("+")).join()`, ",0,301,fffe,9,20,2d,1f600,30,39,61,41,e1,7a,10000,4e00,20000,378,d7ff,d800,d800+d800,dbff,dc00,dc00+d800,dfff,e000,fdd0,1fffe,2fffe,50000,e0080,f0000,10fffd,10ffff,fffd,ffff"},
		{"special_against", `["\uD800", "\uDC00", "\uFFFD", "\uFFFE", "\uFFFF"].map(x => ["", "0", "a", "\u4e00", "\u{20000}", "\u0378", "\uE000", "\u{10FFFF}", "\uFFFD", "\uFFFE", "\uFFFF", "\uD800", "\uDBFF", "\uDC00", "\uDFFF"].map(y => x.localeCompare(y) + 1).join("")).join()`, "222222000201000,222222000202210,222222221202222,200000000100000,222222222212222"},
		{"in_strings", `[["a\uD800b", "a\uFFFDb"], ["a\uD800b", "ab"], ["a\uD800b", "a\uDC00b"], ["a\uD800", "a\uD800b"], ["\uD7FF", "\uD800"], ["\uD800", "\u0378"], ["\uFFFD", "\u{F0000}"], ["x\uFFFD", "x\u{10FFFF}"], ["\uFFFF", "\u{10FFFF}"], ["\uFFFFa", "\u{10FFFF}b"], ["a\uFFFEb", "ab"], ["\uDFFF\uD800", "\uDFFF"], ["1\uFFFD2", "12"], ["-\uD800", "\uD800"]].map(([a, b]) => a.localeCompare(b) + 1).join("")`, "02000222220220"},
		{"levels", `[["a\uD800b", "A\uD800b"], ["\uDC00a", "\uD800A"], ["\uD800\u0301", "\uFFFD"], ["\uD800\u0301", "\uD800"], ["\uFFFD\u0301", "\uFFFDa"], ["\u00e1\uD800", "a\uD800"], ["a\u0301\uD800", "\u00e1\uD800"], ["\uFFFDa", "\uFFFDA"], ["a\uDBFF\uDBFF", "a\uDBFF"]].map(([a, b]) => ["base", "accent", "case", "variant"].map(s => a.localeCompare(b, "en", {sensitivity: s}) + 1).join("")).join()`, "1100,2222,0000,1212,0000,1212,1111,1100,2222"},
		{"locales", `["de", "sv", "en-US"].map(l => ["\uD800", "\uDC00", "a", "\u00e4", "z", "\uFFFF", "\uFFFD", "\u{10000}", "\u{10FFFF}"].sort((a, b) => a.localeCompare(b, l)).map(s => s.codePointAt(0).toString(16)).join(" ")).join()`, "61 e4 7a 10000 d800 dc00 10ffff fffd ffff,61 7a e4 10000 d800 dc00 10ffff fffd ffff,61 e4 7a 10000 d800 dc00 10ffff fffd ffff"},
	})
}

// TestLocaleCompareNumeric checks numbers under the numeric option against node: zero, leading
// zeros, digits of other scripts, numbers of more than 254 digits, and where numbers sort among
// the other characters.
func TestLocaleCompareNumeric(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"numeric_zero", `["file10.txt", "file1.txt", "file0.txt", "file2.txt", "file00.txt", "file01.txt", "file.txt", "v0.5", "v1"].sort((a, b) => a.localeCompare(b, undefined, {numeric: true})).join()`, "file.txt,file0.txt,file00.txt,file1.txt,file01.txt,file2.txt,file10.txt,v0.5,v1"},
		{"numeric_values", `[["0a", "1a"], ["0.5", "1"], ["01", "1"], ["0", "00"], ["a1b2", "a01b02"], ["\u0661\u0660", "10"], ["\uFF11\uFF10", "10"], ["\u0E51", "1"], ["\u00b2", "0"], ["$", "0"], ["1\u0301", "1"], ["1-2", "12"], ["9\uFFFF", "10"], ["1\uD800", "2"], ["A1", "a1"]].map(([a, b]) => a.localeCompare(b, undefined, {numeric: true}) + 1).join("")`, "001111112020002"},
		{"numeric_long", `(() => { const n = "9".repeat(254); return [["1" + "0".repeat(254), n], [n + "1", n + "0"], [n + "01", n + "1"], [n + "00", n]].map(([a, b]) => a.localeCompare(b, undefined, {numeric: true}) + 1).join("") })()`, "0212"},
	})
}

// TestLocaleCompareTagKeywords checks the -u- keywords of the locale against node: kn sets the
// numeric option (which the option overrides), ks, ka, kb and kc are ignored.
func TestLocaleCompareTagKeywords(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"numeric_from_locale", `["en-u-kn", "en-u-kn-true", "en-u-kn-false", "de-u-co-phonebk-kn"].map(l => ["2".localeCompare("10", l), "2".localeCompare("10", l, {numeric: false}), "0a".localeCompare("1a", l, {numeric: true})].join(" ")).join()`, "-1 1 -1,-1 1 -1,1 1 -1,-1 1 -1"},
		{"ignored_keywords", `["a".localeCompare("A", "en-u-ks-level1"), "a-b".localeCompare("ab", "en-u-ka-shifted"), "c\u00f4te".localeCompare("cot\u00e9", "en-u-kb-true"), "a".localeCompare("A", "en-u-kc-true", {sensitivity: "base"}), "\uD800".localeCompare("\uD800\u0301", "en-u-ks-level1")].join()`, "-1,-1,1,0,-1"},
	})
}

// TestCollatorXTextWeights pins the x/text weights the spliced keys are built around: an
// unlisted code point's implicit primary, the largest primary (U+10FFFF's and U+FFFF's), the
// common secondary and tertiary weights, and the key layout keyLevels cuts.
func TestCollatorXTextWeights(t *testing.T) {
	col := collate.New(language.AmericanEnglish)
	var buf collate.Buffer
	key := func(s string) []byte {
		buf.Reset()
		return append([]byte(nil), col.KeyFromString(&buf, s)...)
	}
	common := []byte{0, 0, 0, xtextCommonSecondary, 0, 0, xtextCommonTertiary}
	for _, r := range []rune{0x0378, 0xD7FF, 0xE000, 0xFDD0, 0x10FFFF} {
		want := append(appendPrimaryWeight(nil, xtextImplicitBase+int(r)), common...)
		if got := key(string(r)); !bytes.Equal(got, want) {
			t.Errorf("key(U+%04X) = % x, want % x", r, got, want)
		}
	}
	if got := firstPrimary(key("\uFFFF")); got != xtextMaxPrimary {
		t.Errorf("primary of U+FFFF = %#x, want %#x", got, xtextMaxPrimary)
	}
	lv := keyLevels(key("a\u0301B"), 3)
	const want = "15 ef 16 05|00 20 00 32 00 20|02 02 08"
	if got := fmt.Sprintf("% x|% x|% x", lv[0], lv[1], lv[2]); got != want {
		t.Errorf("levels of a\u0301B = %s, want %s", got, want)
	}
}

// TestCollatorDecimalDigits checks decimalDigitValue against its premise: every run of
// consecutive Nd code points is whole sets of the digits 0 to 9.
func TestCollatorDecimalDigits(t *testing.T) {
	start := rune(-1)
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if r <= unicode.MaxRune && unicode.Is(unicode.Nd, r) {
			if start < 0 {
				start = r
			}
			if got := decimalDigitValue(r); got != int(r-start)%10 {
				t.Fatalf("decimalDigitValue(U+%04X) = %d, want %d", r, got, int(r-start)%10)
			}
			continue
		}
		if start >= 0 && (r-start)%10 != 0 {
			t.Fatalf("the digits U+%04X..U+%04X are not whole sets of ten", start, r-1)
		}
		start = -1
		if r <= unicode.MaxRune && decimalDigitValue(r) != -1 {
			t.Fatalf("decimalDigitValue(U+%04X) = %d, want -1", r, decimalDigitValue(r))
		}
	}
}

package jsregexp

import (
	"fmt"
	"slices"
	"sync"
	"unicode"
)

// Case-insensitive sets.
//
// With the i flag regexp2 closes every character set under case folding when it parses it,
// by folding each character of each range in turn. A set that spans most of Unicode, such as
// \D, \S or "." (complements of small sets) or a class like [\u00A1-\uFFFF], costs a million
// unicode.SimpleFold calls, hundreds of milliseconds per pattern. The translator avoids that:
// outside classes such escapes become negated classes of their small complements (nothing
// with case lies in a complement's gap, so folding the small side is the same), and a large
// non-unicode class is closed here, from a table of the characters that have case
// equivalents, and written inside "(?-i:...)" so regexp2 takes it as it is.

// foldThreshold is how many characters a non-unicode class must span before the translator
// closes it under case folding itself; regexp2 folds smaller classes quickly enough, and
// leaving them as written keeps the common pattern unchanged.
const foldThreshold = 512

// runeRange is an inclusive range of characters as regexp2 sees them.
type runeRange struct{ lo, hi rune }

// legacyFold is one BMP character with case equivalents in non-unicode mode and those
// equivalents.
type legacyFold struct {
	r     rune
	equiv []rune
}

// legacyFolds lists, in order, the BMP characters that have case equivalents under regexp2's
// rule for non-unicode ECMAScript patterns (legacyEquivalents). Only characters in
// unicode.CaseRanges change under SimpleFold, and the relation is symmetric, so the table is
// built from those ranges and the equivalents they reach.
var legacyFolds = sync.OnceValue(func() []legacyFold {
	seen := map[rune][]rune{}
	var visit func(r rune)
	visit = func(r rune) {
		if _, ok := seen[r]; ok || r > 0xFFFF {
			return
		}
		eq := legacyEquivalents(r)
		seen[r] = eq
		for _, e := range eq {
			visit(e)
		}
	}
	for _, cr := range unicode.CaseRanges {
		for r := rune(cr.Lo); r <= rune(cr.Hi) && r <= 0xFFFF; r++ {
			visit(r)
		}
	}
	var folds []legacyFold
	for r, eq := range seen {
		if len(eq) > 0 {
			folds = append(folds, legacyFold{r: r, equiv: eq})
		}
	}
	slices.SortFunc(folds, func(a, b legacyFold) int { return int(a.r - b.r) })
	return folds
})

// legacyEquivalents returns the characters regexp2 adds for ch when it closes a non-unicode
// ECMAScript set under case folding: the other members of ch's SimpleFold orbit with the same
// legacy canonical form (legacyCanonical).
func legacyEquivalents(ch rune) []rune {
	var equiv []rune
	for f := unicode.SimpleFold(ch); f != ch; f = unicode.SimpleFold(f) {
		if legacyCanonical(ch) == legacyCanonical(f) {
			equiv = append(equiv, f)
		}
	}
	return equiv
}

// legacyCanonical is Canonicalize of the specification for non-unicode patterns as regexp2
// computes it: the single-unit uppercase, except that a non-ASCII character never maps to an
// ASCII one, and the Greek characters whose full uppercase is a letter and iota stay apart.
func legacyCanonical(ch rune) rune {
	if ch > 0xFFFF || ch >= 0x1F80 && ch <= 0x1FAF ||
		ch == 0x1FB3 || ch == 0x1FBC || ch == 0x1FC3 || ch == 0x1FCC || ch == 0x1FF3 || ch == 0x1FFC {
		return ch
	}
	upper := unicode.ToUpper(ch)
	if ch >= 128 && upper < 128 {
		return ch
	}
	return upper
}

// normalizeRanges sorts rs and merges overlapping and adjacent ranges, in place.
func normalizeRanges(rs []runeRange) []runeRange {
	slices.SortFunc(rs, func(a, b runeRange) int { return int(a.lo - b.lo) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complementRanges returns the characters 0..MaxRune not in rs (normalized).
func complementRanges(rs []runeRange) []runeRange {
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if next < r.lo {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, runeRange{next, unicode.MaxRune})
	}
	return out
}

// rangesSize returns how many characters rs spans.
func rangesSize(rs []runeRange) int {
	n := 0
	for _, r := range rs {
		n += int(r.hi-r.lo) + 1
	}
	return n
}

// foldLegacy returns rs (normalized) closed under non-unicode case folding: rs and the
// equivalents of every character of rs that has any. It walks the fold table alongside the
// ranges, so its cost does not depend on how many characters the ranges span.
func foldLegacy(rs []runeRange) []runeRange {
	out := slices.Clone(rs)
	folds := legacyFolds()
	k := 0
	for _, r := range rs {
		k += sortSearchFold(folds[k:], r.lo)
		for ; k < len(folds) && folds[k].r <= r.hi; k++ {
			for _, e := range folds[k].equiv {
				out = append(out, runeRange{e, e})
			}
		}
	}
	return normalizeRanges(out)
}

// sortSearchFold returns the index of the first entry of folds at or after r.
func sortSearchFold(folds []legacyFold, r rune) int {
	i, _ := slices.BinarySearchFunc(folds, r, func(f legacyFold, r rune) int { return int(f.r - r) })
	return i
}

// ECMAScript's class escapes as ranges (WhiteSpace and LineTerminator for \s).
var (
	digitRanges = []runeRange{{'0', '9'}}
	wordRanges  = []runeRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	spaceRanges = []runeRange{{0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680},
		{0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
		{0xFEFF, 0xFEFF}}
)

// escapeRanges returns the characters of the class escape \d, \D, \s, \S, \w or \W in
// non-unicode mode.
func escapeRanges(n uint16) []runeRange {
	switch n {
	case 'd':
		return digitRanges
	case 'D':
		return complementRanges(digitRanges)
	case 's':
		return spaceRanges
	case 'S':
		return complementRanges(spaceRanges)
	case 'w':
		return wordRanges
	case 'W':
		return complementRanges(wordRanges)
	}
	panic("jsregexp: not a class escape")
}

// writeFoldedClass writes the class of the characters rs (normalized, already closed under
// case folding), negated or not, as a class regexp2 must not fold again. The surrogate block
// is left out: in non-unicode mode inputs hold stand-ins for surrogates (surrogateStandIn),
// which rs carries where the class names surrogates.
func (t *translator) writeFoldedClass(rs []runeRange, negate bool) {
	t.out.WriteString("(?-i:[")
	if negate {
		t.out.WriteByte('^')
	}
	for _, r := range rs {
		for _, part := range [2]runeRange{{r.lo, min(r.hi, 0xD7FF)}, {max(r.lo, 0xE000), r.hi}} {
			if part.lo > part.hi {
				continue
			}
			t.writeClassRune(part.lo)
			if part.hi > part.lo {
				t.out.WriteByte('-')
				t.writeClassRune(part.hi)
			}
		}
	}
	t.out.WriteString("])")
}

// writeClassRune writes one class member: a \u escape in the BMP, the character itself above
// it (stand-ins and the rest of the complement of a class escape), where no character is
// special.
func (t *translator) writeClassRune(r rune) {
	if r <= 0xFFFF {
		fmt.Fprintf(&t.out, `\u%04X`, r)
		return
	}
	t.out.WriteRune(r)
}

// foldedEscapes are the escapes whose sets are complements of small ones, and the negated
// class each becomes outside a class when the translator folds (see the comment at the top).
var foldedEscapes = map[uint16]string{'D': `[^\d]`, 'S': `[^\s]`, 'W': `[^\w]`}

// hasModifierGroup reports whether the pattern has a modifier group "(?ims-ims:" anywhere,
// outside classes and escapes. Where one is, the i flag may differ from the pattern's in
// places, so the translator leaves folding to regexp2.
func hasModifierGroup(src []uint16) bool {
	found := false
	groupOpenings(src, func(i int) bool {
		found = i+2 < len(src) && src[i+1] == '?' && isModifierStart(src[i+2])
		return !found
	})
	return found
}

// dotClass is "." without the s flag: anything but a line terminator.
const dotClass = `[^\n\r\u2028\u2029]`

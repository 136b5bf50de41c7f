package jsregexp

import (
	"fmt"
	"unicode/utf16"
)

// standInBase is where surrogate code units are moved in non-unicode mode. regexp2 keeps some
// literals and search prefixes as Go strings, where a lone surrogate would turn into U+FFFD; a
// private-use code point survives. Non-unicode inputs only hold code units (<= 0xFFFF), so the
// supplementary private-use plane cannot collide with real input characters.
const standInBase = 0xF0000

// surrogateStandIn returns the character regexp2 sees for a surrogate code unit in
// non-unicode mode; other units are returned unchanged.
func surrogateStandIn(c uint16) rune {
	if isHigh(c) || isLow(c) {
		return standInBase + rune(c-0xD800)
	}
	return rune(c)
}

// classAtom is one element of a character class in non-unicode mode.
type classAtom struct {
	start, end int  // source range
	value      int  // the character, when single
	single     bool // false for class escapes such as \d
	rangeEnd   bool // the upper end of a range (checkUnicodeClass)
}

// class translates a non-unicode character class starting at src[i] == '[' and returns the
// index after it. Ranges that touch the surrogate block are split so their surrogate part maps
// to the stand-ins; everything else is copied. With the i flag a class spanning more than
// foldThreshold characters is written closed under case folding instead (casefold.go).
func (t *translator) class(i int) (int, error) {
	src := t.src
	i++
	negate := i < len(src) && src[i] == '^'
	if negate {
		i++
	}
	var atoms []classAtom
	for i < len(src) && src[i] != ']' {
		a := readClassAtom(src, i)
		if a.end > len(src) || src[a.start] == '\\' && a.start+1 >= len(src) {
			return 0, errMessage(`\ at end of pattern`)
		}
		if t.hasNamed && src[a.start] == '\\' && src[a.start+1] == 'k' {
			// With named groups, \k is a named reference, which a class cannot hold.
			return 0, errMessage("Invalid escape")
		}
		atoms = append(atoms, a)
		i = a.end
	}
	if i >= len(src) {
		return 0, errMessage("Unterminated character class")
	}
	// Each element is one atom, or three (lo, '-', hi) for a range.
	type element struct {
		atoms  []classAtom
		lo, hi int // a range's ends
	}
	var elems []element
	var ranges []runeRange // the class's characters as regexp2 sees them, when folding
	for k := 0; k < len(atoms); k++ {
		a := atoms[k]
		if k+2 < len(atoms) && a.single && atoms[k+2].single && src[atoms[k+1].start] == '-' &&
			atoms[k+1].end-atoms[k+1].start == 1 {
			b := atoms[k+2]
			if a.value > b.value {
				return 0, errMessage("Range out of order in character class")
			}
			elems = append(elems, element{atoms: atoms[k : k+3], lo: a.value, hi: b.value})
			if t.fold {
				ranges = appendSplitRange(ranges, rune(a.value), rune(b.value))
			}
			k += 2
			continue
		}
		elems = append(elems, element{atoms: atoms[k : k+1]})
		if t.fold {
			if a.single {
				r := surrogateStandIn(uint16(a.value))
				ranges = append(ranges, runeRange{r, r})
			} else {
				ranges = append(ranges, escapeRanges(src[a.start+1])...)
			}
		}
	}
	if t.fold {
		if ranges = normalizeRanges(ranges); rangesSize(ranges) > foldThreshold {
			t.writeFoldedClass(foldLegacy(ranges), negate)
			return i + 1, nil
		}
	}
	t.out.WriteByte('[')
	if negate {
		t.out.WriteByte('^')
	}
	for _, e := range elems {
		if len(e.atoms) == 3 && e.lo <= 0xDFFF && e.hi >= 0xD800 {
			t.writeSplitRange(e.lo, e.hi)
			continue
		}
		for _, a := range e.atoms {
			t.writeAtom(a)
		}
	}
	t.out.WriteByte(']')
	return i + 1, nil
}

// appendSplitRange appends lo-hi (code units) as regexp2 sees it: its part in the surrogate
// block maps to the stand-ins.
func appendSplitRange(rs []runeRange, lo, hi rune) []runeRange {
	if lo < 0xD800 {
		rs = append(rs, runeRange{lo, min(hi, 0xD7FF)})
	}
	if lo <= 0xDFFF && hi >= 0xD800 {
		rs = append(rs, runeRange{surrogateStandIn(uint16(max(lo, 0xD800))), surrogateStandIn(uint16(min(hi, 0xDFFF)))})
	}
	if hi > 0xDFFF {
		rs = append(rs, runeRange{max(lo, 0xE000), hi})
	}
	return rs
}

// writeAtom copies one class atom, replacing a surrogate by its stand-in.
func (t *translator) writeAtom(a classAtom) {
	if a.single && a.value >= 0xD800 && a.value <= 0xDFFF {
		t.out.WriteRune(surrogateStandIn(uint16(a.value)))
		return
	}
	for _, c := range t.src[a.start:a.end] {
		t.writeUnit(c)
	}
}

// writeSplitRange writes lo-hi (which overlaps the surrogate block) as up to three ranges.
func (t *translator) writeSplitRange(lo, hi int) {
	if lo < 0xD800 {
		fmt.Fprintf(&t.out, `\u%04X-\u%04X`, lo, 0xD7FF)
	}
	sLo, sHi := max(lo, 0xD800), min(hi, 0xDFFF)
	t.out.WriteRune(surrogateStandIn(uint16(sLo)))
	t.out.WriteByte('-')
	t.out.WriteRune(surrogateStandIn(uint16(sHi)))
	if hi > 0xDFFF {
		fmt.Fprintf(&t.out, `\u%04X-\u%04X`, 0xE000, hi)
	}
}

// readClassAtom reads one class element at src[i] with the Annex B (non-unicode) rules.
func readClassAtom(src []uint16, i int) classAtom {
	c := src[i]
	if c != '\\' {
		return classAtom{start: i, end: i + 1, value: int(c), single: true}
	}
	if i+1 >= len(src) {
		return classAtom{start: i, end: i + 1, value: '\\', single: true}
	}
	n := src[i+1]
	single := func(end, v int) classAtom { return classAtom{start: i, end: end, value: v, single: true} }
	switch n {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return classAtom{start: i, end: i + 2}
	case 'b':
		return single(i+2, '\b')
	case 'f':
		return single(i+2, '\f')
	case 'n':
		return single(i+2, '\n')
	case 'r':
		return single(i+2, '\r')
	case 't':
		return single(i+2, '\t')
	case 'v':
		return single(i+2, '\v')
	case 'c':
		if i+2 < len(src) {
			l := src[i+2]
			if l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' || l >= '0' && l <= '9' || l == '_' {
				return single(i+3, int(l%32))
			}
		}
		return single(i+1, '\\') // a lone backslash; "c" follows as its own atom
	case 'x':
		if i+3 < len(src) && hexValue(src[i+2]) >= 0 && hexValue(src[i+3]) >= 0 {
			return single(i+4, hexValue(src[i+2])*16+hexValue(src[i+3]))
		}
		return single(i+2, 'x')
	case 'u':
		if v, size, ok := parseUnicodeEscape(src[i+2:]); ok && size == 4 {
			return single(i+2+size, v)
		}
		return single(i+2, 'u')
	}
	if n >= '0' && n <= '7' {
		// Legacy octal: up to three digits, value at most 0o377.
		v, j := 0, i+1
		for j < len(src) && j < i+4 && src[j] >= '0' && src[j] <= '7' && v*8+int(src[j]-'0') <= 0o377 {
			v = v*8 + int(src[j]-'0')
			j++
		}
		return single(j, v)
	}
	return single(i+2, int(n))
}

// checkUnicodeClass validates the unicode-mode (u flag) class at src[i] == '[' in order, as V8
// does: escapes, then that range ends are single characters ("Invalid character class") in
// order ("Range out of order in character class"), and that the class ends.
func (t *translator) checkUnicodeClass(i int) error {
	src := t.src
	i++
	if i < len(src) && src[i] == '^' {
		i++
	}
	var atoms []classAtom
	for i < len(src) && src[i] != ']' {
		if src[i] == '\\' {
			if i+1 >= len(src) {
				return errMessage(`\ at end of pattern`)
			}
			if err := t.unicodeEscapeError(i, true); err != nil {
				return err
			}
		}
		a := readUnicodeClassAtom(src, i)
		atoms = append(atoms, a)
		// A range is complete once its upper end is read: check it before going on.
		if k := len(atoms); k >= 3 && src[atoms[k-2].start] == '-' && atoms[k-2].end-atoms[k-2].start == 1 &&
			(k == 3 || !atoms[k-4].rangeEnd) {
			lo, hi := atoms[k-3], a
			if !lo.rangeEnd {
				if !lo.single || !hi.single {
					return errMessage("Invalid character class")
				}
				if lo.value > hi.value {
					return errMessage("Range out of order in character class")
				}
				atoms[k-1].rangeEnd = true
			}
		}
		i = a.end
	}
	if i >= len(src) {
		return errMessage("Unterminated character class")
	}
	return nil
}

// readUnicodeClassAtom reads one class element at src[i] in unicode mode: surrogate pairs and
// \u escapes of pairs are one character, \u{...} is accepted, \p{...} is a class escape.
func readUnicodeClassAtom(src []uint16, i int) classAtom {
	c := src[i]
	if c != '\\' {
		if isHigh(c) && i+1 < len(src) && isLow(src[i+1]) {
			return classAtom{start: i, end: i + 2, value: int(utf16.DecodeRune(rune(c), rune(src[i+1]))), single: true}
		}
		return classAtom{start: i, end: i + 1, value: int(c), single: true}
	}
	n := src[i+1]
	switch n {
	case 'p', 'P':
		j := i + 2
		for j < len(src) && src[j] != '}' {
			j++
		}
		return classAtom{start: i, end: min(j+1, len(src))}
	case 'u':
		v, size, ok := parseUnicodeEscape(src[i+2:])
		if !ok {
			break
		}
		end := i + 2 + size
		if size == 4 && v >= 0xD800 && v <= 0xDBFF && end+1 < len(src) && src[end] == '\\' && src[end+1] == 'u' {
			if lo, lsize, ok := parseUnicodeEscape(src[end+2:]); ok && lsize == 4 && lo >= 0xDC00 && lo <= 0xDFFF {
				return classAtom{start: i, end: end + 2 + lsize, value: int(utf16.DecodeRune(rune(v), rune(lo))), single: true}
			}
		}
		return classAtom{start: i, end: end, value: v, single: true}
	case '-':
		return classAtom{start: i, end: i + 2, value: '-', single: true}
	}
	return readClassAtom(src, i)
}

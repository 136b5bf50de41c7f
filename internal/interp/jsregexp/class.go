package jsregexp

import (
	"fmt"
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
}

// class translates a non-unicode character class starting at src[i] == '[' and returns the
// index after it. Ranges that touch the surrogate block are split so their surrogate part maps
// to the stand-ins; everything else is copied. An unterminated class is copied as is for
// regexp2 to report.
func (t *translator) class(i int) int {
	src := t.src
	t.out.WriteByte('[')
	i++
	if i < len(src) && src[i] == '^' {
		t.out.WriteByte('^')
		i++
	}
	var atoms []classAtom
	for i < len(src) && src[i] != ']' {
		a := readClassAtom(src, i)
		atoms = append(atoms, a)
		i = a.end
	}
	for k := 0; k < len(atoms); k++ {
		a := atoms[k]
		if k+2 < len(atoms) && a.single && atoms[k+2].single && src[atoms[k+1].start] == '-' &&
			atoms[k+1].end-atoms[k+1].start == 1 {
			b := atoms[k+2]
			if a.value <= b.value && a.value <= 0xDFFF && b.value >= 0xD800 {
				t.writeSplitRange(a.value, b.value)
				k += 2
				continue
			}
		}
		t.writeAtom(a)
	}
	if i < len(src) {
		t.out.WriteByte(']')
		i++
	}
	return i
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

package interp

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Greek upper-casing (toLocaleUpperCase("el")), as ICU does it (ucasemap's GreekUpper, which
// V8 calls): letters lose their accents and breathings, keep a dialytika (ϊ → Ϊ, and a
// dialytika is added to ι or υ after a vowel with an accent: "Μάιος" → "ΜΑΪΟΣ"), a
// ypogegrammeni becomes a capital iota, and the disjunctive eta ("ή" standing alone) keeps
// its tonos. golang.org/x/text/cases's Greek mapping drops the dialytika, so it is not used.

// Letter and diacritic data, in the layout of ICU's tables: the upper-case base letter in the
// low bits and flags.
const (
	grUpperMask          = 0x3ff
	grVowel              = 0x1000
	grYpogegrammeni      = 0x2000
	grAccent             = 0x4000
	grDialytika          = 0x8000
	grCombiningDialytika = 0x10000
	grOtherDiacritic     = 0x20000

	grVowelAccent          = grVowel | grAccent
	grVowelAccentDialytika = grVowel | grAccent | grDialytika
	grEitherDialytika      = grDialytika | grCombiningDialytika

	grAfterCased                    = 1
	grAfterVowelWithPrecomposedAcc  = 2
	grAfterVowelWithCombiningAccent = 4
)

var (
	greekLetterOnce sync.Once
	greekLetters    map[rune]uint32 // code point -> letter data, for 0370–03FF, 1F00–1FFF, U+2126
)

// greekLetterData is ICU's GreekUpper::getLetterData: 0 for a code point that is not a Greek
// letter. The table is derived from the canonical decompositions: the base letter's upper case
// and the accents (grave, acute, perispomeni), dialytika and ypogegrammeni it carries; letters
// of other scripts in these blocks (Coptic, U+0374's ʹ) have none.
func greekLetterData(c rune) uint32 {
	greekLetterOnce.Do(func() {
		greekLetters = map[rune]uint32{}
		add := func(c rune) {
			if !unicode.IsLetter(c) {
				return
			}
			d := []rune(norm.NFD.String(string(c)))
			up := unicode.ToUpper(d[0])
			if !unicode.Is(unicode.Greek, d[0]) || up > grUpperMask {
				return
			}
			data := uint32(up)
			switch up {
			case 'Α', 'Ε', 'Η', 'Ι', 'Ο', 'Υ', 'Ω':
				data |= grVowel
			}
			for _, m := range d[1:] {
				switch m {
				case 0x300, 0x301, 0x342:
					data |= grAccent
				case 0x308:
					data |= grDialytika
				case 0x345:
					data |= grYpogegrammeni
				}
			}
			greekLetters[c] = data
		}
		for c := rune(0x370); c <= 0x3ff; c++ {
			add(c)
		}
		for c := rune(0x1f00); c <= 0x1fff; c++ {
			add(c)
		}
		greekLetters[0x2126] = 'Ω' | grVowel // OHM SIGN
	})
	if c < 0x370 {
		return 0
	}
	return greekLetters[c]
}

// greekDiacriticData is ICU's GreekUpper::getDiacriticData for a combining mark.
func greekDiacriticData(c rune) uint32 {
	switch c {
	case 0x300, 0x301, 0x342, 0x302, 0x303, 0x311:
		return grAccent
	case 0x308:
		return grCombiningDialytika
	case 0x344:
		return grCombiningDialytika | grAccent
	case 0x345:
		return grYpogegrammeni
	case 0x304, 0x306, 0x313, 0x314, 0x343:
		return grOtherDiacritic
	}
	return 0
}

// greekFollowedByCased reports whether a cased letter follows rs[i:] after case-ignorable ones.
func greekFollowedByCased(rs []rune, i int) bool {
	for ; i < len(rs); i++ {
		if isCaseIgnorable(rs[i]) {
			continue
		}
		return isCased(rs[i])
	}
	return false
}

// greekUpper upper-cases well-formed text by the Greek rules.
func greekUpper(s string) string {
	rs := []rune(s)
	var b, run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(cases.Upper(language.Und).String(run.String()))
			run.Reset()
		}
	}
	state := 0
	for i := 0; i < len(rs); {
		c := rs[i]
		next := i + 1
		nextState := 0
		if isCaseIgnorable(c) {
			nextState |= state & grAfterCased
		} else if isCased(c) {
			nextState |= grAfterCased
		}
		data := greekLetterData(c)
		if data == 0 {
			run.WriteRune(c)
			state = nextState
			i = next
			continue
		}
		flush()
		upper := rune(data & grUpperMask)
		if data&grVowel != 0 && state&(grAfterVowelWithPrecomposedAcc|grAfterVowelWithCombiningAccent) != 0 &&
			(upper == 'Ι' || upper == 'Υ') {
			if state&grAfterVowelWithPrecomposedAcc != 0 {
				data |= grDialytika
			} else {
				data |= grCombiningDialytika
			}
		}
		ypogegrammeni := 0
		if data&grYpogegrammeni != 0 {
			ypogegrammeni = 1
		}
		precomposedAccent := data&grAccent != 0
		for next < len(rs) {
			d := greekDiacriticData(rs[next])
			if d == 0 {
				break
			}
			data |= d
			if d&grYpogegrammeni != 0 {
				ypogegrammeni++
			}
			next++
		}
		if data&grVowelAccentDialytika == grVowelAccent {
			if precomposedAccent {
				nextState |= grAfterVowelWithPrecomposedAcc
			} else {
				nextState |= grAfterVowelWithCombiningAccent
			}
		}
		addTonos := false
		if upper == 'Η' && data&grAccent != 0 && ypogegrammeni == 0 && state&grAfterCased == 0 &&
			!greekFollowedByCased(rs, next) {
			// the disjunctive "or" keeps its tonos
			if precomposedAccent {
				upper = 'Ή'
			} else {
				addTonos = true
			}
		} else if data&grDialytika != 0 {
			// a vowel with a precomposed dialytika stays precomposed
			switch upper {
			case 'Ι':
				upper = 'Ϊ'
				data &^= grEitherDialytika
			case 'Υ':
				upper = 'Ϋ'
				data &^= grEitherDialytika
			}
		}
		b.WriteRune(upper)
		if data&grEitherDialytika != 0 {
			b.WriteRune(0x308)
		}
		if addTonos {
			b.WriteRune(0x301)
		}
		for ; ypogegrammeni > 0; ypogegrammeni-- {
			b.WriteRune('Ι')
		}
		state = nextState
		i = next
	}
	flush()
	return b.String()
}

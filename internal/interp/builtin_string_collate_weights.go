package interp

import (
	"bytes"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/collate"
)

// Code points that x/text weighs unlike ICU. x/text's tables are CLDR 23's root order, and Go
// text has no surrogates; node's ICU weighs three code points otherwise, whatever the locale:
//
//   - a lone surrogate is collated as the code point it is, which has no entry in the table:
//     its implicit weight sorts it after every assigned character, among the unassigned,
//     private-use and noncharacter code points by code point ("\uD7FF" < "\uD800" < "\uDFFF" <
//     "\uE000"). x/text never sees one: String turns it into U+FFFD.
//   - U+FFFD has the second-highest primary weight (CLDR 24 on, so that text with decoding
//     errors sorts last): it follows every code point but U+FFFF, U+10FFFF included. x/text
//     weighs it as a symbol, before the digits.
//   - U+FFFF has the highest primary weight. x/text gives it U+10FFFF's and tells them apart
//     only at the tertiary level, so "\uFFFFa" < "\u{10FFFF}b" there.
//
// U+FFFE, the lowest primary weight in both, needs nothing. The three have the common
// secondary and tertiary weights in ICU (checked against node for en, de and sv, numeric and
// every sensitivity).
//
// With the numeric option, runs of decimal digits are weighed here too: x/text's numeric
// weighter gives the number 0 no weight after its start marker, so "file0.txt" sorts after
// "file10.txt" ('.' outweighs the digit count of 10), its numbers sort after the digits'
// variants ("0" > "²" where ICU has "0" < "²"), and it keeps the digits' script and width
// apart ("١" > "1" where ICU has them equal). ICU weighs a run of digits (any Nd character, by
// its value) as the number it spells, leading zeros dropped but one, at most 254 digits to a
// number (the rest starts another), before every other character of the digits' group and
// after the currency symbols, with the common secondary and tertiary weights.
//
// A string holding any of these is compared by sort keys spliced together: x/text's key of
// each run of the other text, cut into its levels, with the weights above of the code points
// between the runs in each level. Runs can be weighed apart because none of those code points
// starts or continues a contraction and all are starters, so normalization does not reorder
// marks across them.

// x/text's weights, as its keys encode them (golang.org/x/text/internal/colltab):
const (
	// xtextImplicitBase plus a code point is the primary weight of a code point the table
	// does not list (an unassigned, private-use or noncharacter one, not a Han ideograph).
	xtextImplicitBase = 0x50000
	// xtextMaxPrimary is the largest primary weight: U+10FFFF's implicit one, and U+FFFF's.
	xtextMaxPrimary = xtextImplicitBase + 0x10FFFF
	// xtextCommonSecondary and xtextCommonTertiary are the weights of a plain letter.
	xtextCommonSecondary = 0x20
	xtextCommonTertiary  = 0x02
)

// Primary weights of U+FFFD and U+FFFF, above every x/text primary.
const (
	primaryFFFD = xtextMaxPrimary + 1
	primaryFFFF = xtextMaxPrimary + 2
)

// maxNumberDigits is the most digits ICU weighs as one number.
const maxNumberDigits = 254

// apartPrimary returns ICU's primary weight for the code point r if x/text weighs it
// otherwise (r is a surrogate only when it is a lone one).
func apartPrimary(r rune) (int, bool) {
	switch {
	case r >= 0xD800 && r <= 0xDFFF:
		return xtextImplicitBase + int(r), true
	case r == 0xFFFD:
		return primaryFFFD, true
	case r == 0xFFFF:
		return primaryFFFF, true
	}
	return 0, false
}

// decimalDigitValue returns the value of the decimal digit r (general category Nd), or -1.
// Unicode encodes each script's digits as a run of ten from 0 to 9, and unicode.Nd's ranges are
// such runs end to end, so the value is the offset in the range modulo 10.
func decimalDigitValue(r rune) int {
	if r <= '9' {
		if r >= '0' {
			return int(r - '0')
		}
		return -1
	}
	if r < 0x660 { // ARABIC-INDIC DIGIT ZERO, the first digit past ASCII
		return -1
	}
	if r <= 0xFFFF {
		t := unicode.Nd.R16
		i := sort.Search(len(t), func(i int) bool { return rune(t[i].Hi) >= r })
		if i < len(t) && rune(t[i].Lo) <= r {
			return int(r-rune(t[i].Lo)) % 10
		}
		return -1
	}
	t := unicode.Nd.R32
	i := sort.Search(len(t), func(i int) bool { return rune(t[i].Hi) >= r })
	if i < len(t) && rune(t[i].Lo) <= r {
		return int(r-rune(t[i].Lo)) % 10
	}
	return -1
}

// nextRune returns the code point at u[i] (a lone surrogate as itself) and its length.
func nextRune(u []uint16, i int) (rune, int) {
	if isHighSurrogate(u[i]) && i+1 < len(u) && isLowSurrogate(u[i+1]) {
		return utf16.DecodeRune(rune(u[i]), rune(u[i+1])), 2
	}
	return rune(u[i]), 1
}

// weighedApart reports whether s holds a code point that k weighs unlike x/text.
func (k collatorKey) weighedApart(s *jsString) bool {
	if s.isASCII {
		return k.numeric && strings.ContainsAny(s.flat().ascii, "0123456789")
	}
	u := s.units()
	for i := 0; i < len(u); {
		r, n := nextRune(u, i)
		if _, ok := apartPrimary(r); ok || k.numeric && decimalDigitValue(r) >= 0 {
			return true
		}
		i += n
	}
	return false
}

// levels is the number of levels k compares: primary (base letters), secondary (accents),
// tertiary (case and variants).
func (k collatorKey) levels() int {
	switch k.sensitivity {
	case "base":
		return 1
	case "accent":
		return 2
	}
	return 3
}

// splicer builds spliced keys with a collator of k.
type splicer struct {
	k           collatorKey
	col         *collate.Collator
	buf         collate.Buffer
	levels      int
	numberStart int          // the primary weight starting a number: just below the digit zero's
	keys        [2][3][]byte // the keys compared, reused
	text        []byte       // scratch: a run as UTF-8
	digits      []byte       // scratch: a run's digit values
}

// splicers pools splicers: their buffers are kilobytes, and sorting compares many times.
var splicers = sync.Pool{New: func() any { return new(splicer) }}

// compareSpliced compares s and t, one of which holds code points weighed apart, with col, the
// collator of k, by their spliced keys.
func (k collatorKey) compareSpliced(col *collate.Collator, s, t *jsString) int {
	sp := splicers.Get().(*splicer)
	defer splicers.Put(sp)
	sp.k, sp.col, sp.levels = k, col, k.levels()
	if k.numeric {
		sp.buf.Reset()
		sp.numberStart = firstPrimary(col.KeyFromString(&sp.buf, "0")) - 1
	}
	a, b := sp.key(&sp.keys[0], s), sp.key(&sp.keys[1], t)
	for l := range sp.levels {
		if c := bytes.Compare(a[l], b[l]); c != 0 {
			return c
		}
	}
	return 0
}

// key returns the sort key of s level by level: x/text's weights for each run of s between the
// code points weighed apart, ICU's for those.
func (sp *splicer) key(key *[3][]byte, s *jsString) *[3][]byte {
	for l := range key {
		key[l] = key[l][:0]
	}
	u := s.units()
	start := 0
	flush := func(end int) {
		if end == start {
			return
		}
		sp.text = sp.text[:0]
		for i := start; i < end; {
			r, n := nextRune(u, i)
			sp.text = utf8.AppendRune(sp.text, r)
			i += n
		}
		sp.buf.Reset()
		var run []byte
		if sp.k.sensitivity == "case" {
			run = sp.col.KeyFromString(&sp.buf, stripMarks(string(sp.text)))
		} else {
			run = sp.col.Key(&sp.buf, sp.text)
		}
		for l, w := range keyLevels(run, sp.levels) {
			key[l] = append(key[l], w...)
		}
	}
	for i := 0; i < len(u); {
		r, n := nextRune(u, i)
		if p, ok := apartPrimary(r); ok {
			flush(i)
			sp.appendCommon(key, p)
			i += n
			start = i
			continue
		}
		if !sp.k.numeric || decimalDigitValue(r) < 0 {
			i += n
			continue
		}
		flush(i)
		sp.digits = sp.digits[:0]
		for i < len(u) {
			r, n := nextRune(u, i)
			d := decimalDigitValue(r)
			if d < 0 {
				break
			}
			sp.digits = append(sp.digits, byte(d))
			i += n
		}
		sp.appendNumbers(key, sp.digits)
		start = i
	}
	flush(len(u))
	return key
}

// appendNumbers appends the weights of the numbers a run of digits (their values) spells:
// each the start weight, its count of digits and one weight per digit, so that numbers compare
// by value.
func (sp *splicer) appendNumbers(key *[3][]byte, digits []byte) {
	for len(digits) > 0 {
		for len(digits) > 1 && digits[0] == 0 {
			digits = digits[1:]
		}
		d := digits[:min(len(digits), maxNumberDigits)]
		digits = digits[len(d):]
		sp.appendCommon(key, sp.numberStart)
		key[0] = appendPrimaryWeight(key[0], len(d))
		for _, v := range d {
			key[0] = appendPrimaryWeight(key[0], int(v)+1)
		}
	}
}

// appendCommon appends a collation element of primary weight p with the common secondary and
// tertiary weights.
func (sp *splicer) appendCommon(key *[3][]byte, p int) {
	key[0] = appendPrimaryWeight(key[0], p)
	if sp.levels > 1 {
		key[1] = append(key[1], 0, xtextCommonSecondary)
	}
	if sp.levels > 2 {
		key[2] = append(key[2], xtextCommonTertiary)
	}
}

// keyLevels cuts an x/text key of n levels into them. The key is the primary weights (two
// bytes each, or three with the top bit set from 0x8000 on), then for each further level a
// 0x0000 separator and its weights (two bytes each for the secondary, one for the tertiary;
// none of them zero).
func keyLevels(key []byte, n int) (lv [3][]byte) {
	i := 0
	for i+1 < len(key) && (key[i] != 0 || key[i+1] != 0) {
		if key[i]&0x80 != 0 {
			i += 3
		} else {
			i += 2
		}
	}
	lv[0] = key[:min(i, len(key))]
	if n == 1 || i+2 > len(key) {
		return lv
	}
	key = key[i+2:]
	i = 0
	for i+1 < len(key) && (key[i] != 0 || key[i+1] != 0) {
		i += 2
	}
	lv[1] = key[:min(i, len(key))]
	if n == 2 || i+2 > len(key) {
		return lv
	}
	lv[2] = key[i+2:]
	return lv
}

// firstPrimary returns the first primary weight of an x/text key.
func firstPrimary(key []byte) int {
	switch {
	case len(key) >= 3 && key[0]&0x80 != 0:
		return int(key[0]&0x7F)<<16 | int(key[1])<<8 | int(key[2])
	case len(key) >= 2:
		return int(key[0])<<8 | int(key[1])
	}
	return 0
}

// appendPrimaryWeight appends the primary weight p encoded as in x/text's keys, so that the
// bytes compare as the weights do.
func appendPrimaryWeight(key []byte, p int) []byte {
	if p <= 0x7FFF {
		return append(key, byte(p>>8), byte(p))
	}
	return append(key, byte(p>>16)|0x80, byte(p>>8), byte(p))
}

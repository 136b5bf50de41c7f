package interp

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// String.prototype methods that use Unicode tables: case mapping (the full mappings of
// SpecialCasing, such as 'ß' → "SS" and the final sigma rule, through golang.org/x/text/cases
// with the root locale) and normalization (golang.org/x/text/unicode/norm). The text is
// converted per well-formed run: lone surrogates are copied unchanged between runs.

// mapWellFormed applies f to each maximal well-formed run of s (as UTF-8 Go text) and keeps
// lone surrogates as they are.
func mapWellFormed(s *jsString, f func(string) string) *jsString {
	u := s.units()
	var b stringBuilder
	start := 0
	flush := func(end int) {
		if end > start {
			b.writeGo(f(newUTF16(append([]uint16(nil), u[start:end]...)).String()))
		}
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if !isSurrogate(c) {
			continue
		}
		if isHighSurrogate(c) && i+1 < len(u) && isLowSurrogate(u[i+1]) {
			i++
			continue
		}
		flush(i)
		b.writeUnit(c)
		start = i + 1
	}
	flush(len(u))
	return b.string()
}

// toLowerString is the full Unicode lower-case mapping of s.
func (vm *VM) toLowerString(s *jsString) *jsString {
	if f := s.flat(); f.isASCII {
		if strings.IndexFunc(f.ascii, func(r rune) bool { return r >= 'A' && r <= 'Z' }) < 0 {
			return s
		}
		return newASCII(strings.ToLower(f.ascii))
	}
	out := mapWellFormed(s, lowerWithSigma)
	vm.checkStringLength(int64(out.Len()))
	vm.allocated += int64(out.Len()) * 2
	return out
}

// toUpperString is the full Unicode upper-case mapping of s.
func (vm *VM) toUpperString(s *jsString) *jsString {
	if f := s.flat(); f.isASCII {
		if strings.IndexFunc(f.ascii, func(r rune) bool { return r >= 'a' && r <= 'z' }) < 0 {
			return s
		}
		return newASCII(strings.ToUpper(f.ascii))
	}
	out := mapWellFormed(s, cases.Upper(language.Und).String)
	vm.checkStringLength(int64(out.Len()))
	vm.allocated += int64(out.Len()) * 2
	return out
}

// stringToLowerCase is String.prototype.toLowerCase.
func stringToLowerCase(vm *VM, c NativeCall) Value {
	return stringValue(vm.toLowerString(thisStr(vm, c, "toLowerCase")))
}

// stringToUpperCase is String.prototype.toUpperCase.
func stringToUpperCase(vm *VM, c NativeCall) Value {
	return stringValue(vm.toUpperString(thisStr(vm, c, "toUpperCase")))
}

// localeArg reads the locales argument of toLocaleLowerCase/toLocaleUpperCase as V8 does
// (CanonicalizeLocaleList up to its first tag) and returns the language subtag of that tag
// ("" when none is given).
func localeArg(vm *VM, v Value) string {
	tags := vm.localeList(v, true)
	if len(tags) == 0 {
		return ""
	}
	first := tags[0]
	if i := strings.IndexByte(first, '-'); i >= 0 {
		first = first[:i]
	}
	return first
}

// caseLocale is the locale whose case mappings differ from the root's that lang names, as V8
// picks it (Intl::StringLocaleConvertCase): Turkish and Azeri (dotted and dotless i),
// Lithuanian (the dot above kept on i with accents) and Greek (upper case without accents);
// ok is false for every other language.
func caseLocale(lang string) (language.Tag, bool) {
	switch lang {
	case "tr", "az", "lt", "el":
		return language.Make(lang), true
	}
	return language.Und, false
}

// stringToLocaleLowerCase is String.prototype.toLocaleLowerCase: the root mapping, or that
// of Turkish, Azeri or Lithuanian when the first locale is one of them.
func stringToLocaleLowerCase(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "toLocaleLowerCase")
	lang := localeArg(vm, c.Arg(0))
	tag, ok := caseLocale(lang)
	if !ok || lang == "el" {
		return stringValue(vm.toLowerString(s))
	}
	lower := cases.Lower(tag)
	out := mapWellFormed(s, func(t string) string {
		if lang == "lt" {
			// x/text's Lithuanian mapping adds a second dot above to İ, whose lower case is
			// i and a dot above in every locale
			t = strings.ReplaceAll(t, "İ", "i\u0307")
		}
		return lowerWithSigmaBy(lower, t)
	})
	vm.checkStringLength(int64(out.Len()))
	vm.allocated += int64(out.Len()) * 2
	return stringValue(out)
}

// stringToLocaleUpperCase is String.prototype.toLocaleUpperCase: the root mapping, or that
// of Turkish, Azeri, Lithuanian or Greek when the first locale is one of them.
func stringToLocaleUpperCase(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "toLocaleUpperCase")
	lang := localeArg(vm, c.Arg(0))
	tag, ok := caseLocale(lang)
	if !ok {
		return stringValue(vm.toUpperString(s))
	}
	upper := cases.Upper(tag).String
	if lang == "el" {
		upper = greekUpper
	}
	out := mapWellFormed(s, upper)
	vm.checkStringLength(int64(out.Len()))
	vm.allocated += int64(out.Len()) * 2
	return stringValue(out)
}

// stringNormalize is String.prototype.normalize(form): NFC (default), NFD, NFKC or NFKD.
func stringNormalize(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "normalize")
	form := norm.NFC
	if f := c.Arg(0); !f.IsUndefined() {
		switch vm.toString(f).String() {
		case "NFC":
		case "NFD":
			form = norm.NFD
		case "NFKC":
			form = norm.NFKC
		case "NFKD":
			form = norm.NFKD
		default:
			vm.throwRangeError("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
		}
	}
	if s.flat().isASCII {
		return stringValue(s)
	}
	out := mapWellFormed(s, form.String)
	vm.checkStringLength(int64(out.Len()))
	vm.allocated += int64(out.Len()) * 2
	return stringValue(out)
}

// lowerWithSigma is the full lower-case mapping of well-formed text with the Final_Sigma
// rule applied as the Unicode standard (and V8) define it: a capital sigma becomes 'ς' when
// a cased letter precedes it and none follows it, skipping case-ignorable characters in
// both directions (so U+0345, which is both, is skipped).
func lowerWithSigma(s string) string {
	return lowerWithSigmaBy(cases.Lower(language.Und), s)
}

// lowerWithSigmaBy is lowerWithSigma with the lower-case mapping of lower.
func lowerWithSigmaBy(lower cases.Caser, s string) string {
	if !strings.ContainsRune(s, 'Σ') {
		return lower.String(s)
	}
	rs := []rune(s)
	var b strings.Builder
	start := 0
	for i, r := range rs {
		if r != 'Σ' {
			continue
		}
		b.WriteString(lower.String(string(rs[start:i])))
		if isFinalSigma(rs, i) {
			b.WriteRune('ς')
		} else {
			b.WriteRune('σ')
		}
		start = i + 1
	}
	b.WriteString(lower.String(string(rs[start:])))
	return b.String()
}

// isFinalSigma evaluates the Final_Sigma casing context at rs[i].
func isFinalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && isCaseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !isCased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && isCaseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !isCased(rs[k])
}

// isCased is the Unicode Cased property.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is the Unicode Case_Ignorable property: marks, format characters,
// modifiers, and the word-break MidLetter, MidNumLet and Single_Quote characters.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52,
		0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

package interp

import "strings"

// localeList reads a locales argument as ECMA-402's CanonicalizeLocaleList does and returns its
// tags (lower-cased): undefined is the empty list, a string is one tag, null is a TypeError,
// anything else is converted to an object and read as an array-like of strings or objects
// (a number or boolean has no length, so it is the empty list). Each tag is checked as V8
// checks it (checkLocaleTag). With onlyFirst, as V8 does for toLocaleUpperCase and
// toLocaleLowerCase, the list stops at its first tag.
func (vm *VM) localeList(v Value, onlyFirst bool) []string {
	switch v.kind {
	case KindUndefined:
		return nil
	case KindString:
		return []string{vm.checkLocaleTag(v.str().String())}
	case KindNull:
		vm.throwTypeError("Cannot convert undefined or null to object")
	}
	o := vm.toObject(v)
	n := vm.lengthOfArrayLike(o)
	var tags []string
	for i := int64(0); i < n; i++ {
		key := vm.indexToKey(i)
		if !vm.hasProperty(o, key) {
			continue
		}
		tag := vm.getProp(o, key)
		if tag.kind != KindString && tag.kind != KindObject {
			vm.throwTypeError("Language ID should be string or object.")
		}
		tags = append(tags, vm.checkLocaleTag(vm.toString(tag).String()))
		if onlyFirst {
			break
		}
	}
	return tags
}

// checkLocaleTag throws V8's RangeError for a tag that is no locale identifier and returns it
// lower-cased: "Incorrect locale information provided" when the tag does not start with a
// language identifier (JSLocale::StartsWithUnicodeLanguageId: "", "root", "x-foo", "en_US",
// "en-US-US"), "Invalid language tag: <tag>" when the rest is malformed ("en-u", "en-x",
// duplicate variants or extensions).
func (vm *VM) checkLocaleTag(tag string) string {
	if !startsWithUnicodeLanguageID(tag) {
		vm.throwRangeError("Incorrect locale information provided")
	}
	lower := strings.ToLower(tag)
	if !isStructurallyValidLanguageTag(tag) {
		vm.throwRangeError("Invalid language tag: %s", lower)
	}
	return lower
}

// startsWithUnicodeLanguageID is V8's JSLocale::StartsWithUnicodeLanguageId: the tag's
// subtags (split at "-" as std::getline splits, without a trailing empty one) begin with a
// language subtag, an optional script and region and variants, up to the end or a singleton.
func startsWithUnicodeLanguageID(tag string) bool {
	tokens := strings.Split(tag, "-")
	if tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	if len(tokens) == 0 {
		return false
	}
	lang := tokens[0]
	if !isAlphaString(lang) || len(lang) < 2 || len(lang) > 8 || len(lang) == 4 {
		return false
	}
	if len(tokens) == 1 {
		return true
	}
	singleton := func(s string) bool { return len(s) == 1 && isAlnumByte(s[0]) }
	if singleton(tokens[1]) {
		return true
	}
	i := 1
	if len(tokens[1]) == 4 && isAlphaString(tokens[1]) {
		i = 2
	}
	if i == len(tokens) {
		return true
	}
	if s := tokens[i]; len(s) == 2 && isAlphaString(s) || len(s) == 3 && isDigitString(s) {
		i++
		if i == len(tokens) {
			return true
		}
	}
	for ; i < len(tokens); i++ {
		if singleton(tokens[i]) {
			return true
		}
		if !isVariantSubtag(tokens[i]) {
			return false
		}
	}
	return true
}

// isStructurallyValidLanguageTag reports whether tag is a Unicode BCP 47 locale identifier
// as ECMA-402's IsStructurallyValidLanguageTag defines it (UTS #35 unicode_locale_id in its
// BCP 47 form): a language subtag of 2–3 or 5–8 letters (not "root", not a bare private use
// tag such as "x-foo", not a grandfathered tag such as "i-klingon"), an optional script and
// region, variants without duplicates, extensions without duplicate singletons and an
// optional private use part. Every locale argument of the built-ins (CanonicalizeLocaleList)
// throws "RangeError: Incorrect locale information provided" for any other string, as V8 does.
func isStructurallyValidLanguageTag(tag string) bool {
	if tag == "" {
		return false
	}
	subtags := strings.Split(strings.ToLower(tag), "-")
	i, ok := parseLanguageID(subtags, 0, true)
	if !ok {
		return false
	}
	singletons := map[byte]bool{}
	for i < len(subtags) {
		s := subtags[i]
		if len(s) != 1 || !isAlnumString(s) {
			return false
		}
		if s == "x" {
			// private use: x followed by one or more alphanum{1,8}, to the end
			if i+1 >= len(subtags) {
				return false
			}
			for _, p := range subtags[i+1:] {
				if len(p) < 1 || len(p) > 8 || !isAlnumString(p) {
					return false
				}
			}
			return true
		}
		if singletons[s[0]] {
			return false
		}
		singletons[s[0]] = true
		i++
		start := i
		switch s {
		case "u":
			// attributes alphanum{3,8}, then keywords: key (alphanum alpha) type*
			for i < len(subtags) && len(subtags[i]) >= 3 && len(subtags[i]) <= 8 && isAlnumString(subtags[i]) {
				i++
			}
			for i < len(subtags) && isUnicodeKey(subtags[i]) {
				i++
				for i < len(subtags) && len(subtags[i]) >= 3 && len(subtags[i]) <= 8 && isAlnumString(subtags[i]) {
					i++
				}
			}
		case "t":
			// an optional tlang, then tfields: tkey (alpha digit) tvalue (alphanum{3,8})+
			if i < len(subtags) && isAlphaString(subtags[i]) && len(subtags[i]) >= 2 && len(subtags[i]) <= 8 && len(subtags[i]) != 4 {
				j, ok := parseLanguageID(subtags, i, false)
				if !ok {
					return false
				}
				i = j
			}
			for i < len(subtags) && len(subtags[i]) == 2 && isAlpha(subtags[i][0]) && isDigitByte(subtags[i][1]) {
				i++
				n := 0
				for i < len(subtags) && len(subtags[i]) >= 3 && len(subtags[i]) <= 8 && isAlnumString(subtags[i]) {
					i++
					n++
				}
				if n == 0 {
					return false
				}
			}
		default:
			for i < len(subtags) && len(subtags[i]) >= 2 && len(subtags[i]) <= 8 && isAlnumString(subtags[i]) {
				i++
			}
		}
		if i == start {
			return false
		}
	}
	return true
}

// parseLanguageID reads a unicode_language_id (language, script, region, variants) from
// subtags[i:] and returns the index past it. A tlang (first false) is the same without the
// requirement that nothing unexpected follows.
func parseLanguageID(subtags []string, i int, first bool) (int, bool) {
	if i >= len(subtags) {
		return i, false
	}
	lang := subtags[i]
	if !isAlphaString(lang) || len(lang) < 2 || len(lang) > 8 || len(lang) == 4 {
		return i, false
	}
	i++
	if i < len(subtags) && len(subtags[i]) == 4 && isAlphaString(subtags[i]) {
		i++ // script
	}
	if i < len(subtags) && (len(subtags[i]) == 2 && isAlphaString(subtags[i]) ||
		len(subtags[i]) == 3 && isDigitString(subtags[i])) {
		i++ // region
	}
	seen := map[string]bool{}
	for i < len(subtags) && isVariantSubtag(subtags[i]) {
		if seen[subtags[i]] {
			return i, false
		}
		seen[subtags[i]] = true
		i++
	}
	return i, true
}

// isVariantSubtag reports whether s is alphanum{5,8} or a digit and alphanum{3}.
func isVariantSubtag(s string) bool {
	if !isAlnumString(s) {
		return false
	}
	return len(s) >= 5 && len(s) <= 8 || len(s) == 4 && isDigitByte(s[0])
}

// isUnicodeKey reports whether s is a -u- keyword key: alphanum alpha.
func isUnicodeKey(s string) bool {
	return len(s) == 2 && isAlnumByte(s[0]) && isAlpha(s[1])
}

func isAlpha(c byte) bool     { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
func isAlnumByte(c byte) bool { return isAlpha(c) || isDigitByte(c) }

func isAlphaString(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isAlpha(byte(r)) }) < 0
}
func isDigitString(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isDigitByte(byte(r)) }) < 0
}
func isAlnumString(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isAlnumByte(byte(r)) }) < 0
}

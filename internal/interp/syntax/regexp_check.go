package syntax

import (
	"strings"
)

// With the u flag, ECMAScript drops the Annex B leniencies: identity escapes
// are limited to syntax characters, and lone braces and brackets are
// errors. regexp2 accepts these, so they are checked here.

// unicodeModeError reports whether pattern (the body of a regular
// expression literal with the u flag) uses syntax that only non-Unicode
// patterns allow, and says what.
func unicodeModeError(pattern string) (string, bool) {
	inClass := false
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '\\':
			if i+1 >= len(pattern) {
				return "\\ at end of pattern", true
			}
			e := pattern[i+1]
			if !validUnicodeEscape(pattern[i+1:], inClass) {
				return "invalid escape \\" + string(rune(e)), true
			}
			i++
			if (e == 'u' || e == 'p' || e == 'P') && i+1 < len(pattern) && pattern[i+1] == '{' {
				// \u{...}, \p{...}: the braces belong to the escape
				if end := strings.IndexByte(pattern[i:], '}'); end > 0 {
					i += end
				}
			}
		case '[':
			if !inClass {
				inClass = true
				if i+1 < len(pattern) && pattern[i+1] == '^' {
					i++
				}
				if i+1 < len(pattern) && pattern[i+1] == ']' {
					i++ // [] or [^] is an empty class
					inClass = false
				}
			}
		case ']':
			if !inClass {
				return "lone ']'", true
			}
			inClass = false
		case '{':
			if inClass {
				continue
			}
			end := strings.IndexByte(pattern[i:], '}')
			if end < 0 || !isQuantifierBody(pattern[i+1:i+end]) || i == 0 {
				return "lone '{'", true
			}
			i += end
		case '}':
			if !inClass {
				return "lone '}'", true
			}
		}
	}
	return "", false
}

// validUnicodeEscape checks the escape starting at s (after the '\').
func validUnicodeEscape(s string, inClass bool) bool {
	e := s[0]
	switch {
	case strings.IndexByte(`^$\.*+?()[]{}|/`, e) >= 0:
		return true
	case strings.IndexByte("fnrtvdDsSwWxupP", e) >= 0:
		return true // their bodies are checked by regexp2
	case e == 'c':
		return len(s) > 1 && (s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z')
	case e == '0':
		return len(s) == 1 || s[1] < '0' || s[1] > '9'
	case e >= '1' && e <= '9':
		return !inClass // a back reference
	case e == 'b':
		return true // word boundary, or backspace in a class
	case e == 'B' || e == 'k':
		return !inClass
	case e == '-':
		return inClass
	}
	return false
}

// isQuantifierBody reports "n", "n," or "n,m" with decimal n and m.
func isQuantifierBody(s string) bool {
	lo, hi, comma := strings.Cut(s, ",")
	digits := func(x string) bool {
		for _, r := range x {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	if lo == "" || !digits(lo) {
		return false
	}
	return !comma || digits(hi)
}

package syntax

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// reservedWords are the ECMAScript reserved words that can never be
// identifiers, even when spelled with Unicode escapes.
var reservedWords = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "false": true, "finally": true, "for": true, "function": true,
	"if": true, "import": true, "in": true, "instanceof": true, "new": true, "null": true,
	"return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
}

// strictReservedWords are reserved in strict mode code only.
var strictReservedWords = map[string]bool{
	"implements": true, "interface": true, "let": true, "package": true, "private": true,
	"protected": true, "public": true, "static": true, "yield": true,
}

// identifierName decodes the Unicode escapes (\uXXXX, \u{X}) of an
// identifier as written in the source.
func identifierName(raw []byte) string {
	s := string(raw)
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 >= len(s) || s[i+1] != 'u' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 2
		var hex string
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				b.WriteString(s[i:])
				break
			}
			hex, i = s[j+1:j+k], j+k+1
		} else {
			if j+4 > len(s) {
				b.WriteString(s[i:])
				break
			}
			hex, i = s[j:j+4], j+4
		}
		r, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || r > utf8.MaxRune {
			b.WriteString(`\u` + hex)
			continue
		}
		b.WriteRune(rune(r))
	}
	return b.String()
}

// isEvalOrArguments reports names that strict code cannot bind or assign.
func isEvalOrArguments(name string) bool {
	return name == "eval" || name == "arguments"
}

// isIDStart reports whether r may start an identifier (ID_Start, $ or _).
func isIDStart(r rune) bool {
	if r == '$' || r == '_' {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// isIDContinue reports whether r may continue an identifier (ID_Continue,
// $, ZWNJ or ZWJ).
func isIDContinue(r rune) bool {
	// U+30FB and U+FF65 joined Other_ID_Continue in Unicode 15.1
	if r == '$' || r == '\u200C' || r == '\u200D' || r == '\u30FB' || r == '\uFF65' || isIDStart(r) {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// validIdentifierName reports whether raw, an identifier as written (with
// escapes), names a valid IdentifierName once its escapes are decoded.
// Plain ASCII names are valid by construction of the lexer.
func validIdentifierName(raw []byte) bool {
	plain := true
	for _, b := range raw {
		if b >= utf8.RuneSelf || b == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return true
	}
	name := identifierName(raw)
	if strings.Contains(name, `\`) {
		return false // an escape that does not decode
	}
	for i, r := range name {
		if i == 0 && !isIDStart(r) || i > 0 && !isIDContinue(r) {
			return false
		}
	}
	return name != ""
}

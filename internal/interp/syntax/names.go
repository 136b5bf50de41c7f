package syntax

import (
	"strconv"
	"strings"
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

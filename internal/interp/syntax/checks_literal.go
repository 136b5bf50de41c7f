package syntax

import (
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/codemode/codemode/internal/interp/jsregexp"

	"github.com/tdewolff/parse/v2/js"
)

func (c *checker) literal(n *js.LiteralExpr) {
	switch n.TokenType {
	case js.SuperToken:
		c.syntaxError(n, "'super' keyword unexpected here")
	case js.ImportToken:
		c.unsupported(n, "import() is not supported: a program is a single script without modules")
	case js.StringToken:
		if c.fn.strict && hasLegacyOctalEscape(string(n.Data)) {
			c.syntaxError(n, "Octal escape sequences are not allowed in strict mode.")
		} else if invalidEscape(string(n.Data), true) {
			c.syntaxError(n, "Invalid hexadecimal or Unicode escape sequence")
		}
	case js.RegExpToken:
		c.regexpLiteral(n)
	case js.DecimalToken, js.IntegerToken, js.BinaryToken, js.OctalToken, js.HexadecimalToken:
		data := string(n.Data)
		if strings.HasSuffix(data, "n") {
			if !validBigIntLiteral(data) {
				c.syntaxError(n, "Invalid or unexpected token")
			}
			return
		}
		if c.fn.strict && len(data) > 1 && data[0] == '0' && data[1] >= '0' && data[1] <= '9' {
			c.syntaxError(n, "Decimals with leading zeros are not allowed in strict mode.")
		}
	}
}

// hasLegacyOctalEscape reports \1-\7, \0 followed by a digit, \8 and \9 in
// a string literal's source text.
func hasLegacyOctalEscape(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		d := s[i+1]
		switch {
		case d >= '1' && d <= '9':
			return true
		case d == '0' && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9':
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

// invalidTemplateEscape reports an escape sequence that is invalid in an
// untagged template (octal, malformed \x or \u).
func invalidTemplateEscape(s string) bool {
	return invalidEscape(s, false)
}

// invalidEscape reports a malformed \x or \u escape, and octal escapes
// unless allowOctal.
func invalidEscape(s string, allowOctal bool) bool {
	isHex := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		d := s[i+1]
		switch {
		case !allowOctal && d >= '1' && d <= '9':
			return true
		case !allowOctal && d == '0' && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9':
			return true
		case d == 'x':
			if i+3 >= len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) {
				return true
			}
		case d == 'u':
			if i+2 < len(s) && s[i+2] == '{' {
				j := i + 3
				v := 0
				for j < len(s) && isHex(s[j]) {
					v = v*16 + hexVal(s[j])
					if v > 0x10FFFF {
						return true
					}
					j++
				}
				if j == i+3 || j >= len(s) || s[j] != '}' {
					return true
				}
			} else if i+5 >= len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
				return true
			}
		}
		i++
	}
	return false
}

func hexVal(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	}
	return int(b-'A') + 10
}

func (c *checker) template(n *js.TemplateExpr) {
	if n.Tag != nil {
		if n.Optional || isOptionalChain(n.Tag) {
			c.syntaxError(n, "Invalid tagged template on optional chain")
			return
		}
		c.expr(n.Tag)
	}
	for i := range n.List {
		if n.Tag == nil && invalidTemplateEscape(string(n.List[i].Value)) {
			c.syntaxError(n, "Invalid escape sequence in template")
			return
		}
		c.expr(n.List[i].Expr)
	}
	if n.Tag == nil && invalidTemplateEscape(string(n.Tail)) {
		c.syntaxError(n, "Invalid escape sequence in template")
	}
}

// newScriptProperty matches a Script or Script_Extensions property escape
// naming a script added in Unicode 16 or 17, which the regexp engine's
// tables (Go's unicode package) do not know yet.
var newScriptProperty = regexp.MustCompile(`\\[pP]\{(Script|sc|Script_Extensions|scx)=(Beria_Erfe|Berf|Garay|Gara|Gurung_Khema|Gukh|Kirat_Rai|Krai|Ol_Onal|Onao|Sidetic|Sidt|Sunuwar|Sunu|Tai_Yo|Tayo|Todhri|Todr|Tolong_Siki|Tols|Tulu_Tigalari|Tutg)\}`)

// regexpLiteral checks a regular expression literal: its flags, and its
// pattern by compiling it with jsregexp, as the RegExp built-in does.
func (c *checker) regexpLiteral(n *js.LiteralExpr) {
	s := string(n.Data)
	end := strings.LastIndexByte(s, '/')
	if end <= 0 {
		return
	}
	flags := s[end+1:]
	seen := map[rune]bool{}
	for _, f := range flags {
		if !strings.ContainsRune("dgimsuyv", f) || seen[f] {
			c.syntaxError(n, "Invalid regular expression flags")
			return
		}
		seen[f] = true
	}
	if seen['u'] && seen['v'] {
		c.syntaxError(n, "Invalid regular expression flags")
		return
	}
	if seen['v'] {
		c.unsupported(n, "the RegExp v flag is not supported: use the u flag (set notation and string properties are not available)")
		return
	}
	if newScriptProperty.MatchString(s[1:end]) {
		return // valid, but only the RegExp engine can say it lacks the script
	}
	fl, err := jsregexp.ParseFlags(flags)
	if err != nil {
		c.syntaxError(n, "Invalid regular expression flags")
		return
	}
	if fl.Unicode {
		if what, bad := unicodeModeError(s[1:end]); bad {
			c.syntaxError(n, "Invalid regular expression: %s with the u flag", what)
			return
		}
	}
	// The pattern is compiled as the RegExp built-in will compile it when the literal is
	// evaluated, so every error it would throw then (modifier groups, duplicate group names,
	// quantifier placement, unknown properties, ...) is an early error here.
	if _, err := jsregexp.Compile(utf16.Encode([]rune(s[1:end])), fl); err != nil {
		c.syntaxError(n, "%s", err.Error())
	}
}

// validBigIntLiteral reports whether the text of a numeric literal ending in n is a BigInt
// literal: an integer without a fraction, exponent or leading zero (0n is fine; 0x, 0o and 0b
// prefixes too).
func validBigIntLiteral(s string) bool {
	s = strings.TrimSuffix(s, "n")
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X', 'o', 'O', 'b', 'B':
			return len(s) > 2
		}
		return false
	}
	return !strings.ContainsAny(s, ".eE")
}

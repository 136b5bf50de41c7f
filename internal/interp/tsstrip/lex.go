package tsstrip

import (
	"io"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// tok is one significant token (no whitespace or comment).
type tok struct {
	tt         js.TokenType
	start, end int  // byte offsets in the source
	nl         bool // a line terminator comes between the previous token and this one
	text       string
}

// lex splits src into significant tokens. A '/' starts a regular expression
// unless the previous token ends an operand (the usual heuristic; the
// parser that runs afterwards has the last word). '>>' and '>>>' are split
// into single '>' tokens, since in a type they close nested type arguments
// (the walker treats each '>' of a shift in an expression as an operator all
// the same). The second result is false when the lexer fails (an
// unterminated string or template), in which case nothing is stripped.
func lex(src []byte) ([]tok, bool) {
	l := js.NewLexer(parse.NewInputBytes(src))
	var toks []tok
	pos := 0
	nl := false
	var heads []bool   // for each open '(', whether it opens a control statement's head
	afterHead := false // the last token is the ')' of such a head
	for {
		start := pos
		tt, b := l.Next()
		if (tt == js.DivToken || tt == js.DivEqToken) && (afterHead || regexpAllowed(toks)) {
			tt, b = l.RegExp()
			if tt == js.ErrorToken {
				return nil, false
			}
		}
		pos = start + len(b)
		switch tt {
		case js.ErrorToken:
			if len(b) == 1 && b[0] == '@' {
				toks = append(toks, tok{tt: tt, start: start, end: pos, nl: nl, text: "@"})
				nl = false
				continue
			}
			if l.Err() == io.EOF {
				return toks, true
			}
			return nil, false
		case js.WhitespaceToken, js.CommentToken:
			continue
		case js.LineTerminatorToken, js.CommentLineTerminatorToken:
			nl = true
			continue
		case js.GtGtToken, js.GtGtGtToken:
			for i := range len(b) {
				toks = append(toks, tok{tt: js.GtToken, start: start + i, end: start + i + 1, nl: nl && i == 0, text: ">"})
			}
			nl = false
			continue
		}
		afterHead = false
		switch tt {
		case js.OpenParenToken:
			heads = append(heads, len(toks) > 0 && isControl(toks[len(toks)-1].text))
		case js.CloseParenToken:
			if n := len(heads); n > 0 {
				afterHead = heads[n-1]
				heads = heads[:n-1]
			}
		}
		toks = append(toks, tok{tt: tt, start: start, end: pos, nl: nl, text: string(b)})
		nl = false
	}
}

// regexpAllowed reports whether a '/' after toks starts a regular expression.
func regexpAllowed(toks []tok) bool {
	n := len(toks)
	if n == 0 {
		return true
	}
	if last := toks[n-1]; last.tt == js.NotToken && !last.nl && n > 1 && endsOperand(toks[n-2]) {
		return false // x! / 2: a non-null assertion ends the operand
	}
	return !endsOperand(toks[n-1])
}

// operatorWords are the reserved and contextual words after which an operand
// starts rather than ends.
var operatorWords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true, "extends": true, "export": true, "default": true,
	"let": true, "const": true, "var": true, "if": true, "while": true, "for": true,
	"with": true, "switch": true, "catch": true, "try": true, "finally": true, "import": true,
	"class": true, "function": true, "as": true, "satisfies": true,
}

// endsOperand reports whether t can be the last token of an operand (an
// identifier, a literal, a closing bracket), so that what follows it is an
// operator. A '}' counts as one only when the walker knows it closed an
// object literal; here it does not.
func endsOperand(t tok) bool {
	switch t.tt {
	case js.CloseParenToken, js.CloseBracketToken, js.StringToken, js.TemplateToken,
		js.TemplateEndToken, js.RegExpToken, js.PrivateIdentifierToken, js.IncrToken, js.DecrToken:
		return true
	}
	if js.IsNumeric(t.tt) {
		return true
	}
	if js.IsIdentifierName(t.tt) {
		return !operatorWords[t.text]
	}
	return false
}

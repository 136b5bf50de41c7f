package syntax

import (
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// tdewolff parses a parenthesised arrow parameter list as an expression
// first and gives up on the arrow when a default value inside it contains
// an array or object literal with non-binding elements, e.g.
// ({ w: [x] = [4] }) => {} or ({ x, } = {x: 23}) => {}. A parenthesised
// default is parsed in its own cover context, so the workaround wraps every
// default value of every arrow parameter list in parentheses and parses
// again. The AST then holds a GroupExpr around those defaults, which means
// the same; positions are mapped back to the original source.

// reparseArrowDefaults rewrites the arrow parameter defaults of source and
// parses it again; it returns nil when there is nothing to rewrite or the
// rewritten source does not parse either.
func reparseArrowDefaults(source string) (fixed *buffer, ast *js.AST) {
	defer func() {
		if recover() != nil {
			fixed, ast = nil, nil // the original parse error stands
		}
	}()
	toks := lexHeuristic(source)
	opens := map[int]int{}
	closes := map[int]int{}
	for i, t := range toks {
		if t.tt != js.ArrowToken || i == 0 || toks[i-1].tt != js.CloseParenToken {
			continue
		}
		start := matchingOpen(toks, i-1)
		if start < 0 {
			continue
		}
		markDefaults(toks, start+1, i-1, opens, closes)
	}
	if len(opens) == 0 {
		return nil, nil
	}
	b := make([]byte, 0, len(source)+2*len(opens)+1)
	var inserted []int
	for off := 0; off <= len(source); off++ {
		for k := 0; k < closes[off]; k++ {
			inserted = append(inserted, len(b))
			b = append(b, ')')
		}
		for k := 0; k < opens[off]; k++ {
			inserted = append(inserted, len(b))
			b = append(b, '(')
		}
		if off < len(source) {
			b = append(b, source[off])
		}
	}
	buf := newBufferBytes(b)
	buf.inserted = inserted
	ast, err := parseJS(buf, js.Options{Inline: true})
	if err != nil {
		return nil, nil
	}
	return buf, ast
}

// matchingOpen returns the index of the '(' matching the ')' at close.
func matchingOpen(toks []token, close int) int {
	depth := 0
	for j := close; j >= 0; j-- {
		switch toks[j].tt {
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			depth++
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth--
			if depth == 0 {
				if toks[j].tt == js.OpenParenToken {
					return j
				}
				return -1
			}
		}
	}
	return -1
}

// markDefaults finds the default values in the parameter tokens [from, to)
// and records where to insert '(' and ')' around each.
func markDefaults(toks []token, from, to int, opens, closes map[int]int) {
	depth := 0
	for j := from; j < to; j++ {
		switch toks[j].tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth++
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			depth--
		case js.EqToken:
			// the default value runs to the next ',' or closer at this depth
			end, d := j+1, 0
			for ; end < to; end++ {
				tt := toks[end].tt
				if d == 0 && (tt == js.CommaToken || tt == js.CloseParenToken || tt == js.CloseBracketToken || tt == js.CloseBraceToken) {
					break
				}
				switch tt {
				case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
					d++
				case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
					d--
				}
			}
			if end == j+1 {
				continue
			}
			opens[toks[j+1].off]++
			last := toks[end-1]
			closes[last.off+int(last.n)]++
			j = end - 1
		}
	}
}

// lexHeuristic splits src into significant tokens without an AST, telling
// a regular expression from a division by the token before the slash.
func lexHeuristic(src string) []token {
	l := js.NewLexer(parse.NewInputString(src))
	var toks []token
	off := 0
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			// end of input or a lexing error: the lexer cannot go on safely
			return toks
		}
		start := off
		if (tt == js.DivToken || tt == js.DivEqToken) && regexpAllowedAfter(toks) {
			tt, data = l.RegExp()
			if tt == js.ErrorToken {
				return toks
			}
		}
		off = start + len(data)
		switch tt {
		case js.WhitespaceToken, js.CommentToken, js.LineTerminatorToken, js.CommentLineTerminatorToken:
			continue
		}
		toks = append(toks, token{tt: tt, off: start, n: int32(len(data))})
	}
}

func regexpAllowedAfter(toks []token) bool {
	if len(toks) == 0 {
		return true
	}
	switch tt := toks[len(toks)-1].tt; {
	case tt == js.CloseParenToken, tt == js.CloseBracketToken, tt == js.CloseBraceToken,
		tt == js.IncrToken, tt == js.DecrToken, tt == js.StringToken, tt == js.RegExpToken,
		tt == js.TemplateToken, tt == js.TemplateEndToken, js.IsNumeric(tt),
		tt == js.ThisToken, tt == js.SuperToken, tt == js.NullToken, tt == js.TrueToken, tt == js.FalseToken:
		return false
	case js.IsIdentifier(tt):
		return false
	}
	return true
}

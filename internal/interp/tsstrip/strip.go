package tsstrip

import (
	"errors"
	"fmt"

	"github.com/tdewolff/parse/v2/js"
)

// Error is TypeScript syntax that has a run-time meaning JavaScript lacks
// (an enum, a namespace with values, a parameter property, a decorator, ...).
// Offset is the byte offset in the source of the keyword or mark at fault.
type Error struct {
	Offset  int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (byte %d)", e.Message, e.Offset) }

// Strip returns src with its TypeScript-only text replaced by spaces (line
// terminators are kept, and a blanked construct that a following line could
// otherwise continue starts with ';'). changed reports whether anything was
// blanked; out is src itself when nothing was. err is an *Error for syntax
// this package refuses. A program the walker cannot make sense of is
// returned unchanged: the parser reports its error.
func Strip(src []byte) (out []byte, changed bool, err error) {
	toks, ok := lex(src)
	if !ok {
		return src, false, nil
	}
	s := &stripper{src: src, toks: toks, match: matchBrackets(toks), prev: -1}
	if e := s.run(); e != nil {
		if e == errGaveUp {
			return src, false, nil
		}
		return nil, false, e
	}
	if len(s.blanks) == 0 {
		return src, false, nil
	}
	out = make([]byte, len(src), len(src)+1)
	copy(out, src)
	for _, b := range s.blanks {
		blankRange(out, b.from, b.to)
		if b.semi {
			out[b.from] = ';'
		}
	}
	return out, true, nil
}

// blankRange overwrites out[from:to] with spaces, keeping line terminators
// (\n, \r, U+2028, U+2029) so that line numbers stay.
func blankRange(out []byte, from, to int) {
	for i := from; i < to; i++ {
		switch c := out[i]; {
		case c == '\n' || c == '\r':
		case c == 0xE2 && i+2 < to && out[i+1] == 0x80 && (out[i+2] == 0xA8 || out[i+2] == 0xA9):
			i += 2
		default:
			out[i] = ' '
		}
	}
}

// blank is a byte range to overwrite; semi puts a ';' at its start.
type blank struct {
	from, to int
	semi     bool
}

type stripper struct {
	src    []byte
	toks   []tok
	match  []int // for an opening bracket or template head, the index of its closing token; else -1
	i      int
	blanks []blank

	prev        int  // index of the last token consumed, or -1
	operand     bool // the last unit consumed ends an operand
	stmtColon   bool // the last token was the ':' of a case or default clause
	pendingCase int  // case clauses whose ':' is still to come
}

// errGaveUp is run's result when the walk panicked.
var errGaveUp = errors.New("tsstrip: walk failed")

// abort unwinds the walk with a refusal (recovered in run).
type abort struct{ err *Error }

func (s *stripper) run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(abort)
			if !ok {
				// a walker bug on odd input: strip nothing, the parser reports the error
				err = errGaveUp
				return
			}
			err = a.err
		}
	}()
	for s.i < len(s.toks) {
		s.step()
	}
	return nil
}

func (s *stripper) refuse(i int, format string, args ...any) {
	panic(abort{&Error{Offset: s.tok(i).start, Message: fmt.Sprintf(format, args...)}})
}

// matchBrackets pairs (), [], {} and template heads with their tails. A
// TemplateMiddle closes the previous part and opens the next one.
func matchBrackets(toks []tok) []int {
	m := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		m[i] = -1
		switch t.tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
			stack = append(stack, i)
		case js.TemplateMiddleToken:
			if n := len(stack); n > 0 {
				m[stack[n-1]] = i
				stack[n-1] = i
			}
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.TemplateEndToken:
			if n := len(stack); n > 0 {
				m[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	return m
}

var eofTok = tok{tt: js.ErrorToken}

func (s *stripper) tok(i int) tok {
	if i < 0 || i >= len(s.toks) {
		return eofTok
	}
	return s.toks[i]
}

func (s *stripper) is(i int, tt js.TokenType) bool { return s.tok(i).tt == tt }

// word reports whether the token at i is the identifier or keyword w.
func (s *stripper) word(i int, w string) bool {
	t := s.tok(i)
	return js.IsIdentifierName(t.tt) && t.text == w
}

// name reports whether the token at i can be a binding or type name.
func (s *stripper) name(i int) bool {
	return js.IsIdentifierName(s.tok(i).tt)
}

// sameLine reports whether the token at i exists and follows the previous
// one on the same line.
func (s *stripper) sameLine(i int) bool {
	return i < len(s.toks) && !s.toks[i].nl
}

// blankToks records the tokens [from, to) for blanking.
func (s *stripper) blankToks(from, to int) {
	to = min(to, len(s.toks))
	if from >= to {
		return
	}
	s.blanks = append(s.blanks, blank{from: s.toks[from].start, to: s.toks[to-1].end})
}

// blankPostfix records the tokens [from, to) of a construct that ends an
// expression (`as T`, `satisfies T`, a non-null `!`), with a ';' when the
// next line could otherwise continue the expression: TypeScript ends the
// statement there, JavaScript would not once the construct is gone.
func (s *stripper) blankPostfix(from, to int) {
	s.blankToks(from, to)
	if n := s.tok(to); n.nl && continuesLine(n) && len(s.blanks) > 0 {
		s.blanks[len(s.blanks)-1].semi = true
	}
}

// blankStmt records the tokens [from, to) of a whole type-only statement or
// member: its first character becomes ';', an empty statement (or class
// element) that ends whatever came before it, as the declaration did.
func (s *stripper) blankStmt(from, to int) {
	to = min(to, len(s.toks))
	if from >= to {
		return
	}
	s.blanks = append(s.blanks, blank{from: s.toks[from].start, to: s.toks[to-1].end, semi: true})
}

// continuesLine reports whether a line starting with t would continue the
// expression on the line before it.
func continuesLine(t tok) bool {
	switch t.tt {
	case js.OpenParenToken, js.OpenBracketToken, js.TemplateToken, js.TemplateStartToken,
		js.AddToken, js.SubToken, js.DivToken, js.DivEqToken, js.RegExpToken:
		return true
	}
	return false
}

// skipSemi returns i+1 when the token at i is ';', else i.
func (s *stripper) skipSemi(i int) int {
	if s.is(i, js.SemicolonToken) {
		return i + 1
	}
	return i
}

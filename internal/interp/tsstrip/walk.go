package tsstrip

import "github.com/tdewolff/parse/v2/js"

// The walker goes through the program one unit at a time (a token, or a
// bracketed group it descends into). It does not parse JavaScript; it only
// knows the places where TypeScript puts types: after the bindings of a
// declaration, a parameter or a class field, after a parameter list, after
// `as` and `satisfies`, between '<' and '>' at the start of an expression or
// before a call's arguments, and in declarations that are types as a whole.
// Everything else passes through.

// step consumes one unit at s.i; it always advances (on input whose
// brackets do not match, a unit may end where it began: the guard moves on).
func (s *stripper) step() {
	i := s.i
	defer func() {
		if s.i <= i {
			s.i = i + 1
		}
	}()
	t := s.tok(i)
	colon := s.stmtColon
	s.stmtColon = false
	switch t.tt {
	case js.ErrorToken:
		if t.text == "@" {
			s.refuse(i, "decorators are not supported")
		}
		s.advance(i + 1)
	case js.OpenParenToken:
		s.paren(i)
	case js.OpenBracketToken:
		s.bracket(i)
	case js.OpenBraceToken:
		if s.isBlock(colon) {
			arrow := s.prev >= 0 && s.toks[s.prev].tt == js.ArrowToken
			s.block(i)
			s.operand = arrow
		} else {
			s.object(i)
		}
	case js.TemplateStartToken:
		s.template(i)
	case js.LtToken:
		s.angle(i)
	case js.NotToken:
		if s.operand && !t.nl {
			// non-null assertion x!
			s.blankPostfix(i, i+1)
			s.i = i + 1
			return
		}
		s.advance(i + 1)
	case js.ColonToken:
		if s.pendingCase > 0 {
			s.pendingCase--
			s.advance(i + 1)
			s.stmtColon = true
			return
		}
		s.advance(i + 1)
	default:
		if js.IsIdentifierName(t.tt) {
			s.wordStep(i)
			return
		}
		s.advance(i + 1)
	}
}

// advance moves past the tokens up to j and records whether the last one
// ends an operand.
func (s *stripper) advance(j int) {
	s.i = j
	s.prev = j - 1
	s.operand = endsOperand(s.tok(j - 1))
}

// isBlock decides whether the '{' at s.i opens a block (or function body)
// rather than an object literal, from what precedes it.
func (s *stripper) isBlock(afterStmtColon bool) bool {
	if s.operand || s.prev < 0 || afterStmtColon {
		return true
	}
	p := s.toks[s.prev]
	switch p.tt {
	case js.SemicolonToken, js.OpenBraceToken, js.CloseBraceToken, js.ArrowToken, js.CloseParenToken:
		return true
	}
	switch p.text {
	case "else", "do", "try", "finally":
		return true
	}
	return false
}

// walkTo steps until s.i reaches end.
func (s *stripper) walkTo(end int) {
	for s.i < end && s.i < len(s.toks) {
		s.step()
	}
}

// closing returns the bracket that matches the one at open; an unmatched bracket ends the
// walk (ok is false).
func (s *stripper) closing(open int) (close int, ok bool) {
	if close = s.match[open]; close < 0 {
		s.i = len(s.toks)
		return 0, false
	}
	return close, true
}

// enter is closing, then moves inside the brackets, at the start of an expression.
func (s *stripper) enter(open int) (close int, ok bool) {
	if close, ok = s.closing(open); ok {
		s.i, s.prev, s.operand = open+1, open, false
	}
	return close, ok
}

// group walks the tokens between the bracket at open and its match, and
// moves past the match; an unmatched bracket ends the walk.
func (s *stripper) group(open int) {
	close, ok := s.enter(open)
	if !ok {
		return
	}
	s.walkTo(close)
	s.i = close + 1
	s.prev = close
}

func (s *stripper) bracket(open int) {
	s.group(open)
	s.operand = true
}

func (s *stripper) block(open int) {
	s.group(open)
	s.operand = false
}

func (s *stripper) template(i int) {
	for {
		m := s.match[i]
		if m < 0 {
			s.i = len(s.toks)
			return
		}
		s.i = i + 1
		s.prev = i
		s.operand = false
		s.walkTo(m)
		if s.toks[m].tt == js.TemplateMiddleToken {
			i = m
			continue
		}
		s.i = m + 1
		s.prev = m
		s.operand = true
		return
	}
}

// paren handles '(': an arrow function's parameters (followed by '=>', or by
// a return type and '=>'), a control statement's head, or a parenthesized
// expression or call arguments.
func (s *stripper) paren(open int) {
	close, ok := s.closing(open)
	if !ok {
		return
	}
	if !s.operand {
		if s.is(close+1, js.ArrowToken) && s.sameLine(close+1) {
			s.params(open)
			return
		}
		if s.is(close+1, js.ColonToken) {
			if k := s.typ(close + 2); k > 0 && s.is(k, js.ArrowToken) && s.sameLine(k) {
				s.params(open)
				s.blankToks(close+1, k)
				s.i, s.prev = k, close
				return
			}
		}
	}
	head := s.prev >= 0 && js.IsIdentifierName(s.toks[s.prev].tt) && isControl(s.toks[s.prev].text)
	s.group(open)
	s.operand = !head
}

func isControl(w string) bool {
	switch w {
	case "if", "while", "for", "switch", "with", "catch":
		return true
	}
	return false
}

// angle handles '<': type parameters or an old-style type assertion at the
// start of an expression, type arguments before a call's arguments, or the
// less-than operator.
func (s *stripper) angle(i int) {
	if !s.operand {
		k := s.typeParams(i)
		if k < 0 {
			k = s.typeArgs(i)
		}
		if k > 0 {
			s.blankToks(i, k)
			s.i = k
			return
		}
	} else if k := s.typeArgs(i); k > 0 && s.canFollowTypeArgs(k) {
		s.blankToks(i, k)
		s.i = k
		return
	}
	s.advance(i + 1)
}

// params walks a parameter list: it blanks a `this` parameter, optional
// marks and type annotations, and refuses parameter properties.
func (s *stripper) params(open int) {
	close, ok := s.enter(open)
	if !ok {
		return
	}
	for s.i < close && s.i < len(s.toks) {
		i := s.i
		t := s.toks[i]
		switch {
		case t.tt == js.ErrorToken && t.text == "@":
			s.refuse(i, "decorators are not supported")
		case t.text == "this" && s.is(i+1, js.ColonToken):
			k := s.typ(i + 2)
			if k < 0 {
				s.advance(i + 1)
				continue
			}
			if s.is(k, js.CommaToken) {
				k++
			}
			s.blankToks(i, k)
			s.i = k
		case isParamModifier(t.text) && s.sameLine(i+1) &&
			(s.name(i+1) || s.is(i+1, js.OpenBraceToken) || s.is(i+1, js.OpenBracketToken)):
			s.refuse(i, "parameter properties (%s in a constructor's parameters) are not supported", t.text)
		case t.tt == js.QuestionToken:
			s.blankToks(i, i+1)
			s.i = i + 1
		case t.tt == js.ColonToken:
			k := s.typ(i + 1)
			if k < 0 {
				s.advance(i + 1)
				continue
			}
			s.blankToks(i, k)
			s.i = k
		case t.tt == js.EqToken:
			s.advance(i + 1)
			for s.i < close && !s.is(s.i, js.CommaToken) {
				s.step()
			}
		case t.tt == js.CommaToken || t.tt == js.EllipsisToken:
			s.advance(i + 1)
		case t.tt == js.OpenBraceToken:
			s.object(i)
		default:
			s.step()
		}
	}
	s.i = close + 1
	s.prev = close
	s.operand = true
}

func isParamModifier(w string) bool {
	switch w {
	case "public", "private", "protected", "readonly", "override":
		return true
	}
	return false
}

// returnType blanks ': T' at s.i, if any.
func (s *stripper) returnType() {
	if !s.is(s.i, js.ColonToken) {
		return
	}
	if k := s.typ(s.i + 1); k > 0 {
		s.blankToks(s.i, k)
		s.i = k
	}
}

// object walks an object literal or an object binding pattern, whose
// methods have parameter lists and return types.
func (s *stripper) object(open int) {
	close, ok := s.enter(open)
	if !ok {
		return
	}
	value := func() {
		for s.i < close && !s.is(s.i, js.CommaToken) {
			s.step()
		}
	}
	for s.i < close && s.i < len(s.toks) {
		i := s.i
		if s.is(i, js.CommaToken) {
			s.advance(i + 1)
			continue
		}
		if s.is(i, js.EllipsisToken) {
			s.advance(i + 1)
			value()
			continue
		}
		for (s.word(i, "async") || s.word(i, "get") || s.word(i, "set")) && s.sameLine(i+1) && s.memberName(i+1) {
			i++
		}
		if s.is(i, js.MulToken) {
			i++
		}
		switch {
		case s.is(i, js.OpenBracketToken):
			s.bracket(i)
		case s.memberName(i):
			s.advance(i + 1)
		default:
			s.step()
			continue
		}
		if s.is(s.i, js.LtToken) {
			if k := s.typeParams(s.i); k > 0 {
				s.blankToks(s.i, k)
				s.i = k
			}
		}
		switch {
		case s.is(s.i, js.OpenParenToken):
			s.method()
		case s.is(s.i, js.ColonToken) || s.is(s.i, js.EqToken):
			s.advance(s.i + 1)
			value()
		}
	}
	s.i = close + 1
	s.prev = close
	s.operand = true
}

// memberName reports whether the token at i can name a property.
func (s *stripper) memberName(i int) bool {
	t := s.tok(i)
	return js.IsIdentifierName(t.tt) || t.tt == js.StringToken || js.IsNumeric(t.tt) ||
		t.tt == js.PrivateIdentifierToken || t.tt == js.OpenBracketToken || t.tt == js.MulToken
}

// method walks a method's parameters at s.i, its return type and its body.
// It reports false when there is no body (an overload or abstract
// signature), leaving s.i after the signature.
func (s *stripper) method() bool {
	s.params(s.i)
	s.returnType()
	if s.is(s.i, js.OpenBraceToken) {
		s.block(s.i)
		s.operand = true
		return true
	}
	return false
}

// canFollowTypeArgs reports whether the token at k, after '<...>' that
// follows an operand, makes the angle brackets type arguments (a call's, a
// tagged template's or an instantiation expression's) rather than two
// comparisons, as TypeScript decides: a '(' or template does; '<', '>', '+'
// and '-' do not; otherwise a token on a new line, a binary operator or a
// token that cannot start an expression does.
func (s *stripper) canFollowTypeArgs(k int) bool {
	t := s.tok(k)
	switch t.tt {
	case js.OpenParenToken, js.TemplateToken, js.TemplateStartToken:
		return true
	case js.LtToken, js.GtToken, js.AddToken, js.SubToken:
		return false
	case js.ErrorToken:
		return t.text != "@"
	}
	if t.nl {
		return true
	}
	if js.IsOperator(t.tt) {
		switch t.tt {
		case js.NotToken, js.BitNotToken, js.IncrToken, js.DecrToken, js.DivToken, js.DivEqToken:
			return false // can start an expression
		}
		return true
	}
	if js.IsPunctuator(t.tt) {
		switch t.tt {
		case js.OpenBraceToken, js.OpenBracketToken, js.EllipsisToken:
			return false
		}
		return true
	}
	if js.IsIdentifierName(t.tt) {
		return t.text == "in" || t.text == "instanceof" || t.text == "as" || t.text == "satisfies"
	}
	return false
}

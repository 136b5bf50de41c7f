package tsstrip

import "github.com/tdewolff/parse/v2/js"

// The type parser finds where a type ends: each function takes the index of
// the token where a construct starts and returns the index just after it, or
// -1 when the tokens there are no such construct. It changes nothing, so the
// walker can also use it to look ahead (is this '(' an arrow function's
// parameter list followed by ': T =>'?). It does not check that a type makes
// sense, only its shape.

// typ parses a type, including function types, type predicates and
// conditional types.
func (s *stripper) typ(i int) int { return s.typeCond(i, true) }

func (s *stripper) typeCond(i int, cond bool) int {
	if s.word(i, "abstract") && s.word(i+1, "new") {
		i++
	}
	if s.word(i, "new") {
		i++
		if s.is(i, js.LtToken) {
			if i = s.typeParams(i); i < 0 {
				return -1
			}
		}
		return s.functionType(i)
	}
	if s.is(i, js.LtToken) {
		if i = s.typeParams(i); i < 0 {
			return -1
		}
		return s.functionType(i)
	}
	if s.is(i, js.OpenParenToken) && s.isFunctionType(i) {
		return s.functionType(i)
	}
	if s.word(i, "asserts") && s.name(i+1) && !s.tok(i+1).nl {
		i += 2
		if s.word(i, "is") && !s.tok(i).nl {
			return s.typ(i + 1)
		}
		return i
	}
	if s.name(i) && s.word(i+1, "is") && !s.tok(i+1).nl {
		return s.typ(i + 2)
	}
	j := s.unionType(i)
	if j < 0 || !cond || !s.word(j, "extends") || s.tok(j).nl {
		return j
	}
	// A extends B ? C : D
	k := s.typeCond(j+1, false)
	if k < 0 || !s.is(k, js.QuestionToken) {
		return j
	}
	if k = s.typ(k + 1); k < 0 || !s.is(k, js.ColonToken) {
		return -1
	}
	return s.typ(k + 1)
}

// isFunctionType reports whether the '(' at i opens the parameters of a
// function type: its matching ')' is followed by '=>'.
func (s *stripper) isFunctionType(i int) bool {
	j := s.match[i]
	return j > 0 && s.is(j+1, js.ArrowToken)
}

func (s *stripper) functionType(i int) int {
	if !s.is(i, js.OpenParenToken) {
		return -1
	}
	j := s.match[i]
	if j < 0 || !s.is(j+1, js.ArrowToken) {
		return -1
	}
	return s.typ(j + 2)
}

func (s *stripper) unionType(i int) int {
	if s.is(i, js.BitOrToken) || s.is(i, js.BitAndToken) {
		i++
	}
	for {
		j := s.operatorType(i)
		if j < 0 {
			return -1
		}
		if !s.is(j, js.BitOrToken) && !s.is(j, js.BitAndToken) {
			return j
		}
		i = j + 1
	}
}

func (s *stripper) operatorType(i int) int {
	switch {
	case (s.word(i, "keyof") || s.word(i, "unique") || s.word(i, "readonly")) && s.startsType(i+1):
		return s.operatorType(i + 1)
	case s.word(i, "infer") && s.name(i+1):
		i += 2
		if s.word(i, "extends") {
			// infer U extends X: only when not the check of a conditional type
			if j := s.typeCond(i+1, false); j >= 0 && !s.is(j, js.QuestionToken) {
				return j
			}
		}
		return i
	}
	j := s.primaryType(i)
	for j >= 0 && s.is(j, js.OpenBracketToken) && !s.tok(j).nl {
		if s.is(j+1, js.CloseBracketToken) {
			j += 2
			continue
		}
		k := s.typ(j + 1)
		if k < 0 || !s.is(k, js.CloseBracketToken) {
			return -1
		}
		j = k + 1
	}
	return j
}

// startsType reports whether a type can start at i (used after the words
// that are types themselves when nothing follows them).
func (s *stripper) startsType(i int) bool {
	t := s.tok(i)
	return js.IsIdentifierName(t.tt) || t.tt == js.OpenParenToken || t.tt == js.OpenBracketToken ||
		t.tt == js.OpenBraceToken || t.tt == js.StringToken
}

func (s *stripper) primaryType(i int) int {
	t := s.tok(i)
	switch {
	case t.tt == js.OpenParenToken:
		j := s.typ(i + 1)
		if j < 0 || !s.is(j, js.CloseParenToken) {
			return -1
		}
		return j + 1
	case t.tt == js.OpenBracketToken || t.tt == js.OpenBraceToken:
		if j := s.match[i]; j > 0 {
			return j + 1
		}
		return -1
	case t.tt == js.TemplateToken || t.tt == js.StringToken || js.IsNumeric(t.tt):
		return i + 1
	case t.tt == js.TemplateStartToken:
		if j := s.match[i]; j > 0 {
			return j + 1
		}
		return -1
	case t.tt == js.SubToken && js.IsNumeric(s.tok(i+1).tt):
		return i + 2
	case t.text == "typeof":
		j := s.entity(i + 1)
		if j < 0 {
			return -1
		}
		return s.typeArgsOpt(j)
	case t.text == "import" && s.is(i+1, js.OpenParenToken):
		j := s.match[i+1]
		if j < 0 {
			return -1
		}
		j++
		for s.is(j, js.DotToken) && s.name(j+1) {
			j += 2
		}
		return s.typeArgsOpt(j)
	case js.IsIdentifierName(t.tt):
		return s.typeArgsOpt(s.entity(i))
	}
	return -1
}

// entity parses a (qualified) name: a.b.c.
func (s *stripper) entity(i int) int {
	if !js.IsIdentifierName(s.tok(i).tt) {
		return -1
	}
	i++
	for s.is(i, js.DotToken) && js.IsIdentifierName(s.tok(i+1).tt) {
		i += 2
	}
	return i
}

// typeArgsOpt parses optional type arguments after a type name.
func (s *stripper) typeArgsOpt(i int) int {
	if i < 0 || !s.is(i, js.LtToken) {
		return i
	}
	return s.typeArgs(i)
}

// typeArgs parses '<' type {',' type} [','] '>'.
func (s *stripper) typeArgs(i int) int {
	if !s.is(i, js.LtToken) {
		return -1
	}
	i++
	for {
		if s.is(i, js.GtToken) {
			return i + 1
		}
		j := s.typ(i)
		if j < 0 {
			return -1
		}
		switch {
		case s.is(j, js.CommaToken):
			i = j + 1
		case s.is(j, js.GtToken):
			return j + 1
		default:
			return -1
		}
	}
}

// typeParams parses '<' [in|out|const] T [extends C] [= D] {, ...} '>'.
func (s *stripper) typeParams(i int) int {
	if !s.is(i, js.LtToken) {
		return -1
	}
	i++
	for {
		if s.is(i, js.GtToken) {
			return i + 1
		}
		for (s.word(i, "in") || s.word(i, "out") || s.word(i, "const")) && s.name(i+1) {
			i++
		}
		if !s.name(i) {
			return -1
		}
		i++
		if s.word(i, "extends") {
			if i = s.typ(i + 1); i < 0 {
				return -1
			}
		}
		if s.is(i, js.EqToken) {
			if i = s.typ(i + 1); i < 0 {
				return -1
			}
		}
		switch {
		case s.is(i, js.CommaToken):
			i++
		case s.is(i, js.GtToken):
			return i + 1
		default:
			return -1
		}
	}
}

package tsstrip

import "github.com/tdewolff/parse/v2/js"

// wordStep handles an identifier or keyword at i.
func (s *stripper) wordStep(i int) {
	t := s.toks[i]
	w := t.text
	next := s.tok(i + 1)
	sameLine := s.sameLine(i + 1)
	switch {
	case (w == "as" || w == "satisfies") && s.operand && !t.nl:
		if k := s.typ(i + 1); k > 0 {
			s.blankPostfix(i, k)
			s.i = k
			return
		}
	case w == "type" && sameLine && s.name(i+1) && !isOperatorWord(next.text) &&
		(s.is(i+2, js.EqToken) || s.is(i+2, js.LtToken)):
		if s.typeAlias(i, i) {
			return
		}
	case w == "interface" && sameLine && s.name(i+1):
		if s.interfaceDecl(i, i) {
			return
		}
	case w == "declare" && sameLine && declarable[next.text]:
		s.declare(i, i)
		return
	case w == "enum" && sameLine && s.name(i+1):
		s.refuse(i, "enum declarations are not supported (an enum is an object built at run time; use an object literal or a union of string literals)")
	case (w == "namespace" || w == "module") && sameLine && (s.name(i+1) || s.is(i+1, js.StringToken)):
		if s.namespace(i, i) {
			return
		}
	case w == "abstract" && sameLine && next.text == "class":
		s.blankToks(i, i+1)
		s.i = i + 1
		return
	case w == "import" && !s.is(i+1, js.OpenParenToken) && !s.is(i+1, js.DotToken):
		s.importDecl(i)
		return
	case w == "export":
		s.exportDecl(i)
		return
	case w == "const" || w == "var" || (w == "let" && sameLine && (s.name(i+1) || s.is(i+1, js.OpenBraceToken) || s.is(i+1, js.OpenBracketToken))):
		if w == "const" && next.text == "enum" {
			s.refuse(i+1, "enum declarations are not supported (an enum is an object built at run time; use an object literal or a union of string literals)")
		}
		s.varDecl(i)
		return
	case w == "function":
		s.function(i, i)
		return
	case w == "async" && sameLine && next.text == "function":
		s.function(i+1, i)
		return
	case w == "async" && sameLine && (next.tt == js.OpenParenToken || next.tt == js.LtToken):
		s.advance(i + 1)
		s.operand = false
		return
	case w == "class":
		s.class(i)
		return
	case w == "catch" && s.is(i+1, js.OpenParenToken):
		s.params(i + 1)
		s.operand = false
		return
	case w == "case":
		s.pendingCase++
	case w == "default" && s.is(i+1, js.ColonToken):
		s.pendingCase++
	}
	s.advance(i + 1)
}

func isOperatorWord(w string) bool {
	return operatorWords[w]
}

// declarable are the words after which `declare` starts an ambient
// declaration.
var declarable = map[string]bool{
	"const": true, "let": true, "var": true, "function": true, "class": true, "abstract": true,
	"namespace": true, "module": true, "global": true, "enum": true, "type": true,
	"interface": true, "async": true,
}

// varDecl walks a let, const or var declaration at i: each binding may have
// a definite assignment mark and a type.
func (s *stripper) varDecl(i int) {
	s.advance(i + 1)
	s.operand = false
	for s.i < len(s.toks) {
		j := s.i
		switch {
		case s.is(j, js.OpenBraceToken):
			s.object(j)
		case s.is(j, js.OpenBracketToken):
			s.bracket(j)
		case s.name(j) && !isOperatorWord(s.toks[j].text):
			s.advance(j + 1)
		default:
			return
		}
		if s.is(s.i, js.NotToken) && s.is(s.i+1, js.ColonToken) {
			s.blankToks(s.i, s.i+1)
			s.i++
		}
		if s.is(s.i, js.ColonToken) {
			k := s.typ(s.i + 1)
			if k < 0 {
				return
			}
			s.blankToks(s.i, k)
			s.i = k
		}
		if s.is(s.i, js.EqToken) {
			s.advance(s.i + 1)
			s.operand = false
			for s.i < len(s.toks) && !s.endOfInit() {
				s.step()
			}
		}
		if !s.is(s.i, js.CommaToken) {
			return
		}
		s.advance(s.i + 1)
		s.operand = false
	}
}

// endOfInit reports whether the token at s.i ends an initializer: a comma,
// a semicolon, a closing bracket, or a word starting a new line after an
// operand (automatic semicolon insertion).
func (s *stripper) endOfInit() bool {
	t := s.toks[s.i]
	switch t.tt {
	case js.CommaToken, js.SemicolonToken, js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken,
		js.TemplateMiddleToken, js.TemplateEndToken:
		return true
	}
	if t.nl && s.operand {
		return js.IsIdentifierName(t.tt) || t.tt == js.StringToken || js.IsNumeric(t.tt) ||
			t.tt == js.PrivateIdentifierToken || (t.tt == js.ErrorToken && t.text == "@")
	}
	return false
}

// function walks a function at i (the word function); start is where the
// declaration starts (an export or async before it). A function without a
// body is an overload signature and is blanked whole.
func (s *stripper) function(i, start int) {
	j := i + 1
	if s.is(j, js.MulToken) {
		j++
	}
	if s.name(j) {
		j++
	}
	if s.is(j, js.LtToken) {
		if k := s.typeParams(j); k > 0 {
			s.blankToks(j, k)
			j = k
		}
	}
	if !s.is(j, js.OpenParenToken) {
		s.advance(i + 1)
		return
	}
	s.i = j
	if !s.method() {
		end := s.skipSemi(s.i)
		s.blankStmt(start, end)
		s.i = end
		s.prev = end - 1
		s.operand = false
	}
}

// class walks a class at i: type parameters, type arguments of the
// superclass and implements clauses are blanked, then the body.
func (s *stripper) class(i int) {
	j := i + 1
	if s.name(j) && !s.word(j, "extends") && !s.word(j, "implements") {
		j++
	}
	if s.is(j, js.LtToken) {
		if k := s.typeParams(j); k > 0 {
			s.blankToks(j, k)
			j = k
		}
	}
	s.i, s.prev = j, j-1
	if s.word(j, "extends") {
		s.advance(j + 1)
		s.operand = false
		for s.i < len(s.toks) && !s.is(s.i, js.OpenBraceToken) && !s.word(s.i, "implements") {
			if s.is(s.i, js.LtToken) {
				if k := s.typeArgs(s.i); k > 0 {
					s.blankToks(s.i, k)
					s.i = k
					continue
				}
			}
			s.step()
		}
	}
	if s.word(s.i, "implements") {
		k := s.typ(s.i + 1)
		for k > 0 && s.is(k, js.CommaToken) {
			k = s.typ(k + 1)
		}
		if k < 0 {
			return
		}
		s.blankToks(s.i, k)
		s.i = k
	}
	if s.is(s.i, js.OpenBraceToken) {
		s.classBody(s.i)
	}
}

func (s *stripper) classBody(open int) {
	close, ok := s.closing(open)
	if !ok {
		return
	}
	s.i = open + 1
	for s.i < close && s.i < len(s.toks) {
		at := s.i
		s.member(close)
		if s.i <= at {
			s.i = at + 1
		}
	}
	s.i = close + 1
	s.prev = close
	s.operand = true
}

// member walks one class element.
func (s *stripper) member(close int) {
	start := s.i
	if s.is(start, js.SemicolonToken) {
		s.i++
		return
	}
	if t := s.tok(start); t.tt == js.ErrorToken && t.text == "@" {
		s.refuse(start, "decorators are not supported")
	}
	if s.word(start, "static") && s.is(start+1, js.OpenBraceToken) {
		s.block(start + 1)
		return
	}
	whole := false
	for js.IsIdentifierName(s.tok(s.i).tt) && classModifiers[s.toks[s.i].text] && s.sameLine(s.i+1) && s.memberName(s.i+1) {
		switch s.toks[s.i].text {
		case "public", "private", "protected", "readonly", "override":
			s.blankToks(s.i, s.i+1)
		case "declare", "abstract":
			whole = true
		}
		s.i++
	}
	// index signature [key: K]: V
	if s.is(s.i, js.OpenBracketToken) && s.name(s.i+1) && s.is(s.i+2, js.ColonToken) {
		k := s.match[s.i] + 1
		if k > 0 && s.is(k, js.ColonToken) {
			k = s.typ(k + 1)
		}
		if k > 0 {
			k = s.skipSemi(k)
			s.blankStmt(start, k)
			s.i = k
			return
		}
	}
	if s.is(s.i, js.MulToken) {
		s.i++
	}
	if s.is(s.i, js.OpenBracketToken) {
		s.bracket(s.i)
	} else {
		s.advance(s.i + 1)
	}
	if s.is(s.i, js.QuestionToken) || (s.is(s.i, js.NotToken) && s.is(s.i+1, js.ColonToken)) {
		s.blankToks(s.i, s.i+1)
		s.i++
	}
	if s.is(s.i, js.LtToken) {
		if k := s.typeParams(s.i); k > 0 {
			s.blankToks(s.i, k)
			s.i = k
		}
	}
	if s.is(s.i, js.OpenParenToken) {
		if !s.method() || whole {
			end := s.skipSemi(s.i)
			s.blankStmt(start, end)
			s.i = end
		}
		return
	}
	if s.is(s.i, js.ColonToken) {
		if k := s.typ(s.i + 1); k > 0 {
			s.blankToks(s.i, k)
			s.i = k
		}
	}
	if s.is(s.i, js.EqToken) {
		s.advance(s.i + 1)
		s.operand = false
		for s.i < close && !s.is(s.i, js.SemicolonToken) && !s.endOfInit() {
			s.step()
		}
	}
	s.i = s.skipSemi(s.i)
	if whole {
		s.blankStmt(start, s.i)
	}
	if s.i == start {
		s.i++
	}
}

var classModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "readonly": true, "override": true,
	"declare": true, "abstract": true, "static": true, "accessor": true, "async": true,
	"get": true, "set": true,
}

package tsstrip

import "github.com/tdewolff/parse/v2/js"

// Declarations that are types as a whole: each is blanked from start (its
// first token, an export included) to its end, a ';' included.

// finish blanks the statement [start, end) and moves past it.
func (s *stripper) finish(start, end int) {
	s.blankStmt(start, end)
	s.i = end
	s.prev = end - 1
	s.operand = false
}

// typeAlias blanks `type Name<T> = Type;` at i. It reports false when the
// tokens are no type alias.
func (s *stripper) typeAlias(i, start int) bool {
	j := i + 2
	if s.is(j, js.LtToken) {
		if j = s.typeParams(j); j < 0 {
			return false
		}
	}
	if !s.is(j, js.EqToken) {
		return false
	}
	k := s.typ(j + 1)
	if k < 0 {
		return false
	}
	s.finish(start, s.skipSemi(k))
	return true
}

// interfaceDecl blanks `interface Name<T> extends A, B { ... }` at i.
func (s *stripper) interfaceDecl(i, start int) bool {
	j := i + 2
	if s.is(j, js.LtToken) {
		if j = s.typeParams(j); j < 0 {
			return false
		}
	}
	if s.word(j, "extends") {
		j = s.typ(j + 1)
		for j > 0 && s.is(j, js.CommaToken) {
			j = s.typ(j + 1)
		}
	}
	if j < 0 || !s.is(j, js.OpenBraceToken) || s.match[j] < 0 {
		return false
	}
	s.finish(start, s.skipSemi(s.match[j]+1))
	return true
}

// declare blanks an ambient declaration at i (the word declare).
func (s *stripper) declare(i, start int) {
	j := i + 1
	switch s.toks[j].text {
	case "type":
		if s.typeAlias(j, start) {
			return
		}
	case "interface":
		if s.interfaceDecl(j, start) {
			return
		}
	case "const", "let", "var":
		k := j + 1
		for {
			switch {
			case s.is(k, js.OpenBraceToken) || s.is(k, js.OpenBracketToken):
				k = s.match[k] + 1
			case s.name(k):
				k++
			}
			if k <= 0 {
				break
			}
			if s.is(k, js.ColonToken) {
				if k = s.typ(k + 1); k < 0 {
					break
				}
			}
			if s.is(k, js.EqToken) {
				// declare const x = literal
				k++
				for k < len(s.toks) && !s.is(k, js.CommaToken) && !s.is(k, js.SemicolonToken) && !s.toks[k].nl {
					k++
				}
			}
			if !s.is(k, js.CommaToken) {
				break
			}
			k++
		}
		if k > 0 {
			s.finish(start, s.skipSemi(k))
			return
		}
	case "function", "async":
		k := j + 1
		if s.word(k, "function") {
			k++
		}
		if s.is(k, js.MulToken) {
			k++
		}
		if s.name(k) {
			k++
		}
		if s.is(k, js.LtToken) {
			k = s.typeParams(k)
		}
		if k > 0 && s.is(k, js.OpenParenToken) && s.match[k] > 0 {
			k = s.match[k] + 1
			if s.is(k, js.ColonToken) {
				k = s.typ(k + 1)
			}
			if k > 0 {
				s.finish(start, s.skipSemi(k))
				return
			}
		}
	default: // class, abstract class, namespace, module, global, enum
		for k := j + 1; k < len(s.toks); k++ {
			t := s.toks[k]
			if t.tt == js.OpenBraceToken && s.match[k] > 0 {
				s.finish(start, s.skipSemi(s.match[k]+1))
				return
			}
			if t.tt == js.SemicolonToken || (t.tt == js.StringToken && s.toks[j].text == "module" && !s.is(k+1, js.OpenBraceToken)) {
				// declare module "x"; (a shorthand ambient module)
				s.finish(start, s.skipSemi(k+1))
				return
			}
			if t.tt == js.OpenParenToken || t.tt == js.OpenBracketToken {
				if s.match[k] < 0 {
					break
				}
				k = s.match[k]
			}
		}
	}
	s.advance(i + 1)
}

// namespace handles `namespace A.B { ... }` or `module "x" { ... }` at i: a
// body holding only types is blanked; one holding values is refused. It
// reports false when the tokens are no namespace.
func (s *stripper) namespace(i, start int) bool {
	j := i + 1
	if s.is(j, js.StringToken) {
		j++
	} else if j = s.entity(j); j < 0 {
		return false
	}
	if !s.is(j, js.OpenBraceToken) || s.match[j] < 0 {
		return false
	}
	close := s.match[j]
	from := len(s.blanks)
	s.i, s.prev, s.operand = j+1, j, false
	s.walkTo(close)
	for k := j + 1; k < close; k++ {
		if !s.blankedSince(from, s.toks[k].start) {
			s.refuse(i, "namespaces and modules holding values are not supported (only types may be declared in them)")
		}
	}
	s.finish(start, s.skipSemi(close+1))
	return true
}

// blankedSince reports whether the byte at off lies in a blank recorded at
// index from or later.
func (s *stripper) blankedSince(from, off int) bool {
	for _, b := range s.blanks[from:] {
		if b.from <= off && off < b.to {
			return true
		}
	}
	return false
}

// moduleEnd returns the index just after an import or export declaration
// whose module specifier (or closing brace when it has none) is at or after
// k: after the string, an optional `with { ... }` and a ';'.
func (s *stripper) moduleEnd(k int) int {
	for k < len(s.toks) && s.toks[k].tt != js.StringToken {
		if s.toks[k].tt == js.SemicolonToken {
			return k
		}
		if m := s.match[k]; m > 0 {
			k = m
		}
		k++
	}
	k++
	if (s.word(k, "with") || s.word(k, "assert")) && s.is(k+1, js.OpenBraceToken) && s.match[k+1] > 0 {
		k = s.match[k+1] + 1
	}
	return s.skipSemi(k)
}

// importDecl handles an import declaration at i. Type-only imports are
// blanked; `import x = ...` is refused; the rest of the declaration is left
// as it is (the front end decides about it) and skipped.
func (s *stripper) importDecl(i int) {
	j := i + 1
	switch {
	case s.word(j, "type") && !s.word(j+1, "from") && !s.is(j+1, js.CommaToken) &&
		(s.name(j+1) || s.is(j+1, js.OpenBraceToken) || s.is(j+1, js.MulToken)):
		if s.name(j+1) && s.is(j+2, js.EqToken) {
			s.finish(i, s.skipSemi(s.statementEnd(j+3)))
			return
		}
		s.finish(i, s.moduleEnd(j+1))
		return
	case s.name(j) && s.is(j+1, js.EqToken):
		s.refuse(i, "import x = ... declarations are not supported")
	}
	end := s.moduleEnd(j)
	if s.name(j) && s.is(j+1, js.CommaToken) {
		j += 2
	}
	if s.is(j, js.OpenBraceToken) && s.match[j] > 0 {
		typed, all := s.typeSpecifiers(j)
		if typed > 0 && typed == all && j == i+1 {
			s.finish(i, end)
			return
		}
	}
	s.i, s.prev, s.operand = end, end-1, false
}

// typeSpecifiers blanks the `type X [as Y]` specifiers in the braces at
// open, with their commas; it returns how many it blanked and how many
// specifiers there are.
func (s *stripper) typeSpecifiers(open int) (typed, all int) {
	close := s.match[open]
	k := open + 1
	for k < close {
		e := k
		for e < close && !s.is(e, js.CommaToken) {
			e++
		}
		if e > k {
			all++
			if s.word(k, "type") && s.name(k+1) && e > k+1 {
				typed++
				end := e
				if s.is(end, js.CommaToken) {
					end++
				}
				s.blankToks(k, end)
			}
		}
		k = e + 1
	}
	return typed, all
}

// statementEnd returns the index of the ';' or of the first token on a new
// line after k.
func (s *stripper) statementEnd(k int) int {
	for k < len(s.toks) && !s.is(k, js.SemicolonToken) && !s.toks[k].nl {
		if m := s.match[k]; m > 0 {
			k = m
		}
		k++
	}
	return k
}

// exportDecl handles an export declaration at i: type-only exports are
// blanked, exported enums and namespaces with values and `export =` are
// refused, and an exported declaration is walked like any other.
func (s *stripper) exportDecl(i int) {
	j := i + 1
	w := s.tok(j).text
	switch {
	case w == "type" && s.is(j+1, js.OpenBraceToken) && s.match[j+1] > 0:
		end := s.skipSemi(s.match[j+1] + 1)
		if s.word(s.match[j+1]+1, "from") {
			end = s.moduleEnd(s.match[j+1] + 1)
		}
		s.finish(i, end)
		return
	case w == "type" && s.is(j+1, js.MulToken):
		s.finish(i, s.moduleEnd(j+1))
		return
	case w == "type" && s.name(j+1):
		if s.typeAlias(j, i) {
			return
		}
	case w == "interface" && s.name(j+1):
		if s.interfaceDecl(j, i) {
			return
		}
	case w == "declare" && declarable[s.tok(j+1).text]:
		s.declare(j, i)
		return
	case w == "enum" || (w == "const" && s.word(j+1, "enum")):
		if w == "const" {
			j++
		}
		s.refuse(j, "enum declarations are not supported (an enum is an object built at run time; use an object literal or a union of string literals)")
	case w == "namespace" || w == "module":
		if s.namespace(j, i) {
			return
		}
	case s.is(j, js.EqToken):
		s.refuse(i, "export = declarations are not supported")
	case w == "function":
		s.function(j, i)
		return
	case w == "async" && s.word(j+1, "function"):
		s.function(j+1, i)
		return
	case w == "default" && s.word(j+1, "function"):
		s.function(j+1, i)
		return
	case s.is(j, js.OpenBraceToken) && s.match[j] > 0:
		end := s.skipSemi(s.match[j] + 1)
		if s.word(s.match[j]+1, "from") {
			end = s.moduleEnd(s.match[j] + 1)
		}
		typed, all := s.typeSpecifiers(j)
		if typed > 0 && typed == all {
			s.finish(i, end)
			return
		}
		s.i, s.prev, s.operand = end, end-1, false
		return
	}
	s.advance(i + 1)
	s.operand = false
}

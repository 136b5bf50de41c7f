package syntax

import (
	"github.com/tdewolff/parse/v2/js"
)

// scopeKind tells how var declarations and function declarations behave in
// a scope.
type scopeKind int

const (
	scopeFunction scopeKind = iota // function body (or the program): var declarations stop here
	scopeBlock                     // block, switch case block, for head
	scopeCatch                     // catch clause: the parameter and the block's declarations
)

// declKind distinguishes the lexical declarations of a scope.
type declKind int

const (
	declLexical  declKind = iota // let, const, class
	declFunction                 // function declaration in a block
)

// scope records the names declared in one scope, for the redeclaration
// early errors.
type scope struct {
	parent      *scope
	kind        scopeKind
	lexical     map[string]declKind
	vars        map[string]bool // var names declared here or in nested blocks
	params      map[string]bool // parameters (function) or the catch parameter
	simpleCatch bool            // the catch parameter is a plain identifier
}

// newScope returns an empty scope; its maps are made on first write.
func newScope(parent *scope, kind scopeKind) *scope {
	return &scope{parent: parent, kind: kind}
}

func (s *scope) addParam(name string) {
	if s.params == nil {
		s.params = map[string]bool{}
	}
	s.params[name] = true
}

func (c *checker) pushScope(kind scopeKind) {
	c.scope = newScope(c.scope, kind)
}

func (c *checker) popScope() {
	c.scope = c.scope.parent
}

// declareLexical declares a let/const/class name (or a function declared in
// a block) in the current scope.
func (c *checker) declareLexical(node js.INode, v *js.Var, kind declKind) {
	name := identifierName(v.Data)
	s := c.scope
	if prev, ok := s.lexical[name]; ok {
		// sloppy mode tolerates duplicate plain function declarations in blocks
		if !(prev == declFunction && kind == declFunction && !c.fn.strict && s.kind != scopeFunction) {
			c.nameError(node, v, "Identifier '%s' has already been declared", name)
			return
		}
	}
	if s.vars[name] || s.params[name] {
		c.nameError(node, v, "Identifier '%s' has already been declared", name)
		return
	}
	if s.lexical == nil {
		s.lexical = map[string]declKind{}
	}
	s.lexical[name] = kind
}

// declareVar declares a var name (or a function declared at the top of a
// function body): it is hoisted through the enclosing blocks, none of which
// may declare the name lexically.
func (c *checker) declareVar(node js.INode, v *js.Var) {
	name := identifierName(v.Data)
	for s := c.scope; s != nil; s = s.parent {
		if _, ok := s.lexical[name]; ok {
			if !(s.kind == scopeFunction && s == c.scope && s.lexical[name] == declFunction) {
				c.nameError(node, v, "Identifier '%s' has already been declared", name)
				return
			}
		}
		if s.kind == scopeCatch && s.params[name] && !s.simpleCatch {
			c.nameError(node, v, "Identifier '%s' has already been declared", name)
			return
		}
		if s.vars == nil {
			s.vars = map[string]bool{}
		}
		s.vars[name] = true
		if s.kind == scopeFunction {
			return
		}
	}
}

// boundVars returns the variables a list of binding elements declares.
func boundVars(list []js.BindingElement) []*js.Var {
	var vars []*js.Var
	var walk func(b js.IBinding)
	walk = func(b js.IBinding) {
		switch n := b.(type) {
		case *js.Var:
			vars = append(vars, n)
		case *js.BindingArray:
			for i := range n.List {
				walk(n.List[i].Binding)
			}
			walk(n.Rest)
		case *js.BindingObject:
			for i := range n.List {
				walk(n.List[i].Value.Binding)
			}
			if n.Rest != nil {
				walk(n.Rest)
			}
		}
	}
	for i := range list {
		walk(list[i].Binding)
	}
	return vars
}

package syntax

import (
	"github.com/tdewolff/parse/v2/js"
)

func (c *checker) expr(e js.IExpr) {
	if c.err != nil || isNilNode(e) {
		return
	}
	c.push(e)
	defer c.pop()
	switch n := e.(type) {
	case *js.Var:
		c.identRef(e, n)
	case *js.LiteralExpr:
		c.literal(n)
	case *js.GroupExpr:
		c.expr(n.X)
	case *js.ArrayExpr:
		for i := range n.List {
			c.expr(n.List[i].Value)
		}
	case *js.ObjectExpr:
		c.objectLiteral(n)
	case *js.TemplateExpr:
		c.template(n)
	case *js.DotExpr:
		if n.Optional && c.isBareNew(n.X) {
			c.syntaxError(n, "Invalid optional chain from new expression")
			return
		}
		if lit, ok := n.Y.(js.LiteralExpr); ok && !validIdentifierName(lit.Data) {
			c.syntaxError(n, "Invalid or unexpected token: '%s' is not a valid property name", lit.Data)
			return
		}
		if v, ok := n.Y.(*js.Var); ok {
			if lit, ok := n.X.(*js.LiteralExpr); ok && lit.TokenType == js.SuperToken {
				c.syntaxError(n, "Unexpected private field")
				return
			}
			c.privateName(n, v)
		}
		c.memberObject(n.X)
	case *js.IndexExpr:
		if n.Optional && c.isBareNew(n.X) {
			c.syntaxError(n, "Invalid optional chain from new expression")
			return
		}
		c.memberObject(n.X)
		c.expr(n.Y)
	case *js.CallExpr:
		if n.Optional && c.isBareNew(n.X) {
			c.syntaxError(n, "Invalid optional chain from new expression")
			return
		}
		c.call(n)
	case *js.NewExpr:
		// new Function(...) compiles: the constructor throws EvalError when it is reached,
		// so code that only names it (a fallback that never runs) still works.
		if isOptionalChain(n.X) {
			c.syntaxError(n, "Invalid optional chain from new expression")
			return
		}
		c.expr(n.X)
		if n.Args != nil {
			c.args(n.Args)
		}
	case *js.NewTargetExpr:
		if !c.fn.newTarget {
			c.syntaxError(n, "new.target expression is not allowed here")
		}
	case *js.ImportMetaExpr:
		c.unsupported(n, "import.meta is not supported: a program is a single script without modules")
	case *js.UnaryExpr:
		c.unary(n)
	case *js.BinaryExpr:
		c.binary(n)
	case *js.CondExpr:
		c.expr(n.Cond)
		c.expr(n.X)
		c.expr(n.Y)
	case *js.YieldExpr:
		if c.fn.inParams {
			c.syntaxError(n, "Yield expression not allowed in formal parameter")
			return
		}
		c.expr(n.X)
	case *js.CommaExpr:
		for _, x := range n.List {
			c.expr(x)
		}
	case *js.ArrowFunc:
		c.function(n, arrowKind, nil, &n.Params, &n.Body, n.Async, false)
	case *js.FuncDecl:
		c.function(n, funcExprKind, n.Name, &n.Params, &n.Body, n.Async, n.Generator)
	case *js.ClassDecl:
		c.class(n)
	case *js.VarDecl:
		c.varDecl(n)
	}
}

// isBareNew reports "new C" without arguments, which cannot start an
// optional chain (tdewolff reads "new a?.b()" as "(new a)?.b()").
func (c *checker) isBareNew(x js.IExpr) bool {
	n, ok := x.(*js.NewExpr)
	return ok && c.pos.bareNew[n]
}

// memberObject walks the object of a member access, where super is allowed
// in methods.
func (c *checker) memberObject(x js.IExpr) {
	if lit, ok := x.(*js.LiteralExpr); ok && lit.TokenType == js.SuperToken {
		if !c.fn.superProp {
			c.syntaxError(lit, "'super' keyword unexpected here")
		}
		return
	}
	c.expr(x)
}

func (c *checker) call(n *js.CallExpr) {
	switch x := n.X.(type) {
	case *js.LiteralExpr:
		switch x.TokenType {
		case js.SuperToken:
			if !c.fn.superCall {
				c.syntaxError(n, "'super' keyword unexpected here")
				return
			}
			c.args(&n.Args)
			return
		case js.ImportToken:
			// import(specifier) takes a global by its module name, as require does.
			c.args(&n.Args)
			return
		}
	case *js.Var:
		if x.Decl == js.NoDecl {
			switch identifierName(x.Data) {
			case "eval":
				// A direct eval would need the caller's scope, which no run-time error can
				// stand in for. Function(...) compiles and throws EvalError when called.
				c.unsupported(n, "eval is not supported: programs cannot evaluate code at run time")
				return
			}
		}
	}
	c.expr(n.X)
	c.args(&n.Args)
}

func (c *checker) args(a *js.Args) {
	for i := range a.List {
		c.expr(a.List[i].Value)
	}
}

// isOptionalChain reports whether e is a member or call chain containing ?.
// (parentheses end a chain).
func isOptionalChain(e js.IExpr) bool {
	for {
		switch n := e.(type) {
		case *js.DotExpr:
			if n.Optional {
				return true
			}
			e = n.X
		case *js.IndexExpr:
			if n.Optional {
				return true
			}
			e = n.X
		case *js.CallExpr:
			if n.Optional {
				return true
			}
			e = n.X
		case *js.TemplateExpr:
			if n.Optional {
				return true
			}
			if n.Tag == nil {
				return false
			}
			e = n.Tag
		default:
			return false
		}
	}
}

func stripGroups(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

func (c *checker) unary(n *js.UnaryExpr) {
	switch n.Op {
	case js.DeleteToken:
		switch x := stripGroups(n.X).(type) {
		case *js.Var:
			if c.fn.strict {
				c.syntaxError(n, "Delete of an unqualified identifier in strict mode.")
				return
			}
		case *js.DotExpr:
			if _, ok := x.Y.(*js.Var); ok {
				c.syntaxError(n, "Private fields can not be deleted")
				return
			}
		}
	case js.AwaitToken:
		if !c.fn.async || c.fn.staticBlk {
			c.syntaxError(n, "await is only valid in async functions and the top level bodies of modules")
			return
		}
		if c.fn.inParams {
			c.syntaxError(n, "Illegal await-expression in formal parameters of async function")
			return
		}
	case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
		if !c.simpleTarget(n.X) {
			c.syntaxError(n, "Invalid left-hand side expression in %s operation", map[bool]string{true: "prefix", false: "postfix"}[n.Op == js.PreIncrToken || n.Op == js.PreDecrToken])
			return
		}
	}
	c.expr(n.X)
}

func isAssignOp(op js.TokenType) bool {
	switch op {
	case js.EqToken, js.MulEqToken, js.DivEqToken, js.ModEqToken, js.ExpEqToken, js.AddEqToken,
		js.SubEqToken, js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken,
		js.BitXorEqToken, js.BitOrEqToken, js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		return true
	}
	return false
}

func (c *checker) binary(n *js.BinaryExpr) {
	if isAssignOp(n.Op) {
		if n.Op == js.EqToken {
			c.assignTarget(n.X, true)
		} else if !c.simpleTarget(n.X) {
			c.syntaxError(n, "Invalid left-hand side in assignment")
			return
		}
		c.expr(n.Y)
		return
	}
	if n.Op == js.NullishToken || n.Op == js.AndToken || n.Op == js.OrToken {
		for _, side := range []js.IExpr{n.X, n.Y} {
			if b, ok := side.(*js.BinaryExpr); ok && b.Op != n.Op &&
				(b.Op == js.NullishToken || n.Op == js.NullishToken) &&
				(b.Op == js.NullishToken || b.Op == js.AndToken || b.Op == js.OrToken) {
				c.syntaxError(n, "Unexpected token: ?? cannot be mixed with || or && without parentheses")
				return
			}
		}
	}
	if v, ok := n.X.(*js.Var); ok && n.Op == js.InToken && len(v.Data) > 0 && v.Data[0] == '#' {
		c.privateName(n, v)
	} else {
		c.expr(n.X)
	}
	c.expr(n.Y)
}

// simpleTarget checks an operand of ++, -- or a compound assignment: an
// identifier or a property access outside optional chains.
func (c *checker) simpleTarget(e js.IExpr) bool {
	switch x := stripGroups(e).(type) {
	case *js.Var:
		return c.bindingTargetName(e, x)
	case *js.DotExpr, *js.IndexExpr:
		return !isOptionalChain(x)
	}
	return false
}

// bindingTargetName checks an identifier being assigned to; it returns
// true because an identifier is a valid target (an error, if any, is
// recorded).
func (c *checker) bindingTargetName(node js.INode, v *js.Var) bool {
	if c.fn.strict && isEvalOrArguments(identifierName(v.Data)) {
		c.nameError(node, v, "Unexpected eval or arguments in strict mode")
	}
	return true
}

// assignTarget checks the left side of '=' (and for-in/of heads), which may
// be a destructuring pattern when pattern is true.
func (c *checker) assignTarget(e js.IExpr, pattern bool) {
	if e == nil || c.err != nil {
		return
	}
	c.push(e)
	defer c.pop()
	if g, ok := e.(*js.GroupExpr); ok {
		inner := stripGroups(g)
		switch inner.(type) {
		case *js.Var, *js.DotExpr, *js.IndexExpr:
			c.assignTarget(inner, false)
		default:
			c.syntaxError(e, "Invalid left-hand side in assignment")
		}
		return
	}
	switch n := e.(type) {
	case *js.Var:
		c.bindingTargetName(c.parent(), n)
		c.identRef(e, n)
	case *js.DotExpr, *js.IndexExpr:
		if isOptionalChain(n) {
			c.syntaxError(e, "Invalid left-hand side in assignment")
			return
		}
		c.expr(n)
	case *js.ArrayExpr:
		if !pattern {
			c.syntaxError(e, "Invalid destructuring assignment target")
			return
		}
		if c.pos.restComma[n] {
			c.syntaxError(e, "A rest element may not have a trailing comma")
			return
		}
		for i := range n.List {
			el := &n.List[i]
			if el.Value == nil {
				continue
			}
			if el.Spread {
				if i != len(n.List)-1 {
					c.syntaxError(e, "Rest element must be last element")
					return
				}
				if b, ok := el.Value.(*js.BinaryExpr); ok && b.Op == js.EqToken {
					c.syntaxError(e, "Rest element may not have a default initializer")
					return
				}
			}
			c.patternElement(el.Value)
		}
	case *js.ObjectExpr:
		if !pattern {
			c.syntaxError(e, "Invalid destructuring assignment target")
			return
		}
		if c.pos.restComma[n] {
			c.syntaxError(e, "A rest element may not have a trailing comma")
			return
		}
		for i := range n.List {
			p := &n.List[i]
			switch {
			case p.Spread:
				if i != len(n.List)-1 {
					c.syntaxError(e, "Rest element must be last element")
					return
				}
				switch stripGroups(p.Value).(type) {
				case *js.Var, *js.DotExpr, *js.IndexExpr:
					if _, grouped := p.Value.(*js.GroupExpr); grouped {
						c.syntaxError(e, "Invalid rest element in destructuring assignment")
						return
					}
					c.assignTarget(p.Value, false)
				default:
					c.syntaxError(e, "`...` must be followed by an assignable reference in assignment contexts")
					return
				}
			case p.Name == nil:
				c.syntaxError(e, "Invalid destructuring assignment target")
				return
			default:
				if p.Name.Computed != nil {
					c.expr(p.Name.Computed)
				}
				if v, ok := p.Value.(*js.Var); ok && !p.Name.IsComputed() && !c.hasColonAfterName(p) {
					c.checkBindingName(e, v, false)
					c.expr(p.Init)
					continue
				}
				if _, ok := p.Value.(*js.MethodDecl); ok {
					c.syntaxError(e, "Invalid destructuring assignment target")
					return
				}
				c.patternElement(p.Value)
			}
		}
	default:
		c.syntaxError(e, "Invalid left-hand side in assignment")
	}
}

// hasColonAfterName reports whether an object literal property was written
// "name: value" rather than as the shorthand "name".
func (c *checker) hasColonAfterName(p *js.Property) bool {
	return !c.pos.shorthand[p]
}

// patternElement checks one element of a destructuring assignment pattern,
// with an optional default value.
func (c *checker) patternElement(e js.IExpr) {
	if b, ok := e.(*js.BinaryExpr); ok && b.Op == js.EqToken {
		c.assignTarget(b.X, true)
		c.expr(b.Y)
		return
	}
	c.assignTarget(e, true)
}

func (c *checker) objectLiteral(n *js.ObjectExpr) {
	protos := 0
	for i := range n.List {
		p := &n.List[i]
		if p.Init != nil {
			c.syntaxError(n, "Invalid shorthand property initializer")
			return
		}
		if p.Name != nil {
			if p.Name.Computed != nil {
				c.expr(p.Name.Computed)
			} else if string(p.Name.Literal.Data) == "__proto__" || identifierName(p.Name.Literal.Data) == "__proto__" && p.Name.Literal.TokenType == js.IdentifierToken {
				if _, isVar := p.Value.(*js.Var); !isVar || c.hasColonAfterName(p) {
					protos++
				}
			}
		}
		if m, ok := p.Value.(*js.MethodDecl); ok {
			c.method(m, false, false)
			continue
		}
		if v, ok := p.Value.(*js.Var); ok && p.Name != nil && !p.Name.IsComputed() && !c.hasColonAfterName(p) {
			c.identRef(n, v)
			continue
		}
		c.expr(p.Value)
	}
	if protos > 1 {
		c.syntaxError(n, "Duplicate __proto__ fields are not allowed in object literals")
	}
}

// identRef checks an identifier reference.
func (c *checker) identRef(node js.INode, v *js.Var) {
	if len(v.Data) > 0 && v.Data[0] == '#' {
		c.privateName(node, v)
		return
	}
	parent := c.parent()
	c.checkIdentifier(parent, v, v.Data)
	if c.fn.noArgs && identifierName(v.Data) == "arguments" {
		c.nameError(parent, v, "'arguments' is not allowed in class field initializer or static initialization block")
	}
}

// checkIdentifier checks a name used as an identifier (reference, label or
// binding) by node; v is the variable when there is one (for the position).
func (c *checker) checkIdentifier(node js.INode, v *js.Var, raw []byte) {
	name := identifierName(raw)
	switch {
	case !validIdentifierName(raw):
		c.nameError(node, v, "Invalid or unexpected token: '%s' is not a valid identifier", raw)
	case reservedWords[name]:
		c.nameError(node, v, "Keyword must not contain escaped characters")
	case c.fn.strict && strictReservedWords[name]:
		c.nameError(node, v, "Unexpected strict mode reserved word '%s'", name)
	case name == "await" && (c.fn.async || c.fn.staticBlk):
		c.nameError(node, v, "Unexpected reserved word 'await'")
	case name == "yield" && c.fn.generator:
		c.nameError(node, v, "Unexpected identifier 'yield' in generator")
	}
}

// checkBindingName checks a name being declared.
func (c *checker) checkBindingName(node js.INode, v *js.Var, lexical bool) {
	c.checkIdentifier(node, v, v.Data)
	name := identifierName(v.Data)
	if c.fn.strict && isEvalOrArguments(name) {
		c.nameError(node, v, "Unexpected eval or arguments in strict mode")
	}
	if lexical && name == "let" {
		c.nameError(node, v, "let is disallowed as a lexically bound name")
	}
}

// bindingPattern checks a declaration's binding target and its defaults.
func (c *checker) bindingPattern(b js.IBinding, lexical bool) {
	switch n := b.(type) {
	case *js.Var:
		c.checkBindingName(c.at(), n, lexical)
	case *js.BindingArray:
		for i := range n.List {
			c.bindingPattern(n.List[i].Binding, lexical)
			c.expr(n.List[i].Default)
		}
		c.bindingPattern(n.Rest, lexical)
	case *js.BindingObject:
		for i := range n.List {
			if k := n.List[i].Key; k != nil && k.Computed != nil {
				c.expr(k.Computed)
			}
			c.bindingPattern(n.List[i].Value.Binding, lexical)
			c.expr(n.List[i].Value.Default)
		}
		if n.Rest != nil {
			c.checkBindingName(c.at(), n.Rest, lexical)
		}
	}
}

// privateName checks that #name is declared by an enclosing class.
func (c *checker) privateName(node js.INode, v *js.Var) {
	if !validIdentifierName(v.Data[1:]) {
		c.syntaxError(node, "Invalid or unexpected token: '%s' is not a valid private name", v.Data)
		return
	}
	name := privateNameString(v)
	for i := len(c.private) - 1; i >= 0; i-- {
		if c.private[i][name] {
			return
		}
	}
	c.syntaxError(node, "Private field '%s' must be declared in an enclosing class", name)
}

// privateNameString returns a private name ("#x") with escapes decoded.
func privateNameString(v *js.Var) string {
	return "#" + identifierName(v.Data[1:])
}

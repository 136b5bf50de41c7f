package syntax

import (
	"github.com/tdewolff/parse/v2/js"
)

// funcKind tells what a function is, which decides what its body may contain.
type funcKind int

const (
	funcDeclKind funcKind = iota
	funcExprKind
	arrowKind
	methodKind             // object literal or class method
	getterKind             // get accessor
	setterKind             // set accessor
	constructorKind        // class constructor
	derivedConstructorKind // constructor of a class with extends
)

func isSimpleParams(p *js.Params) bool {
	if p.Rest != nil {
		return false
	}
	for i := range p.List {
		if p.List[i].Default != nil || !isVar(p.List[i].Binding) {
			return false
		}
	}
	return true
}

// function checks a function, arrow or method: its name, parameters and
// body, in a new function context.
func (c *checker) function(node js.INode, kind funcKind, name *js.Var, params *js.Params, body *js.BlockStmt, async, generator bool) {
	if c.err != nil {
		return
	}
	c.push(node)
	defer c.pop()
	outer := c.fn
	useStrict := hasUseStrict(body.List) // a concise arrow body is a ReturnStmt, never a directive
	strict := outer.strict || useStrict
	simple := isSimpleParams(params)
	if useStrict && !simple {
		c.syntaxError(node, "Illegal 'use strict' directive in function with non-simple parameter list")
		return
	}

	if name != nil && (kind == funcExprKind || kind == funcDeclKind) {
		// the name follows the function's own strictness; a function
		// expression's name is bound inside it, so its await/yield rules too
		nameCtx := *outer
		nameCtx.strict = strict
		if kind == funcExprKind {
			nameCtx.async, nameCtx.generator, nameCtx.staticBlk = async, generator, false
		}
		c.fn = &nameCtx
		c.checkBindingName(node, name, false)
		c.fn = outer
	}

	switch kind {
	case getterKind:
		if len(params.List) != 0 || params.Rest != nil {
			c.syntaxError(node, "Getter must not have any formal parameters.")
			return
		}
	case setterKind:
		if len(params.List) != 1 || params.Rest != nil {
			c.syntaxError(node, "Setter must have exactly one formal parameter.")
			return
		}
	}

	fn := &funcCtx{
		strict:     strict,
		async:      async,
		generator:  generator,
		inFunction: true,
	}
	if kind == arrowKind {
		fn.newTarget, fn.superProp, fn.superCall, fn.noArgs = outer.newTarget, outer.superProp, outer.superCall, outer.noArgs
	} else {
		fn.newTarget = true
		fn.superProp = kind >= methodKind
		fn.superCall = kind == derivedConstructorKind
	}
	c.fn = fn
	defer func() { c.fn = outer }()
	prevScope := c.scope
	c.scope = newScope(c.scope, scopeFunction)
	defer func() { c.scope = prevScope }()

	// parameters
	fn.inParams = true
	if kind == arrowKind && outer.async {
		// an arrow's parameters are parsed in the enclosing context
		fn.async = fn.async || outer.async
	}
	seen := map[string]bool{}
	strictParams := strict || !simple || kind == arrowKind || kind >= methodKind
	all := params.List
	if params.Rest != nil {
		all = append(append([]js.BindingElement(nil), params.List...), js.BindingElement{Binding: params.Rest})
	}
	for i := range all {
		c.bindingPattern(all[i].Binding, false)
		c.expr(all[i].Default)
		for _, v := range boundVars(all[i : i+1]) {
			n := identifierName(v.Data)
			if seen[n] && strictParams {
				c.nameError(node, v, "Duplicate parameter name not allowed in this context")
				return
			}
			seen[n] = true
			c.scope.addParam(n)
		}
	}
	fn.inParams = false
	fn.async = async

	c.hoistDecls(body.List, true)
	c.stmtList(body.List)
}

// method checks an object literal or class method.
func (c *checker) method(m *js.MethodDecl, inClass, derived bool) {
	kind := methodKind
	switch {
	case m.Get:
		kind = getterKind
	case m.Set:
		kind = setterKind
	case inClass && !m.Static && isNamed(&m.Name, "constructor"):
		kind = constructorKind
		if derived {
			kind = derivedConstructorKind
		}
	}
	if m.Name.Private == nil && m.Name.IsComputed() {
		c.expr(m.Name.Computed)
	}
	c.function(m, kind, nil, &m.Params, &m.Body, m.Async, m.Generator)
}

// isNamed reports a non-computed class element name equal to name.
func isNamed(n *js.ClassElementName, name string) bool {
	if n.Private != nil || n.IsComputed() {
		return false
	}
	lit := n.Literal
	data := string(lit.Data)
	if lit.TokenType == js.StringToken && len(data) >= 2 {
		data = data[1 : len(data)-1]
	}
	return data == name
}

// class checks a class declaration or expression. Class code is strict.
func (c *checker) class(n *js.ClassDecl) {
	if c.err != nil {
		return
	}
	c.push(n)
	defer c.pop()
	prevStrict := c.fn.strict
	c.fn.strict = true
	defer func() { c.fn.strict = prevStrict }()
	if n.Name != nil {
		c.checkBindingName(n, n.Name, true)
	}
	c.expr(n.Extends)

	// private names and constructor rules
	private := map[string]bool{}
	accessors := map[string]string{} // name -> "get"/"set"/"" with static flag
	constructors := 0
	for i := range n.List {
		el := &n.List[i]
		var name *js.ClassElementName
		static, kind := false, "field"
		switch {
		case el.StaticBlock != nil:
			continue
		case el.Method != nil:
			m := el.Method
			name, static, kind = &m.Name, m.Static, "method"
			if m.Get {
				kind = "get"
			} else if m.Set {
				kind = "set"
			}
			if !m.Static && isNamed(name, "constructor") {
				if m.Get || m.Set || m.Generator || m.Async {
					c.syntaxError(n, "Class constructor may not be an accessor, generator or async method")
					return
				}
				constructors++
				if constructors > 1 {
					c.syntaxError(n, "A class may only have one constructor")
					return
				}
			}
			if m.Static && isNamed(name, "prototype") {
				c.syntaxError(n, "Classes may not have a static property named 'prototype'")
				return
			}
		default:
			name, static = &el.Field.Name, el.Field.Static
			if isNamed(name, "constructor") {
				c.syntaxError(n, "Classes may not have a field named 'constructor'")
				return
			}
			if static && isNamed(name, "prototype") {
				c.syntaxError(n, "Classes may not have a static property named 'prototype'")
				return
			}
		}
		if name.Private == nil {
			if !name.IsComputed() && name.Literal.TokenType == js.IdentifierToken && !validIdentifierName(name.Literal.Data) {
				c.syntaxError(n, "Invalid or unexpected token: '%s' is not a valid property name", name.Literal.Data)
				return
			}
			continue
		}
		if !validIdentifierName(name.Private.Data[1:]) {
			c.syntaxError(n, "Invalid or unexpected token: '%s' is not a valid private name", name.Private.Data)
			return
		}
		pn := privateNameString(name.Private)
		if pn == "#constructor" {
			c.syntaxError(n, "Classes may not have a private field named '#constructor'")
			return
		}
		tag := kind
		if static {
			tag = "static " + kind
		}
		if prev, ok := accessors[pn]; ok {
			okPair := (prev == "get" && tag == "set" || prev == "set" && tag == "get" ||
				prev == "static get" && tag == "static set" || prev == "static set" && tag == "static get")
			if !okPair {
				c.syntaxError(n, "Identifier '%s' has already been declared", pn)
				return
			}
			accessors[pn] = "pair"
		} else {
			accessors[pn] = tag
		}
		private[pn] = true
	}

	c.private = append(c.private, private)
	defer func() { c.private = c.private[:len(c.private)-1] }()
	derived := n.Extends != nil
	for i := range n.List {
		el := &n.List[i]
		switch {
		case el.StaticBlock != nil:
			c.staticBlock(el.StaticBlock)
		case el.Method != nil:
			c.method(el.Method, true, derived)
		default:
			if el.Field.Name.Private == nil && el.Field.Name.IsComputed() {
				c.expr(el.Field.Name.Computed)
			}
			if el.Field.Init != nil {
				c.fieldInit(el.Field.Init)
			}
		}
	}
}

// fieldInit checks a class field initializer: a method-like context where
// arguments and super() are not allowed.
func (c *checker) fieldInit(e js.IExpr) {
	outer := c.fn
	c.fn = &funcCtx{strict: true, newTarget: true, superProp: true, noArgs: true}
	c.expr(e)
	c.fn = outer
}

func (c *checker) staticBlock(b *js.BlockStmt) {
	outer := c.fn
	c.fn = &funcCtx{strict: true, newTarget: true, superProp: true, noArgs: true, staticBlk: true}
	prevScope := c.scope
	c.scope = newScope(c.scope, scopeFunction)
	c.hoistDecls(b.List, true)
	c.stmtList(b.List)
	c.scope = prevScope
	c.fn = outer
}

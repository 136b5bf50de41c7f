package syntax

import (
	"fmt"

	"github.com/tdewolff/parse/v2/js"
)

// The checker walks the AST once after parsing and reports the first early
// error (ECMAScript's static semantics that tdewolff does not enforce) or
// the first use of syntax outside the supported language.

// funcCtx is what the code at a point of the walk may contain; arrow
// functions inherit most of it from their enclosing function.
type funcCtx struct {
	strict     bool
	async      bool // await is a keyword and await expressions are allowed
	generator  bool // yield expressions are allowed
	inFunction bool // return is allowed
	newTarget  bool // new.target is allowed
	superProp  bool // super.x and super[x] are allowed
	superCall  bool // super() is allowed (derived class constructors)
	noArgs     bool // arguments is forbidden (class field initializers, static blocks)
	staticBlk  bool // await is reserved (class static blocks)
	inParams   bool // walking formal parameters: no yield/await expressions
	labels     []label
	breakable  int // enclosing loops and switches
	loops      int // enclosing loops
}

type label struct {
	name string
	loop bool
}

// checker holds the state of one check walk.
type checker struct {
	mode  Mode
	pos   positions
	lines *lineTable
	err   *Error
	stack []js.INode // enclosing nodes, innermost last

	fn      *funcCtx
	scope   *scope
	private []map[string]bool // private names of the enclosing class bodies
}

// check runs the early-error and supported-language checks over a program.
func check(ast *js.AST, mode Mode, strict bool, pos positions, lines *lineTable) error {
	c := &checker{mode: mode, pos: pos, lines: lines}
	c.fn = &funcCtx{
		strict:     strict,
		async:      mode == ModeAsyncBody,
		inFunction: mode == ModeAsyncBody,
	}
	c.scope = newScope(nil, scopeFunction)
	c.hoistDecls(ast.List, true)
	c.stmtList(ast.List)
	if c.err != nil {
		return c.err
	}
	return nil
}

// fail records the first error, located at node (or the innermost enclosing
// node with a known position).
func (c *checker) fail(node js.INode, kind, format string, args ...any) {
	c.failAt(node, nil, kind, format, args...)
}

// failAt records the first error, located at identifier v as node uses or
// declares it when that is known, else at node.
func (c *checker) failAt(node js.INode, v *js.Var, kind, format string, args ...any) {
	if c.err != nil {
		return
	}
	off, ok := -1, false
	if v != nil && isPointer(node) {
		off, ok = c.pos.ident[identKey{node, v}]
	}
	if !ok && isPointer(node) {
		off, ok = c.pos.start[node]
	}
	for i := len(c.stack) - 1; i >= 0 && !ok; i-- {
		if isPointer(c.stack[i]) {
			off, ok = c.pos.start[c.stack[i]]
		}
	}
	e := &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
	if ok {
		p := c.lines.position(off)
		e.Line, e.Column = p.Line, p.Column
	}
	c.err = e
}

func (c *checker) syntaxError(node js.INode, format string, args ...any) {
	c.fail(node, KindParseError, format, args...)
}

// nameError reports a ParseError at identifier v of node.
func (c *checker) nameError(node js.INode, v *js.Var, format string, args ...any) {
	c.failAt(node, v, KindParseError, format, args...)
}

// parent returns the node enclosing the innermost one.
func (c *checker) parent() js.INode {
	if len(c.stack) < 2 {
		return nil
	}
	return c.stack[len(c.stack)-2]
}

func (c *checker) unsupported(node js.INode, format string, args ...any) {
	c.fail(node, KindUnsupportedSyntax, format, args...)
}

// push makes node the innermost enclosing node, the location of errors
// found below it that have no node of their own; pop undoes it.
func (c *checker) push(node js.INode) {
	c.stack = append(c.stack, node)
}

func (c *checker) pop() {
	c.stack = c.stack[:len(c.stack)-1]
}

// at returns the innermost enclosing node.
func (c *checker) at() js.INode {
	if len(c.stack) == 0 {
		return nil
	}
	return c.stack[len(c.stack)-1]
}

func (c *checker) stmtList(list []js.IStmt) {
	for _, s := range list {
		if c.err != nil {
			return
		}
		c.stmt(s)
	}
}

// hoistDecls declares the functions, classes and lexical declarations of a
// statement list in the current scope before its statements are walked.
func (c *checker) hoistDecls(list []js.IStmt, functionTop bool) {
	for _, s := range list {
		switch n := s.(type) {
		case *js.FuncDecl:
			if n.Name != nil {
				if functionTop {
					c.declareVar(n, n.Name)
				} else {
					c.declareLexical(n, n.Name, declFunction)
				}
			}
		case *js.ClassDecl:
			if n.Name != nil {
				c.declareLexical(n, n.Name, declLexical)
			}
		case *js.VarDecl:
			if n.TokenType != js.VarToken {
				for _, v := range boundVars(n.List) {
					c.declareLexical(n, v, declLexical)
				}
			}
		case *js.ImportStmt:
			for _, name := range ImportBindings(n) {
				c.declareLexical(n, &js.Var{Data: []byte(name.Local)}, declLexical)
			}
		}
	}
}

// block walks a statement list that forms its own block scope.
func (c *checker) block(node js.INode, list []js.IStmt) {
	c.push(node)
	defer c.pop()
	c.pushScope(scopeBlock)
	defer c.popScope()
	c.hoistDecls(list, false)
	c.stmtList(list)
}

func (c *checker) stmt(s js.IStmt) {
	if s == nil || c.err != nil {
		return
	}
	c.push(s)
	defer c.pop()
	switch n := s.(type) {
	case *js.BlockStmt:
		c.block(n, n.List)
	case *js.EmptyStmt, *js.Comment, *js.DirectivePrologueStmt:
	case *js.DebuggerStmt:
		// debugger is accepted and does nothing
	case *js.ExprStmt:
		c.expr(n.Value)
	case *js.VarDecl:
		c.varDecl(n)
	case *js.IfStmt:
		c.expr(n.Cond)
		c.subStmt(n.Body)
		c.subStmt(n.Else)
	case *js.DoWhileStmt:
		c.loopBody(n.Body)
		c.expr(n.Cond)
	case *js.WhileStmt:
		c.expr(n.Cond)
		c.loopBody(n.Body)
	case *js.ForStmt:
		c.forStmt(n)
	case *js.ForInStmt:
		c.forInOf(n, n.Init, n.Value, n.Body, false, false)
	case *js.ForOfStmt:
		if n.Await && !c.fn.async {
			c.syntaxError(n, "for await is only valid in async functions")
		}
		c.forInOf(n, n.Init, n.Value, n.Body, true, n.Await)
	case *js.SwitchStmt:
		defaults := 0
		for i := range n.List {
			if n.List[i].TokenType == js.DefaultToken {
				defaults++
			}
		}
		if defaults > 1 {
			c.syntaxError(n, "More than one default clause in switch statement")
			return
		}
		c.expr(n.Init)
		c.pushScope(scopeBlock)
		for i := range n.List {
			c.hoistDecls(n.List[i].List, false)
		}
		c.fn.breakable++
		for i := range n.List {
			c.expr(n.List[i].Cond)
			c.stmtList(n.List[i].List)
		}
		c.fn.breakable--
		c.popScope()
	case *js.BranchStmt:
		c.branch(n)
	case *js.ReturnStmt:
		if !c.fn.inFunction {
			c.syntaxError(n, "Illegal return statement")
		}
		c.expr(n.Value)
	case *js.WithStmt:
		c.unsupported(n, "with is not supported: it makes scopes dynamic (and is forbidden in strict mode)")
	case *js.LabelledStmt:
		c.labelled(n)
	case *js.ThrowStmt:
		c.expr(n.Value)
	case *js.TryStmt:
		c.block(n.Body, n.Body.List)
		if n.Catch != nil {
			c.catchClause(n)
		}
		if n.Finally != nil {
			c.block(n.Finally, n.Finally.List)
		}
	case *js.FuncDecl:
		c.function(n, funcDeclKind, n.Name, &n.Params, &n.Body, n.Async, n.Generator)
	case *js.ClassDecl:
		c.class(n)
	case *js.ImportStmt:
		// Only the program's top level holds import declarations (imports.go puts them there).
	case *js.ExportStmt:
		c.unsupported(n, "export declarations are not supported: a program is a single script without modules")
	}
}

// subStmt walks the body of if/else, where declarations are not allowed.
func (c *checker) subStmt(s js.IStmt) {
	switch n := s.(type) {
	case *js.FuncDecl, *js.ClassDecl:
		c.syntaxError(s, "declarations are not allowed as the body of a statement")
		return
	case *js.VarDecl:
		if n.TokenType != js.VarToken {
			c.syntaxError(s, "lexical declarations are not allowed as the body of a statement")
			return
		}
	case *js.LabelledStmt:
		if isLabelledFunction(n) {
			c.syntaxError(s, "labelled function declarations are not allowed as the body of a statement")
			return
		}
	}
	c.stmt(s)
}

func isLabelledFunction(n *js.LabelledStmt) bool {
	for {
		switch v := n.Value.(type) {
		case *js.LabelledStmt:
			n = v
		case *js.FuncDecl:
			return true
		default:
			return false
		}
	}
}

func (c *checker) loopBody(s js.IStmt) {
	c.fn.breakable++
	c.fn.loops++
	c.subStmt(s)
	c.fn.loops--
	c.fn.breakable--
}

func (c *checker) branch(n *js.BranchStmt) {
	isContinue := n.Type == js.ContinueToken
	if n.Label == nil {
		switch {
		case isContinue && c.fn.loops == 0:
			c.syntaxError(n, "Illegal continue statement: no surrounding iteration statement")
		case !isContinue && c.fn.breakable == 0:
			c.syntaxError(n, "Illegal break statement")
		}
		return
	}
	name := identifierName(n.Label)
	for i := len(c.fn.labels) - 1; i >= 0; i-- {
		l := c.fn.labels[i]
		if l.name == name {
			if isContinue && !l.loop {
				c.syntaxError(n, "Illegal continue statement: '%s' does not denote an iteration statement", name)
			}
			return
		}
	}
	c.syntaxError(n, "Undefined label '%s'", name)
}

func (c *checker) labelled(n *js.LabelledStmt) {
	name := identifierName(n.Label)
	c.checkIdentifier(n, nil, n.Label)
	for _, l := range c.fn.labels {
		if l.name == name {
			c.syntaxError(n, "Label '%s' has already been declared", name)
			return
		}
	}
	inner := n.Value
	for {
		l, ok := inner.(*js.LabelledStmt)
		if !ok {
			break
		}
		inner = l.Value
	}
	isLoop := false
	switch inner.(type) {
	case *js.ForStmt, *js.ForInStmt, *js.ForOfStmt, *js.WhileStmt, *js.DoWhileStmt:
		isLoop = true
	}
	switch v := n.Value.(type) {
	case *js.FuncDecl:
		if c.fn.strict || v.Async || v.Generator {
			c.syntaxError(n, "In strict mode code, functions can only be declared at top level or inside a block")
			return
		}
	case *js.ClassDecl:
		c.syntaxError(n, "class declarations cannot be labelled")
		return
	case *js.VarDecl:
		if v.TokenType != js.VarToken {
			c.syntaxError(n, "lexical declarations cannot be labelled")
			return
		}
	}
	c.fn.labels = append(c.fn.labels, label{name: name, loop: isLoop})
	if fd, ok := n.Value.(*js.FuncDecl); ok {
		// a labelled function (sloppy mode only) is scoped like a declaration
		c.hoistDecls([]js.IStmt{fd}, c.scope.kind == scopeFunction)
	}
	c.stmt(n.Value)
	c.fn.labels = c.fn.labels[:len(c.fn.labels)-1]
}

func (c *checker) varDecl(n *js.VarDecl) {
	c.push(n)
	defer c.pop()
	for i := range n.List {
		el := &n.List[i]
		c.bindingPattern(el.Binding, n.TokenType != js.VarToken)
		if n.TokenType == js.VarToken {
			for _, v := range boundVars(n.List[i : i+1]) {
				c.declareVar(n, v)
			}
		}
		c.expr(el.Default)
	}
}

func (c *checker) forStmt(n *js.ForStmt) {
	c.pushScope(scopeBlock)
	defer c.popScope()
	if vd, ok := n.Init.(*js.VarDecl); ok {
		if vd.TokenType != js.VarToken {
			c.hoistDecls([]js.IStmt{vd}, false)
		}
		c.varDecl(vd)
	} else {
		c.expr(n.Init)
	}
	c.expr(n.Cond)
	c.expr(n.Post)
	c.loopBlock(n.Body)
}

// loopBlock walks a loop body that tdewolff stores as a block sharing the
// loop head's scope.
func (c *checker) loopBlock(b *js.BlockStmt) {
	c.fn.breakable++
	c.fn.loops++
	if len(b.List) == 1 && !c.braced(b) {
		c.subStmt(b.List[0])
	} else {
		c.block(b, b.List)
	}
	c.fn.loops--
	c.fn.breakable--
}

func (c *checker) forInOf(node js.IStmt, init, value js.IExpr, body *js.BlockStmt, of, await bool) {
	c.pushScope(scopeBlock)
	defer c.popScope()
	if vd, ok := init.(*js.VarDecl); ok {
		if len(vd.List) != 1 {
			c.syntaxError(node, "Invalid left-hand side in for-in/of loop: must have a single binding")
		} else if vd.List[0].Default != nil && (c.fn.strict || of || vd.TokenType != js.VarToken || !isVar(vd.List[0].Binding)) {
			c.syntaxError(node, "for-in/of loop variable declaration may not have an initializer")
		}
		if vd.TokenType != js.VarToken {
			c.hoistDecls([]js.IStmt{vd}, false)
		}
		c.varDecl(vd)
	} else {
		if of && !await {
			if v, ok := init.(*js.Var); ok && string(v.Data) == "async" {
				c.syntaxError(node, "The left-hand side of a for-of loop may not be 'async'")
			}
		}
		c.assignTarget(init, true)
	}
	c.expr(value)
	c.loopBlock(body)
}

// braced reports whether a loop body that tdewolff stores as a block was
// written with braces.
func (c *checker) braced(b *js.BlockStmt) bool {
	off, ok := c.pos.start[b]
	if !ok || off >= len(c.lines.src) || c.lines.src[off] != '{' {
		return false
	}
	if len(b.List) == 0 {
		return true
	}
	first, ok := c.pos.start[b.List[0]]
	return !ok || first != off
}

func isVar(b js.IBinding) bool {
	_, ok := b.(*js.Var)
	return ok
}

func (c *checker) catchClause(n *js.TryStmt) {
	c.pushScope(scopeCatch)
	defer c.popScope()
	if n.Binding != nil {
		c.bindingPattern(n.Binding, false)
		seen := map[string]bool{}
		for _, v := range boundVars([]js.BindingElement{{Binding: n.Binding}}) {
			name := identifierName(v.Data)
			if seen[name] {
				c.nameError(n, v, "Identifier '%s' has already been declared", name)
			}
			seen[name] = true
			c.scope.addParam(name)
		}
		c.scope.simpleCatch = isVar(n.Binding)
	}
	c.push(n.Catch)
	defer c.pop()
	c.hoistDecls(n.Catch.List, false)
	c.stmtList(n.Catch.List)
}

package compiler

import (
	"github.com/codemode/codemode/internal/interp/syntax"
	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Scope analysis.
//
// The compiler resolves names itself (by name, following the ECMAScript
// rules) rather than through the parser's Var linkage, because it must also
// model what the parser does not: `arguments`, `this`/`new.target` seen from
// arrow functions, per-iteration `let` copies, class private names.
//
// Analysis runs once over the whole program before code generation. It builds
// a tree of scopes (keyed by the AST node that opens them, so that code
// generation finds the same scope again), declares every binding, resolves
// every reference and marks bindings used from an inner function as captured.
// After analysis, captured bindings get a slot in their scope's environment
// record (heap data, shared by closures); the others get a frame register.
//
// The internal names "this", "new.target", "arguments", "%callee" are bindings
// declared lazily in the nearest non-arrow function, which makes lexical this
// for arrows, derived-constructor TDZ for this, and super from arrows plain
// variable accesses.

type bindKind uint8

const (
	bindVar        bindKind = iota // var and function-level function declarations
	bindLet                        // let
	bindConst                      // const
	bindClass                      // class declaration (let-like)
	bindFunc                       // function declaration in a block (let-like, initialised at block entry)
	bindParam                      // formal parameter
	bindCatch                      // catch parameter
	bindFuncName                   // a function expression's own name (immutable)
	bindInternal                   // this, new.target, arguments, %callee
	bindPrivate                    // a class private name (#x)
	bindClassInner                 // the class's own name inside its body (immutable)
	bindTemp                       // hidden compiler binding (computed field keys)
)

func (k bindKind) lexical() bool {
	return k == bindLet || k == bindConst || k == bindClass || k == bindClassInner
}

type binding struct {
	name     string
	kind     bindKind
	scope    *scope
	captured bool
	reg      int  // register, when not captured
	slot     int  // environment slot, when captured
	param    int  // parameter index for bindParam with a simple name (-1 otherwise)
	paramTDZ bool // a parameter of a non-simple list: uninitialised until its turn
	// inited is code generation state: a lexical binding in a register whose declaration the
	// code generated so far has run on every path to the next instruction (see declared).
	inited bool
}

// tdz reports whether reads must check for the uninitialised marker. this is uninitialised
// only in a derived constructor until super() returns; every other function binds it in its
// prologue.
func (b *binding) tdz() bool {
	return b.kind.lexical() || (b.kind == bindInternal && b.name == "this" && b.scope.fn.kind == bytecode.FuncDerivedCtor) || b.paramTDZ
}

type scope struct {
	parent   *scope
	fn       *funcInfo
	isFunc   bool
	isSwitch bool // the scope of a switch's case clauses
	names    map[string]*binding
	list     []*binding
	envSize  int
}

func (s *scope) needsEnv() bool { return s.envSize > 0 }

// funcInfo is the analysis record of one function.
type funcInfo struct {
	node     any
	parent   *funcInfo
	kind     bytecode.FuncKind
	arrow    bool
	scope    *scope   // the function's top scope (parameters, var, top-level lexical)
	body     *scope   // with parameter expressions: the body's separate var scope
	scopes   []*scope // every scope of the function, in creation order
	numRegs  int
	index    int
	simple   bool // parameters are plain names without defaults or rest
	params   int  // number of formal parameters (excluding rest)
	hasField bool // class constructor whose class has instance fields
	derived  bool
}

// analyzer walks the program and builds scopes.
type analyzer struct {
	c      *compiler
	fn     *funcInfo
	cur    *scope
	scopes map[any]*scope
	funcs  map[any]*funcInfo
	order  []*funcInfo
}

func (a *analyzer) pushScope(key any, isFunc bool) *scope {
	s := &scope{parent: a.cur, fn: a.fn, isFunc: isFunc, names: map[string]*binding{}}
	a.fn.scopes = append(a.fn.scopes, s)
	if key != nil {
		a.scopes[key] = s
	}
	a.cur = s
	return s
}

func (a *analyzer) popScope() { a.cur = a.cur.parent }

func (a *analyzer) declare(s *scope, name string, kind bindKind) *binding {
	if b, ok := s.names[name]; ok {
		// var redeclarations and var/function merges share one binding.
		if kind == bindFunc || kind == bindVar && b.kind == bindFunc {
			b.kind = bindFunc
		}
		if b.kind == bindFuncName && kind != bindFuncName {
			b.kind = kind
		}
		return b
	}
	b := &binding{name: name, kind: kind, scope: s, param: -1}
	s.names[name] = b
	s.list = append(s.list, b)
	return b
}

// resolve finds the binding of name visible from the current scope, marking it
// captured when it belongs to another function. Internal names are declared
// lazily in the nearest function that owns them. nil means a global.
func (a *analyzer) resolve(name string) *binding {
	for s := a.cur; s != nil; s = s.parent {
		if b, ok := s.names[name]; ok {
			if b.scope.fn != a.fn {
				b.captured = true
			}
			return b
		}
		if s.isFunc && a.ownsInternal(s.fn, name) {
			b := a.declare(s, name, bindInternal)
			if s.fn != a.fn {
				b.captured = true
			}
			return b
		}
	}
	return nil
}

func (a *analyzer) ownsInternal(f *funcInfo, name string) bool {
	switch name {
	case "this", "new.target", "%callee":
		return !f.arrow
	case "arguments":
		return !f.arrow && f.kind != bytecode.FuncProgram && f.kind != bytecode.FuncFieldInit
	}
	return false
}

// analyzeFunction analyses a function node: parameters, body, nested functions.
func (a *analyzer) analyzeFunction(node any, kind bytecode.FuncKind, arrow bool, name *js.Var, params *js.Params, body *js.BlockStmt, exprName bool) *funcInfo {
	f := &funcInfo{node: node, parent: a.fn, kind: kind, arrow: arrow, index: len(a.order)}
	a.order = append(a.order, f)
	a.funcs[node] = f
	saveFn, saveCur := a.fn, a.cur
	a.fn = f
	f.scope = a.pushScope(node, true)
	if exprName && name != nil {
		a.declare(f.scope, varName(name), bindFuncName)
	}
	f.simple = params == nil || params.Rest == nil
	if params != nil {
		for i, p := range params.List {
			if p.Default != nil {
				f.simple = false
			}
			if v, ok := p.Binding.(*js.Var); ok {
				b := a.declare(f.scope, varName(v), bindParam)
				if p.Default == nil && f.simple {
					b.param = i
				}
			} else {
				f.simple = false
				for _, n := range boundNames(p.Binding, nil) {
					a.declare(f.scope, n, bindParam)
				}
			}
		}
		f.params = len(params.List)
		if params.Rest != nil {
			for _, n := range boundNames(params.Rest, nil) {
				a.declare(f.scope, n, bindParam)
			}
		}
	}
	// With non-simple parameters, only the leading simple ones keep their register.
	if !f.simple && params != nil {
		for i, p := range params.List {
			if p.Default != nil || !isVar(p.Binding) {
				for _, q := range params.List[i:] {
					if v, ok := q.Binding.(*js.Var); ok {
						f.scope.names[varName(v)].param = -1
					}
				}
				break
			}
		}
	}
	if !f.simple {
		for _, b := range f.scope.list {
			if b.kind == bindParam && b.param < 0 {
				b.paramTDZ = true
			}
		}
	}
	if f.simple {
		// var declarations and function declarations of the body are function-scoped.
		for _, n := range varNames(body.List, nil) {
			a.declare(f.scope, n, bindVar)
		}
		a.hoistLexical(f.scope, body.List, true)
	}
	if params != nil {
		for _, p := range params.List {
			a.bindingExprs(p.Binding)
			if p.Default != nil {
				a.expr(p.Default)
			}
		}
		if params.Rest != nil {
			a.bindingExprs(params.Rest)
		}
	}
	if !f.simple {
		// With parameter expressions the body gets its own var environment, so
		// closures in defaults do not see the body's declarations.
		bs := a.pushScope(body, false)
		for _, n := range varNames(body.List, nil) {
			a.declare(bs, n, bindVar)
		}
		a.hoistLexical(bs, body.List, true)
		f.body = bs
	}
	a.stmts(body.List)
	a.fn, a.cur = saveFn, saveCur
	return f
}

func isVar(b js.IBinding) bool { _, ok := b.(*js.Var); return ok }

// hoistLexical declares the let/const/class/function declarations of a statement list.
func (a *analyzer) hoistLexical(s *scope, list []js.IStmt, funcTop bool) {
	for _, st := range list {
		switch n := st.(type) {
		case *js.VarDecl:
			if n.TokenType == js.LetToken || n.TokenType == js.ConstToken {
				kind := bindLet
				if n.TokenType == js.ConstToken {
					kind = bindConst
				}
				for _, e := range n.List {
					for _, name := range boundNames(e.Binding, nil) {
						a.declare(s, name, kind)
					}
				}
			}
		case *js.ClassDecl:
			if n.Name != nil {
				a.declare(s, varName(n.Name), bindClass)
			}
		case *js.ImportStmt:
			for _, b := range syntax.ImportBindings(n) {
				a.declare(s, b.Local, bindConst)
			}
		case *js.FuncDecl:
			if n.Name != nil {
				if funcTop {
					a.declare(s, varName(n.Name), bindVar).kind = bindFunc
				} else {
					a.declare(s, varName(n.Name), bindFunc)
				}
			}
		}
	}
}

// varNames collects the var-declared names of a statement list (not entering functions).
func varNames(list []js.IStmt, out []string) []string {
	for _, st := range list {
		out = varNamesStmt(st, out)
	}
	return out
}

func varNamesStmt(st js.IStmt, out []string) []string {
	switch n := st.(type) {
	case *js.VarDecl:
		if n.TokenType == js.VarToken {
			for _, e := range n.List {
				out = boundNames(e.Binding, out)
			}
		}
	case *js.BlockStmt:
		out = varNames(n.List, out)
	case *js.IfStmt:
		out = varNamesStmt(n.Body, out)
		if n.Else != nil {
			out = varNamesStmt(n.Else, out)
		}
	case *js.DoWhileStmt:
		out = varNamesStmt(n.Body, out)
	case *js.WhileStmt:
		out = varNamesStmt(n.Body, out)
	case *js.ForStmt:
		if d, ok := n.Init.(*js.VarDecl); ok {
			out = varNamesStmt(d, out)
		}
		out = varNames(n.Body.List, out)
	case *js.ForInStmt:
		if d, ok := n.Init.(*js.VarDecl); ok {
			out = varNamesStmt(d, out)
		}
		out = varNames(n.Body.List, out)
	case *js.ForOfStmt:
		if d, ok := n.Init.(*js.VarDecl); ok {
			out = varNamesStmt(d, out)
		}
		out = varNames(n.Body.List, out)
	case *js.SwitchStmt:
		for _, c := range n.List {
			out = varNames(c.List, out)
		}
	case *js.LabelledStmt:
		out = varNamesStmt(n.Value, out)
	case *js.TryStmt:
		out = varNames(n.Body.List, out)
		if n.Catch != nil {
			out = varNames(n.Catch.List, out)
		}
		if n.Finally != nil {
			out = varNames(n.Finally.List, out)
		}
	}
	return out
}

// boundNames appends the names bound by a binding pattern.
func boundNames(b js.IBinding, out []string) []string {
	switch n := b.(type) {
	case *js.Var:
		out = append(out, varName(n))
	case *js.BindingArray:
		for _, e := range n.List {
			if e.Binding != nil {
				out = boundNames(e.Binding, out)
			}
		}
		if n.Rest != nil {
			out = boundNames(n.Rest, out)
		}
	case *js.BindingObject:
		for _, it := range n.List {
			out = boundNames(it.Value.Binding, out)
		}
		if n.Rest != nil {
			out = append(out, varName(n.Rest))
		}
	}
	return out
}

// bindingExprs analyses the expressions inside a binding pattern (defaults, computed keys).
func (a *analyzer) bindingExprs(b js.IBinding) {
	switch n := b.(type) {
	case *js.Var:
		a.resolve(varName(n))
	case *js.BindingArray:
		for _, e := range n.List {
			if e.Binding != nil {
				a.bindingExprs(e.Binding)
			}
			if e.Default != nil {
				a.expr(e.Default)
			}
		}
		if n.Rest != nil {
			a.bindingExprs(n.Rest)
		}
	case *js.BindingObject:
		for _, it := range n.List {
			if it.Key != nil && it.Key.Computed != nil {
				a.expr(it.Key.Computed)
			}
			a.bindingExprs(it.Value.Binding)
			if it.Value.Default != nil {
				a.expr(it.Value.Default)
			}
		}
		if n.Rest != nil {
			a.resolve(varName(n.Rest))
		}
	}
}

func (a *analyzer) block(key any, list []js.IStmt) {
	a.pushScope(key, false)
	a.hoistLexical(a.cur, list, false)
	a.stmts(list)
	a.popScope()
}

func (a *analyzer) stmts(list []js.IStmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *analyzer) stmt(st js.IStmt) {
	switch n := st.(type) {
	case nil:
	case *js.BlockStmt:
		a.block(n, n.List)
	case *js.ExprStmt:
		a.expr(n.Value)
	case *js.VarDecl:
		a.varDecl(n)
	case *js.IfStmt:
		a.expr(n.Cond)
		a.stmt(n.Body)
		a.stmt(n.Else)
	case *js.DoWhileStmt:
		a.stmt(n.Body)
		a.expr(n.Cond)
	case *js.WhileStmt:
		a.expr(n.Cond)
		a.stmt(n.Body)
	case *js.ForStmt:
		a.pushScope(n, false)
		if d, ok := n.Init.(*js.VarDecl); ok {
			a.hoistLexical(a.cur, []js.IStmt{d}, false)
			a.varDecl(d)
		} else if n.Init != nil {
			a.expr(n.Init)
		}
		a.expr(n.Cond)
		a.expr(n.Post)
		a.block(n.Body, n.Body.List)
		a.popScope()
	case *js.ForInStmt:
		a.forInOf(n, n.Init, n.Value, n.Body)
	case *js.ForOfStmt:
		a.forInOf(n, n.Init, n.Value, n.Body)
	case *js.SwitchStmt:
		a.expr(n.Init)
		a.pushScope(n, false).isSwitch = true
		for _, c := range n.List {
			a.hoistLexical(a.cur, c.List, false)
		}
		for _, c := range n.List {
			a.expr(c.Cond)
			a.stmts(c.List)
		}
		a.popScope()
	case *js.ReturnStmt:
		a.expr(n.Value)
	case *js.ThrowStmt:
		a.expr(n.Value)
	case *js.LabelledStmt:
		a.stmt(n.Value)
	case *js.TryStmt:
		a.block(n.Body, n.Body.List)
		if n.Catch != nil {
			a.pushScope(n, false)
			if n.Binding != nil {
				for _, name := range boundNames(n.Binding, nil) {
					a.declare(a.cur, name, bindCatch)
				}
				a.bindingExprs(n.Binding)
			}
			a.block(n.Catch, n.Catch.List)
			a.popScope()
		}
		if n.Finally != nil {
			a.block(n.Finally, n.Finally.List)
		}
	case *js.FuncDecl:
		a.function(n)
	case *js.ClassDecl:
		a.class(n)
	}
}

// headTDZ keys the scope in which the expression of a for-in/of head with a let or const
// declaration is evaluated: the declared names are in their temporal dead zone there
// (for (let x of [x]) throws a ReferenceError).
type headTDZ struct{ decl *js.VarDecl }

// lexicalHead returns init as a let or const declaration, or nil.
func lexicalHead(init js.IExpr) *js.VarDecl {
	if d, ok := init.(*js.VarDecl); ok && (d.TokenType == js.LetToken || d.TokenType == js.ConstToken) {
		return d
	}
	return nil
}

func (a *analyzer) forInOf(key any, init js.IExpr, value js.IExpr, body *js.BlockStmt) {
	if d := lexicalHead(init); d != nil {
		a.pushScope(headTDZ{d}, false)
		a.hoistLexical(a.cur, []js.IStmt{d}, false)
		a.expr(value)
		a.popScope()
	} else {
		a.expr(value)
	}
	a.pushScope(key, false)
	if d, ok := init.(*js.VarDecl); ok {
		a.hoistLexical(a.cur, []js.IStmt{d}, false)
		for _, e := range d.List {
			a.bindingExprs(e.Binding)
		}
	} else {
		a.expr(init)
	}
	a.block(body, body.List)
	a.popScope()
}

func (a *analyzer) varDecl(d *js.VarDecl) {
	for _, e := range d.List {
		a.bindingExprs(e.Binding)
		if e.Default != nil {
			a.expr(e.Default)
		}
	}
}

func (a *analyzer) function(n *js.FuncDecl) {
	a.analyzeFunction(n, bytecode.FuncNormal, false, n.Name, &n.Params, &n.Body, false)
}

func (a *analyzer) class(n *js.ClassDecl) {
	a.pushScope(n, false)
	if n.Name != nil {
		a.declare(a.cur, varName(n.Name), bindClassInner)
	}
	// The heritage is evaluated in the class scope: the class name is in its dead zone there.
	if n.Extends != nil {
		a.expr(n.Extends)
	}
	hasFields := false
	for _, el := range n.List {
		if el.Method != nil && el.Method.Name.Private != nil {
			a.declare(a.cur, varName(el.Method.Name.Private), bindPrivate)
		} else if el.StaticBlock == nil && el.Method == nil && el.Name.Private != nil {
			a.declare(a.cur, varName(el.Name.Private), bindPrivate)
		}
		if el.StaticBlock == nil && el.Method == nil && !el.Static {
			hasFields = true
		}
		if el.Method != nil && !el.Method.Static && el.Method.Name.Private != nil {
			hasFields = true
		}
	}
	// The constructor first (it is called by name from code generation order).
	var ctor *js.MethodDecl
	for _, el := range n.List {
		if el.Method != nil && !el.Method.Static && isConstructorName(&el.Method.Name) {
			ctor = el.Method
		}
	}
	kind := bytecode.FuncClassCtor
	if n.Extends != nil {
		kind = bytecode.FuncDerivedCtor
	}
	var cf *funcInfo
	if ctor != nil {
		cf = a.analyzeFunction(ctor, kind, false, nil, &ctor.Params, &ctor.Body, false)
	} else {
		cf = a.analyzeFunction(implicitCtorKey{n}, kind, false, nil, nil, &js.BlockStmt{}, false)
	}
	cf.hasField = hasFields
	cf.derived = n.Extends != nil
	if cf.derived {
		// derived constructors always need this (checked when they return)
		saveFn, saveCur := a.fn, a.cur
		a.fn, a.cur = cf, cf.scope
		if ctor == nil {
			a.resolve("%callee")
			a.resolve("new.target")
		}
		a.resolve("this")
		a.fn, a.cur = saveFn, saveCur
	}
	fieldKeys := 0
	for _, el := range n.List {
		if el.Method == nil && el.StaticBlock == nil && el.Name.Computed != nil {
			a.declare(a.cur, fieldKeyName(fieldKeys), bindTemp).captured = true
			fieldKeys++
		}
	}
	for i := range n.List {
		el := &n.List[i]
		switch {
		case el.Method != nil:
			if el.Method == ctor {
				continue
			}
			if el.Method.Name.Computed != nil {
				a.expr(el.Method.Name.Computed)
			}
			a.method(el.Method)
		case el.StaticBlock == nil:
			if el.Name.Computed != nil {
				a.expr(el.Name.Computed)
			}
		}
	}
	// Field initialisers and static blocks: one instance initialiser and one static initialiser.
	if classHasInstanceInit(n) {
		a.fieldInit(n, false)
	}
	if classHasStaticInit(n) {
		a.fieldInit(n, true)
	}
	a.popScope()
}

// fieldInit analyses the instance (static=false) or static initialiser function of a class.
func (a *analyzer) fieldInit(n *js.ClassDecl, static bool) {
	f := &funcInfo{node: n, parent: a.fn, kind: bytecode.FuncFieldInit, index: len(a.order)}
	a.order = append(a.order, f)
	fkey := fieldInitKey{class: n, static: static}
	a.funcs[fkey] = f
	saveFn, saveCur := a.fn, a.cur
	a.fn = f
	f.scope = a.pushScope(fkey, true)
	f.simple = true
	a.resolve("this")
	for _, el := range n.List {
		if !static && el.Method != nil && !el.Method.Static && el.Method.Name.Private != nil {
			a.resolve(varName(el.Method.Name.Private))
		}
	}
	for i := range n.List {
		el := &n.List[i]
		if el.Method != nil {
			continue
		}
		if el.StaticBlock != nil {
			if static {
				a.block(el.StaticBlock, el.StaticBlock.List)
				// var declarations inside static blocks are local to the block's function.
				for _, name := range varNames(el.StaticBlock.List, nil) {
					a.declare(f.scope, name, bindVar)
				}
			}
			continue
		}
		if el.Static != static {
			continue
		}
		if el.Name.Private != nil {
			a.resolve(varName(el.Name.Private))
		}
		if el.Init != nil {
			a.expr(el.Init)
		}
	}
	a.fn, a.cur = saveFn, saveCur
}

type fieldInitKey struct {
	class  *js.ClassDecl
	static bool
}

// implicitCtorKey identifies the constructor synthesised for a class without one.
type implicitCtorKey struct{ class *js.ClassDecl }

func isConstructorName(n *js.ClassElementName) bool {
	if n.Private != nil || n.Computed != nil {
		return false
	}
	lit := n.Literal
	switch lit.TokenType {
	case js.StringToken:
		return string(lit.Data) == `"constructor"` || string(lit.Data) == `'constructor'`
	}
	return string(lit.Data) == "constructor"
}

func (a *analyzer) method(m *js.MethodDecl) {
	kind := bytecode.FuncMethod
	if m.Get {
		kind = bytecode.FuncGetter
	} else if m.Set {
		kind = bytecode.FuncSetter
	}
	a.analyzeFunction(m, kind, false, nil, &m.Params, &m.Body, false)
}

func (a *analyzer) exprs(list []js.IExpr) {
	for _, e := range list {
		a.expr(e)
	}
}

func (a *analyzer) expr(e js.IExpr) {
	switch n := e.(type) {
	case nil:
	case *js.Var:
		a.resolve(varName(n))
	case *js.LiteralExpr:
		switch n.TokenType {
		case js.ThisToken:
			a.resolve("this")
		case js.SuperToken:
			a.resolve("%callee")
			a.resolve("this")
		}
	case *js.ArrayExpr:
		for _, el := range n.List {
			a.expr(el.Value)
		}
	case *js.ObjectExpr:
		for _, p := range n.List {
			if p.Name != nil && p.Name.Computed != nil {
				a.expr(p.Name.Computed)
			}
			if m, ok := p.Value.(*js.MethodDecl); ok {
				if m.Name.Computed != nil {
					a.expr(m.Name.Computed)
				}
				a.method(m)
				continue
			}
			a.expr(p.Value)
			a.expr(p.Init)
		}
	case *js.TemplateExpr:
		a.expr(n.Tag)
		for _, p := range n.List {
			a.expr(p.Expr)
		}
	case *js.GroupExpr:
		a.expr(n.X)
	case *js.IndexExpr:
		a.expr(n.X)
		a.expr(n.Y)
	case *js.DotExpr:
		a.expr(n.X)
		if v, ok := n.Y.(*js.Var); ok && len(v.Name()) > 0 && v.Name()[0] == '#' {
			a.resolve(varName(v))
		}
	case *js.NewTargetExpr:
		a.resolve("new.target")
	case *js.NewExpr:
		a.expr(n.X)
		if n.Args != nil {
			for _, arg := range n.Args.List {
				a.expr(arg.Value)
			}
		}
	case *js.CallExpr:
		if lit, ok := n.X.(*js.LiteralExpr); ok && lit.TokenType == js.SuperToken {
			a.resolve("%callee")
			a.resolve("new.target")
			a.resolve("this")
		} else {
			a.expr(n.X)
		}
		for _, arg := range n.Args.List {
			a.expr(arg.Value)
		}
	case *js.UnaryExpr:
		a.expr(n.X)
	case *js.BinaryExpr:
		a.expr(n.X)
		a.expr(n.Y)
	case *js.CondExpr:
		a.expr(n.Cond)
		a.expr(n.X)
		a.expr(n.Y)
	case *js.YieldExpr:
		a.expr(n.X)
	case *js.CommaExpr:
		a.exprs(n.List)
	case *js.ArrowFunc:
		a.analyzeFunction(n, bytecode.FuncArrow, true, nil, &n.Params, &n.Body, false)
	case *js.FuncDecl:
		a.analyzeFunction(n, bytecode.FuncNormal, false, n.Name, &n.Params, &n.Body, true)
	case *js.ClassDecl:
		a.class(n)
	case *js.VarDecl:
		a.varDecl(n)
	}
}

// assignSlots gives every binding of every function a register or an environment slot.
func (a *analyzer) assignSlots() {
	for _, f := range a.order {
		// Simple parameters first: register i holds argument i.
		f.numRegs = f.params
		for _, s := range f.scopes {
			for _, b := range s.list {
				if b.captured {
					b.slot = s.envSize
					s.envSize++
					continue
				}
				if b.kind == bindParam && b.param >= 0 {
					b.reg = b.param
					continue
				}
				b.reg = f.numRegs
				f.numRegs++
			}
		}
	}
}

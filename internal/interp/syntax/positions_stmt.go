package syntax

import (
	"github.com/tdewolff/parse/v2/js"
)

// The statement, declaration, binding, function and class half of the
// position walk (see positions.go).

func (w *posWalker) stmts(list []js.IStmt) {
	for _, s := range list {
		w.stmt(s)
	}
}

// block walks a braced statement list and returns the offset of '{'.
func (w *posWalker) block(b *js.BlockStmt) int {
	start := w.seek(js.OpenBraceToken)
	w.stmts(b.List)
	w.seek(js.CloseBraceToken)
	w.record(b, start)
	return start
}

// forBody walks a loop body, which is a block in the source when it
// starts with '{' (for-loop and catch bodies share their scope block with
// the loop or clause, so the braces belong to the list).
func (w *posWalker) forBody(b *js.BlockStmt) {
	if w.peek() == js.OpenBraceToken {
		if len(b.List) == 1 {
			if inner, ok := b.List[0].(*js.BlockStmt); ok {
				w.stmt(inner)
				return
			}
		}
		w.block(b)
		return
	}
	start := -1
	if len(b.List) > 0 {
		w.stmts(b.List)
		start = w.pos.start[b.List[0]]
	} else {
		start = w.accept(js.SemicolonToken)
	}
	w.record(b, start)
}

// semicolon consumes the ';' ending a statement. Like tdewolff, a ';' on a
// later line is an empty statement of its own.
func (w *posWalker) semicolon() {
	if w.peek() == js.SemicolonToken && !w.toks[w.i].nl {
		w.i++
	}
}

func (w *posWalker) stmt(s js.IStmt) {
	if s == nil {
		return
	}
	prevParent := w.parent
	w.parent = s
	defer func() { w.parent = prevParent }()
	start := -1
	switch n := s.(type) {
	case *js.BlockStmt:
		start = w.block(n)
	case *js.EmptyStmt:
		start = w.accept(js.SemicolonToken)
	case *js.ExprStmt:
		start = w.expr(n.Value)
		w.semicolon()
	case *js.VarDecl:
		start = w.varDecl(n)
		w.semicolon()
	case *js.IfStmt:
		start = w.seek(js.IfToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Cond)
		w.seek(js.CloseParenToken)
		w.stmt(n.Body)
		if n.Else != nil {
			if w.peek() == js.SemicolonToken {
				w.i++
				w.syntaxError("Unexpected token 'else'")
			}
			w.seek(js.ElseToken)
			w.stmt(n.Else)
		}
	case *js.DoWhileStmt:
		start = w.seek(js.DoToken)
		w.stmt(n.Body)
		if w.peek() == js.SemicolonToken {
			w.i++
			w.syntaxError("Unexpected token 'while'")
		}
		w.seek(js.WhileToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Cond)
		w.seek(js.CloseParenToken)
		w.semicolon()
	case *js.WhileStmt:
		start = w.seek(js.WhileToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Cond)
		w.seek(js.CloseParenToken)
		w.stmt(n.Body)
	case *js.ForStmt:
		start = w.seek(js.ForToken)
		w.seek(js.OpenParenToken)
		if vd, ok := n.Init.(*js.VarDecl); !ok || len(vd.List) > 0 {
			w.expr(n.Init)
		}
		w.seek(js.SemicolonToken)
		w.expr(n.Cond)
		w.seek(js.SemicolonToken)
		w.expr(n.Post)
		w.seek(js.CloseParenToken)
		w.forBody(n.Body)
	case *js.ForInStmt:
		start = w.seek(js.ForToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Init)
		w.seek(js.InToken)
		w.expr(n.Value)
		w.seek(js.CloseParenToken)
		w.forBody(n.Body)
	case *js.ForOfStmt:
		start = w.seek(js.ForToken)
		if n.Await {
			w.seek(js.AwaitToken)
		}
		w.seek(js.OpenParenToken)
		w.expr(n.Init)
		w.seek(js.OfToken)
		w.expr(n.Value)
		w.seek(js.CloseParenToken)
		w.forBody(n.Body)
	case *js.SwitchStmt:
		start = w.seek(js.SwitchToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Init)
		w.seek(js.CloseParenToken)
		w.seek(js.OpenBraceToken)
		for i := range n.List {
			c := &n.List[i]
			w.seek(c.TokenType)
			w.expr(c.Cond)
			w.seek(js.ColonToken)
			w.stmts(c.List)
		}
		w.seek(js.CloseBraceToken)
	case *js.BranchStmt:
		start = w.seek(n.Type)
		if n.Label != nil {
			w.anchor(n.Label, isNameToken)
		}
		w.semicolon()
	case *js.ReturnStmt:
		start = w.seek(js.ReturnToken)
		w.expr(n.Value)
		w.semicolon()
	case *js.WithStmt:
		start = w.seek(js.WithToken)
		w.seek(js.OpenParenToken)
		w.expr(n.Cond)
		w.seek(js.CloseParenToken)
		w.stmt(n.Body)
	case *js.LabelledStmt:
		start = w.anchor(n.Label, isNameToken)
		w.seek(js.ColonToken)
		w.stmt(n.Value)
	case *js.ThrowStmt:
		start = w.seek(js.ThrowToken)
		w.expr(n.Value)
		w.semicolon()
	case *js.TryStmt:
		start = w.seek(js.TryToken)
		w.block(n.Body)
		if n.Catch != nil {
			w.seek(js.CatchToken)
			if n.Binding != nil {
				w.seek(js.OpenParenToken)
				w.binding(n.Binding)
				w.seek(js.CloseParenToken)
			}
			w.block(n.Catch)
		}
		if n.Finally != nil {
			w.seek(js.FinallyToken)
			w.block(n.Finally)
		}
	case *js.DebuggerStmt:
		start = w.seek(js.DebuggerToken)
		w.semicolon()
	case *js.DirectivePrologueStmt:
		start = w.anchor(n.Value, func(t token) bool { return t.tt == js.StringToken })
		w.semicolon()
	case *js.FuncDecl:
		start = w.funcDecl(n)
	case *js.ClassDecl:
		start = w.classDecl(n)
	case *js.ImportStmt:
		start = w.seek(js.ImportToken)
		if n.Module != nil {
			w.anchor(n.Module, func(t token) bool { return t.tt == js.StringToken })
		}
		w.semicolon()
	case *js.ExportStmt:
		start = w.seek(js.ExportToken)
		if n.Decl != nil {
			w.expr(n.Decl)
		}
		if n.Module != nil {
			w.anchor(n.Module, func(t token) bool { return t.tt == js.StringToken })
		}
		w.semicolon()
	case *js.Comment:
		return
	}
	w.record(s, start)
}

func (w *posWalker) varDecl(n *js.VarDecl) int {
	start := w.seek(n.TokenType)
	for i := range n.List {
		w.bindingElement(&n.List[i])
	}
	w.record(n, start)
	return start
}

func (w *posWalker) bindingElement(b *js.BindingElement) int {
	start := w.binding(b.Binding)
	if b.Default != nil {
		w.seek(js.EqToken)
		start = first(start, w.expr(b.Default))
	}
	return start
}

func (w *posWalker) binding(b js.IBinding) int {
	start := -1
	switch n := b.(type) {
	case nil:
		return -1
	case *js.Var:
		return w.ident(n)
	case *js.BindingArray:
		start = w.seek(js.OpenBracketToken)
		for i := range n.List {
			w.bindingElement(&n.List[i])
		}
		if n.Rest != nil {
			w.seek(js.EllipsisToken)
			w.binding(n.Rest)
		} else {
			w.trailingHoles(n)
		}
		w.seek(js.CloseBracketToken)
	case *js.BindingObject:
		start = w.seek(js.OpenBraceToken)
		for i := range n.List {
			item := &n.List[i]
			if item.Key != nil {
				w.propertyName(item.Key)
				if w.accept(js.ColonToken) < 0 {
					// shorthand: the key is the binding name
					if item.Value.Default != nil {
						w.seek(js.EqToken)
						w.expr(item.Value.Default)
					}
					continue
				}
			}
			w.bindingElement(&item.Value)
		}
		if n.Rest != nil {
			w.seek(js.EllipsisToken)
			w.ident(n.Rest)
		}
		w.seek(js.CloseBraceToken)
	}
	w.record(b, start)
	return start
}

// trailingHoles counts the elisions between the last element of an array
// binding pattern and its ']': every comma there but the one that ends the
// last element.
func (w *posWalker) trailingHoles(n *js.BindingArray) {
	commas := 0
	for w.accept(js.CommaToken) >= 0 {
		commas++
	}
	if len(n.List) > 0 {
		commas--
	}
	if commas > 0 {
		w.pos.holes[n] = commas
	}
}

func (w *posWalker) propertyName(n *js.PropertyName) int {
	if n.Computed != nil {
		start := w.seek(js.OpenBracketToken)
		w.expr(n.Computed)
		w.seek(js.CloseBracketToken)
		return start
	}
	return w.anchor(n.Literal.Data, func(t token) bool {
		return isNameToken(t) || t.tt == js.StringToken || js.IsNumeric(t.tt)
	})
}

func (w *posWalker) params(p *js.Params) {
	for i := range p.List {
		w.bindingElement(&p.List[i])
	}
	if p.Rest != nil {
		w.seek(js.EllipsisToken)
		w.binding(p.Rest)
	}
}

func (w *posWalker) funcDecl(n *js.FuncDecl) int {
	defer func(prev js.INode) { w.parent = prev }(w.enterParent(n))
	start := -1
	if n.Async {
		start = w.seek(js.AsyncToken)
	}
	start = first(start, w.seek(js.FunctionToken))
	if n.Generator {
		w.seek(js.MulToken)
	}
	if n.Name != nil && w.peek() != js.OpenParenToken {
		w.ident(n.Name)
	}
	w.seek(js.OpenParenToken)
	w.params(&n.Params)
	w.seek(js.CloseParenToken)
	w.block(&n.Body)
	w.record(n, start)
	w.recordText(n, start)
	return start
}

func (w *posWalker) methodDecl(n *js.MethodDecl) int {
	defer func(prev js.INode) { w.parent = prev }(w.enterParent(n))
	start, text := -1, -1
	if n.Static {
		start = w.seek(js.StaticToken)
	}
	if n.Async {
		text = first(text, w.seek(js.AsyncToken))
	}
	if n.Generator {
		text = first(text, w.seek(js.MulToken))
	}
	if n.Get {
		text = first(text, w.seek(js.GetToken))
	}
	if n.Set {
		text = first(text, w.seek(js.SetToken))
	}
	text = first(text, w.elementName(&n.Name))
	start = first(start, text)
	w.seek(js.OpenParenToken)
	w.params(&n.Params)
	w.seek(js.CloseParenToken)
	w.block(&n.Body)
	w.record(n, start)
	w.recordText(n, text)
	return start
}

func (w *posWalker) elementName(n *js.ClassElementName) int {
	if n.Private != nil {
		return w.seek(js.PrivateIdentifierToken)
	}
	return w.propertyName(&n.PropertyName)
}

func (w *posWalker) classDecl(n *js.ClassDecl) int {
	prev := w.enterParent(n)
	start := w.seek(js.ClassToken)
	if n.Name != nil {
		w.ident(n.Name)
	}
	w.parent = prev
	if n.Extends != nil {
		w.seek(js.ExtendsToken)
		w.expr(n.Extends)
	}
	w.seek(js.OpenBraceToken)
	for i := range n.List {
		el := &n.List[i]
		switch {
		case el.StaticBlock != nil:
			w.seek(js.StaticToken)
			w.block(el.StaticBlock)
		case el.Method != nil:
			w.methodDecl(el.Method)
		default:
			if el.Field.Static {
				w.seek(js.StaticToken)
			}
			w.elementName(&el.Field.Name)
			if el.Field.Init != nil {
				w.seek(js.EqToken)
				w.expr(el.Field.Init)
			}
			if tt := w.peek(); tt != js.SemicolonToken && tt != js.CloseBraceToken && !w.toks[w.i].nl {
				w.syntaxError("Unexpected identifier: class fields on one line must be separated by ';'")
			}
		}
		for w.accept(js.SemicolonToken) >= 0 {
		}
	}
	w.seek(js.CloseBraceToken)
	w.record(n, start)
	w.recordText(n, start)
	return start
}

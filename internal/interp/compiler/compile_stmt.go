package compiler

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Statements.

// enterScope enters the scope opened by key (pushing its environment record
// when it has captured bindings) and puts its lexical bindings in their TDZ.
func (c *compiler) enterScope(key any) *scope {
	s := c.an.scopes[key]
	if s == nil {
		return nil
	}
	if s.needsEnv() {
		c.emit(bytecode.OpPushEnv, s.envSize, 0)
		c.pushCtrl(&ctrlEntry{kind: ctrlEnv})
	}
	c.fs.cur = s
	c.initLexical(s)
	return s
}

func (c *compiler) leaveScope(s *scope) {
	if s == nil {
		return
	}
	if s.needsEnv() {
		c.op(bytecode.OpPopEnv)
		c.popCtrl()
	}
	c.fs.cur = s.parent
}

// block compiles a block statement in its own scope.
func (c *compiler) block(b *js.BlockStmt) {
	s := c.enterScope(b)
	c.hoistFunctions(b.List)
	c.stmts(b.List)
	c.leaveScope(s)
}

func (c *compiler) stmts(list []js.IStmt) {
	for _, st := range list {
		c.stmt(st)
	}
}

// hoistFunctions creates the function declarations of a statement list at its start.
func (c *compiler) hoistFunctions(list []js.IStmt) {
	for _, st := range list {
		if fd, ok := st.(*js.FuncDecl); ok && fd.Name != nil {
			c.closure(fd)
			name := varName(fd.Name)
			b, _ := c.lookup(name)
			if b == nil {
				c.emit(bytecode.OpDeclareGlobal, c.strConst(name), 0)
				continue
			}
			c.storeBinding(b, 0)
		}
	}
}

func (c *compiler) stmt(st js.IStmt) {
	defer c.enter(st)()
	switch n := st.(type) {
	case nil, *js.EmptyStmt, *js.DirectivePrologueStmt, *js.Comment:
	case *js.BlockStmt:
		c.block(n)
	case *js.ExprStmt:
		c.markStmt(n.Value)
		c.expr(n.Value)
		c.op(bytecode.OpPop)
	case *js.VarDecl:
		c.varDecl(n)
	case *js.FuncDecl:
		// hoisted
	case *js.ClassDecl:
		c.class(n)
		c.initName(varName(n.Name))
		c.declared([]string{varName(n.Name)})
	case *js.IfStmt:
		c.expr(n.Cond)
		j := c.emit(bytecode.OpJumpIfFalse, 0, 0)
		c.stmt(n.Body)
		if n.Else != nil {
			e := c.emit(bytecode.OpJump, 0, 0)
			c.patch(j)
			c.stmt(n.Else)
			c.patch(e)
		} else {
			c.patch(j)
		}
	case *js.WhileStmt:
		c.whileStmt(n, nil)
	case *js.DoWhileStmt:
		c.doWhile(n, nil)
	case *js.ForStmt:
		c.forStmt(n, nil)
	case *js.ForInStmt:
		c.forIn(n, nil)
	case *js.ForOfStmt:
		c.forOf(n, nil)
	case *js.SwitchStmt:
		c.switchStmt(n, nil)
	case *js.LabelledStmt:
		c.labelled(n, nil)
	case *js.BranchStmt:
		c.branch(n)
	case *js.ReturnStmt:
		if n.Value != nil {
			c.markStmt(n)
			c.expr(n.Value)
		} else {
			c.op(bytecode.OpUndef)
		}
		if c.fs.info.kind == bytecode.FuncProgram && c.fs.complReg >= 0 && c.script {
			c.fail("ParseError", n, "Illegal return statement")
		}
		c.emitAwaitReturnValue()
		c.emitReturn()
	case *js.ThrowStmt:
		c.markStmt(n)
		c.expr(n.Value)
		c.mark(n)
		c.op(bytecode.OpThrow)
	case *js.TryStmt:
		c.tryStmt(n)
	case *js.DebuggerStmt:
	case *js.WithStmt:
		c.unsupported(n, "the with statement")
	case *js.ImportStmt:
		c.importStmt(n)
	case *js.ExportStmt:
		c.unsupported(n, "export declarations")
	default:
		c.fail("UnsupportedSyntax", nil, "statement %T is not supported", st)
	}
}

// emitAwaitReturnValue: in async generators, return awaits its operand.
func (c *compiler) emitAwaitReturnValue() {
	if c.fs.code.Async && c.fs.code.Generator {
		c.op(bytecode.OpAwait)
	}
}

func (c *compiler) varDecl(d *js.VarDecl) {
	for _, e := range d.List {
		switch {
		case e.Default != nil:
			c.markStmt(e.Default)
			c.namedExpr(e.Default, e.Binding)
		case d.TokenType == js.VarToken:
			continue
		default:
			c.op(bytecode.OpUndef)
		}
		if e.Default != nil {
			c.dctx = destructCtx{source: e.Default}
		}
		c.bindPattern(e.Binding, true)
		c.dctx = destructCtx{}
		if d.TokenType != js.VarToken {
			c.declared(boundNames(e.Binding, nil))
		}
	}
}

func (c *compiler) labelled(n *js.LabelledStmt, labels []string) {
	labels = append(labels, string(n.Label))
	switch body := n.Value.(type) {
	case *js.LabelledStmt:
		c.labelled(body, labels)
	case *js.WhileStmt:
		c.whileStmt(body, labels)
	case *js.DoWhileStmt:
		c.doWhile(body, labels)
	case *js.ForStmt:
		c.forStmt(body, labels)
	case *js.ForInStmt:
		c.forIn(body, labels)
	case *js.ForOfStmt:
		c.forOf(body, labels)
	case *js.SwitchStmt:
		c.switchStmt(body, labels)
	default:
		e := c.pushCtrl(&ctrlEntry{kind: ctrlLabel, labels: labels, iterReg: -1})
		c.stmt(n.Value)
		c.popCtrl()
		for _, j := range e.breaks {
			c.patch(j)
		}
	}
}

func (c *compiler) branch(n *js.BranchStmt) {
	label := string(n.Label)
	isBreak := n.Type == js.BreakToken
	for i := len(c.fs.ctrl) - 1; i >= 0; i-- {
		e := c.fs.ctrl[i]
		match := false
		if label == "" {
			match = e.kind == ctrlLoop || (isBreak && e.kind == ctrlSwitch)
		} else {
			for _, l := range e.labels {
				if l == label {
					match = true
				}
			}
			if match && !isBreak && e.kind != ctrlLoop {
				c.fail("ParseError", n, "Illegal continue statement: '%s' does not denote an iteration statement", label)
			}
		}
		if !match {
			continue
		}
		c.unwind(i)
		if isBreak {
			if e.iterReg >= 0 {
				c.emit(bytecode.OpGetReg, e.iterReg, 0)
				if e.async {
					c.emitAsyncIterClose()
				} else {
					c.op(bytecode.OpIterClose)
				}
			}
			e.breaks = append(e.breaks, c.emit(bytecode.OpJump, 0, 0))
		} else {
			e.continues = append(e.continues, c.emit(bytecode.OpJump, 0, 0))
		}
		return
	}
	if label != "" {
		c.fail("ParseError", n, "Undefined label '%s'", label)
	}
	if isBreak {
		c.fail("ParseError", n, "Illegal break statement")
	}
	c.fail("ParseError", n, "Illegal continue statement: no surrounding iteration statement")
}

func (c *compiler) loopEntry(labels []string) *ctrlEntry {
	return c.pushCtrl(&ctrlEntry{kind: ctrlLoop, labels: labels, iterReg: -1})
}

func (c *compiler) endLoop(e *ctrlEntry, contTarget int) {
	c.popCtrl()
	for _, j := range e.continues {
		c.patchTo(j, contTarget)
	}
	for _, j := range e.breaks {
		c.patch(j)
	}
}

func (c *compiler) whileStmt(n *js.WhileStmt, labels []string) {
	top := c.pc()
	c.expr(n.Cond)
	j := c.emit(bytecode.OpJumpIfFalse, 0, 0)
	e := c.loopEntry(labels)
	c.stmt(n.Body)
	c.emit(bytecode.OpJump, top, 0)
	c.patch(j)
	c.endLoop(e, top)
}

func (c *compiler) doWhile(n *js.DoWhileStmt, labels []string) {
	top := c.pc()
	e := c.loopEntry(labels)
	c.stmt(n.Body)
	c.popCtrl()
	cont := c.pc()
	c.expr(n.Cond)
	c.emit(bytecode.OpJumpIfTrue, top, 0)
	c.fs.ctrl = append(c.fs.ctrl, e)
	c.endLoop(e, cont)
}

func (c *compiler) forStmt(n *js.ForStmt, labels []string) {
	s := c.enterScope(n)
	perIter := false
	switch init := n.Init.(type) {
	case nil:
	case *js.VarDecl:
		c.varDecl(init)
		perIter = init.TokenType != js.VarToken && s != nil && s.needsEnv()
	default:
		c.expr(init)
		c.op(bytecode.OpPop)
	}
	if perIter {
		c.op(bytecode.OpCopyEnv)
	}
	top := c.pc()
	j := -1
	if n.Cond != nil {
		c.expr(n.Cond)
		j = c.emit(bytecode.OpJumpIfFalse, 0, 0)
	}
	e := c.loopEntry(labels)
	c.block(n.Body)
	c.popCtrl()
	cont := c.pc()
	if perIter {
		c.op(bytecode.OpCopyEnv)
	}
	if n.Post != nil {
		c.expr(n.Post)
		c.op(bytecode.OpPop)
	}
	c.emit(bytecode.OpJump, top, 0)
	if j >= 0 {
		c.patch(j)
	}
	c.fs.ctrl = append(c.fs.ctrl, e)
	c.endLoop(e, cont)
	c.leaveScope(s)
}

// forBinding binds the value on top of the stack to a for-in/of head.
func (c *compiler) forBinding(init js.IExpr) {
	if d, ok := init.(*js.VarDecl); ok {
		c.bindPattern(d.List[0].Binding, true)
		if d.TokenType != js.VarToken {
			c.declared(boundNames(d.List[0].Binding, nil))
		}
		return
	}
	c.assignTarget(init)
}

// forHeadValue compiles the expression of a for-in/of head, in the dead zone of the names
// a let or const head declares.
func (c *compiler) forHeadValue(init, value js.IExpr) {
	if d := lexicalHead(init); d != nil {
		s := c.enterScope(headTDZ{d})
		c.expr(value)
		c.leaveScope(s)
		return
	}
	c.expr(value)
}

func (c *compiler) forIn(n *js.ForInStmt, labels []string) {
	c.forHeadValue(n.Init, n.Value)
	c.op(bytecode.OpForInPrep)
	st := c.newReg()
	c.emit(bytecode.OpPutReg, st, 0)
	top := c.pc()
	c.emit(bytecode.OpGetReg, st, 0)
	next := c.emit(bytecode.OpForInNext, 0, 0)
	e := c.loopEntry(labels)
	s := c.enterScope(n)
	c.forBinding(n.Init)
	c.block(n.Body)
	c.leaveScope(s)
	c.emit(bytecode.OpJump, top, 0)
	c.patch(next)
	c.endLoop(e, top)
}

func (c *compiler) forOf(n *js.ForOfStmt, labels []string) {
	c.forHeadValue(n.Init, n.Value)
	async := 0
	if n.Await {
		async = 1
	}
	c.emit(bytecode.OpGetIter, c.forOfIterText(n.Value, n.Await), async)
	it := c.newReg()
	c.emit(bytecode.OpPutReg, it, 0)
	c.pushCtrl(&ctrlEntry{kind: ctrlIter, iterReg: it, async: n.Await})
	top := c.pc()
	c.emit(bytecode.OpGetReg, it, 0)
	var next int
	if n.Await {
		c.op(bytecode.OpIterNextRaw)
		c.op(bytecode.OpAwait)
		next = c.emit(bytecode.OpIterResult, 0, 0)
		c.emit(bytecode.OpGetReg, it, 0)
		c.op(bytecode.OpIsSyncIter)
		skip := c.emit(bytecode.OpJumpIfFalse, 0, 0)
		c.op(bytecode.OpAwait)
		c.patch(skip)
	} else {
		next = c.emit(bytecode.OpIterNext, 0, 0)
	}
	e := c.loopEntry(labels)
	e.iterReg = it
	e.async = n.Await
	// The handler must not cover the value on the stack: park it in a register.
	val := c.newReg()
	c.emit(bytecode.OpPutReg, val, 0)
	h := c.emit(bytecode.OpTryPush, 0, 0)
	c.emit(bytecode.OpGetReg, val, 0)
	c.pushCtrl(&ctrlEntry{kind: ctrlTry})
	s := c.enterScope(n)
	c.forBinding(n.Init)
	c.block(n.Body)
	c.leaveScope(s)
	c.popCtrl()
	c.op(bytecode.OpTryPop)
	c.emit(bytecode.OpJump, top, 0)
	// An exception from the body closes the iterator (errors of return() are ignored).
	c.patch(h)
	c.emit(bytecode.OpGetReg, it, 0)
	if n.Await {
		c.emit(bytecode.OpIterCloseThrow, 0, 1)
		c.op(bytecode.OpAwait)
		c.op(bytecode.OpPop)
	} else {
		c.op(bytecode.OpIterCloseThrow)
	}
	c.op(bytecode.OpThrow)
	c.patch(next)
	c.endLoop(e, top)
	c.popCtrl() // ctrlIter
}

func (c *compiler) switchStmt(n *js.SwitchStmt, labels []string) {
	c.expr(n.Init)
	d := c.newReg()
	c.emit(bytecode.OpPutReg, d, 0)
	s := c.enterScope(n)
	for _, cl := range n.List {
		c.hoistFunctions(cl.List)
	}
	jumps := make([]int, len(n.List))
	def := -1
	for i, cl := range n.List {
		if cl.Cond == nil {
			def = i
			continue
		}
		c.emit(bytecode.OpGetReg, d, 0)
		c.expr(cl.Cond)
		c.op(bytecode.OpStrictEq)
		jumps[i] = c.emit(bytecode.OpJumpIfTrue, 0, 0)
	}
	end := c.emit(bytecode.OpJump, 0, 0)
	e := c.pushCtrl(&ctrlEntry{kind: ctrlSwitch, labels: labels, iterReg: -1})
	for i, cl := range n.List {
		if i == def {
			c.patchTo(end, c.pc())
			end = -1
		} else {
			c.patch(jumps[i])
		}
		c.stmts(cl.List)
	}
	c.popCtrl()
	if end >= 0 {
		c.patch(end)
	}
	for _, j := range e.breaks {
		c.patch(j)
	}
	c.leaveScope(s)
}

func (c *compiler) tryStmt(n *js.TryStmt) {
	var fin *ctrlEntry
	if n.Finally != nil {
		fin = c.pushCtrl(&ctrlEntry{kind: ctrlFinally, finally: n.Finally, iterReg: -1})
	}
	h := c.emit(bytecode.OpTryPush, 0, 0)
	if n.Catch != nil || fin == nil {
		c.pushCtrl(&ctrlEntry{kind: ctrlTry})
	} else {
		fin.handler = true
	}
	c.block(n.Body)
	if n.Catch != nil || fin == nil {
		c.popCtrl()
	}
	c.op(bytecode.OpTryPop)
	var ends []int
	runFinally := func() {
		if fin != nil {
			c.popCtrl()
			c.block(n.Finally)
			c.fs.ctrl = append(c.fs.ctrl, fin)
		}
	}
	runFinally()
	ends = append(ends, c.emit(bytecode.OpJump, 0, 0))
	if n.Catch != nil {
		c.patch(h)
		var h2 int
		if fin != nil {
			h2 = c.emit(bytecode.OpTryPush, 0, 0)
			fin.handler = true
		}
		s := c.enterScope(n)
		if n.Binding != nil {
			c.bindPattern(n.Binding, true)
		} else {
			c.op(bytecode.OpPop)
		}
		c.block(n.Catch)
		c.leaveScope(s)
		if fin != nil {
			c.op(bytecode.OpTryPop)
			fin.handler = false
		}
		runFinally()
		ends = append(ends, c.emit(bytecode.OpJump, 0, 0))
		h = -1
		if fin != nil {
			h = h2
		}
	}
	if fin != nil {
		c.popCtrl()
		c.patch(h)
		r := c.newReg()
		c.emit(bytecode.OpPutReg, r, 0)
		c.block(n.Finally)
		c.emit(bytecode.OpGetReg, r, 0)
		c.op(bytecode.OpThrow)
	}
	for _, j := range ends {
		c.patch(j)
	}
}

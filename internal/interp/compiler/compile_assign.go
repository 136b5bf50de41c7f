package compiler

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Assignments (plain, compound, logical, destructuring targets) and yield.

// assign compiles a = b (including destructuring assignment).
func (c *compiler) assign(n *js.BinaryExpr) {
	switch t := unparen(n.X).(type) {
	case *js.Var:
		if _, paren := n.X.(*js.GroupExpr); paren {
			c.expr(n.Y) // (f) = function () {} is not a named evaluation
		} else {
			c.namedExprS(n.Y, varName(t))
		}
		c.mark(n)
		c.assignName(varName(t))
	case *js.DotExpr:
		if c.superRef(t) {
			c.expr(n.Y)
			c.mark(n)
			c.superStore()
			return
		}
		c.expr(t.X)
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.loadName(varName(pv))
			c.expr(n.Y)
			c.mark(n)
			c.op(bytecode.OpSetPrivate)
			return
		}
		c.expr(n.Y)
		c.mark(n)
		c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		if c.superRef(t) {
			c.expr(n.Y)
			c.mark(n)
			c.superStore()
			return
		}
		c.expr(t.X)
		c.expr(t.Y)
		c.expr(n.Y)
		c.mark(n)
		c.op(bytecode.OpSetElem)
	case *js.ArrayExpr, *js.ObjectExpr:
		c.expr(n.Y)
		c.op(bytecode.OpDup)
		c.dctx = destructCtx{source: n.Y}
		c.assignPattern(t)
		c.dctx = destructCtx{}
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// compoundAssign compiles a op= b.
func (c *compiler) compoundAssign(n *js.BinaryExpr, op bytecode.Op) {
	if c.superRef(unparen(n.X)) {
		c.op(bytecode.OpDup2)
		c.mark(n)
		c.superGetFromBase()
		c.expr(n.Y)
		c.op(op)
		c.superStore()
		return
	}
	switch t := unparen(n.X).(type) {
	case *js.Var:
		c.loadName(varName(t))
		c.expr(n.Y)
		c.mark(n)
		c.op(op)
		c.assignName(varName(t))
	case *js.DotExpr:
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.expr(t.X)
			c.loadName(varName(pv))
			c.op(bytecode.OpDup2)
			c.op(bytecode.OpGetPrivate)
			c.expr(n.Y)
			c.op(op)
			c.op(bytecode.OpSetPrivate)
			return
		}
		c.expr(t.X)
		c.op(bytecode.OpDup)
		c.mark(n)
		c.emit(bytecode.OpGetProp, c.strConst(dotName(t)), 0)
		c.expr(n.Y)
		c.op(op)
		c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		// The key is converted by the read and again by the write (V8, and the
		// specification since ES2024: a reference keeps the key value itself).
		c.expr(t.X)
		c.expr(t.Y)
		c.op(bytecode.OpDup2)
		c.mark(n)
		c.op(bytecode.OpGetElem)
		c.expr(n.Y)
		c.op(op)
		c.op(bytecode.OpSetElem)
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// logicalAssign compiles a &&= b, a ||= b, a ??= b.
func (c *compiler) logicalAssign(n *js.BinaryExpr) {
	jop := bytecode.OpJumpIfFalseKeep
	switch n.Op {
	case js.OrEqToken:
		jop = bytecode.OpJumpIfTrueKeep
	case js.NullishEqToken:
		jop = bytecode.OpJumpIfNotNullishKeep
	}
	if c.superRef(unparen(n.X)) {
		c.logicalPair(jop, n.Y, c.superGetFromBase, c.superStore)
		return
	}
	switch t := unparen(n.X).(type) {
	case *js.Var:
		c.loadName(varName(t))
		j := c.emit(jop, 0, 0)
		c.namedExprS(n.Y, varName(t))
		c.assignName(varName(t))
		c.patch(j)
	case *js.DotExpr:
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.expr(t.X)
			c.loadName(varName(pv))
			c.logicalPair(jop, n.Y, func() { c.op(bytecode.OpGetPrivate) }, func() { c.op(bytecode.OpSetPrivate) })
			return
		}
		c.expr(t.X)
		c.op(bytecode.OpDup)
		c.emit(bytecode.OpGetProp, c.strConst(dotName(t)), 0)
		j := c.emit(jop, 0, 0)
		c.expr(n.Y)
		c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
		e := c.emit(bytecode.OpJump, 0, 0)
		c.patch(j)
		c.op(bytecode.OpSwap)
		c.op(bytecode.OpPop)
		c.patch(e)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y) // converted by the read and by the write, as in compoundAssign
		c.logicalPair(jop, n.Y, func() { c.op(bytecode.OpGetElem) }, func() { c.op(bytecode.OpSetElem) })
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// logicalPair finishes a logical assignment to a two-part reference [base key] on the stack
// (an element, a private member, a super property): get reads it ([base key] -> [v]), store
// writes it ([base key v] -> [v]); the result is the value read when jop short-circuits.
func (c *compiler) logicalPair(jop bytecode.Op, value js.IExpr, get, store func()) {
	c.op(bytecode.OpDup2)
	get()
	j := c.emit(jop, 0, 0)
	c.expr(value)
	store()
	e := c.emit(bytecode.OpJump, 0, 0)
	c.patch(j)
	c.op(bytecode.OpRot3)
	c.op(bytecode.OpPop)
	c.op(bytecode.OpPop)
	c.patch(e)
}

// assignTarget assigns the value on top of the stack (popped) to an assignment target.
func (c *compiler) assignTarget(e js.IExpr) {
	switch t := unparen(e).(type) {
	case *js.Var:
		c.assignName(varName(t))
		c.op(bytecode.OpPop)
	case *js.DotExpr:
		c.expr(t.X)
		c.op(bytecode.OpSwap)
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.loadName(varName(pv))
			c.op(bytecode.OpSwap)
			c.op(bytecode.OpSetPrivate)
			c.op(bytecode.OpPop)
			return
		}
		c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
		c.op(bytecode.OpPop)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y)
		// [value obj key] -> [obj key value]: the value moves from the bottom to the top.
		c.op(bytecode.OpRot3)
		c.op(bytecode.OpRot3)
		c.op(bytecode.OpSetElem)
		c.op(bytecode.OpPop)
	case *js.ArrayExpr, *js.ObjectExpr:
		c.assignPattern(t)
	case *js.BinaryExpr:
		if t.Op == js.EqToken {
			// target = default (inside a pattern)
			j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
			if v, ok := t.X.(*js.Var); ok {
				c.namedExprS(t.Y, varName(v))
			} else {
				c.expr(t.Y)
			}
			c.patch(j)
			c.assignTarget(t.X)
			return
		}
		c.fail("ParseError", e, "Invalid destructuring assignment target")
	default:
		c.fail("ParseError", e, "Invalid destructuring assignment target")
	}
}

func (c *compiler) yield(n *js.YieldExpr) {
	if n.Generator && c.fs.code.Async {
		c.asyncYieldStar(n)
		return
	}
	if n.Generator {
		c.expr(n.X)
		async := 0
		c.emit(bytecode.OpGetIter, 0, async)
		c.op(bytecode.OpUndef)
		c.mark(n)
		loop := c.emit(bytecode.OpYieldDelegate, 0, 0)
		_ = loop
		c.emitReturn()
		c.patch(loop)
		return
	}
	if n.X != nil {
		c.expr(n.X)
	} else {
		c.op(bytecode.OpUndef)
	}
	if c.fs.code.Async {
		c.op(bytecode.OpAwait)
	}
	c.op(bytecode.OpYield)
	j := c.emit(bytecode.OpResumeMode, 0, 0)
	c.emitAwaitReturnValue()
	c.emitReturn()
	c.patch(j)
}

// asyncYieldStar compiles yield* in an async generator as a loop over the
// inner async iterator (each step awaits the inner result).
func (c *compiler) asyncYieldStar(n *js.YieldExpr) {
	c.expr(n.X)
	c.mark(n)
	c.emit(bytecode.OpGetIter, 0, 1)
	it := c.newReg()
	recv := c.newReg()
	c.emit(bytecode.OpPutReg, it, 0)
	c.op(bytecode.OpUndef)
	c.emit(bytecode.OpPutReg, recv, 0)
	loop := c.pc()
	c.emit(bytecode.OpGetReg, it, 0)
	c.emit(bytecode.OpGetReg, recv, 0)
	direct := c.emit(bytecode.OpAsyncDelegateCall, 0, 0)
	c.op(bytecode.OpAwait)
	res := c.emit(bytecode.OpDelegateResult, 0, 0)
	// Over a sync iterator (the async-from-sync wrapper) each value is awaited: a rejected
	// promise among them rejects the step.
	c.emit(bytecode.OpGetReg, it, 0)
	c.op(bytecode.OpIsSyncIter)
	skip := c.emit(bytecode.OpJumpIfFalse, 0, 0)
	c.op(bytecode.OpAwait)
	c.patch(skip)
	c.op(bytecode.OpYield)
	c.op(bytecode.OpDelegateResume)
	c.emit(bytecode.OpPutReg, recv, 0)
	c.emit(bytecode.OpJump, loop, 0)
	// return mode without a return method: await the received value and return it
	c.patch(direct)
	c.op(bytecode.OpAwait)
	ret := c.pc()
	c.emitReturn()
	c.patchTo(res, c.pc())
	c.fs.code.Code[res].B = int32(ret)
}

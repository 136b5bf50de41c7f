package interp

import (
	"github.com/tdewolff/parse/v2/js"
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
			c.op(OpSetPrivate)
			return
		}
		c.expr(n.Y)
		c.mark(n)
		c.emit(OpSetProp, c.strConst(dotName(t)), 0)
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
		c.op(OpSetElem)
	case *js.ArrayExpr, *js.ObjectExpr:
		c.expr(n.Y)
		c.op(OpDup)
		c.assignPattern(t)
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// compoundAssign compiles a op= b.
func (c *compiler) compoundAssign(n *js.BinaryExpr, op Op) {
	if c.superRef(unparen(n.X)) {
		c.op(OpDup2)
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
			c.op(OpDup2)
			c.op(OpGetPrivate)
			c.expr(n.Y)
			c.op(op)
			c.op(OpSetPrivate)
			return
		}
		c.expr(t.X)
		c.op(OpDup)
		c.mark(n)
		c.emit(OpGetProp, c.strConst(dotName(t)), 0)
		c.expr(n.Y)
		c.op(op)
		c.emit(OpSetProp, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y)
		c.op(OpToPropertyKey)
		c.op(OpDup2)
		c.mark(n)
		c.op(OpGetElem)
		c.expr(n.Y)
		c.op(op)
		c.op(OpSetElem)
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// logicalAssign compiles a &&= b, a ||= b, a ??= b.
func (c *compiler) logicalAssign(n *js.BinaryExpr) {
	jop := OpJumpIfFalseKeep
	switch n.Op {
	case js.OrEqToken:
		jop = OpJumpIfTrueKeep
	case js.NullishEqToken:
		jop = OpJumpIfNotNullishKeep
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
			c.logicalPair(jop, n.Y, func() { c.op(OpGetPrivate) }, func() { c.op(OpSetPrivate) })
			return
		}
		c.expr(t.X)
		c.op(OpDup)
		c.emit(OpGetProp, c.strConst(dotName(t)), 0)
		j := c.emit(jop, 0, 0)
		c.expr(n.Y)
		c.emit(OpSetProp, c.strConst(dotName(t)), 0)
		e := c.emit(OpJump, 0, 0)
		c.patch(j)
		c.op(OpSwap)
		c.op(OpPop)
		c.patch(e)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y)
		c.op(OpToPropertyKey)
		c.logicalPair(jop, n.Y, func() { c.op(OpGetElem) }, func() { c.op(OpSetElem) })
	default:
		c.fail("ParseError", n, "Invalid left-hand side in assignment")
	}
}

// logicalPair finishes a logical assignment to a two-part reference [base key] on the stack
// (an element, a private member, a super property): get reads it ([base key] -> [v]), store
// writes it ([base key v] -> [v]); the result is the value read when jop short-circuits.
func (c *compiler) logicalPair(jop Op, value js.IExpr, get, store func()) {
	c.op(OpDup2)
	get()
	j := c.emit(jop, 0, 0)
	c.expr(value)
	store()
	e := c.emit(OpJump, 0, 0)
	c.patch(j)
	c.op(OpRot3)
	c.op(OpPop)
	c.op(OpPop)
	c.patch(e)
}

// assignTarget assigns the value on top of the stack (popped) to an assignment target.
func (c *compiler) assignTarget(e js.IExpr) {
	switch t := unparen(e).(type) {
	case *js.Var:
		c.assignName(varName(t))
		c.op(OpPop)
	case *js.DotExpr:
		c.expr(t.X)
		c.op(OpSwap)
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.loadName(varName(pv))
			c.op(OpSwap)
			c.op(OpSetPrivate)
			c.op(OpPop)
			return
		}
		c.emit(OpSetProp, c.strConst(dotName(t)), 0)
		c.op(OpPop)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y)
		// [value obj key] -> [obj key value]: the value moves from the bottom to the top.
		c.op(OpRot3)
		c.op(OpRot3)
		c.op(OpSetElem)
		c.op(OpPop)
	case *js.ArrayExpr, *js.ObjectExpr:
		c.assignPattern(t)
	case *js.BinaryExpr:
		if t.Op == js.EqToken {
			// target = default (inside a pattern)
			j := c.emit(OpJumpIfNotUndef, 0, 0)
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
		c.emit(OpGetIter, 0, async)
		c.op(OpUndef)
		c.mark(n)
		loop := c.emit(OpYieldDelegate, 0, 0)
		_ = loop
		c.emitReturn()
		c.patch(loop)
		return
	}
	if n.X != nil {
		c.expr(n.X)
	} else {
		c.op(OpUndef)
	}
	if c.fs.code.Async {
		c.op(OpAwait)
	}
	c.op(OpYield)
	j := c.emit(OpResumeMode, 0, 0)
	c.emitAwaitReturnValue()
	c.emitReturn()
	c.patch(j)
}

// asyncYieldStar compiles yield* in an async generator as a loop over the
// inner async iterator (each step awaits the inner result).
func (c *compiler) asyncYieldStar(n *js.YieldExpr) {
	c.expr(n.X)
	c.mark(n)
	c.emit(OpGetIter, 0, 1)
	it := c.newReg()
	recv := c.newReg()
	c.emit(OpPutReg, it, 0)
	c.op(OpUndef)
	c.emit(OpPutReg, recv, 0)
	loop := c.pc()
	c.emit(OpGetReg, it, 0)
	c.emit(OpGetReg, recv, 0)
	direct := c.emit(OpAsyncDelegateCall, 0, 0)
	c.op(OpAwait)
	res := c.emit(OpDelegateResult, 0, 0)
	// Over a sync iterator (the async-from-sync wrapper) each value is awaited: a rejected
	// promise among them rejects the step.
	c.emit(OpGetReg, it, 0)
	c.op(OpIsSyncIter)
	skip := c.emit(OpJumpIfFalse, 0, 0)
	c.op(OpAwait)
	c.patch(skip)
	c.op(OpYield)
	c.op(OpDelegateResume)
	c.emit(OpPutReg, recv, 0)
	c.emit(OpJump, loop, 0)
	// return mode without a return method: await the received value and return it
	c.patch(direct)
	c.op(OpAwait)
	ret := c.pc()
	c.emitReturn()
	c.patchTo(res, c.pc())
	c.fs.code.Code[res].B = int32(ret)
}

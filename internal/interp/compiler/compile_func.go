package compiler

import (
	"github.com/tdewolff/parse/v2/js"
	"strconv"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Functions, methods, classes and binding patterns.

// closureNamed compiles a function node (declaration, expression or arrow) and
// emits the creation of its closure. name is the contextual name for anonymous
// functions.
func (c *compiler) closureNamed(node js.IExpr, name string) {
	f := c.an.funcs[node]
	switch n := node.(type) {
	case *js.FuncDecl:
		if n.Name != nil {
			name = varName(n.Name)
		}
		c.compileFunction(f, &n.Params, &n.Body, name, n.Async, n.Generator)
	case *js.ArrowFunc:
		c.compileFunction(f, &n.Params, &n.Body, name, n.Async, false)
	}
	c.emit(bytecode.OpClosure, f.index, 0)
}

// closure compiles a function declaration and emits its closure.
func (c *compiler) closure(fd *js.FuncDecl) { c.closureNamed(fd, "") }

// method compiles an object or class method and emits its closure. With
// computed=true its name comes from the key below it on the stack at run time.
func (c *compiler) method(m *js.MethodDecl, name string, computed bool) {
	f := c.an.funcs[m]
	if computed {
		name = "" // named at run time from the key, with its get/set prefix (bytecode.OpSetFnName)
	}
	c.compileFunction(f, &m.Params, &m.Body, name, m.Async, m.Generator)
	c.emit(bytecode.OpClosure, f.index, 0)
	if computed {
		prefix := 0
		if m.Get {
			prefix = 1
		} else if m.Set {
			prefix = 2
		}
		c.emit(bytecode.OpSetFnName, 0, prefix)
	}
}

// compileFunction generates the code of one function.
func (c *compiler) compileFunction(f *funcInfo, params *js.Params, body *js.BlockStmt, name string, async, gen bool) {
	saveLast := c.lastPos
	c.beginFunction(f, nil)
	code := c.fs.code
	code.Name = name
	code.Async = async
	code.Generator = gen
	code.Length = paramLength(params)
	code.HasFields = f.hasField
	if node, ok := f.node.(js.INode); ok {
		c.sourceText(code, node)
		defer c.enter(node)()
	}
	c.prologue(f, params)
	if f.kind == bytecode.FuncClassCtor && f.hasField {
		c.op(bytecode.OpLoadCallee)
		c.op(bytecode.OpLoadThis)
		c.emitInitFields()
	}
	if gen {
		c.op(bytecode.OpInitialYield)
	}
	if f.body != nil {
		c.enterBodyScope(f)
	}
	c.hoistFunctions(body.List)
	c.stmts(body.List)
	c.op(bytecode.OpUndef)
	c.emitReturn()
	c.endFunction()
	c.lastPos = saveLast
}

// emitInitFields: [ctor this] -> []: runs the class's instance field initialiser on this.
func (c *compiler) emitInitFields() {
	j := c.emit(bytecode.OpInitFields, 0, 0) // jumps (popping both) when the class has no initialiser
	c.emit(bytecode.OpCall, 0, 0)
	c.op(bytecode.OpPop)
	c.patch(j)
}

func paramLength(p *js.Params) int {
	if p == nil {
		return 0
	}
	n := 0
	for _, e := range p.List {
		if e.Default != nil {
			break
		}
		n++
	}
	return n
}

// classNamed compiles a class expression or declaration, leaving the constructor on the stack.
func (c *compiler) classNamed(n *js.ClassDecl, name string) {
	if n.Name != nil {
		name = varName(n.Name)
	}
	s := c.enterScope(n)
	if n.Extends != nil {
		c.classNameDeadZone(s, n)
		c.expr(n.Extends) // in the class scope, where the class name is in its dead zone
	}
	// Private names.
	for _, el := range n.List {
		var pv *js.Var
		kind := 0
		if el.Method != nil {
			pv = el.Method.Name.Private
			kind = 1
			if el.Method.Get || el.Method.Set {
				kind = 2
			}
		} else if el.StaticBlock == nil {
			pv = el.Name.Private
		}
		if pv == nil {
			continue
		}
		pname := varName(pv)
		b := s.names[pname]
		if b.kind != bindPrivate {
			continue
		}
		if kind == 2 {
			// getter and setter share one private name: create it once
			if b.param == -2 {
				continue
			}
			b.param = -2
		}
		c.emit(bytecode.OpNewPrivate, c.strConst(pname), kind)
		c.storeBinding(b, 0)
	}
	// Constructor.
	var ctor *js.MethodDecl
	for _, el := range n.List {
		if el.Method != nil && !el.Method.Static && isConstructorName(&el.Method.Name) {
			ctor = el.Method
		}
	}
	var ctorIndex int
	if ctor != nil {
		f := c.an.funcs[ctor]
		c.compileFunction(f, &ctor.Params, &ctor.Body, name, false, false)
		ctorIndex = f.index
	} else {
		f := c.an.funcs[implicitCtorKey{n}]
		c.implicitCtor(f, name)
		ctorIndex = f.index
	}
	// A class is its constructor: its text is the whole class's.
	c.sourceText(c.prog.Funcs[ctorIndex], n)
	c.emit(bytecode.OpClosure, ctorIndex, 0)
	ext := 0
	if n.Extends != nil {
		ext = 1
	}
	c.emit(bytecode.OpClass, ext, 0)
	pr := c.newReg()
	cr := c.newReg()
	c.emit(bytecode.OpPutReg, pr, 0)
	c.emit(bytecode.OpSetReg, cr, 0)
	if n.Name != nil {
		if b, ok := s.names[name]; ok && b.kind == bindClassInner {
			c.storeBinding(b, 1)
		}
	}
	c.op(bytecode.OpPop)
	// Methods and computed field keys, in order.
	fieldKeys := 0
	for i := range n.List {
		el := &n.List[i]
		switch {
		case el.Method != nil && el.Method == ctor:
		case el.Method != nil:
			m := el.Method
			target := pr
			if m.Static {
				target = cr
			}
			if m.Name.Private != nil {
				b, _ := c.lookup(varName(m.Name.Private))
				c.emit(bytecode.OpGetReg, target, 0)
				c.loadBinding(b, 0)
				c.method(m, varName(m.Name.Private), false)
				c.emit(bytecode.OpGetReg, target, 0)
				c.op(bytecode.OpSetHome)
				kind := 0
				if m.Get {
					kind = 1
				} else if m.Set {
					kind = 2
				}
				static := 0
				if m.Static {
					static = 1
				}
				c.emit(bytecode.OpDefPrivMeth, static, kind) // [obj pname fn] -> [obj]; A=1: also brand obj
				c.op(bytecode.OpPop)
				continue
			}
			c.emit(bytecode.OpGetReg, target, 0)
			name := c.pushKey(&m.Name.PropertyName)
			prefix := ""
			op := bytecode.OpDefineMethod
			if m.Get {
				prefix, op = "get ", bytecode.OpDefineGetter
			} else if m.Set {
				prefix, op = "set ", bytecode.OpDefineSetter
			}
			c.method(m, prefix+name, m.Name.Computed != nil)
			c.emit(op, 0, 0)
			c.op(bytecode.OpPop)
		case el.StaticBlock == nil && el.Name.Computed != nil:
			c.expr(el.Name.Computed)
			c.emit(bytecode.OpToPropertyKey, 0, 1) // B=1: a field's key, with no base below it
			b := s.names[fieldKeyName(fieldKeys)]
			c.storeBinding(b, 0)
			fieldKeys++
		}
	}
	// Instance field initialiser.
	if fi := c.an.funcs[fieldInitKey{class: n, static: false}]; fi != nil && classHasInstanceInit(n) {
		c.emit(bytecode.OpGetReg, cr, 0)
		c.fieldInitFunction(fi, n, false)
		c.emit(bytecode.OpClosure, fi.index, 0)
		c.emit(bytecode.OpGetReg, pr, 0)
		c.op(bytecode.OpSetHome)
		c.op(bytecode.OpSetFields)
		c.op(bytecode.OpPop)
	}
	// Static fields and blocks run now, with this = the constructor.
	if fi := c.an.funcs[fieldInitKey{class: n, static: true}]; fi != nil && classHasStaticInit(n) {
		c.fieldInitFunction(fi, n, true)
		c.emit(bytecode.OpClosure, fi.index, 0)
		c.emit(bytecode.OpGetReg, cr, 0)
		c.op(bytecode.OpSetHome)
		c.emit(bytecode.OpGetReg, cr, 0)
		c.emit(bytecode.OpCall, 0, 0)
		c.op(bytecode.OpPop)
	}
	c.leaveScope(s)
	c.emit(bytecode.OpGetReg, cr, 0)
}

// class compiles a class declaration (the constructor is left on the stack).
func (c *compiler) class(n *js.ClassDecl) { c.classNamed(n, "") }

// classNameDeadZone starts the class's inner name binding uninitialised, for a heritage that
// reads it (class x extends x {} throws a ReferenceError). initLexical leaves that binding out
// so that classes without a heritage compile as they always have: suspended runs resume by
// instruction index.
func (c *compiler) classNameDeadZone(s *scope, n *js.ClassDecl) {
	if s == nil || n.Name == nil {
		return
	}
	if b, ok := s.names[varName(n.Name)]; ok && b.kind == bindClassInner && !b.captured {
		c.op(bytecode.OpHole)
		c.emit(bytecode.OpPutReg, b.reg, 0)
	}
}

func fieldKeyName(i int) string { return "%fieldkey" + strconv.Itoa(i) }

func classHasInstanceInit(n *js.ClassDecl) bool {
	for _, el := range n.List {
		if el.Method != nil && !el.Method.Static && el.Method.Name.Private != nil {
			return true
		}
		if el.Method == nil && el.StaticBlock == nil && !el.Static {
			return true
		}
	}
	return false
}

func classHasStaticInit(n *js.ClassDecl) bool {
	for _, el := range n.List {
		if el.StaticBlock != nil || (el.Method == nil && el.Static) {
			return true
		}
	}
	return false
}

// fieldInitFunction generates the instance or static initialiser of a class.
func (c *compiler) fieldInitFunction(f *funcInfo, n *js.ClassDecl, static bool) {
	c.beginFunction(f, nil)
	c.fs.code.Name = "<init>"
	c.prologue(f, nil)
	fieldKeys := 0
	if !static {
		// Private methods and accessors are installed before any field, each name once (a
		// getter and a setter share one).
		branded := map[string]bool{}
		for _, el := range n.List {
			if el.Method != nil && !el.Method.Static && el.Method.Name.Private != nil {
				name := varName(el.Method.Name.Private)
				if branded[name] {
					continue
				}
				branded[name] = true
				c.loadName("this")
				c.loadName(name)
				c.op(bytecode.OpUndef)
				c.emit(bytecode.OpDefPrivate, 0, int(bytecode.PrivateBrand)) // a second brand on one object throws
				c.op(bytecode.OpPop)
			}
		}
	}
	for i := range n.List {
		el := &n.List[i]
		if el.Method != nil {
			continue
		}
		if el.StaticBlock != nil {
			if static {
				c.block(el.StaticBlock)
			}
			continue
		}
		computed := el.Name.Computed != nil
		if el.Static != static {
			if computed {
				fieldKeys++
			}
			continue
		}
		c.loadName("this")
		name := ""
		switch {
		case el.Name.Private != nil:
			c.loadName(varName(el.Name.Private))
			name = varName(el.Name.Private)
		case computed:
			c.loadName(fieldKeyName(fieldKeys))
			fieldKeys++
		default:
			name, _ = c.propertyKeyName(&el.Name.PropertyName)
			c.emit(bytecode.OpConst, c.strConst16(wtf8ToUTF16(name)), 0)
		}
		if el.Init != nil {
			c.namedExprS(el.Init, name)
			if computed && isAnonymousFn(el.Init) {
				c.emit(bytecode.OpSetFnName, 0, 0)
			}
		} else {
			c.op(bytecode.OpUndef)
		}
		if el.Name.Private != nil {
			c.emit(bytecode.OpDefPrivate, 0, 0)
		} else {
			c.op(bytecode.OpDefineField)
		}
		c.op(bytecode.OpPop)
	}
	c.op(bytecode.OpUndef)
	c.op(bytecode.OpReturn)
	c.endFunction()
}

// implicitCtor generates the constructor of a class that declares none.
func (c *compiler) implicitCtor(f *funcInfo, name string) {
	c.beginFunction(f, nil)
	c.fs.code.Name = name
	c.fs.code.HasFields = f.hasField
	c.prologue(f, nil)
	if f.derived {
		cb, chops := c.lookup("%callee")
		nb, nhops := c.lookup("new.target")
		c.loadBinding(cb, chops)
		c.loadBinding(nb, nhops)
		c.emit(bytecode.OpRestArgs, 0, 0)
		c.emit(bytecode.OpSuperCallSpread, 0, 0)
		tb, _ := c.lookup("this")
		c.storeBinding(tb, 0)
		c.loadBinding(cb, chops)
		c.loadBinding(tb, 0)
		c.emitInitFields()
	} else if f.hasField {
		c.op(bytecode.OpLoadCallee)
		c.op(bytecode.OpLoadThis)
		c.emitInitFields()
	}
	c.op(bytecode.OpUndef)
	c.emitReturn()
	c.endFunction()
}

// bindPattern initialises the bindings of a declaration pattern from the value
// on top of the stack (popped).
func (c *compiler) bindPattern(b js.IBinding, init bool) {
	ctx := c.dctx
	c.dctx = destructCtx{nested: true}
	defer func() { c.dctx = ctx }()
	switch n := b.(type) {
	case *js.Var:
		c.initName(varName(n))
	case *js.BindingArray:
		c.emit(bytecode.OpGetIter, c.patternIterText(ctx, false), 0)
		it := c.newReg()
		c.emit(bytecode.OpPutReg, it, 0)
		end := c.openPatternIter(it)
		for _, e := range n.List {
			c.emit(bytecode.OpGetReg, it, 0)
			c.op(bytecode.OpIterStep)
			if e.Binding == nil {
				c.op(bytecode.OpPop)
				continue
			}
			if e.Default != nil {
				j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
				c.namedExpr(e.Default, e.Binding)
				c.patch(j)
			}
			c.bindPattern(e.Binding, init)
		}
		for range c.src.TrailingHoles(n) {
			c.emit(bytecode.OpGetReg, it, 0)
			c.op(bytecode.OpIterStep)
			c.op(bytecode.OpPop)
		}
		if n.Rest != nil {
			c.emit(bytecode.OpGetReg, it, 0)
			c.op(bytecode.OpIterRest)
			c.bindPattern(n.Rest, init)
		}
		c.closePatternIter(it, end)
	case *js.BindingObject:
		first, ok := "", false
		if len(n.List) > 0 {
			first, ok = c.propertyKeyName(n.List[0].Key)
			if n.List[0].Value.Default != nil && ok {
				ctx = destructCtx{nested: true} // V8 reads the first key with its default
			}
		}
		c.emit(bytecode.OpCheckCoercible, c.destructText(ctx, first, ok), 0)
		src := c.newReg()
		c.emit(bytecode.OpPutReg, src, 0)
		var keyRegs []int
		for _, it := range n.List {
			c.emit(bytecode.OpGetReg, src, 0)
			if name, ok := c.propertyKeyName(it.Key); ok {
				if n.Rest != nil {
					r := c.newReg()
					c.emit(bytecode.OpConst, c.strConst16(wtf8ToUTF16(name)), 0)
					c.emit(bytecode.OpPutReg, r, 0)
					keyRegs = append(keyRegs, r)
				}
				c.emit(bytecode.OpGetProp, c.strConst16(wtf8ToUTF16(name)), 0)
			} else {
				c.expr(it.Key.Computed)
				c.op(bytecode.OpToPropertyKey)
				if n.Rest != nil {
					r := c.newReg()
					c.emit(bytecode.OpSetReg, r, 0)
					keyRegs = append(keyRegs, r)
				}
				c.op(bytecode.OpGetElem)
			}
			if it.Value.Default != nil {
				j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
				c.namedExpr(it.Value.Default, it.Value.Binding)
				c.patch(j)
			}
			c.bindPattern(it.Value.Binding, init)
		}
		if n.Rest != nil {
			c.op(bytecode.OpNewObject)
			c.emit(bytecode.OpGetReg, src, 0)
			for _, r := range keyRegs {
				c.emit(bytecode.OpGetReg, r, 0)
			}
			c.emit(bytecode.OpCopyDataExcl, len(keyRegs), 0)
			c.initName(varName(n.Rest))
		}
	default:
		c.fail("ParseError", nil, "invalid binding pattern %T", b)
	}
}

// assignPattern destructures the value on top of the stack (popped) into assignment targets.
func (c *compiler) assignPattern(e js.IExpr) {
	ctx := c.dctx
	c.dctx = destructCtx{nested: true}
	defer func() { c.dctx = ctx }()
	switch n := e.(type) {
	case *js.ArrayExpr:
		c.emit(bytecode.OpGetIter, c.patternIterText(ctx, true), 0)
		it := c.newReg()
		c.emit(bytecode.OpPutReg, it, 0)
		end := c.openPatternIter(it)
		for _, el := range n.List {
			if el.Spread {
				c.assignElementTarget(el.Value, it, true)
				break
			}
			if el.Value == nil {
				c.emit(bytecode.OpGetReg, it, 0)
				c.op(bytecode.OpIterStep)
				c.op(bytecode.OpPop)
				continue
			}
			c.assignElementTarget(el.Value, it, false)
		}
		c.closePatternIter(it, end)
	case *js.ObjectExpr:
		first, ok := "", false
		if len(n.List) > 0 && !n.List[0].Spread {
			if n.List[0].Name == nil {
				first, ok = varName(n.List[0].Value.(*js.Var)), true
			} else {
				first, ok = c.propertyKeyName(n.List[0].Name)
			}
			if b, isAssign := n.List[0].Value.(*js.BinaryExpr); ok && (n.List[0].Init != nil || isAssign && b.Op == js.EqToken) {
				ctx = destructCtx{nested: true} // V8 reads the first key with its default
			}
		}
		c.emit(bytecode.OpCheckCoercible, c.destructText(ctx, first, ok), 0)
		src := c.newReg()
		c.emit(bytecode.OpPutReg, src, 0)
		var keyRegs []int
		for _, p := range n.List {
			if p.Spread {
				store, isRef := c.targetRef(p.Value)
				c.op(bytecode.OpNewObject)
				c.emit(bytecode.OpGetReg, src, 0)
				for _, r := range keyRegs {
					c.emit(bytecode.OpGetReg, r, 0)
				}
				c.emit(bytecode.OpCopyDataExcl, len(keyRegs), 0)
				if isRef {
					store()
					continue
				}
				c.assignTarget(p.Value)
				continue
			}
			var target js.IExpr = p.Value
			def := p.Init
			if b, ok := unparen(target).(*js.BinaryExpr); ok && b.Op == js.EqToken && def == nil {
				target, def = b.X, b.Y
			}
			// The key first, then the target's reference (its object and key), then the
			// read of the source, as the specification orders them.
			keyReg := -1
			if p.Name != nil && p.Name.IsComputed() {
				c.expr(p.Name.Computed)
				c.op(bytecode.OpToPropertyKey)
				keyReg = c.newReg()
				c.emit(bytecode.OpPutReg, keyReg, 0)
				keyRegs = append(keyRegs, keyReg)
			}
			store, isRef := c.targetRef(target)
			c.emit(bytecode.OpGetReg, src, 0)
			if p.Name == nil {
				v := p.Value.(*js.Var)
				r := c.newReg()
				c.emitString(varName(v))
				c.emit(bytecode.OpPutReg, r, 0)
				keyRegs = append(keyRegs, r)
				c.emit(bytecode.OpGetProp, c.strConst(varName(v)), 0)
			} else if name, ok := c.propertyKeyName(p.Name); ok {
				r := c.newReg()
				c.emit(bytecode.OpConst, c.strConst16(wtf8ToUTF16(name)), 0)
				c.emit(bytecode.OpPutReg, r, 0)
				keyRegs = append(keyRegs, r)
				c.emit(bytecode.OpGetProp, c.strConst16(wtf8ToUTF16(name)), 0)
			} else {
				c.emit(bytecode.OpGetReg, keyReg, 0)
				c.op(bytecode.OpGetElem)
			}
			if def != nil {
				j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
				if v, ok := unparen(target).(*js.Var); ok && target == unparen(target) {
					c.namedExprS(def, varName(v))
				} else {
					c.expr(def)
				}
				c.patch(j)
			}
			if isRef {
				store()
				continue
			}
			c.assignTarget(target)
		}
	}
}

// targetRef evaluates the reference of a member assignment target (its object, and its key
// expression, left unconverted: the write converts it) and returns the code that stores the
// value on top of the stack into it, popping reference and value. ok is false, with nothing
// emitted, for any other target (a name, a pattern, a target with a default).
func (c *compiler) targetRef(target js.IExpr) (store func(), ok bool) {
	switch t := unparen(target).(type) {
	case *js.DotExpr:
		if c.superRef(t) {
			return func() { c.superStore(); c.op(bytecode.OpPop) }, true
		}
		c.expr(t.X)
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.loadName(varName(pv))
			return func() { c.op(bytecode.OpSetPrivate); c.op(bytecode.OpPop) }, true
		}
		return func() { c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0); c.op(bytecode.OpPop) }, true
	case *js.IndexExpr:
		if c.superRef(t) {
			return func() { c.superStore(); c.op(bytecode.OpPop) }, true
		}
		c.expr(t.X)
		c.expr(t.Y)
		return func() { c.op(bytecode.OpSetElem); c.op(bytecode.OpPop) }, true
	}
	return nil, false
}

// patternIterText returns the operand A of an array pattern's GetIter, for V8's message when
// the value is not iterable: a declaration's initializer that is a name, a literal, a call of
// a name (not an optional call) or a new is named as written ("u is not iterable", see
// notIterableText); the value of an assignment, a parameter, a nested pattern or another
// initializer is described ("number 5 is not iterable (cannot read property
// Symbol(Symbol.iterator))", the text "\x02"); 0 (a for-of or catch binding) leaves the
// message to GetIterator.
func (c *compiler) patternIterText(ctx destructCtx, assign bool) int {
	switch {
	case ctx.nested || ctx.param || assign && ctx.source != nil:
		return c.strConst("\x02") + 1
	case ctx.source == nil:
		return 0
	}
	simple := false
	switch x := unparen(ctx.source).(type) {
	case *js.Var, *js.LiteralExpr, *js.ArrayExpr, *js.ObjectExpr:
		simple = true
	case *js.CallExpr:
		_, simple = unparen(x.X).(*js.Var)
		simple = simple && !x.Optional
	case *js.NewExpr:
		simple = true
	}
	if simple {
		if text := c.notIterableText(ctx.source, false); text != 0 {
			return text
		}
	}
	return c.strConst("\x02") + 1
}

// openPatternIter starts the protected region of an array pattern: an
// exception closes the iterator (when not exhausted) and a return through it
// (a generator's return() at a yield inside) closes it too.
func (c *compiler) openPatternIter(it int) int {
	c.pushCtrl(&ctrlEntry{kind: ctrlIter, iterReg: it, iterIfOpen: true})
	h := c.emit(bytecode.OpTryPush, 0, 0)
	c.pushCtrl(&ctrlEntry{kind: ctrlTry})
	return h
}

// closePatternIter ends the region opened by openPatternIter and closes the
// iterator when it is not exhausted.
func (c *compiler) closePatternIter(it, h int) {
	c.popCtrl()
	c.op(bytecode.OpTryPop)
	c.popCtrl()
	c.emit(bytecode.OpGetReg, it, 0)
	c.emit(bytecode.OpIterClose, 0, 2)
	end := c.emit(bytecode.OpJump, 0, 0)
	c.patch(h)
	c.emit(bytecode.OpGetReg, it, 0)
	c.emit(bytecode.OpIterCloseThrow, 0, 2)
	c.op(bytecode.OpThrow)
	c.patch(end)
}

// assignElementTarget assigns the next value of iterator register it (with rest, an array of
// the remaining values) to an array-pattern element target; the target reference (object and
// key) is evaluated before the iterator steps, as the specification orders it.
func (c *compiler) assignElementTarget(target js.IExpr, it int, rest bool) {
	def := js.IExpr(nil)
	t := unparen(target)
	if b, ok := t.(*js.BinaryExpr); ok && b.Op == js.EqToken && !rest {
		t, def = unparen(b.X), b.Y
	}
	step := func() {
		c.emit(bytecode.OpGetReg, it, 0)
		if rest {
			c.op(bytecode.OpIterRest)
			return
		}
		c.op(bytecode.OpIterStep)
		if def != nil {
			j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
			if v, ok := t.(*js.Var); ok {
				c.namedExprS(def, varName(v))
			} else {
				c.expr(def)
			}
			c.patch(j)
		}
	}
	if store, ok := c.targetRef(t); ok {
		step()
		store()
		return
	}
	step()
	c.assignTarget(t)
}

// enterBodyScope enters the separate var scope of a function with parameter
// expressions: vars named like a parameter start with its value, others undefined.
func (c *compiler) enterBodyScope(f *funcInfo) {
	bs := f.body
	if bs.needsEnv() {
		c.emit(bytecode.OpPushEnv, bs.envSize, 0)
		c.pushCtrl(&ctrlEntry{kind: ctrlEnv})
	}
	c.fs.cur = bs
	c.initLexical(bs)
	for _, b := range bs.list {
		if b.kind != bindVar && b.kind != bindFunc {
			continue
		}
		if pb, ok := f.scope.names[b.name]; ok && (pb.kind == bindParam || pb.kind == bindInternal && b.name == "arguments") {
			hops := 0
			if bs.needsEnv() {
				hops = 1
			}
			c.loadBindingUnchecked(pb, hops)
		} else {
			c.op(bytecode.OpUndef)
		}
		c.storeBinding(b, 0)
	}
}

// sourceText records where the text of the function or class node is in the program's
// source, for Function.prototype.toString.
func (c *compiler) sourceText(code *bytecode.Func, node js.INode) {
	if start, end, ok := c.src.Text(node); ok {
		code.SourceStart, code.SourceEnd = start, end
	}
}

// destructCtx is where a destructured value comes from: the expression a declaration or
// assignment destructures (source), a parameter, or an enclosing pattern (nested).
type destructCtx struct {
	source js.IExpr
	param  bool
	nested bool
}

// destructText returns operand A of an object pattern's CheckCoercible: 1 + the constant
// index of what V8's message says when the value is null or undefined, given the pattern's
// first key (ok when it is not computed); 0 for the plain "Cannot destructure 'null'". The
// text is "read\x00KEY" for a nested pattern ("Cannot read properties of null (reading
// 'KEY')"), "param\x00KEY" for a parameter, or "of\x00KEY\x00SOURCE" with the source as
// V8 prints it ("Cannot destructure property 'KEY' of 'SOURCE' as it is null."). Without a
// first key: "readnone" for a nested pattern ("Cannot read
// properties of null"), "paramvalue" for a parameter ("Cannot destructure 'object null' as it
// is null."), "value\x00SOURCE" otherwise ("Cannot destructure 'SOURCE' as it is null.").
func (c *compiler) destructText(ctx destructCtx, key string, ok bool) int {
	if len(key) > 256 {
		return 0
	}
	if !ok {
		// A pattern whose first property has no static name (a computed key, a rest, an
		// empty pattern): V8 names the value, not a property.
		switch {
		case ctx.nested:
			return c.strConst("readnone") + 1
		case ctx.param:
			return c.strConst("paramvalue") + 1
		}
		if src, ok := destructSourceText(ctx.source); ok {
			return c.strConst("value\x00"+src) + 1
		}
		return 0
	}
	switch {
	case ctx.nested:
		return c.strConst("read\x00"+key) + 1
	case ctx.param:
		return c.strConst("param\x00"+key) + 1
	}
	src, ok := destructSourceText(ctx.source)
	if !ok {
		return 0
	}
	return c.textConst("of\x00"+key+"\x00"+src) + 1
}

// destructSourceText renders the expression a declaration or assignment destructures as
// V8's messages name it: a static path, a call of one as path(...), null, an await as
// (intermediate value).
func destructSourceText(source js.IExpr) (string, bool) {
	if source == nil {
		return "", false
	}
	src, ok := v8Print(source)
	if !ok || len(src) > 256 {
		return "", false
	}
	return src, true
}

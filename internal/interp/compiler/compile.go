package compiler

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/syntax"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// The compiler turns the tdewolff AST into bytecode (package bytecode). It runs in
// two passes: scope analysis (compile_scope.go) then code generation, one
// compileXxx per node type (compile_stmt.go, compile_expr.go, compile_assign.go,
// compile_func.go). Functions are numbered in the order the analysis meets
// them, which depends only on the source: the same source always gives the same
// function indices.

// Program is a compiled program as plain data: the functions in source order (index 0 is the
// program body) and the tagged-template sites.
type Program struct {
	Funcs     []*bytecode.Func
	Templates []bytecode.TemplateSite
	Strict    bool // the program is strict code (a script starting with "use strict", or any module body)
}

// Disassemble renders every function of the program as text, one instruction per line, for
// test failures and debugging.
func (p *Program) Disassemble() string {
	var b strings.Builder
	for _, f := range p.Funcs {
		f.Disassemble(&b)
	}
	return b.String()
}

// Compile parses and compiles a program. A program (script false) is the body of an async
// function in strict mode: top-level await and return are allowed, and the value of the last
// top-level expression statement is the completion value. A script (script true) is a classic
// script (test262): not wrapped in a function, strict when it starts with a "use strict"
// directive, with its top-level var and function declarations declared as globals. Errors are
// *syntax.Error, the front end's (KindParseError or KindUnsupportedSyntax, with a position),
// for what the parser refuses and for what the compiler refuses alike.
func Compile(source string, script bool) (prog *Program, err error) {
	mode := syntax.ModeAsyncBody
	if script {
		mode = syntax.ModeScript
	}
	sp, err := syntax.Parse(source, mode)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, &syntax.Error{Kind: syntax.KindParseError, Message: err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(*compileError)
			if !ok {
				panic(r)
			}
			prog, err = nil, &syntax.Error{Kind: ce.kind, Message: ce.msg, Line: ce.pos.Line, Column: ce.pos.Column}
		}
	}()
	c := &compiler{src: sp, script: script}
	c.prog = &Program{Strict: sp.Strict}
	c.compileProgram(sp.AST)
	return c.prog, nil
}

// compileError aborts compilation (recovered in Compile).
type compileError struct {
	kind string
	msg  string
	pos  syntax.Position
}

// compiler is the state of one compilation.
type compiler struct {
	src     *syntax.Program
	prog    *Program
	an      *analyzer
	fs      *funcState
	script  bool
	lastPos syntax.Position
	// parent is the innermost statement or expression (other than an identifier) being
	// compiled: the node an identifier use belongs to, for its position (syntax.IdentPos).
	parent js.INode
	// dctx says where the value of the pattern about to be bound comes from, for the
	// message when it is null or undefined (see destructText).
	dctx destructCtx
}

// enter makes n the parent of what is compiled until the returned function restores the
// previous one.
func (c *compiler) enter(n js.INode) func() {
	prev := c.parent
	c.parent = n
	return func() { c.parent = prev }
}

// funcState is the code generation state of one function.
type funcState struct {
	info     *funcInfo
	code     *bytecode.Func
	cur      *scope
	ctrl     []*ctrlEntry
	strs     map[string]int
	nums     map[uint64]int
	parent   *funcState
	complReg int // program: register holding the completion value (-1 otherwise)
	pending  syntax.Position
	// stmtPending is set while pending is a statement's position not yet given to an
	// instruction: as in V8, it wins over the positions of the expressions the statement
	// starts with (markStmt).
	stmtPending bool
}

func (c *compiler) fail(kind string, node js.INode, format string, args ...any) {
	var pos syntax.Position
	if node != nil {
		pos = c.src.Pos(node)
	}
	panic(&compileError{kind: kind, msg: fmt.Sprintf(format, args...), pos: pos})
}

func (c *compiler) unsupported(node js.INode, what string) {
	c.fail("UnsupportedSyntax", node, "%s is not supported", what)
}

// mark records where V8 reports a run-time error raised by node (syntax.ErrorPos: the
// property of a dot access, the '[' of an index, an operator, ...) for the next emitted
// instruction, which is the one that may raise it.
func (c *compiler) mark(node js.INode) {
	if node == nil {
		return
	}
	if c.fs.stmtPending {
		return
	}
	p := c.src.ErrorPos(node)
	if p.Line != 0 {
		c.fs.pending = p
	}
}

// markStmt records the position of a statement for its first instruction: an error raised
// there (an undeclared name read first, say) is reported where V8 reports it, at the
// statement (a return's keyword, an expression statement's start, a declaration's
// initializer).
func (c *compiler) markStmt(node js.INode) {
	if p := c.src.Pos(node); p.Line != 0 {
		c.fs.pending, c.fs.stmtPending = p, true
	}
}

// markIdent records where the identifier v is used in the node being compiled, for the
// next emitted instruction (the load or store that throws a ReferenceError for an undeclared
// name or an uninitialised binding).
func (c *compiler) markIdent(v *js.Var) {
	if c.fs.stmtPending {
		return
	}
	if p := c.src.IdentPos(c.parent, v); p.Line != 0 {
		c.fs.pending = p
	}
}

func (c *compiler) emit(op bytecode.Op, a, b int) int {
	f := c.fs
	pc := len(f.code.Code)
	if p := f.pending; p.Line != 0 {
		n := len(f.code.Pos)
		if n == 0 || f.code.Pos[n-1].Line != int32(p.Line) || f.code.Pos[n-1].Column != int32(p.Column) {
			f.code.Pos = append(f.code.Pos, bytecode.PosEntry{PC: int32(pc), Line: int32(p.Line), Column: int32(p.Column)})
		}
		f.pending, f.stmtPending = syntax.Position{}, false
	}
	f.code.Code = append(f.code.Code, bytecode.Instr{Op: op, A: int32(a), B: int32(b)})
	return pc
}

func (c *compiler) op(op bytecode.Op) int { return c.emit(op, 0, 0) }

func (c *compiler) pc() int { return len(c.fs.code.Code) }

// patch sets the jump target of the instruction at pc to the current pc.
func (c *compiler) patch(pc int) { c.fs.code.Code[pc].A = int32(c.pc()) }

func (c *compiler) patchTo(pc, target int) { c.fs.code.Code[pc].A = int32(target) }

// strConst returns the constant-pool index of a string given as UTF-16.
func (c *compiler) strConst16(u []uint16) int {
	key := string(utf16Bytes(u))
	if i, ok := c.fs.strs[key]; ok {
		return i
	}
	i := len(c.fs.code.Consts)
	c.fs.code.Consts = append(c.fs.code.Consts, bytecode.Constant{Kind: bytecode.ConstString, Str: u})
	c.fs.strs[key] = i
	return i
}

func utf16Bytes(u []uint16) []byte {
	b := make([]byte, 2*len(u))
	for i, x := range u {
		b[2*i] = byte(x)
		b[2*i+1] = byte(x >> 8)
	}
	return b
}

// strConst returns the constant-pool index of a Go string.
func (c *compiler) strConst(s string) int { return c.strConst16(goToUTF16(s)) }

// textConst returns the constant-pool index of a message text, which may print a string
// literal with lone surrogates (in WTF-8): "\ud800".f is not a function.
func (c *compiler) textConst(s string) int { return c.strConst16(wtf8ToUTF16(s)) }

func goToUTF16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

// bigIntConst returns the constant-pool index of a BigInt literal (kept as decimal digits).
func (c *compiler) bigIntConst(n js.INode) int {
	lit, _ := n.(*js.LiteralExpr)
	digits, ok := "", false
	if lit != nil {
		digits, ok = parseBigIntLiteral(lit.Data)
	}
	if !ok {
		c.fail("SyntaxError", n, "Invalid or unexpected token")
	}
	i := len(c.fs.code.Consts)
	c.fs.code.Consts = append(c.fs.code.Consts, bytecode.Constant{Kind: bytecode.ConstBigInt, Str: goToUTF16(digits)})
	return i
}

func (c *compiler) numConst(f float64) int {
	key := math.Float64bits(f)
	if i, ok := c.fs.nums[key]; ok {
		return i
	}
	i := len(c.fs.code.Consts)
	c.fs.code.Consts = append(c.fs.code.Consts, bytecode.Constant{Kind: bytecode.ConstNumber, Num: f})
	c.fs.nums[key] = i
	return i
}

// emitNumber pushes a number constant.
func (c *compiler) emitNumber(f float64) {
	if f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 && !(f == 0 && math.Signbit(f)) {
		c.emit(bytecode.OpInt, int(f), 0)
		return
	}
	c.emit(bytecode.OpConst, c.numConst(f), 0)
}

func (c *compiler) emitString(s string) { c.emit(bytecode.OpConst, c.strConst(s), 0) }

// newReg allocates a temporary register in the current function.
func (c *compiler) newReg() int {
	r := c.fs.info.numRegs
	c.fs.info.numRegs++
	return r
}

// compileProgram compiles the whole program.
func (c *compiler) compileProgram(ast *js.AST) {
	a := &analyzer{c: c, scopes: map[any]*scope{}, funcs: map[any]*funcInfo{}}
	c.an = a
	body := &ast.BlockStmt
	f := &funcInfo{node: ast, kind: bytecode.FuncProgram, index: 0, simple: true}
	a.order = append(a.order, f)
	a.funcs[ast] = f
	a.fn = f
	f.scope = a.pushScope(ast, true)
	if !c.script {
		for _, n := range varNames(body.List, nil) {
			a.declare(f.scope, n, bindVar)
		}
		a.hoistLexical(f.scope, body.List, true)
	} else {
		a.hoistLexical(f.scope, body.List, true)
		// Script mode: top-level var and function declarations are global object properties.
		for _, b := range f.scope.list {
			if b.kind == bindFunc || b.kind == bindVar {
				delete(f.scope.names, b.name)
			}
		}
		f.scope.list = filterBindings(f.scope.list, f.scope.names)
	}
	a.stmts(body.List)
	a.cur = nil
	a.assignSlots()
	c.prog.Funcs = make([]*bytecode.Func, len(a.order))

	fs := c.beginFunction(f, nil)
	fs.code.Name = ""
	fs.code.Async = !c.script
	fs.complReg = c.newReg()
	c.prologue(f, nil)
	if c.script {
		// Global var/function declarations.
		for _, name := range varNames(body.List, nil) {
			c.emit(bytecode.OpUndef, 0, 0)
			c.emit(bytecode.OpDeclareGlobal, c.strConst(name), 0)
		}
	}
	c.hoistFunctions(body.List)
	n := len(body.List)
	for i, st := range body.List {
		if es, ok := st.(*js.ExprStmt); ok && i == n-1 {
			done := c.enter(es)
			c.markStmt(es.Value)
			c.expr(es.Value)
			done()
			c.emit(bytecode.OpPutReg, fs.complReg, 0)
			continue
		}
		c.stmt(st)
	}
	c.emit(bytecode.OpGetReg, fs.complReg, 0)
	c.op(bytecode.OpReturn)
	c.endFunction()
}

func filterBindings(list []*binding, names map[string]*binding) []*binding {
	out := list[:0]
	for _, b := range list {
		if names[b.name] == b {
			out = append(out, b)
		}
	}
	return out
}

// beginFunction starts code generation for f.
func (c *compiler) beginFunction(f *funcInfo, node js.INode) *funcState {
	code := &bytecode.Func{Index: f.index, Kind: f.kind, Strict: true, ThisReg: -1, Parent: -1}
	if f.parent != nil {
		code.Parent = f.parent.index
	}
	fs := &funcState{info: f, code: code, strs: map[string]int{}, nums: map[uint64]int{}, parent: c.fs, complReg: -1}
	c.prog.Funcs[f.index] = code
	c.fs = fs
	if CodegenShift {
		c.op(bytecode.OpNop)
	}
	return fs
}

func (c *compiler) endFunction() {
	fs := c.fs
	fs.code.NumRegs = fs.info.numRegs
	if CodegenShift {
		fs.code.NumRegs++
	}
	fs.code.NumParams = fs.info.params
	bytecode.Fuse(fs.code.Code)
	c.fs = fs.parent
}

// prologue emits the start of a function body: its environment record, the
// internal bindings (this, arguments, ...), and parameter initialisation.
func (c *compiler) prologue(f *funcInfo, params *js.Params) {
	fs := c.fs
	fs.cur = f.scope
	if f.scope.needsEnv() {
		c.emit(bytecode.OpPushEnv, f.scope.envSize, 0)
	}
	c.initLexical(f.scope)
	for _, b := range f.scope.list {
		switch {
		case b.kind == bindInternal:
			switch b.name {
			case "this":
				if f.kind == bytecode.FuncDerivedCtor {
					c.op(bytecode.OpHole) // uninitialised until super() returns
				} else {
					c.op(bytecode.OpLoadThis)
				}
			case "new.target":
				c.op(bytecode.OpLoadNewTarget)
			case "arguments":
				c.op(bytecode.OpArguments)
			case "%callee":
				c.op(bytecode.OpLoadCallee)
			}
			c.storeBinding(b, 0)
		case b.kind == bindFuncName:
			c.op(bytecode.OpLoadCallee)
			c.storeBinding(b, 0)
		case b.kind == bindParam && b.captured && b.param < 0 && f.simple:
			// captured simple parameter: copy from its argument register
		}
	}
	// Parameters of a non-simple list start uninitialised (TDZ).
	for _, b := range f.scope.list {
		if b.paramTDZ {
			c.op(bytecode.OpHole)
			c.storeBinding(b, 0)
		}
	}
	// Parameters.
	if params != nil {
		for i, p := range params.List {
			if v, ok := p.Binding.(*js.Var); ok && p.Default == nil {
				b := f.scope.names[varName(v)]
				if b.param == i && !b.captured {
					continue
				}
			}
			c.emit(bytecode.OpGetReg, i, 0)
			if p.Default != nil {
				j := c.emit(bytecode.OpJumpIfNotUndef, 0, 0)
				c.namedExpr(p.Default, p.Binding)
				c.patch(j)
			}
			c.dctx = destructCtx{param: true}
			c.bindPattern(p.Binding, true)
			c.dctx = destructCtx{}
		}
		if params.Rest != nil {
			c.emit(bytecode.OpRestArgs, len(params.List), 0)
			c.bindPattern(params.Rest, true)
		}
	}
	// var bindings that are not parameters start as undefined (registers
	// already are; captured ones live in a fresh environment record).
	for _, b := range f.scope.list {
		if b.kind == bindVar && b.captured {
			c.op(bytecode.OpUndef)
			c.storeBinding(b, 0)
		}
	}
}

// initLexical puts the let/const/class bindings of a scope into their TDZ.
func (c *compiler) initLexical(s *scope) {
	for _, b := range s.list {
		if b.kind.lexical() && b.kind != bindClassInner {
			if b.captured {
				continue // a fresh environment record starts uninitialised
			}
			c.op(bytecode.OpHole)
			c.emit(bytecode.OpPutReg, b.reg, 0)
			b.inited = false
		}
	}
}

// declared records that the code generated so far has initialised the let, const or class
// bindings a declaration binds: the reads of those in registers that follow need no dead-zone
// check. (Assignments keep their CheckReg: leaving an instruction out would move the code after
// it, and snapshots written without their compiled code resume at positions in it.) Code is generated in the order of the text, so what follows a declaration
// in its scope runs after it: a scope is entered only at its start (its bindings back in their
// dead zone, initLexical), no jump goes forward past a declaration into the rest of its scope,
// and the other functions reach captured bindings, which live in environment records. The
// exception is the clauses of a switch, which share one scope and each of which may be the entry.
func (c *compiler) declared(names []string) {
	for _, name := range names {
		if b, _ := c.lookup(name); b != nil && !b.captured && b.kind.lexical() && !b.scope.isSwitch {
			b.inited = true
		}
	}
}

// lookup resolves name from the current scope: the binding (nil for a global)
// and the number of environment records to walk up.
func (c *compiler) lookup(name string) (*binding, int) {
	hops := 0
	for s := c.fs.cur; s != nil; s = s.parent {
		if b, ok := s.names[name]; ok {
			return b, hops
		}
		if s.needsEnv() {
			hops++
		}
	}
	return nil, 0
}

// loadName pushes the value of a name.
func (c *compiler) loadName(name string) {
	b, hops := c.lookup(name)
	if b == nil {
		c.emit(bytecode.OpGetGlobal, c.strConst(name), 0)
		return
	}
	c.loadBinding(b, hops)
}

func (c *compiler) loadBinding(b *binding, hops int) {
	if b.captured {
		if b.tdz() {
			c.emit(bytecode.OpGetEnvChecked, hops, b.slot)
			c.emit(bytecode.OpNop, c.nameConst(b), 0)
			return
		}
		c.emit(bytecode.OpGetEnv, hops, b.slot)
		return
	}
	if b.tdz() && !b.inited {
		c.emit(bytecode.OpGetRegChecked, b.reg, c.nameConst(b))
		return
	}
	c.emit(bytecode.OpGetReg, b.reg, 0)
}

func (c *compiler) nameConst(b *binding) int {
	if b.name == "this" {
		return c.strConst("%this")
	}
	return c.strConst(b.name)
}

// storeBinding stores the value on top of the stack into a binding without any
// checks (initialisation). keep=1 leaves the value on the stack.
func (c *compiler) storeBinding(b *binding, keep int) {
	hops := 0
	for s := c.fs.cur; s != nil && s != b.scope; s = s.parent {
		if s.needsEnv() {
			hops++
		}
	}
	if b.captured {
		if keep == 1 {
			c.emit(bytecode.OpSetEnv, hops, b.slot)
		} else {
			c.emit(bytecode.OpPutEnv, hops, b.slot)
		}
		return
	}
	if keep == 1 {
		c.emit(bytecode.OpSetReg, b.reg, 0)
	} else {
		c.emit(bytecode.OpPutReg, b.reg, 0)
	}
}

// initName initialises a declared name (var/let/const/param binding) with the value on top of the stack (popped).
func (c *compiler) initName(name string) {
	b, _ := c.lookup(name)
	if b == nil {
		c.emit(bytecode.OpDeclareGlobal, c.strConst(name), 0)
		return
	}
	c.storeBinding(b, 0)
}

// assignName assigns the value on top of the stack to a name (kept on the stack).
func (c *compiler) assignName(name string) {
	b, hops := c.lookup(name)
	if b == nil {
		c.emit(bytecode.OpSetGlobal, c.strConst(name), 0)
		return
	}
	if b.tdz() {
		if b.captured {
			c.emit(bytecode.OpCheckEnv, hops, b.slot)
			c.emit(bytecode.OpNop, c.nameConst(b), 0)
		} else {
			c.emit(bytecode.OpCheckReg, b.reg, c.nameConst(b))
		}
	}
	switch b.kind {
	case bindConst, bindFuncName, bindClassInner:
		c.op(bytecode.OpThrowConst)
		return
	}
	c.storeBinding(b, 1)
}

// Control stack: what break, continue and return must undo on their way out.
type ctrlKind uint8

const (
	ctrlLoop    ctrlKind = iota // a loop (break and continue targets)
	ctrlSwitch                  // a switch (break target)
	ctrlLabel                   // a labelled non-loop statement (break target)
	ctrlEnv                     // an environment record pushed by a block
	ctrlTry                     // an active exception handler without finally
	ctrlFinally                 // a try with finally
	ctrlIter                    // an open iterator (for-of): closed on break/return
)

type ctrlEntry struct {
	kind       ctrlKind
	labels     []string
	breaks     []int
	continues  []int
	iterReg    int  // ctrlIter / for-of loop: the iterator record register
	async      bool // ctrlIter: async iterator
	iterIfOpen bool // ctrlIter of a destructuring pattern: close only when not exhausted
	handler    bool // ctrlFinally: its handler is active
	finally    *js.BlockStmt
	scope      *scope
}

func (c *compiler) pushCtrl(e *ctrlEntry) *ctrlEntry {
	e.scope = c.fs.cur
	c.fs.ctrl = append(c.fs.ctrl, e)
	return e
}

func (c *compiler) popCtrl() { c.fs.ctrl = c.fs.ctrl[:len(c.fs.ctrl)-1] }

// unwind emits the cleanup of every control entry above index target (exclusive).
func (c *compiler) unwind(target int) {
	fs := c.fs
	saveCtrl, saveCur := fs.ctrl, fs.cur
	for i := len(saveCtrl) - 1; i > target; i-- {
		e := saveCtrl[i]
		switch e.kind {
		case ctrlEnv:
			c.op(bytecode.OpPopEnv)
			fs.cur = e.scope
		case ctrlTry:
			c.op(bytecode.OpTryPop)
		case ctrlIter:
			c.emit(bytecode.OpGetReg, e.iterReg, 0)
			switch {
			case e.async:
				c.emitAsyncIterClose()
			case e.iterIfOpen:
				c.emit(bytecode.OpIterClose, 0, 2)
			default:
				c.op(bytecode.OpIterClose)
			}
		case ctrlFinally:
			if e.handler {
				c.op(bytecode.OpTryPop)
			}
			// capacity i: the entries the finally block pushes (a loop in it) must not
			// overwrite this one in saveCtrl, which the code after it still unwinds through
			fs.ctrl = saveCtrl[:i:i]
			fs.cur = e.scope
			c.block(e.finally)
		}
	}
	fs.ctrl, fs.cur = saveCtrl, saveCur
}

func (c *compiler) emitAsyncIterClose() {
	c.emit(bytecode.OpIterClose, 0, 1) // B=1: async: pushes the result of return() (or undefined)
	c.op(bytecode.OpAwait)
	c.op(bytecode.OpPop)
}

// emitReturn returns the value on top of the stack through every finally block.
func (c *compiler) emitReturn() {
	if c.needsUnwind(-1) {
		r := c.newReg()
		c.emit(bytecode.OpPutReg, r, 0)
		c.unwind(-1)
		c.emit(bytecode.OpGetReg, r, 0)
	}
	if c.fs.info.kind == bytecode.FuncDerivedCtor {
		b, hops := c.lookup("this")
		if b != nil {
			c.loadBindingUnchecked(b, hops)
		} else {
			c.op(bytecode.OpUndef)
		}
		c.op(bytecode.OpCheckReturn)
	}
	c.op(bytecode.OpReturn)
}

func (c *compiler) loadBindingUnchecked(b *binding, hops int) {
	if b.captured {
		c.emit(bytecode.OpGetEnv, hops, b.slot)
	} else {
		c.emit(bytecode.OpGetReg, b.reg, 0)
	}
}

func (c *compiler) needsUnwind(target int) bool {
	for i := len(c.fs.ctrl) - 1; i > target; i-- {
		switch c.fs.ctrl[i].kind {
		case ctrlIter, ctrlFinally:
			return true
		}
	}
	return false
}

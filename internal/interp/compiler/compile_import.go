package compiler

import (
	"github.com/codemode/codemode/internal/interp/syntax"
	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Import declarations and import(): see module.go for what a module is. The front end puts
// the declarations at the front of the program (syntax/imports.go) and the analyzer declares
// their bindings as constants of the program's top scope, so each declaration here only
// initialises them, before the program's first statement.

// importStmt compiles import ... from "spec": the module, then each binding from it.
func (c *compiler) importStmt(n *js.ImportStmt) {
	spec := syntax.ImportModule(n)
	c.emitString(spec)
	c.mark(n)
	c.emit(bytecode.OpImport, 0, 0)
	for _, b := range syntax.ImportBindings(n) {
		c.op(bytecode.OpDup)
		if b.Imported != "default" && b.Imported != "*" {
			c.emitString(spec)
			c.mark(n)
			c.emit(bytecode.OpImport, 2, c.strConst(b.Imported))
		}
		c.initName(b.Local)
	}
	c.op(bytecode.OpPop)
	// The declaration's position ends with it: the program's statements that follow are
	// elsewhere in the source, and one without a position of its own must not seem to be at
	// the import.
	f := c.fs
	f.code.Pos = append(f.code.Pos, bytecode.PosEntry{PC: int32(c.pc())})
}

// isImportCall reports whether a call's callee is the import keyword (import(spec)).
func isImportCall(e js.IExpr) bool {
	lit, ok := e.(*js.LiteralExpr)
	return ok && lit.TokenType == js.ImportToken
}

// dynamicImport compiles import(spec, options): a promise of the module. The options are
// evaluated and ignored.
func (c *compiler) dynamicImport(n *js.CallExpr) {
	list := n.Args.List
	if len(list) == 0 {
		c.op(bytecode.OpUndef)
	}
	for i, a := range list {
		c.expr(a.Value)
		if i > 0 {
			c.op(bytecode.OpPop)
		}
	}
	c.mark(n)
	c.emit(bytecode.OpImport, 1, 0)
}

package interp

import "github.com/codemode/codemode/internal/interp/bytecode"

// How console output names JavaScript functions: [class A extends B], [AsyncFunction: f],
// [GeneratorFunction: g], [AsyncGeneratorFunction: h] (functionKinder for closures).

var _ functionKinder = (*closureSlots)(nil)

// consoleFunctionKind implements functionKinder: the kind of a compiled function, and for a
// derived class the name of its parent (the constructor's prototype).
func (cl *closureSlots) consoleFunctionKind() (kind, extends string) {
	code := cl.code
	switch {
	case code.Kind == bytecode.FuncClassCtor || code.Kind == bytecode.FuncDerivedCtor:
		if code.Kind == bytecode.FuncDerivedCtor && cl.obj != nil && cl.obj.proto != nil {
			if n := lookupDataProperty(cl.obj.proto, keyName); n.kind == KindString {
				extends = n.str().String()
			}
		}
		return "class", extends
	case code.Async && code.Generator:
		return "AsyncGeneratorFunction", ""
	case code.Async:
		return "AsyncFunction", ""
	case code.Generator:
		return "GeneratorFunction", ""
	}
	return "Function", ""
}

package interp

// How console output names JavaScript functions: [class A extends B], [AsyncFunction: f],
// [GeneratorFunction: g], [AsyncGeneratorFunction: h] (functionKinder for closures).

var _ functionKinder = (*closureSlots)(nil)

// consoleFunctionKind implements functionKinder: the kind of a compiled function, and for a
// derived class the name of its parent (the constructor's prototype).
func (cl *closureSlots) consoleFunctionKind() (kind, extends string) {
	code := cl.code
	switch {
	case code.Kind == funcClassCtor || code.Kind == funcDerivedCtor:
		if code.Kind == funcDerivedCtor && cl.obj != nil && cl.obj.proto != nil {
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

//go:build !codegen_shift

package run

// codegenShifted tells the tests whether the interpreter's code generator is the changed one of
// the codegen_shift build tag (internal/interp/compiler/codegen_shift.go).
const codegenShifted = false

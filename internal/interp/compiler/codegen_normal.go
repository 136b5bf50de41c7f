//go:build !codegen_shift

package compiler

// CodegenShift is false: the code generator of this release (see codegen_shift.go).
const CodegenShift = false

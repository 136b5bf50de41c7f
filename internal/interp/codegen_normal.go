//go:build !codegen_shift

package interp

// codegenShift is false: the code generator of this release (see codegen_shift.go).
const codegenShift = false

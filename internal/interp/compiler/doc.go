// Package compiler turns the text of a JavaScript program into bytecode: it parses and checks
// the program (package syntax, on tdewolff/parse), resolves its bindings to registers and
// environment slots, and generates the code of every function as the plain data of package
// bytecode (Program, with its own Error for programs that do not compile).
//
// It imports bytecode and syntax, never the interpreter: internal/interp wraps its Program for
// the VM (constant values, property keys) and turns its errors into Diagnostics.
//
// The code generator has a second form, for the tests of upgrade-safe snapshots: the build tag
// codegen_shift (codegen_shift.go) changes the code it generates the way a later release might.
package compiler

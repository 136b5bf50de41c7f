// Package bytecode is the compiled form of a JavaScript program as plain data: the
// instruction set (Op, append-only in meaning: see opcode.go), instructions, constant pools,
// function kinds, source positions, tagged-template sites and a function's code (Func), with
// its disassembly and the fusion of instruction sequences into superinstructions (fuse.go).
//
// It imports nothing of the interpreter: the compiler writes this data, the VM runs it and the
// snapshot codec encodes it (internal/interp).
package bytecode

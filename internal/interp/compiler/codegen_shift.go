//go:build codegen_shift

package compiler

// CodegenShift changes the code generator the way a later release might, for the tests of
// upgrade-safe snapshots (docs/snapshots.md): every function starts with a no-op, which moves
// every instruction to the next pc, and has one more register. Programs behave the same (one
// more instruction per call); their code and fingerprints differ, so snapshots written by the
// normal build resume here only on the code they carry, and the other way round.
//
//	go test -tags codegen_shift ./internal/interp/... ./internal/run/...
const CodegenShift = true

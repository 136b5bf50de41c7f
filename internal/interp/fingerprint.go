package interp

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// CodeFingerprint returns a hex digest of the program's compiled code: every function's
// instructions (by operation name), operands, constants and frame layout.
//
// A snapshot refers to code by function index and instruction index, and Restore compiles the
// embedded source again. When a newer compiler turns the same source into different code, those
// indices would point at other instructions; snapshots therefore carry the fingerprint, and
// Restore uses the fresh compilation only when its fingerprint is the snapshot's. Otherwise it
// resumes on the code the snapshot carries (snapshot_code.go), after checking that code has the
// fingerprint; a snapshot without code is refused (ErrCodeChanged) instead of being resumed at
// the wrong place. Operation names rather than numbers are hashed, so reordering the opcode
// list changes nothing. What is hashed must not change: stored snapshots carry fingerprints.
func (p *Program) CodeFingerprint() string {
	p.fingerprintOnce.Do(func() { p.fingerprint = computeFingerprint(p) })
	return p.fingerprint
}

func computeFingerprint(p *Program) string {
	h := sha256.New()
	var buf [8]byte
	num := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	text := func(s string) {
		num(int64(len(s)))
		h.Write([]byte(s))
	}
	num(int64(len(p.Funcs)))
	for _, f := range p.Funcs {
		num(int64(f.Kind))
		flags := int64(0)
		for i, b := range []bool{f.Async, f.Generator, f.Strict, f.HasFields} {
			if b {
				flags |= 1 << i
			}
		}
		num(flags)
		num(int64(f.NumRegs))
		num(int64(f.ThisReg))
		num(int64(f.NumParams))
		num(int64(f.Parent))
		num(int64(len(f.Code)))
		for _, in := range f.Code {
			text(in.Op.String())
			num(int64(in.A))
			num(int64(in.B))
		}
		num(int64(len(f.Consts)))
		for _, k := range f.Consts {
			num(int64(k.Kind))
			num(int64(math.Float64bits(k.Num)))
			num(int64(len(k.Str)))
			for _, u := range k.Str {
				binary.LittleEndian.PutUint16(buf[:2], u)
				h.Write(buf[:2])
			}
		}
	}
	num(int64(len(p.Templates)))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

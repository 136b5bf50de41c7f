package interp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// FuncCode is the compiled code of one JavaScript function (or of the program body, index 0):
// the plain code (bytecode.Func, embedded by value so that the VM reads f.Code and f.NumRegs
// directly) and what the VM derives from it once, when the program is compiled or restored.
// It holds no pointers to run-time state: everything a frame needs to resume is (function
// index, pc), registers, operand stack and environment, so frames are plain data.
type FuncCode struct {
	bytecode.Func

	vals      []Value       // Consts as values (built at compile time; immutable)
	keys      []PropertyKey // Consts as property keys (strings only)
	keyHashes []uint64      // propHash of keys (0 for the other constants)
	name      *jsString     // Name as a string, for the name property of its closures
	// hints are the property lookups' guesses, by pc (vm_hint.go): where in an object's keys
	// the instruction's key was found last. Written while the code runs, by every VM that
	// runs it (atomically), never encoded.
	hints []uint32
}

// Program is a compiled program: the functions in source order (index 0 is the
// program body) and the tagged-template sites. Snapshots refer to code by function
// index and pc, and carry the Program's code (snapshot_code.go), so that a release
// whose compiler turns the same source into different code resumes them on the code
// they were running.
type Program struct {
	Funcs     []*FuncCode
	Templates []bytecode.TemplateSite
	source    string
	hash      string
	script    bool // compiled with CompileScript
	strict    bool

	fingerprintOnce sync.Once // CodeFingerprint, computed on first use
	fingerprint     string

	quotedOnce   sync.Once // quotedSource, computed on the first snapshot
	quotedSource []byte

	compiledOnce sync.Once // compiled, computed on the first snapshot
	compiled     []byte    // the "compiled" member of snapshots (snapshot_code.go)

	compiledBinOnce sync.Once
	compiledBinary  []byte // the "compiled" member of format-2 snapshots
	packedOnce      sync.Once
	packed          []byte // the "program" member of format-2 snapshots (snapshot_bin_program.go)
}

// quoted returns the source as snapshots write it: a JSON string of its UTF-16 code units.
// Computed once per program; every snapshot of every VM running it writes the same text.
func (p *Program) quoted() []byte {
	p.quotedOnce.Do(func() {
		var w jsonWriter
		w.jsString(newStringFromGo(p.source))
		p.quotedSource = w.buf
	})
	return p.quotedSource
}

// Hash returns the hex SHA-256 of the program source; snapshots use it to identify code.
func (p *Program) Hash() string { return p.hash }

// Source returns the program text.
func (p *Program) Source() string { return p.source }

func hashSource(src string) string {
	sum := sha256.Sum256([]byte(src))
	return hex.EncodeToString(sum[:])
}

// Disassemble renders every function of the program as text, one instruction
// per line, for test failures and debugging.
func (p *Program) Disassemble() string {
	var b strings.Builder
	for _, f := range p.Funcs {
		f.Disassemble(&b)
	}
	return b.String()
}

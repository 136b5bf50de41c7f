package interp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
)

// Instr is one bytecode instruction: an operation and two integer operands whose
// meaning depends on the operation (see Op).
type Instr struct {
	Op Op
	A  int32
	B  int32
}

// constKind tells what a constant-pool entry holds.
type constKind uint8

const (
	constNumber constKind = iota
	constString
	constBigInt
)

// Constant is an entry of a function's constant pool: a number or a string
// (kept as UTF-16 code units so lone surrogates survive).
type Constant struct {
	Kind constKind
	Num  float64
	Str  []uint16
}

// GoString returns the constant's text as UTF-8 (lone surrogates become U+FFFD).
func (k Constant) GoString() string {
	if k.Kind == constNumber {
		return fmt.Sprint(k.Num)
	}
	return string(utf16.Decode(k.Str))
}

// funcKind distinguishes how a function may be called.
type funcKind uint8

const (
	funcNormal      funcKind = iota // function declaration or expression: callable and constructible
	funcArrow                       // arrow function: lexical this, not constructible
	funcMethod                      // object/class method: not constructible, has a home object
	funcGetter                      // accessor getter
	funcSetter                      // accessor setter
	funcClassCtor                   // base class constructor
	funcDerivedCtor                 // derived class constructor (this starts uninitialised)
	funcFieldInit                   // class field initialiser / static block body (a method)
	funcProgram                     // the top-level program body
)

// posEntry maps the instructions from PC on to a source position.
type posEntry struct {
	PC     int32
	Line   int32
	Column int32
}

// FuncCode is the compiled code of one JavaScript function (or of the program
// body, index 0). It holds no pointers to run-time state: everything a frame
// needs to resume is (function index, pc), registers, operand stack and
// environment, so frames are plain data.
type FuncCode struct {
	Index     int      // position in Program.Funcs (source order, program body = 0)
	Name      string   // the function's name property ("" when anonymous)
	Kind      funcKind // how it may be called
	Async     bool
	Generator bool
	Strict    bool
	Length    int  // the function's length property (formal parameters before the first default/rest)
	NumRegs   int  // registers (locals and temporaries)
	ThisReg   int  // register holding this when UsesThis and not captured; -1 otherwise
	HasFields bool // class constructor whose class has instance fields
	Code      []Instr
	Consts    []Constant
	Pos       []posEntry // sorted by PC
	Parent    int        // enclosing function index (-1 for the program)
	NumParams int        // formal parameters before the rest parameter (registers 0..NumParams-1)

	vals      []Value       // Consts as values (built at compile time; immutable)
	keys      []PropertyKey // Consts as property keys (strings only)
	keyHashes []uint64      // propHash of keys (0 for the other constants)
	name      *jsString     // Name as a string, for the name property of its closures
	// hints are the property lookups' guesses, by pc (vm_hint.go): where in an object's keys
	// the instruction's key was found last. Written while the code runs, by every VM that
	// runs it (atomically), never encoded.
	hints       []uint32
	SourceStart int // byte offsets of the function text in the program (Function.prototype.toString)
	SourceEnd   int
}

// PosAt returns the source position of the instruction at pc (0, 0 when unknown).
func (f *FuncCode) PosAt(pc int) (line, column int) {
	lo, hi := 0, len(f.Pos)
	for lo < hi {
		m := (lo + hi) / 2
		if int(f.Pos[m].PC) <= pc {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0, 0
	}
	e := f.Pos[lo-1]
	return int(e.Line), int(e.Column)
}

// templateSite is the data of one tagged template call site: cooked strings
// (nil entries mean undefined: an invalid escape) and raw strings.
type templateSite struct {
	Cooked [][]uint16
	Valid  []bool
	Raw    [][]uint16
}

// Program is a compiled program: the functions in source order (index 0 is the
// program body) and the tagged-template sites. Snapshots refer to code by function
// index and pc, and carry the Program's code (snapshot_code.go), so that a release
// whose compiler turns the same source into different code resumes them on the code
// they were running.
type Program struct {
	Funcs     []*FuncCode
	Templates []templateSite
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
		f.disassemble(&b)
	}
	return b.String()
}

func (f *FuncCode) disassemble(b *strings.Builder) {
	fmt.Fprintf(b, "func #%d %q kind=%d async=%v gen=%v regs=%d len=%d parent=%d\n",
		f.Index, f.Name, f.Kind, f.Async, f.Generator, f.NumRegs, f.Length, f.Parent)
	for pc, in := range f.Code {
		fmt.Fprintf(b, "  %4d %-18s %d %d", pc, in.Op, in.A, in.B)
		switch in.Op {
		case OpConst, OpGetProp, OpGetPropKeep, OpSetProp, OpGetGlobal, OpSetGlobal, OpTypeofGlobal,
			OpDeclareGlobal, OpDefineName, OpThrowRef, OpThrowTyp, OpDeleteProp:
			if int(in.A) < len(f.Consts) {
				fmt.Fprintf(b, "\t; %s", f.Consts[in.A].GoString())
			}
		}
		b.WriteByte('\n')
	}
}

package bytecode

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Instr is one bytecode instruction: an operation and two integer operands whose
// meaning depends on the operation (see Op).
type Instr struct {
	Op Op
	A  int32
	B  int32
}

// ConstKind tells what a constant-pool entry holds.
type ConstKind uint8

const (
	ConstNumber ConstKind = iota
	ConstString
	ConstBigInt
)

// Constant is an entry of a function's constant pool: a number or a string
// (kept as UTF-16 code units so lone surrogates survive).
type Constant struct {
	Kind ConstKind
	Num  float64
	Str  []uint16
}

// GoString returns the constant's text as UTF-8 (lone surrogates become U+FFFD).
func (k Constant) GoString() string {
	if k.Kind == ConstNumber {
		return fmt.Sprint(k.Num)
	}
	return string(utf16.Decode(k.Str))
}

// FuncKind distinguishes how a function may be called.
type FuncKind uint8

const (
	FuncNormal      FuncKind = iota // function declaration or expression: callable and constructible
	FuncArrow                       // arrow function: lexical this, not constructible
	FuncMethod                      // object/class method: not constructible, has a home object
	FuncGetter                      // accessor getter
	FuncSetter                      // accessor setter
	FuncClassCtor                   // base class constructor
	FuncDerivedCtor                 // derived class constructor (this starts uninitialised)
	FuncFieldInit                   // class field initialiser / static block body (a method)
	FuncProgram                     // the top-level program body
)

// PosEntry maps the instructions from PC on to a source position.
type PosEntry struct {
	PC     int32
	Line   int32
	Column int32
}

// Func is the compiled code of one JavaScript function (or of the program body, index 0):
// plain data, with no pointers to run-time state. Everything a frame needs to resume is
// (function index, pc), registers, operand stack and environment, so frames are plain data.
type Func struct {
	Index     int      // position in the program's functions (source order, program body = 0)
	Name      string   // the function's name property ("" when anonymous)
	Kind      FuncKind // how it may be called
	Async     bool
	Generator bool
	Strict    bool
	Length    int  // the function's length property (formal parameters before the first default/rest)
	NumRegs   int  // registers (locals and temporaries)
	ThisReg   int  // register holding this when UsesThis and not captured; -1 otherwise
	HasFields bool // class constructor whose class has instance fields
	Code      []Instr
	Consts    []Constant
	Pos       []PosEntry // sorted by PC
	Parent    int        // enclosing function index (-1 for the program)
	NumParams int        // formal parameters before the rest parameter (registers 0..NumParams-1)

	SourceStart int // byte offsets of the function text in the program (Function.prototype.toString)
	SourceEnd   int
}

// PosAt returns the source position of the instruction at pc (0, 0 when unknown).
func (f *Func) PosAt(pc int) (line, column int) {
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

// PrivateAdd is operand B of OpDefPrivate: what is being added to the object.
type PrivateAdd int32

const (
	PrivateField       PrivateAdd = iota // a private field: adding it twice throws
	PrivateBrandShared                   // a static method brand, added once per accessor half: a second add is a no-op
	PrivateBrand                         // an instance's method brand: adding it twice throws
)

// TemplateSite is the data of one tagged template call site: cooked strings
// (nil entries mean undefined: an invalid escape) and raw strings.
type TemplateSite struct {
	Cooked [][]uint16
	Valid  []bool
	Raw    [][]uint16
}

// Disassemble writes the function to b as text, a header line and then one instruction per
// line, for test failures and debugging.
func (f *Func) Disassemble(b *strings.Builder) {
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

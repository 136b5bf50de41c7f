package interp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/codemode/codemode/internal/interp/bytecode"
	"github.com/codemode/codemode/internal/interp/compiler"
	"github.com/codemode/codemode/internal/interp/syntax"
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

// Compile parses and compiles a program: the body of an async function in strict
// mode (top-level await and return allowed; the value of the last top-level
// expression statement is the completion value). Errors are *Diagnostic with
// Kind "ParseError" or "UnsupportedSyntax".
func Compile(source string) (*Program, error) {
	return compileSource(source, false)
}

// CompileShared is Compile for a program that may have been compiled before in this process:
// the last programs compiled by CompileShared or read by Restore are kept by source text and
// shared (a Program is immutable once compiled, so VMs share it). Failures are not kept.
func CompileShared(source string) (*Program, error) {
	return sharedPrograms.compile(source, false)
}

// CompileScript compiles a classic script (test262): not wrapped in an async
// function, no top-level await or return, strict when it starts with a
// "use strict" directive. Top-level var and function declarations become
// properties of the global object.
func CompileScript(source string) (*Program, error) {
	return compileSource(source, true)
}

func compileSource(source string, script bool) (*Program, error) {
	cp, err := compiler.Compile(source, script)
	if err != nil {
		var ce *syntax.Error
		if errors.As(err, &ce) {
			return nil, &Diagnostic{Kind: ce.Kind, Message: ce.Message, Line: ce.Line, Column: ce.Column}
		}
		return nil, err
	}
	p := &Program{Funcs: make([]*FuncCode, len(cp.Funcs)), Templates: cp.Templates, source: source,
		hash: hashSource(source), script: script, strict: cp.Strict}
	names := map[string]string{}
	for i, f := range cp.Funcs {
		code := &FuncCode{Func: *f}
		code.buildConstValues(names)
		p.Funcs[i] = code
	}
	return p, nil
}

// buildConstValues fills vals and keys from Consts (and makes the code's lookup hints).
//
// The keys' names are interned: a name that a built-in object has as a key is its string, and
// names take the string of the same name in names (filled as it goes; nil: none). Comparing
// two keys whose names share their bytes stops at the pointers, where different copies of one
// name are compared byte by byte.
func (f *FuncCode) buildConstValues(names map[string]string) {
	f.hints = make([]uint32, len(f.Code))
	f.vals = make([]Value, len(f.Consts))
	f.keys = make([]PropertyKey, len(f.Consts))
	f.keyHashes = make([]uint64, len(f.Consts))
	f.name = newStringFromGo(f.Name)
	for i, k := range f.Consts {
		if k.Kind == bytecode.ConstNumber {
			f.vals[i] = Number(k.Num)
			continue
		}
		if k.Kind == bytecode.ConstBigInt {
			f.vals[i] = bigIntValue(parseDecimal(string(utf16.Decode(k.Str))))
			continue
		}
		s := newUTF16(k.Str)
		f.vals[i] = stringValue(s)
		f.keys[i] = strKey(internKeyName(names, s.wtf8()))
		f.keyHashes[i] = propHash(f.keys[i])
	}
}

// internKeyName returns the interned string of a key name (see buildConstValues).
func internKeyName(names map[string]string, name string) string {
	if f := frozen.Load(); f != nil {
		if n, ok := f.names[name]; ok {
			return n
		}
	}
	if names == nil {
		return name
	}
	if n, ok := names[name]; ok {
		return n
	}
	names[name] = name
	return name
}

package interp

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// The compiled code a snapshot carries.
//
// Snapshot writes the program's compiled code next to its source (the "compiled" member, see
// snapshot_codec.go), so that a release whose compiler turns the same source into different
// code can still resume the run on the code it was running:
//
//	"compiled": {"ops": ["GetReg", "Return", ...],   // the operations the code uses, by name
//	             "funcs": [{"kind": "program", "async": true, "regs": 3, "this": -1,
//	                        "length": 0, "params": 0, "parent": -1, "name": "",
//	                        "src": [start, end],
//	                        "code": "base64",  // per instruction: op (index into "ops"), A, B
//	                        "consts": ["text", 1.5, {"number": "Infinity"}, {"bigint": "12"}],
//	                        "pos": "base64"},  // per entry: pc, line (from the previous entry's), column
//	                       ...],
//	             "templates": [{"cooked": ["a", null], "raw": ["a", "\\u"]}, ...]}
//
// "code" and "pos" are standard base64 of signed varints (encoding/binary.AppendVarint), which
// keeps the member about a third of the size of JSON arrays of the same numbers.
//
// Operations are written by name, never by their number in the Op list: the instruction set
// is append-only in meaning (see bytecode/opcode.go), so a name read from any earlier snapshot means
// the same thing in this release. Restore uses this code only when the source no longer
// compiles to the snapshot's fingerprint (restoreProgram).

// ErrUnknownOperation is returned (wrapped) by Restore when a snapshot's compiled code uses an
// operation this release does not know: the snapshot was written by a newer release, and the
// run must be resumed by that release or a later one.
var ErrUnknownOperation = errors.New("interp: the snapshot's code uses an operation this release does not know")

// funcKindNames are the snapshot names of the function kinds (like operations, written by
// name so that the bytecode.FuncKind list may change).
var funcKindNames = [...]string{
	bytecode.FuncNormal: "normal", bytecode.FuncArrow: "arrow", bytecode.FuncMethod: "method", bytecode.FuncGetter: "getter",
	bytecode.FuncSetter: "setter", bytecode.FuncClassCtor: "classCtor", bytecode.FuncDerivedCtor: "derivedCtor",
	bytecode.FuncFieldInit: "fieldInit", bytecode.FuncProgram: "program",
}

// compiledJSON returns the program's compiled code as snapshots write it (the "compiled"
// member). Computed once per program, like quoted: every snapshot of every VM running the
// program writes the same bytes.
func (p *Program) compiledJSON() []byte {
	p.compiledOnce.Do(func() { p.compiled = encodeCompiled(p, false) })
	return p.compiled
}

// compiledBin is compiledJSON in format 2: a format-2 document of the same members (base64
// strings as bytes), which format-2 snapshots embed.
func (p *Program) compiledBin() []byte {
	p.compiledBinOnce.Do(func() { p.compiledBinary = encodeCompiled(p, true) })
	return p.compiledBinary
}

func encodeCompiled(p *Program, bin bool) []byte {
	w := &jsonWriter{}
	if bin {
		w.tab = &binTable{}
	}
	// The operations used, in order of first use.
	index := map[bytecode.Op]int{}
	var ops []bytecode.Op
	for _, f := range p.Funcs {
		for _, in := range f.Code {
			if _, ok := index[in.Op]; !ok {
				index[in.Op] = len(ops)
				ops = append(ops, in.Op)
			}
		}
	}
	w.beginObject()
	w.key("ops")
	w.beginArray()
	for _, op := range ops {
		w.string(op.String())
	}
	w.endArray()
	w.key("funcs")
	w.beginArray()
	for _, f := range p.Funcs {
		w.beginObject()
		w.key("kind")
		w.string(funcKindNames[f.Kind])
		for _, flag := range []struct {
			name string
			on   bool
		}{{"async", f.Async}, {"generator", f.Generator}, {"strict", f.Strict}, {"fields", f.HasFields}} {
			if flag.on {
				w.key(flag.name)
				w.bool(true)
			}
		}
		w.key("regs")
		w.int(int64(f.NumRegs))
		w.key("this")
		w.int(int64(f.ThisReg))
		w.key("length")
		w.int(int64(f.Length))
		w.key("params")
		w.int(int64(f.NumParams))
		w.key("parent")
		w.int(int64(f.Parent))
		w.key("name")
		w.string(f.Name)
		w.key("src")
		w.beginArray()
		w.int(int64(f.SourceStart))
		w.int(int64(f.SourceEnd))
		w.endArray()
		w.key("code")
		var b []byte
		for _, in := range f.Code {
			b = binary.AppendVarint(b, int64(index[in.Op]))
			b = binary.AppendVarint(b, int64(in.A))
			b = binary.AppendVarint(b, int64(in.B))
		}
		w.bytes(b)
		w.key("consts")
		w.beginArray()
		for _, k := range f.Consts {
			encodeConstant(w, k)
		}
		w.endArray()
		w.key("pos")
		b = b[:0]
		var prev bytecode.PosEntry
		for _, e := range f.Pos {
			b = binary.AppendVarint(b, int64(e.PC-prev.PC))
			b = binary.AppendVarint(b, int64(e.Line-prev.Line))
			b = binary.AppendVarint(b, int64(e.Column))
			prev = e
		}
		w.bytes(b)
		w.endObject()
	}
	w.endArray()
	w.key("templates")
	w.beginArray()
	for _, t := range p.Templates {
		w.beginObject()
		w.key("cooked")
		w.beginArray()
		for i, c := range t.Cooked {
			if i < len(t.Valid) && !t.Valid[i] {
				w.null()
				continue
			}
			w.utf16(c)
		}
		w.endArray()
		w.key("raw")
		w.beginArray()
		for _, r := range t.Raw {
			w.utf16(r)
		}
		w.endArray()
		w.endObject()
	}
	w.endArray()
	w.endObject()
	if bin {
		return w.tab.appendDoc(nil, w.buf)
	}
	return w.buf
}

// encodeConstant writes a constant-pool entry: a string as a JSON string, a finite number
// (other than -0) as a JSON number, other numbers as {"number": "NaN" | "Infinity" |
// "-Infinity" | "-0"}, and a BigInt as {"bigint": digits}.
func encodeConstant(w *jsonWriter, k bytecode.Constant) {
	switch k.Kind {
	case bytecode.ConstString:
		w.utf16(k.Str)
	case bytecode.ConstBigInt:
		w.beginObject()
		w.key("bigint")
		w.utf16(k.Str)
		w.endObject()
	default:
		var special string
		switch {
		case math.IsNaN(k.Num):
			special = "NaN"
		case math.IsInf(k.Num, 1):
			special = "Infinity"
		case math.IsInf(k.Num, -1):
			special = "-Infinity"
		case k.Num == 0 && math.Signbit(k.Num):
			special = "-0"
		}
		if special == "" {
			w.float(k.Num)
			return
		}
		w.beginObject()
		w.key("number")
		w.string(special)
		w.endObject()
	}
}

// decodeCompiled rebuilds a program from a snapshot's "compiled" member (data), for the
// snapshot's source and script flag.
func decodeCompiled(data []byte, source string, script bool) (*Program, error) {
	r := &jsonReader{data: data}
	if len(data) > 0 && data[0] == binMarker {
		r = openBin(data)
	}
	p := &Program{source: source, hash: hashSource(source), script: script, strict: true}
	var ops []bytecode.Op
	var unknown []string
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "ops":
			r.beginArray()
			for f := true; r.more(f); f = false {
				name := r.goString()
				op, ok := bytecode.OpByName(name)
				if !ok {
					unknown = append(unknown, name)
				}
				ops = append(ops, op)
			}
		case "funcs":
			r.beginArray()
			for f := true; r.more(f); f = false {
				fc := decodeFuncCode(r, ops)
				if r.err != nil {
					break
				}
				fc.Index = len(p.Funcs)
				p.Funcs = append(p.Funcs, fc)
			}
		case "templates":
			r.beginArray()
			for f := true; r.more(f); f = false {
				p.Templates = append(p.Templates, decodeTemplateSite(r))
			}
		default:
			r.skip()
		}
		if r.err != nil {
			break
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("operations %q: %w", unknown, ErrUnknownOperation)
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := p.checkCode(); err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrSnapshotCorrupt)
	}
	if len(p.Funcs) > 0 {
		p.strict = p.Funcs[0].Strict
	}
	return p, nil
}

// decodeFuncCode reads one function of the "funcs" list; ops maps the code's operation
// indices to operations.
func decodeFuncCode(r *jsonReader, ops []bytecode.Op) *FuncCode {
	f := &FuncCode{Func: bytecode.Func{ThisReg: -1, Parent: -1}}
	kind := ""
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "kind":
			kind = r.goString()
		case "async":
			f.Async = r.bool()
		case "generator":
			f.Generator = r.bool()
		case "strict":
			f.Strict = r.bool()
		case "fields":
			f.HasFields = r.bool()
		case "regs":
			f.NumRegs = int(r.int())
		case "this":
			f.ThisReg = int(r.int())
		case "length":
			f.Length = int(r.int())
		case "params":
			f.NumParams = int(r.int())
		case "parent":
			f.Parent = int(r.int())
		case "name":
			f.Name = r.goString()
		case "src":
			r.beginArray()
			r.more(true)
			f.SourceStart = int(r.int())
			r.more(false)
			f.SourceEnd = int(r.int())
			r.more(false)
		case "code":
			v := varints{data: r.base64()}
			for len(v.data) > 0 && v.err == nil {
				i, a, b := v.next(), v.int32(), v.int32()
				if v.err == nil && (i < 0 || i >= int64(len(ops))) {
					v.err = fmt.Errorf("operation index %d out of range", i)
				}
				if v.err == nil {
					f.Code = append(f.Code, bytecode.Instr{Op: ops[i], A: a, B: b})
				}
			}
			if v.err != nil {
				r.fail("code: %v", v.err)
			}
		case "consts":
			r.beginArray()
			for g := true; r.more(g); g = false {
				f.Consts = append(f.Consts, decodeConstant(r))
			}
		case "pos":
			v := varints{data: r.base64()}
			var e bytecode.PosEntry
			for len(v.data) > 0 && v.err == nil {
				e.PC += v.int32()
				e.Line += v.int32()
				e.Column = v.int32()
				f.Pos = append(f.Pos, e)
			}
			if v.err != nil {
				r.fail("pos: %v", v.err)
			}
		default:
			r.skip()
		}
		if r.err != nil {
			return f
		}
	}
	found := false
	for k, name := range funcKindNames {
		if name == kind {
			f.Kind, found = bytecode.FuncKind(k), true
		}
	}
	if !found {
		r.fail("unknown function kind %q", kind)
	}
	f.buildConstValues(nil)
	return f
}

// base64 reads a string of standard base64.
func (r *jsonReader) base64() []byte {
	if r.bin {
		return r.binBytesTok()
	}
	raw, _ := r.stringRaw()
	if r.err != nil {
		return nil
	}
	b, err := base64.StdEncoding.AppendDecode(nil, raw)
	if err != nil {
		r.fail("bad base64: %v", err)
	}
	return b
}

// varints reads a sequence of signed varints; the first error sticks.
type varints struct {
	data []byte
	err  error
}

func (v *varints) next() int64 {
	if v.err != nil {
		return 0
	}
	x, n := binary.Varint(v.data)
	if n <= 0 {
		v.err = errors.New("truncated or overlong varint")
		v.data = nil
		return 0
	}
	v.data = v.data[n:]
	return x
}

// int32 reads a varint that must fit an int32 (an operand or a position).
func (v *varints) int32() int32 {
	x := v.next()
	if x < math.MinInt32 || x > math.MaxInt32 {
		if v.err == nil {
			v.err = fmt.Errorf("integer %d out of range", x)
		}
		return 0
	}
	return int32(x)
}

// utf16Units reads a string as UTF-16 code units (ASCII text included).
func (r *jsonReader) utf16Units() []uint16 {
	u, ascii := r.units()
	if r.err != nil || !ascii {
		return u
	}
	b := r.data[r.asciiStart:r.asciiEnd]
	out := make([]uint16, len(b))
	for i, c := range b {
		out[i] = uint16(c)
	}
	return out
}

func decodeConstant(r *jsonReader) bytecode.Constant {
	switch r.peek() {
	case '"':
		return bytecode.Constant{Kind: bytecode.ConstString, Str: r.utf16Units()}
	case '{':
		var k bytecode.Constant
		r.beginObject()
		r.more(true)
		switch r.key() {
		case "bigint":
			k = bytecode.Constant{Kind: bytecode.ConstBigInt, Str: r.utf16Units()}
			if !bigIntDigits(k.Str) {
				r.fail("bad BigInt constant")
			}
		case "number":
			switch s := r.goString(); s {
			case "NaN":
				k.Num = math.NaN()
			case "Infinity":
				k.Num = math.Inf(1)
			case "-Infinity":
				k.Num = math.Inf(-1)
			case "-0":
				k.Num = math.Copysign(0, -1)
			default:
				r.fail("bad number constant %q", s)
			}
		default:
			r.fail("bad constant")
		}
		r.more(false)
		return k
	default:
		return bytecode.Constant{Kind: bytecode.ConstNumber, Num: r.float()}
	}
}

func decodeTemplateSite(r *jsonReader) bytecode.TemplateSite {
	var t bytecode.TemplateSite
	r.beginObject()
	for first := true; r.more(first); first = false {
		switch r.key() {
		case "cooked":
			r.beginArray()
			for f := true; r.more(f); f = false {
				if r.null() {
					t.Cooked = append(t.Cooked, nil)
					t.Valid = append(t.Valid, false)
					continue
				}
				t.Cooked = append(t.Cooked, r.utf16Units())
				t.Valid = append(t.Valid, true)
			}
		case "raw":
			r.beginArray()
			for f := true; r.more(f); f = false {
				t.Raw = append(t.Raw, r.utf16Units())
			}
		default:
			r.skip()
		}
	}
	return t
}

// checkCode checks what the VM takes for granted about compiled code and a snapshot could get
// wrong: the function table's shape, and that the operands naming functions, templates and
// constant-pool entries are in range. (The rest of the code's integrity is the fingerprint's
// business: restoreProgram compares the rebuilt program's with the snapshot's.)
func (p *Program) checkCode() error {
	if len(p.Funcs) == 0 {
		return errors.New("no functions")
	}
	if p.Funcs[0].Kind != bytecode.FuncProgram {
		return errors.New("function 0 is not the program body")
	}
	for i, f := range p.Funcs {
		if f.Parent < -1 || f.Parent >= len(p.Funcs) || (i > 0 && f.Parent < 0) {
			return fmt.Errorf("function %d: parent %d", i, f.Parent)
		}
		if f.NumRegs < 0 || f.NumParams < 0 || f.NumParams > f.NumRegs || f.ThisReg < -1 || f.ThisReg >= max(f.NumRegs, 1) {
			return fmt.Errorf("function %d: frame layout (regs %d, params %d, this %d)", i, f.NumRegs, f.NumParams, f.ThisReg)
		}
		if f.SourceStart < 0 || f.SourceEnd < f.SourceStart || f.SourceEnd > len(p.source) {
			return fmt.Errorf("function %d: source range %d..%d", i, f.SourceStart, f.SourceEnd)
		}
		if len(f.Code) == 0 {
			return fmt.Errorf("function %d: no code", i)
		}
		for pc, in := range f.Code {
			var n, limit int
			switch in.Op {
			case bytecode.OpClosure:
				n, limit = int(in.A), len(p.Funcs)
			case bytecode.OpTemplate:
				n, limit = int(in.A), len(p.Templates)
			case bytecode.OpConst, bytecode.OpGetProp, bytecode.OpGetPropKeep, bytecode.OpSetProp, bytecode.OpDeleteProp, bytecode.OpDefineName,
				bytecode.OpGetGlobal, bytecode.OpSetGlobal, bytecode.OpTypeofGlobal, bytecode.OpDeclareGlobal, bytecode.OpThrowRef, bytecode.OpThrowTyp, bytecode.OpNewPrivate:
				n, limit = int(in.A), len(f.Consts)
			case bytecode.OpGetReg, bytecode.OpSetReg, bytecode.OpPutReg:
				n, limit = int(in.A), f.NumRegs
			case bytecode.OpGetRegChecked, bytecode.OpCheckReg:
				if in.B < 0 || int(in.B) >= len(f.Consts) {
					return fmt.Errorf("function %d pc %d: %s name %d out of range", i, pc, in.Op, in.B)
				}
				n, limit = int(in.A), f.NumRegs
			case bytecode.OpImport:
				if in.A != 2 {
					continue
				}
				n, limit = int(in.B), len(f.Consts)
			case bytecode.OpRegExp:
				if in.B < 0 || int(in.B) >= len(f.Consts) {
					return fmt.Errorf("function %d pc %d: %s flags %d out of range", i, pc, in.Op, in.B)
				}
				n, limit = int(in.A), len(f.Consts)
			case bytecode.OpJump, bytecode.OpJumpIfFalse, bytecode.OpJumpIfTrue, bytecode.OpJumpIfFalseKeep, bytecode.OpJumpIfTrueKeep,
				bytecode.OpJumpIfNotNullishKeep, bytecode.OpJumpIfNullish, bytecode.OpJumpIfNotUndef, bytecode.OpTryPush:
				n, limit = int(in.A), len(f.Code)+1
			default:
				continue
			}
			if n < 0 || n >= limit {
				return fmt.Errorf("function %d pc %d: %s operand %d out of range", i, pc, in.Op, n)
			}
		}
	}
	return nil
}

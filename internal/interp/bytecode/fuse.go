package bytecode

// Fused instructions.
//
// The dispatch of an instruction (the step count, the fetch and the jump to its case) costs
// about as much as a simple operation itself. For the sequences of instructions programs run
// most, code generation replaces the operation of the first instruction by a fused operation,
// which runs the whole sequence in one dispatch: it runs its own instruction and reads the
// instructions that follow from the code, where they stay, so positions, jump targets and the
// instruction count do not change, and a jump to one of the later instructions runs that one
// alone.

// Fuse rewrites code in place: the first instruction of each sequence with a fused form gets
// the fused operation. Sequences do not overlap.
func Fuse(code []Instr) {
	for i := 0; i+1 < len(code); i++ {
		next := code[i+1].Op
		third := OpNop
		if i+2 < len(code) {
			third = code[i+2].Op
		}
		var op Op
		n := 2
		switch code[i].Op {
		case OpGetReg:
			switch next {
			case OpGetProp:
				op = OpGetRegProp
			case OpGetPropKeep:
				op = OpGetRegPropKeep
			case OpGetReg:
				op = OpGetReg2
				if third == OpGetElem && code[i+2].B == 0 {
					op, n = OpGetRegsElem, 3
				}
			case OpInc, OpDec:
				op = OpGetRegInc
			case OpUndef:
				op = OpGetRegUndef
			}
		case OpPutReg:
			if next == OpGetReg {
				op = OpPutRegGetReg
			}
		case OpSetReg:
			if next == OpPop {
				op = OpSetRegPop
			}
		case OpPop:
			if next == OpJump {
				op = OpPopJump
			}
		case OpGetEnv:
			switch next {
			case OpUndef:
				op = OpGetEnvUndef
			case OpGetProp:
				op = OpGetEnvProp
			case OpGetPropKeep:
				op = OpGetEnvPropKeep
			}
		case OpLt, OpLe, OpGt, OpGe:
			if isCondJump(next) {
				op = compareJump[code[i].Op]
			}
		case OpSetProp:
			if next == OpPop {
				op = OpSetPropPop
			}
		case OpStrictEq:
			if isCondJump(next) {
				op = OpStrictEqJump
			}
		case OpStrictNe:
			if isCondJump(next) {
				op = OpStrictNeJump
			}
		case OpInt, OpConst:
			if (next == OpStrictEq || next == OpStrictNe) && isCondJump(third) {
				op, n = constCompareJump[[2]Op{code[i].Op, next}], 3
			}
		}
		if op != OpNop {
			code[i].Op = op
			i += n - 1
		}
	}
}

var compareJump = map[Op]Op{OpLt: OpLtJump, OpLe: OpLeJump, OpGt: OpGtJump, OpGe: OpGeJump}

// UnfusedCompare is the comparison a fused comparison and jump starts with, by the fused
// operation (OpNop for the others).
var UnfusedCompare = [OpCount]Op{OpLtJump: OpLt, OpLeJump: OpLe, OpGtJump: OpGt, OpGeJump: OpGe}

var constCompareJump = map[[2]Op]Op{
	{OpInt, OpStrictEq}: OpIntStrictEqJump, {OpInt, OpStrictNe}: OpIntStrictNeJump,
	{OpConst, OpStrictEq}: OpConstStrictEqJump, {OpConst, OpStrictNe}: OpConstStrictNeJump,
}

// isCondJump reports whether op is a conditional jump on a boolean that a fused comparison
// runs.
func isCondJump(op Op) bool {
	switch op {
	case OpJumpIfFalse, OpJumpIfTrue, OpJumpIfFalseKeep, OpJumpIfTrueKeep:
		return true
	}
	return false
}

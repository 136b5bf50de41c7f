package bytecode

import "strconv"

// Op is a bytecode operation. Instructions are fixed-size (Instr: an Op and two
// int32 operands) so that a frame's position is a plain integer pc, which makes
// execution state serialisable: a snapshot stores (function index, pc).
//
// Stack effects are written [before] -> [after], top of stack on the right.
//
// The instruction set is append-only in meaning. Snapshots carry the code they were running,
// with every operation written by its name (String, OpByName), and a later release resumes them on that
// code (docs/snapshots.md). So:
//   - an operation's meaning (what it does with its operands, the stack, registers and pc)
//     never changes once released; a changed meaning is a new operation with a new name,
//     and the old one stays, implemented as before, for the snapshots that use it;
//   - a name is never reused or renamed; the numeric order of this list may change freely
//     (snapshots and fingerprints never use the numbers);
//   - removing an operation strands every snapshot that uses it (Restore fails with
//     ErrUnknownOperation), so the compiler may stop emitting one, but the VM keeps it.
type Op uint8

// The operations. Operands A and B are integers: constant-pool indices, register
// numbers, jump targets (absolute pcs), counts, or function indices.
const (
	OpNop Op = iota

	// Constants.
	OpUndef    // [] -> [undefined]
	OpNull     // [] -> [null]
	OpTrue     // [] -> [true]
	OpFalse    // [] -> [false]
	OpInt      // [] -> [A as a number]
	OpConst    // [] -> [constant A]
	OpHole     // [] -> [the uninitialised marker] (TDZ initialisation)
	OpRegExp   // [] -> [new RegExp(constant A, constant B)]
	OpTemplate // [] -> [cached template object A of the program]

	// Operand stack.
	OpPop  // [a] -> []
	OpDup  // [a] -> [a a]
	OpDup2 // [a b] -> [a b a b]
	OpSwap // [a b] -> [b a]
	OpRot3 // [a b c] -> [c a b] (moves the top below two)
	OpRot4 // [a b c d] -> [d a b c]
	OpOver // [a b] -> [a b a]

	// Registers (frame locals) and environment records (captured bindings).
	OpGetReg        // [] -> [reg A]
	OpSetReg        // [v] -> [v], reg A = v
	OpPutReg        // [v] -> [], reg A = v
	OpGetRegChecked // [] -> [reg A]; ReferenceError naming constant B when uninitialised
	OpCheckReg      // [] -> []; ReferenceError naming constant B when reg A is uninitialised
	OpGetEnv        // [] -> [env(A hops).slot B]
	OpSetEnv        // [v] -> [v]; env(A hops).slot B = v
	OpPutEnv        // [v] -> []; env(A hops).slot B = v
	OpGetEnvChecked // like OpGetEnv, ReferenceError when uninitialised (name: constant of next OpNop's A)
	OpCheckEnv      // [] -> []; ReferenceError when env(A).slot B is uninitialised (name in next OpNop)
	OpPushEnv       // [] -> []; new environment record with A slots (all uninitialised)
	OpPopEnv        // [] -> []; back to the parent environment record
	OpCopyEnv       // [] -> []; replace the current record by a copy (per-iteration let bindings)
	OpGetGlobal     // [] -> [global named constant A]; ReferenceError when absent
	OpSetGlobal     // [v] -> [v]; assignment to global named constant A (ReferenceError when absent)
	OpTypeofGlobal  // [] -> [typeof global A] (no ReferenceError)
	OpDeclareGlobal // [v] -> []; define global var/function named constant A (script mode)
	OpThrowConst    // [] -> never; TypeError "Assignment to constant variable."
	OpThrowRef      // [] -> never; ReferenceError "constant A is not defined"

	// Properties.
	OpGetProp        // [obj] -> [obj.name], name = constant A
	OpGetPropKeep    // [obj] -> [obj obj.name]
	OpSetProp        // [obj v] -> [v]; obj.name = v
	OpGetElem        // [obj key] -> [obj[key]]
	OpGetElemKeep    // [obj key] -> [obj obj[key]]
	OpSetElem        // [obj key v] -> [v]
	OpDeleteProp     // [obj] -> [bool]
	OpDeleteElem     // [obj key] -> [bool]
	OpIn             // [key obj] -> [bool]
	OpInstanceOf     // [v ctor] -> [bool]
	OpToPropertyKey  // [v] -> [key]; TypeError first when the value below (a base) is null or undefined, unless B=1
	OpCheckCoercible // [v] -> [v]; TypeError when v is null or undefined (destructuring)

	// Private names (class #x): A = private-name register/env via preceding load.
	OpGetPrivate  // [obj pname] -> [value]
	OpSetPrivate  // [obj pname v] -> [v]
	OpHasPrivate  // [pname obj] -> [bool] (#x in obj)
	OpDefPrivate  // [obj pname v] -> [obj]; define a private field
	OpNewPrivate  // [] -> [a fresh private name with description constant A]; B=kind (0 field, 1 method, 2 accessor)
	OpDefPrivMeth // [obj pname fn] -> [obj]; add a private method/accessor (B: 0 method, 1 getter, 2 setter)

	// Calls. Layout: [fn this arg1..argA].
	OpCall       // [fn this args...] -> [result]
	OpCallSpread // [fn this argsArray] -> [result]
	OpNew        // [ctor args...] -> [object]
	OpNewSpread  // [ctor argsArray] -> [object]
	OpSuperCall  // [args...] -> [this]; A = argc (uses the frame's callee and new.target)
	OpSuperCallSpread
	OpSuperBase   // [] -> [home object's prototype]
	OpReturn      // [v] -> returns v
	OpCheckReturn // [v] -> [v']: derived-constructor return rules (B register of this)

	// Arithmetic and logic.
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpExp
	OpBitAnd
	OpBitOr
	OpBitXor
	OpShl
	OpShr
	OpUShr
	OpEq
	OpNe
	OpStrictEq
	OpStrictNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpNeg
	OpPlus    // ToNumber
	OpNumeric // ToNumeric (postfix operators)
	OpNot
	OpBitNot
	OpTypeof
	OpInc
	OpDec
	OpToString // [v] -> [ToString(v)] (template literals)
	OpConcatN  // [s1..sA] -> [s1+...+sA] of strings

	// Jumps (A = absolute target pc).
	OpJump
	OpJumpIfFalse     // [v] -> []
	OpJumpIfTrue      // [v] -> []
	OpJumpIfFalseKeep // [v] -> [v] when jumping, [] otherwise
	OpJumpIfTrueKeep
	OpJumpIfNotNullishKeep // [v] -> [v] when jumping, [] otherwise (??)
	OpJumpIfNullish        // [v ...B] -> same; jumps when the value B slots below the top is null/undefined (optional chain)
	OpJumpIfNotUndef       // [v] -> [v] when jumping, [] otherwise (default values)

	// Object and array literals.
	OpNewObject    // [] -> [{}] with room for A properties (0: none reserved)
	OpNewArray     // [] -> [[]] with capacity A
	OpArrayPush    // [arr v] -> [arr]
	OpArrayHole    // [arr] -> [arr] (elision)
	OpArraySpread  // [arr iterable] -> [arr]
	OpDefineField  // [obj key v] -> [obj]; CreateDataProperty (computed key)
	OpDefineName   // [obj v] -> [obj]; CreateDataProperty of constant A
	OpDefineGetter // [obj key fn] -> [obj]; B=1 enumerable
	OpDefineSetter // [obj key fn] -> [obj]
	OpDefineMethod // [obj key fn] -> [obj]; B=1 enumerable; sets fn's home object
	OpCopyData     // [obj src] -> [obj]; object spread / rest (excluded keys: none)
	OpCopyDataExcl // [obj src k1..kA] -> [obj]; rest with excluded keys
	OpSetProto     // [obj v] -> [obj]; __proto__: v in a literal
	OpSetFnName    // [fn key] -> [fn]; SetFunctionName from a computed key (B prefix: 0 none, 1 get, 2 set)

	// Functions and classes.
	OpClosure       // [] -> [function object of function index A]
	OpLoadThis      // [] -> [this]
	OpLoadCallee    // [] -> [the running function object]
	OpLoadNewTarget // [] -> [new.target]
	OpArguments     // [] -> [arguments object]
	OpRestArgs      // [] -> [array of arguments from index A]
	OpGetArg        // [] -> [argument A or undefined]
	OpClass         // [parent ctorFn] -> [ctor proto]; A=1 when there is an extends clause
	OpInitFields    // [] -> []; run the field initialiser of the callee's class on this
	OpSetHome       // [fn home] -> [fn]
	OpSetFields     // [ctor initFn] -> [ctor]; attach the instance field initialiser
	OpRunStaticInit // [ctor fn] -> [ctor]; call fn with this = ctor

	// Exceptions.
	OpThrow    // [v] -> never
	OpTryPush  // [] -> []; handler at pc A
	OpTryPop   // [] -> []
	OpThrowTyp // [] -> never: TypeError with message constant A

	// Iteration.
	OpGetIter        // [iterable] -> [iterRecord]; B=1 async
	OpIterNext       // [iterRecord] -> [value]; jumps to A when done (pops nothing else)
	OpIterClose      // [iterRecord] -> []
	OpIterCloseThrow // [iterRecord] -> []: close, ignoring errors (throw completion)
	OpIterStep       // [iterRecord] -> [value] for destructuring (undefined after done)
	OpIterRest       // [iterRecord] -> [array of the remaining values]
	OpForInPrep      // [obj] -> [forInState]
	OpForInNext      // [state] -> [key]; jumps to A when done
	OpIterNextRaw    // [iterRecord] -> [result] (for-await: the raw next() result, awaited by the code)
	OpIterResult     // [result] -> [value]; jumps to A when result.done (for-await)
	OpIsSyncIter     // [iterRecord] -> [bool]: the async iteration falls back to a sync iterator

	// Generators and async.
	OpAwait             // [v] -> [resolved value] (suspends)
	OpYield             // [v] -> [sent value] (suspends; resume mode into the frame's resume register)
	OpResumeMode        // [] -> [] jumps: A = target when mode is return; throw mode rethrows
	OpYieldDelegate     // [iterable] -> [result value]; yield*
	OpAsyncGenYield     // async generator yield
	OpInitialYield      // generator start: suspend before the body runs
	OpAsyncDelegateCall // [iter received] -> [result of next/throw/return per resume mode]; A: return mode without return(): [received]
	OpDelegateResult    // [result] -> [value]; done: jump A (B in return mode); not done: fall through
	OpDelegateResume    // marker after a delegating yield: throw resumptions are forwarded, not raised

	// Misc.
	OpDebugger
	OpImport  // A=0: [spec] -> [module]; A=1 (import()): [spec] -> [promise]; A=2: [module spec] -> [module's member constant B]
	OpPosMark // no-op marking a position (unused at run time)

	// Fused operations: each runs the operation its name starts with (with its own operands)
	// and then the instructions that follow it, which keep their place in the code, as one
	// instruction (fuse.go). A jump to one of those runs it alone, as before.
	OpGetRegProp        // GetReg A, then the GetProp that follows
	OpGetRegPropKeep    // GetReg A, then the GetPropKeep that follows
	OpGetReg2           // GetReg A, then the GetReg that follows
	OpPutRegGetReg      // PutReg A, then the GetReg that follows
	OpSetPropPop        // SetProp A, then the Pop that follows
	OpStrictEqJump      // StrictEq, then the conditional jump that follows (JumpIfFalse, JumpIfTrue, JumpIfFalseKeep or JumpIfTrueKeep)
	OpStrictNeJump      // StrictNe, then the conditional jump that follows
	OpIntStrictEqJump   // Int A, then the StrictEq and the conditional jump that follow
	OpIntStrictNeJump   // Int A, then the StrictNe and the conditional jump that follow
	OpConstStrictEqJump // Const A, then the StrictEq and the conditional jump that follow
	OpConstStrictNeJump // Const A, then the StrictNe and the conditional jump that follow
	OpSetRegPop         // SetReg A, then the Pop that follows
	OpPopJump           // Pop, then the Jump that follows
	OpGetEnvUndef       // GetEnv A B, then the Undef that follows
	OpLtJump            // Lt, then the conditional jump that follows
	OpLeJump            // Le, then the conditional jump that follows
	OpGtJump            // Gt, then the conditional jump that follows
	OpGeJump            // Ge, then the conditional jump that follows
	OpGetEnvProp        // GetEnv A B, then the GetProp that follows
	OpGetEnvPropKeep    // GetEnv A B, then the GetPropKeep that follows
	OpGetRegsElem       // GetReg A, then the GetReg and the GetElem (B=0) that follow
	OpGetRegInc         // GetReg A, then the Inc or Dec that follows
	OpGetRegUndef       // GetReg A, then the Undef that follows

	// OpCount is the number of operations: one more than the largest Op.
	OpCount
)

var opNames = [...]string{
	OpNop: "Nop", OpUndef: "Undef", OpNull: "Null", OpTrue: "True", OpFalse: "False", OpInt: "Int",
	OpConst: "Const", OpHole: "Hole", OpRegExp: "RegExp", OpTemplate: "Template",
	OpPop: "Pop", OpDup: "Dup", OpDup2: "Dup2", OpSwap: "Swap", OpRot3: "Rot3", OpRot4: "Rot4", OpOver: "Over",
	OpGetReg: "GetReg", OpSetReg: "SetReg", OpPutReg: "PutReg", OpGetRegChecked: "GetRegChecked",
	OpCheckReg: "CheckReg", OpGetEnv: "GetEnv", OpSetEnv: "SetEnv", OpPutEnv: "PutEnv",
	OpGetEnvChecked: "GetEnvChecked", OpCheckEnv: "CheckEnv", OpPushEnv: "PushEnv", OpPopEnv: "PopEnv",
	OpCopyEnv: "CopyEnv", OpGetGlobal: "GetGlobal", OpSetGlobal: "SetGlobal", OpTypeofGlobal: "TypeofGlobal",
	OpDeclareGlobal: "DeclareGlobal", OpThrowConst: "ThrowConst", OpThrowRef: "ThrowRef",
	OpGetProp: "GetProp", OpGetPropKeep: "GetPropKeep", OpSetProp: "SetProp", OpGetElem: "GetElem",
	OpGetElemKeep: "GetElemKeep", OpSetElem: "SetElem", OpDeleteProp: "DeleteProp", OpDeleteElem: "DeleteElem",
	OpIn: "In", OpInstanceOf: "InstanceOf", OpToPropertyKey: "ToPropertyKey", OpCheckCoercible: "CheckCoercible",
	OpGetPrivate: "GetPrivate", OpSetPrivate: "SetPrivate", OpHasPrivate: "HasPrivate", OpDefPrivate: "DefPrivate",
	OpNewPrivate: "NewPrivate", OpDefPrivMeth: "DefPrivMeth",
	OpCall: "Call", OpCallSpread: "CallSpread", OpNew: "New", OpNewSpread: "NewSpread", OpSuperCall: "SuperCall",
	OpSuperCallSpread: "SuperCallSpread", OpSuperBase: "SuperBase", OpReturn: "Return", OpCheckReturn: "CheckReturn",
	OpAdd: "Add", OpSub: "Sub", OpMul: "Mul", OpDiv: "Div", OpMod: "Mod", OpExp: "Exp", OpBitAnd: "BitAnd",
	OpBitOr: "BitOr", OpBitXor: "BitXor", OpShl: "Shl", OpShr: "Shr", OpUShr: "UShr", OpEq: "Eq", OpNe: "Ne",
	OpStrictEq: "StrictEq", OpStrictNe: "StrictNe", OpLt: "Lt", OpLe: "Le", OpGt: "Gt", OpGe: "Ge",
	OpNeg: "Neg", OpPlus: "Plus", OpNumeric: "Numeric", OpNot: "Not", OpBitNot: "BitNot", OpTypeof: "Typeof",
	OpInc: "Inc", OpDec: "Dec", OpToString: "ToString", OpConcatN: "ConcatN",
	OpJump: "Jump", OpJumpIfFalse: "JumpIfFalse", OpJumpIfTrue: "JumpIfTrue", OpJumpIfFalseKeep: "JumpIfFalseKeep",
	OpJumpIfTrueKeep: "JumpIfTrueKeep", OpJumpIfNotNullishKeep: "JumpIfNotNullishKeep",
	OpJumpIfNullish: "JumpIfNullish", OpJumpIfNotUndef: "JumpIfNotUndef",
	OpNewObject: "NewObject", OpNewArray: "NewArray", OpArrayPush: "ArrayPush", OpArrayHole: "ArrayHole",
	OpArraySpread: "ArraySpread", OpDefineField: "DefineField", OpDefineName: "DefineName",
	OpDefineGetter: "DefineGetter", OpDefineSetter: "DefineSetter", OpDefineMethod: "DefineMethod",
	OpCopyData: "CopyData", OpCopyDataExcl: "CopyDataExcl", OpSetProto: "SetProto", OpSetFnName: "SetFnName",
	OpClosure: "Closure", OpLoadThis: "LoadThis", OpLoadCallee: "LoadCallee", OpLoadNewTarget: "LoadNewTarget",
	OpArguments: "Arguments", OpRestArgs: "RestArgs", OpGetArg: "GetArg", OpClass: "Class",
	OpInitFields: "InitFields", OpSetHome: "SetHome", OpSetFields: "SetFields", OpRunStaticInit: "RunStaticInit",
	OpThrow: "Throw", OpTryPush: "TryPush", OpTryPop: "TryPop", OpThrowTyp: "ThrowTyp",
	OpGetIter: "GetIter", OpIterNext: "IterNext", OpIterClose: "IterClose", OpIterCloseThrow: "IterCloseThrow",
	OpIterStep: "IterStep", OpIterRest: "IterRest", OpForInPrep: "ForInPrep", OpForInNext: "ForInNext",
	OpIterNextRaw: "IterNextRaw", OpIterResult: "IterResult", OpIsSyncIter: "IsSyncIter",
	OpAwait: "Await", OpYield: "Yield", OpResumeMode: "ResumeMode", OpYieldDelegate: "YieldDelegate",
	OpAsyncGenYield: "AsyncGenYield", OpInitialYield: "InitialYield", OpAsyncDelegateCall: "AsyncDelegateCall", OpDelegateResult: "DelegateResult", OpDelegateResume: "DelegateResume",
	OpDebugger: "Debugger", OpImport: "Import", OpPosMark: "PosMark",
	OpGetRegProp: "GetRegProp", OpGetRegPropKeep: "GetRegPropKeep", OpGetReg2: "GetReg2",
	OpPutRegGetReg: "PutRegGetReg", OpSetPropPop: "SetPropPop", OpStrictEqJump: "StrictEqJump",
	OpStrictNeJump: "StrictNeJump", OpIntStrictEqJump: "IntStrictEqJump", OpIntStrictNeJump: "IntStrictNeJump",
	OpConstStrictEqJump: "ConstStrictEqJump", OpConstStrictNeJump: "ConstStrictNeJump",
	OpSetRegPop: "SetRegPop", OpPopJump: "PopJump", OpGetEnvUndef: "GetEnvUndef",
	OpLtJump: "LtJump", OpLeJump: "LeJump", OpGtJump: "GtJump", OpGeJump: "GeJump",
	OpGetEnvProp: "GetEnvProp", OpGetEnvPropKeep: "GetEnvPropKeep", OpGetRegsElem: "GetRegsElem",
	OpGetRegInc: "GetRegInc", OpGetRegUndef: "GetRegUndef",
}

// String returns the operation's name, e.g. "GetProp".
func (op Op) String() string {
	if int(op) < len(opNames) && opNames[op] != "" {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// opByName maps operation names to this release's operations.
var opByName = func() map[string]Op {
	m := make(map[string]Op, len(opNames))
	for op, name := range opNames {
		if name != "" {
			m[name] = Op(op)
		}
	}
	return m
}()

// OpByName returns the operation of this release with the given name (String's result), for
// the snapshots, which write operations by name; ok is false for a name this release does not
// know.
func OpByName(name string) (op Op, ok bool) {
	op, ok = opByName[name]
	return op, ok
}

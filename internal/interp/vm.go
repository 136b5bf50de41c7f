package interp

import (
	"math"

	"github.com/codemode/codemode/internal/interp/bytecode"
	"github.com/codemode/codemode/internal/interp/jsmath"
)

// Execution.
//
// The VM runs bytecode on one shared operand stack of Values with an explicit
// stack of frames: a JavaScript call pushes a frame and the dispatch loop keeps
// going, so JS-to-JS calls never recurse in Go. Only natives that call back into
// JavaScript (vm.Call from a built-in) start a nested dispatch loop, bounded by
// maxNativeDepth.
//
// A frame's registers (locals) live on the operand stack at frame.base; captured
// variables live in environment records (envRecord), plain heap data shared by
// closures. A frame is (function, pc, registers + operand stack, environment,
// handlers): all data, which is what lets async functions park a frame on await
// and lets snapshots encode it.
//
// JavaScript exceptions travel as Go panics carrying *Exception (that is how
// natives throw, see operations.go); the dispatch loop recovers them, finds the
// innermost handler of the current frames and continues there.

// VM is one JavaScript virtual machine: a realm of built-ins (realm.go), a heap, and the
// execution state (execState, below). A VM is not safe for concurrent use.
type VM struct {
	realm *Realm

	// heap accounting (bytes; see memory accounting in object allocation helpers)
	allocated int64 // bytes allocated since the last live-size measurement
	maxMemory int64 // Config.MaxMemoryBytes; 0 = no limit
	// walkHint sizes the next live-heap walk's sets from what the last one saw.
	walkHint struct{ objs, strs int }

	// logf receives console output lines (Config.Log); nil drops them.
	logf func(level, text string)

	// nativeDepth counts nested calls through Go (natives, and JS re-entered from natives).
	nativeDepth int

	// snapshotHint pre-sizes the next snapshot encoding (see newHeapEncoder).
	snapshotHint snapshotHint

	// positionHook reports the line and column (1-based) of the code running now, for error
	// stacks; set by the execution engine; nil = unknown.
	positionHook func() (line, column int)

	// asciiInput is the prepared matching input of the last ASCII string a RegExp matched;
	// a substring of it is matched on a slice of it (builtin_regexp_input.go).
	asciiInput asciiInputCache

	// keyStrs caches the strings of the keys for-in and Object.keys list (keyValue); made on
	// first use, so that a VM that lists no keys (a restore) does not pay for it.
	keyStrs *keyStrings

	// regexpLiterals holds the source, flags and compiled pattern of each regular expression
	// literal evaluated so far, by its constants (regexpLiteral).
	regexpLiterals map[regexpLiteralKey]*regexpSlots

	// regexpProto and regexpExecFn are the realm's RegExp.prototype and its exec, once looked up.
	regexpProto, regexpExecFn realmIntrinsic

	// argsIntrinsics caches the intrinsics arguments objects refer to (argumentsIntrinsics).
	argsIntrinsics argumentsIntrinsics

	// exec is the execution state (frames, operand stack, job queue).
	exec execState
}

// envRecord is an environment record: the captured bindings of one scope.
type envRecord struct {
	parent *envRecord
	slots  []Value
}

// handler is an active try block of a frame.
type handler struct {
	pc  int        // where the catch (or finally) code starts
	sp  int        // operand stack height to restore
	env *envRecord // environment to restore
}

// retKind says what happens when a frame returns.
type retKind uint8

const (
	retPush retKind = iota // push the result onto the caller's operand stack
	retExit                // leave the dispatch loop with the result (entered from Go)
)

// frame is one activation of a JavaScript function. pushFrame sets every field of a frame it
// takes from the pool one by one: a field added here must be set there too.
type frame struct {
	code       *FuncCode
	prog       *Program
	callee     *Object
	env        *envRecord
	this       Value
	newTarget  *Object
	pc         int
	base       int // registers start here
	argsBase   int // arguments start here (callee and this sit just below)
	argc       int
	ret        retKind
	construct  bool // [[Construct]]: a non-object result is replaced by this
	handlers   []handler
	co         *coroutine // async function or generator state when running one
	reaction   *Object    // promise reaction handler frames: the promise to settle with the result
	isReaction bool       // the frame runs a promise reaction handler
}

// execState is the execution half of the VM.
type execState struct {
	stack  []Value
	sp     int
	frames []*frame

	steps     int64 // instructions executed in total
	stepLimit int64 // pause when steps reaches it (0 = none)
	// checkAt is the count of steps from which the loop runs stepChecks before an instruction
	// (the step limit or the next memory check); 0 makes the next instruction run them, and
	// whatever changes steps or stepLimit other than the loop sets it to 0.
	checkAt   int64
	interrupt uint32
	paused    bool
	depth     int // nested dispatch loops (native re-entry)

	maxCallDepth int

	program     *Program
	programDone bool
	result      Value
	thrown      bool
	started     bool

	jobs        []job
	hostPromise map[uint64]*Object
	nextHostID  uint64
	unhandled   []*Object
	promiseSeq  uint64 // promises created so far: each promise's creation number
	// pendingPromises counts the promises not settled yet, for the cap of maxPendingPromises;
	// not saved in snapshots: decoding a pending promise counts it again.
	pendingPromises int
	combinatorThens int // > 0 while a Promise combinator subscribes to its elements
	pendingErr      error
	asyncExit       bool
	legacy          regexpLegacy // the legacy RegExp statics' last match (builtin_regexp_legacy.go)
	lastThrow       Value
	noPause         int // nested runs started by natives: no pausing inside them
	lastThrowLine   int
	lastThrowColumn int
	cfg             Config
	programStarted  bool
	programPromise  *Object
	asyncExitValue  Value
	templates       map[templateKey]*Object
	privMap         map[*Object]*privateElements
	privOrder       []*Object // objects in privMap, in the order they got private elements
	framePool       []*frame  // finished plain frames, reused by pushFrame
	pinned          []*Object // results natives are building: roots of the heap measure (see pin)
}

func (ex *execState) push(v Value) {
	ex.stack[ex.sp] = v
	ex.sp++
}

// initialStack is the value stack a VM starts with; it grows by doubling (ensureStack). Small,
// because every run and every restore makes a VM and most programs need little.
const initialStack = 256

// ensureStack makes room for n more values.
func (vm *VM) ensureStack(n int) {
	ex := &vm.exec
	if ex.sp+n <= len(ex.stack) {
		return
	}
	size := 2 * len(ex.stack)
	if size < ex.sp+n+initialStack {
		size = ex.sp + n + initialStack
	}
	ns := make([]Value, size)
	copy(ns, ex.stack[:ex.sp])
	ex.stack = ns
}

// sizeStack gives a restored VM a value stack of at least n entries, keeping the values
// below sp: exactly n plus a little headroom when it must grow (later growth doubles).
func (vm *VM) sizeStack(n int) {
	ex := &vm.exec
	if n <= len(ex.stack) {
		return
	}
	ns := make([]Value, n+64)
	copy(ns, ex.stack[:ex.sp])
	ex.stack = ns
}

// frameNeed is a conservative bound of the stack a frame of code needs.
func frameNeed(code *FuncCode) int { return code.NumRegs + 2*len(code.Code) + 16 }

// pushFrame sets up a frame for a closure call whose callee, this and arguments
// are already on the stack at argsBase-2.
func (vm *VM) pushFrame(cl *closureSlots, callee *Object, argsBase, argc int, this Value, newTarget *Object, ret retKind) *frame {
	ex := &vm.exec
	code := cl.code
	if len(ex.frames) >= ex.maxCallDepth {
		vm.throwRangeError("Maximum call stack size exceeded")
	}
	vm.ensureStack(frameNeed(code))
	base := argsBase + argc
	// the parameters are copied into their registers, the other registers start undefined
	// (element by element: for the few registers of most functions, copy and clear cost more
	// in their calls and write-barrier checks than they save)
	numRegs := code.NumRegs
	regs := ex.stack[base : base+numRegs]
	n := min(code.NumParams, argc, len(regs))
	args := ex.stack[argsBase : argsBase+n]
	for i := range args {
		regs[i] = args[i]
	}
	for i := n; i < len(regs); i++ {
		regs[i] = Value{} // undefined, without loading undefinedValue
	}
	ex.sp = base + numRegs
	var f *frame
	if n := len(ex.framePool); n > 0 {
		f = ex.framePool[n-1]
		ex.framePool = ex.framePool[:n-1]
		// every field, one by one: assigning a frame literal builds it on the Go stack and
		// copies it over with a bulk write barrier
		f.code, f.prog, f.callee, f.env, f.this, f.newTarget = code, cl.prog, callee, cl.env, this, newTarget
		f.pc, f.base, f.argsBase, f.argc, f.ret, f.construct = 0, base, argsBase, argc, ret, newTarget != nil
		f.handlers = f.handlers[:0]
		f.co, f.reaction, f.isReaction = nil, nil, false
	} else {
		f = &frame{code: code, prog: cl.prog, callee: callee, env: cl.env, this: this, newTarget: newTarget,
			base: base, argsBase: argsBase, argc: argc, ret: ret, construct: newTarget != nil}
	}
	ex.frames = append(ex.frames, f)
	return f
}

// Exception handling inside the loop.

// unwindTo handles a thrown value: finds the innermost handler among the frames
// above stopDepth. It reports false (after popping those frames) when none.
func (vm *VM) unwindTo(v Value, stopDepth int) bool {
	ex := &vm.exec
	for len(ex.frames) > stopDepth {
		f := ex.frames[len(ex.frames)-1]
		if n := len(f.handlers); n > 0 {
			h := f.handlers[n-1]
			f.handlers = f.handlers[:n-1]
			ex.sp = h.sp
			f.env = h.env
			f.pc = h.pc
			ex.push(v)
			return true
		}
		ex.frames = ex.frames[:len(ex.frames)-1]
		ex.sp = f.argsBase - 2
		if f.co != nil || f.isReaction {
			out, propagate := vm.frameThrew(f, v)
			if propagate {
				if f.ret == retExit {
					return false
				}
				continue
			}
			if f.ret == retPush {
				ex.push(out)
				return true
			}
			// entered from Go or resumed by a job: the loop ends normally
			ex.asyncExit = true
			ex.asyncExitValue = out
			return false
		}
		if f.ret == retExit {
			return false
		}
	}
	return false
}

// run executes frames until the frame stack drops to stopDepth (the frame that
// was entered returns with retExit), returning its result. JavaScript
// exceptions that no frame above stopDepth handles propagate as a panic.
func (vm *VM) run(stopDepth int) Value {
	ex := &vm.exec
	ex.depth++
	defer func() { ex.depth-- }()
	for {
		v, done, exc, other := vm.runProtected(stopDepth)
		if done {
			return v
		}
		if other != nil {
			// re-raised here, after runProtected's frame is gone: re-panicking inside its
			// deferred call would keep every nested loop's Go stack alive, making an abort
			// through n nested loops cost O(n^2) in stack unwinding.
			panic(other)
		}
		if exc != nil {
			// A value thrown by a throw statement inside a callback of a built-in arrives
			// here through the built-in: it keeps the position of its throw statement.
			if ex.lastThrow.kind == KindUndefined || !SameValue(ex.lastThrow, exc.Value) {
				ex.lastThrow = exc.Value
				ex.lastThrowLine, ex.lastThrowColumn = vm.currentPosition()
			}
			if !vm.unwindTo(exc.Value, stopDepth) {
				if ex.asyncExit {
					ex.asyncExit = false
					return ex.asyncExitValue
				}
				panic(exc)
			}
		}
	}
}

// runProtected runs the dispatch loop, converting a JavaScript exception panic into exc
// and an abort (limit, interruption, host failure) into other, for run to re-raise. Any
// other panic (a Go runtime error) goes on from here, keeping the stack where it happened.
func (vm *VM) runProtected(stopDepth int) (v Value, done bool, exc *Exception, other any) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Exception:
				v, done, exc = undefinedValue, false, e
			case *abortSignal:
				v, done, other = undefinedValue, false, e
			default:
				panic(r)
			}
		}
	}()
	return vm.loop(stopDepth), true, nil, nil
}

// stepChecks counts an instruction about to run when the count has reached checkAt: it pauses
// at the step limit (unless pausing is held off), checks interrupts and memory every
// memoryCheckInterval instructions, and sets the next checkAt. It reports whether the loop
// must return.
func (vm *VM) stepChecks() bool {
	ex := &vm.exec
	if ex.stepLimit > 0 && ex.steps >= ex.stepLimit && ex.noPause == 0 {
		ex.paused = true
		ex.checkAt = 0
		return true
	}
	ex.steps++
	if ex.steps&(memoryCheckInterval-1) == 0 {
		if vm.checkInterrupts() {
			ex.checkAt = 0
			return true
		}
		vm.checkMemory()
	}
	// the count before the instruction that makes it the next multiple of the interval
	next := ex.steps | (memoryCheckInterval - 1)
	if ex.stepLimit > 0 {
		if ex.steps >= ex.stepLimit {
			next = ex.steps // past the limit while pausing is held off: check every instruction
		} else {
			next = min(next, ex.stepLimit)
		}
	}
	ex.checkAt = next
	return false
}

// errPaused is used internally to stop the loop at a safe point.
type pauseSignal struct{}

// loop is the dispatch loop.
func (vm *VM) loop(stopDepth int) Value {
	ex := &vm.exec
	f := ex.frames[len(ex.frames)-1]
	code := f.code.Code
	stack := ex.stack
	for {
		if ex.steps < ex.checkAt {
			ex.steps++
		} else if vm.stepChecks() {
			return undefinedValue
		}
		in := code[f.pc]
		f.pc++
		var cond bool // the comparison result of a fused comparison and jump (condJump)
		switch in.Op {
		case bytecode.OpNop:
		case bytecode.OpUndef:
			stack[ex.sp] = Value{} // undefined
			ex.sp++
		case bytecode.OpNull:
			stack[ex.sp] = nullValue
			ex.sp++
		case bytecode.OpTrue:
			stack[ex.sp] = trueValue
			ex.sp++
		case bytecode.OpFalse:
			stack[ex.sp] = falseValue
			ex.sp++
		case bytecode.OpInt:
			stack[ex.sp] = Value{kind: KindNumber, num: float64(in.A)}
			ex.sp++
		case bytecode.OpConst:
			stack[ex.sp] = f.code.vals[in.A]
			ex.sp++
		case bytecode.OpHole:
			stack[ex.sp] = holeValue
			ex.sp++
		case bytecode.OpPop:
			ex.sp--
		case bytecode.OpDup:
			stack[ex.sp] = stack[ex.sp-1]
			ex.sp++
		case bytecode.OpDup2:
			stack[ex.sp] = stack[ex.sp-2]
			stack[ex.sp+1] = stack[ex.sp-1]
			ex.sp += 2
		case bytecode.OpSwap:
			stack[ex.sp-1], stack[ex.sp-2] = stack[ex.sp-2], stack[ex.sp-1]
		case bytecode.OpOver:
			stack[ex.sp] = stack[ex.sp-2]
			ex.sp++
		case bytecode.OpRot3:
			a, b, c := stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
			stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1] = c, a, b
		case bytecode.OpRot4:
			a, b, c, d := stack[ex.sp-4], stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
			stack[ex.sp-4], stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1] = d, a, b, c
		case bytecode.OpGetReg:
			stack[ex.sp] = stack[f.base+int(in.A)]
			ex.sp++
		case bytecode.OpSetReg:
			stack[f.base+int(in.A)] = stack[ex.sp-1]
		case bytecode.OpPutReg:
			ex.sp--
			stack[f.base+int(in.A)] = stack[ex.sp]
		case bytecode.OpGetRegChecked:
			v := stack[f.base+int(in.A)]
			if v.kind == kindHole {
				vm.throwTDZ(f.code.Consts[in.B].GoString())
			}
			stack[ex.sp] = v
			ex.sp++
		case bytecode.OpCheckReg:
			if stack[f.base+int(in.A)].kind == kindHole {
				vm.throwTDZ(f.code.Consts[in.B].GoString())
			}
		case bytecode.OpGetEnv:
			e := f.env
			for i := int32(0); i < in.A; i++ {
				e = e.parent
			}
			stack[ex.sp] = e.slots[in.B]
			ex.sp++
		case bytecode.OpSetEnv, bytecode.OpPutEnv:
			e := f.env
			for i := int32(0); i < in.A; i++ {
				e = e.parent
			}
			e.slots[in.B] = stack[ex.sp-1]
			if in.Op == bytecode.OpPutEnv {
				ex.sp--
			}
		case bytecode.OpGetEnvChecked, bytecode.OpCheckEnv:
			e := f.env
			for i := int32(0); i < in.A; i++ {
				e = e.parent
			}
			v := e.slots[in.B]
			name := code[f.pc].A
			f.pc++
			if v.kind == kindHole {
				vm.throwTDZ(f.code.Consts[name].GoString())
			}
			if in.Op == bytecode.OpGetEnvChecked {
				stack[ex.sp] = v
				ex.sp++
			}
		case bytecode.OpPushEnv:
			slots := make([]Value, in.A)
			for i := range slots {
				slots[i] = holeValue
			}
			f.env = &envRecord{parent: f.env, slots: slots}
			vm.allocated += recordBaseSize + int64(in.A)*valueSize
		case bytecode.OpPopEnv:
			f.env = f.env.parent
		case bytecode.OpCopyEnv:
			f.env = &envRecord{parent: f.env.parent, slots: append([]Value(nil), f.env.slots...)}
			vm.allocated += recordBaseSize + int64(len(f.env.slots))*valueSize
		case bytecode.OpGetGlobal:
			key := f.code.keys[in.A]
			g := vm.realm.Global
			if i, _ := g.props.findHashed(key, f.code.keyHashes[in.A]); i >= 0 && g.props.props[i].flags&propAccessor == 0 {
				stack[ex.sp] = g.dataValue(g.props.props[i].value)
			} else if !vm.hasProperty(g, key) {
				vm.throwReferenceError("%s is not defined", key.String())
			} else {
				r := vm.getProp(g, key)
				stack = ex.stack
				stack[ex.sp] = r
			}
			ex.sp++
		case bytecode.OpSetGlobal:
			key := f.code.keys[in.A]
			g := vm.realm.Global
			if !vm.hasProperty(g, key) {
				vm.throwReferenceError("%s is not defined", key.String())
			}
			vm.setProp(g, key, stack[ex.sp-1])
			stack = ex.stack
		case bytecode.OpTypeofGlobal:
			key := f.code.keys[in.A]
			v := undefinedValue
			if vm.hasProperty(vm.realm.Global, key) {
				v = vm.getProp(vm.realm.Global, key)
				stack = ex.stack
			}
			stack[ex.sp] = typeOfValue(v)
			ex.sp++
		case bytecode.OpDeclareGlobal:
			ex.sp--
			key := f.code.keys[in.A]
			g := vm.realm.Global
			v := stack[ex.sp]
			if g.hasOwn(key) {
				if v.kind != KindUndefined || code[f.pc-2].Op != bytecode.OpUndef {
					vm.setProp(g, key, v)
					stack = ex.stack
				}
			} else {
				vm.createDataPropertyOrThrow(g, key, v)
				stack = ex.stack
			}
		case bytecode.OpThrowConst:
			vm.throwTypeError("Assignment to constant variable.")
		case bytecode.OpThrowRef:
			vm.throwReferenceError("%s is not defined", f.code.Consts[in.A].GoString())
		case bytecode.OpThrowTyp:
			if in.B == 1 {
				v := stack[ex.sp-1]
				ex.sp--
				if v.kind == kindHole {
					break
				}
				vm.throwReferenceError("%s", f.code.Consts[in.A].GoString())
			}
			vm.throwTypeError("%s", f.code.Consts[in.A].GoString())

		case bytecode.OpGetProp:
			obj := stack[ex.sp-1]
			r := vm.getMemberHint(obj, f.code, in, f.pc-1)
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpGetPropKeep:
			obj := stack[ex.sp-1]
			r := vm.getMemberHint(obj, f.code, in, f.pc-1)
			stack = ex.stack
			stack[ex.sp-1] = r
			stack[ex.sp] = obj
			ex.sp++
		case bytecode.OpSetProp:
			obj, v := stack[ex.sp-2], stack[ex.sp-1]
			vm.putMemberHint(obj, f.code, in, f.pc-1, v)
			stack = ex.stack
			stack[ex.sp-2] = v
			ex.sp--
		case bytecode.OpGetElem:
			if in.B == 1 {
				// super[key] with receiver: [base key this]
				base, key, this := stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
				ex.sp -= 2
				r := vm.getFrom(base.asObject(), vm.toPropertyKey(key), this)
				stack = ex.stack
				stack[ex.sp-1] = r
				break
			}
			obj, key := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			r := vm.getElem(obj, key)
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpGetElemKeep:
			obj, key := stack[ex.sp-2], stack[ex.sp-1]
			r := vm.getElem(obj, key)
			stack = ex.stack
			stack[ex.sp-2] = r
			stack[ex.sp-1] = obj
		case bytecode.OpSetElem:
			if in.B == 1 {
				base, key, v, this := stack[ex.sp-4], stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
				ex.sp -= 3
				if !vm.setOn(base.asObject(), vm.toPropertyKey(key), v, this) {
					vm.throwSuperSetRefused(base.asObject(), vm.toPropertyKey(key), this)
				}
				stack = ex.stack
				stack[ex.sp-1] = v
				break
			}
			obj, key, v := stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
			vm.setElem(obj, key, v)
			stack = ex.stack
			ex.sp -= 2
			stack[ex.sp-1] = v
		case bytecode.OpDeleteProp:
			r := Bool(vm.deleteMember(stack[ex.sp-1], f.code.keys[in.A]))
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpDeleteElem:
			obj, key := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			if obj.kind <= KindNull {
				// ToObject of the base comes before the key's conversion (its toString
				// does not run)
				vm.throwTypeError("Cannot convert undefined or null to object")
			}
			r := Bool(vm.deleteMember(obj, vm.toPropertyKey(key)))
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpIn:
			key, obj := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			o := obj.asObject()
			if o == nil {
				// The right side is checked before the key is converted: an object key's
				// toString or Symbol.toPrimitive does not run, and V8 names it without side
				// effects.
				desc := ""
				if key.kind == KindObject {
					desc = vm.describeObject(key)
				} else {
					desc = vm.toPropertyKey(key).String()
				}
				vm.throwTypeError("Cannot use 'in' operator to search for '%s' in %s", desc, obj.String())
			}
			r := Bool(vm.hasProperty(o, vm.toPropertyKey(key)))
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpInstanceOf:
			v, c := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			r := Bool(vm.instanceOf(v, c))
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpToPropertyKey:
			v := stack[ex.sp-1]
			if v.kind != KindString && v.kind != KindSymbol && v.kind != KindNumber {
				// The base below the key is made an object before the key is converted
				// (null[k] += 1 throws before k's toString runs); B=1: no base (a class
				// field's computed key).
				if base := stack[ex.sp-2]; base.kind <= KindNull && in.B == 0 {
					vm.throwTypeError("Cannot read properties of %s", base.kind)
				}
				r := vm.toPropertyKey(v).toValue()
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpCheckCoercible:
			if v := stack[ex.sp-1]; v.kind <= KindNull {
				vm.throwNotDestructurable(f, in.A, v)
			}

		case bytecode.OpCall, bytecode.OpCallSpread, bytecode.OpNew, bytecode.OpNewSpread:
			if in.Op == bytecode.OpCall {
				// a plain function or method closure: push its frame here (callValue's
				// closure case without the checks that do not apply)
				argc := int(in.A)
				fnIdx := ex.sp - argc - 2
				if fo := stack[fnIdx].asObject(); fo != nil {
					if cl, ok := fo.slots.(*closureSlots); ok && cl.code.Kind < bytecode.FuncClassCtor && !cl.code.Async && !cl.code.Generator {
						f = vm.pushFrame(cl, fo, fnIdx+2, argc, stack[fnIdx+1], nil, retPush)
						code = f.code.Code
						stack = ex.stack
						break
					}
				}
			}
			argc := int(in.A)
			if in.Op == bytecode.OpCallSpread || in.Op == bytecode.OpNewSpread {
				argc = vm.spreadArgs()
			}
			isNew := in.Op == bytecode.OpNew || in.Op == bytecode.OpNewSpread
			var fnIdx int
			var this Value
			if isNew {
				// [ctor args...] -> make room for this: shift args up by one
				fnIdx = ex.sp - argc - 1
				vm.ensureStack(1)
				stack = ex.stack
				copy(stack[fnIdx+2:ex.sp+1], stack[fnIdx+1:ex.sp])
				stack[fnIdx+1] = undefinedValue
				ex.sp++
			} else {
				fnIdx = ex.sp - argc - 2
				this = stack[fnIdx+1]
			}
			fnv := stack[fnIdx]
			fo := fnv.asObject()
			if isNew {
				if fo == nil || !fo.isConstructor() {
					vm.notConstructor(f, in, fnv)
				}
			} else if fo == nil || !fo.isCallable() {
				vm.notCallable(f, in, fnv)
			}
			var newTarget *Object
			if isNew {
				newTarget = fo
			}
			if vm.callValue(fo, this, fnIdx, argc, newTarget) {
				f = ex.frames[len(ex.frames)-1]
				code = f.code.Code
			}
			stack = ex.stack
		case bytecode.OpSuperCall, bytecode.OpSuperCallSpread:
			argc := int(in.A)
			if in.Op == bytecode.OpSuperCallSpread {
				argc = vm.spreadArgs()
			}
			// [callee newTarget args...]
			fnIdx := ex.sp - argc - 2
			callee := stack[fnIdx].asObject()
			nt := stack[fnIdx+1].asObject()
			parent := callee.proto
			if parent == nil || !parent.isConstructor() {
				vm.throwNotSuperConstructor(callee, parent)
			}
			stack[fnIdx] = objectValue(parent)
			stack[fnIdx+1] = undefinedValue
			if vm.callValue(parent, undefinedValue, fnIdx, argc, nt) {
				f = ex.frames[len(ex.frames)-1]
				code = f.code.Code
			}
			stack = ex.stack
		case bytecode.OpSuperBase:
			callee := stack[ex.sp-1].asObject()
			var home *Object
			if cl, ok := callee.slots.(*closureSlots); ok {
				home = cl.home
			}
			if home == nil || home.proto == nil {
				stack[ex.sp-1] = undefinedValue
				if home == nil {
					vm.throwSyntaxError("'super' keyword unexpected here")
				}
				stack[ex.sp-1] = nullValue
				break
			}
			stack[ex.sp-1] = objectValue(home.proto)
		case bytecode.OpReturn:
			v := stack[ex.sp-1]
			if !f.construct && f.co == nil && !f.isReaction && f.ret == retPush {
				// doReturn for a plain call made by this loop
				ex.frames = ex.frames[:len(ex.frames)-1]
				ex.sp = f.argsBase - 2
				ex.framePool = append(ex.framePool, f)
				stack[ex.sp] = v
				ex.sp++
				f = ex.frames[len(ex.frames)-1]
				code = f.code.Code
				break
			}
			if done, res := vm.doReturn(f, v, stopDepth); done {
				return res
			}
			f = ex.frames[len(ex.frames)-1]
			code = f.code.Code
			stack = ex.stack
		case bytecode.OpCheckReturn:
			v, this := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			if v.kind != KindObject {
				if v.kind != KindUndefined {
					vm.throwTypeError("Derived constructors may only return object or undefined")
				}
				if this.kind == kindHole {
					vm.throwReferenceError("Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
				}
				stack[ex.sp-1] = this
			}

		case bytecode.OpAdd:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			if a.kind == KindNumber && b.kind == KindNumber {
				stack[ex.sp-1] = Value{kind: KindNumber, num: a.num + b.num}
			} else {
				r := vm.add(a, b)
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpSub, bytecode.OpMul, bytecode.OpDiv, bytecode.OpMod, bytecode.OpExp:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			var x, y float64
			if a.kind == KindNumber && b.kind == KindNumber {
				x, y = a.num, b.num
			} else {
				r := vm.numericBinary(in.Op, a, b)
				stack = ex.stack
				stack[ex.sp-1] = r
				break
			}
			var r float64
			switch in.Op {
			case bytecode.OpSub:
				r = x - y
			case bytecode.OpMul:
				r = x * y
			case bytecode.OpDiv:
				r = x / y
			case bytecode.OpMod:
				r = jsMod(x, y)
			case bytecode.OpExp:
				r = jsmath.Pow(x, y)
			}
			stack[ex.sp-1] = Value{kind: KindNumber, num: r}
		case bytecode.OpBitAnd, bytecode.OpBitOr, bytecode.OpBitXor, bytecode.OpShl, bytecode.OpShr, bytecode.OpUShr:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			if a.kind != KindNumber || b.kind != KindNumber {
				r := vm.numericBinary(in.Op, a, b)
				stack = ex.stack
				stack[ex.sp-1] = r
				break
			}
			x, y := toInt32(a.num), uint32(toInt32(b.num))
			var r float64
			switch in.Op {
			case bytecode.OpBitAnd:
				r = float64(x & int32(y))
			case bytecode.OpBitOr:
				r = float64(x | int32(y))
			case bytecode.OpBitXor:
				r = float64(x ^ int32(y))
			case bytecode.OpShl:
				r = float64(x << (y & 31))
			case bytecode.OpShr:
				r = float64(x >> (y & 31))
			case bytecode.OpUShr:
				r = float64(uint32(x) >> (y & 31))
			}
			stack[ex.sp-1] = Value{kind: KindNumber, num: r}
		case bytecode.OpEq, bytecode.OpNe:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			ne := in.Op == bytecode.OpNe
			r := vm.looseEqual(a, b) != ne
			stack = ex.stack
			stack[ex.sp-1] = Bool(r)
		case bytecode.OpStrictEq:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			stack[ex.sp-1] = Bool(StrictEquals(a, b))
		case bytecode.OpStrictNe:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			stack[ex.sp-1] = Bool(!StrictEquals(a, b))
		case bytecode.OpLt, bytecode.OpLe, bytecode.OpGt, bytecode.OpGe:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp--
			if a.kind == KindNumber && b.kind == KindNumber {
				var r bool
				switch in.Op {
				case bytecode.OpLt:
					r = a.num < b.num
				case bytecode.OpLe:
					r = a.num <= b.num
				case bytecode.OpGt:
					r = a.num > b.num
				case bytecode.OpGe:
					r = a.num >= b.num
				}
				stack[ex.sp-1] = Bool(r)
				break
			}
			r := Bool(vm.compare(in.Op, a, b))
			stack = ex.stack
			stack[ex.sp-1] = r
		case bytecode.OpNeg:
			v := stack[ex.sp-1]
			if v.kind != KindNumber {
				r := vm.numericUnary(in.Op, v)
				stack = ex.stack
				stack[ex.sp-1] = r
				break
			}
			stack[ex.sp-1] = Value{kind: KindNumber, num: -v.num}
		case bytecode.OpPlus, bytecode.OpNumeric:
			v := stack[ex.sp-1]
			if v.kind != KindNumber {
				if in.Op == bytecode.OpNumeric {
					r := vm.toNumeric(v)
					stack = ex.stack
					stack[ex.sp-1] = r
					break
				}
				r := Value{kind: KindNumber, num: vm.toNumber(v)}
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpNot:
			stack[ex.sp-1] = Bool(!truthy(stack[ex.sp-1]))
		case bytecode.OpBitNot:
			if v := stack[ex.sp-1]; v.kind != KindNumber {
				r := vm.numericUnary(in.Op, v)
				stack = ex.stack
				stack[ex.sp-1] = r
				break
			}
			stack[ex.sp-1] = Value{kind: KindNumber, num: float64(^toInt32(stack[ex.sp-1].num))}
		case bytecode.OpTypeof:
			stack[ex.sp-1] = typeOfValue(stack[ex.sp-1])
		case bytecode.OpInc:
			if v := stack[ex.sp-1]; v.kind == KindNumber {
				stack[ex.sp-1] = Value{kind: KindNumber, num: v.num + 1}
			} else {
				r := vm.numericUnary(in.Op, v)
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpDec:
			if v := stack[ex.sp-1]; v.kind == KindNumber {
				stack[ex.sp-1] = Value{kind: KindNumber, num: v.num - 1}
			} else {
				r := vm.numericUnary(in.Op, v)
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpToString:
			v := stack[ex.sp-1]
			if v.kind != KindString {
				if v.kind == KindSymbol {
					vm.throwTypeError("Cannot convert a Symbol value to a string")
				}
				r := stringValue(vm.toString(v))
				stack = ex.stack
				stack[ex.sp-1] = r
			}
		case bytecode.OpConcatN:
			n := int(in.A)
			s := stack[ex.sp-n].str()
			for i := ex.sp - n + 1; i < ex.sp; i++ {
				s = vm.concat(s, stack[i].str())
				stack = ex.stack
			}
			ex.sp -= n - 1
			stack[ex.sp-1] = stringValue(s)

		case bytecode.OpThrow:
			// Throw without a Go panic when a handler of a frame above stopDepth takes it.
			ex.sp--
			v := stack[ex.sp]
			ex.lastThrow = v
			ex.lastThrowLine, ex.lastThrowColumn = f.code.PosAt(f.pc - 1)
			if !vm.unwindTo(v, stopDepth) {
				if ex.asyncExit {
					ex.asyncExit = false
					return ex.asyncExitValue
				}
				panic(&Exception{Value: v})
			}
			f = ex.frames[len(ex.frames)-1]
			code = f.code.Code
			stack = ex.stack
		case bytecode.OpJump:
			f.pc = int(in.A)
		case bytecode.OpJumpIfFalse:
			ex.sp--
			if !truthy(stack[ex.sp]) {
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfTrue:
			ex.sp--
			if truthy(stack[ex.sp]) {
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfFalseKeep:
			if !truthy(stack[ex.sp-1]) {
				f.pc = int(in.A)
			} else {
				ex.sp--
			}
		case bytecode.OpJumpIfTrueKeep:
			if truthy(stack[ex.sp-1]) {
				f.pc = int(in.A)
			} else {
				ex.sp--
			}
		case bytecode.OpJumpIfNotNullishKeep:
			if stack[ex.sp-1].kind > KindNull {
				f.pc = int(in.A)
			} else {
				ex.sp--
			}
		case bytecode.OpJumpIfNullish:
			if stack[ex.sp-1-int(in.B)].kind <= KindNull {
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfNotUndef:
			if stack[ex.sp-1].kind != KindUndefined {
				f.pc = int(in.A)
			} else {
				ex.sp--
			}

		case bytecode.OpNewObject:
			if vm.allocated > vm.maxMemory && vm.maxMemory > 0 {
				vm.checkMemory()
				stack = ex.stack
			}
			// a literal's size: room for all its properties at once (at least 4, as the
			// first add would make)
			o := vm.newObjectRoom(vm.realm.ObjectPrototype, ClassObject, roomFor(int(in.A)))
			stack[ex.sp] = objectValue(o)
			ex.sp++
		case bytecode.OpNewArray:
			r := objectValue(vm.newArray(make([]Value, 0, in.A)))
			stack = ex.stack
			stack[ex.sp] = r
			ex.sp++
		case bytecode.OpArrayPush:
			a := stack[ex.sp-2].obj()
			vm.arrayAppend(a, stack[ex.sp-1])
			stack = ex.stack
			ex.sp--
		case bytecode.OpArrayHole:
			a := stack[ex.sp-1].obj()
			vm.arrayAppend(a, holeValue)
			stack = ex.stack
		case bytecode.OpArraySpread:
			a := stack[ex.sp-2].obj()
			src := stack[ex.sp-1]
			ex.sp--
			if in.A > 0 {
				vm.checkIterable(f, in.A, src, false)
			}
			vm.spreadInto(a, src)
			stack = ex.stack

		// Fused operations (bytecode/fuse.go): f.pc moves past each instruction before it runs, as
		// when it runs alone, so that an error has its position.
		case bytecode.OpGetRegProp:
			obj := stack[f.base+int(in.A)]
			in = code[f.pc]
			f.pc++
			r := vm.getMemberHint(obj, f.code, in, f.pc-1)
			stack = ex.stack
			stack[ex.sp] = r
			ex.sp++
		case bytecode.OpGetRegPropKeep:
			obj := stack[f.base+int(in.A)]
			in = code[f.pc]
			f.pc++
			r := vm.getMemberHint(obj, f.code, in, f.pc-1)
			stack = ex.stack
			stack[ex.sp] = r
			stack[ex.sp+1] = obj
			ex.sp += 2
		case bytecode.OpGetEnvProp, bytecode.OpGetEnvPropKeep:
			e := f.env
			for i := int32(0); i < in.A; i++ {
				e = e.parent
			}
			obj := e.slots[in.B]
			keep := in.Op == bytecode.OpGetEnvPropKeep
			in = code[f.pc]
			f.pc++
			r := vm.getMemberHint(obj, f.code, in, f.pc-1)
			stack = ex.stack
			stack[ex.sp] = r
			ex.sp++
			if keep {
				stack[ex.sp] = obj
				ex.sp++
			}
		case bytecode.OpGetRegsElem:
			obj, key := stack[f.base+int(in.A)], stack[f.base+int(code[f.pc].A)]
			f.pc += 2
			if o := obj.asObject(); o != nil && o.class == ClassArray && key.kind == KindNumber {
				if i := key.num; i >= 0 && i < float64(len(o.elems)) && i == math.Trunc(i) {
					if v := o.elems[int(i)]; v.kind != kindHole {
						stack[ex.sp] = v
						ex.sp++
						break
					}
				}
			}
			r := vm.getElem(obj, key)
			stack = ex.stack
			stack[ex.sp] = r
			ex.sp++
		case bytecode.OpGetRegInc:
			v := stack[f.base+int(in.A)]
			in = code[f.pc]
			f.pc++
			switch {
			case v.kind != KindNumber:
				r := vm.numericUnary(in.Op, v)
				stack = ex.stack
				stack[ex.sp] = r
			case in.Op == bytecode.OpInc:
				stack[ex.sp] = Value{kind: KindNumber, num: v.num + 1}
			default:
				stack[ex.sp] = Value{kind: KindNumber, num: v.num - 1}
			}
			ex.sp++
		case bytecode.OpGetRegUndef:
			stack[ex.sp] = stack[f.base+int(in.A)]
			stack[ex.sp+1] = Value{} // undefined
			ex.sp += 2
			f.pc++
		case bytecode.OpGetReg2:
			stack[ex.sp] = stack[f.base+int(in.A)]
			stack[ex.sp+1] = stack[f.base+int(code[f.pc].A)]
			f.pc++
			ex.sp += 2
		case bytecode.OpPutRegGetReg:
			stack[f.base+int(in.A)] = stack[ex.sp-1]
			stack[ex.sp-1] = stack[f.base+int(code[f.pc].A)]
			f.pc++
		case bytecode.OpSetPropPop:
			obj, v := stack[ex.sp-2], stack[ex.sp-1]
			vm.putMemberHint(obj, f.code, in, f.pc-1, v)
			stack = ex.stack
			ex.sp -= 2
			f.pc++
		case bytecode.OpStrictEqJump, bytecode.OpStrictNeJump:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			ex.sp -= 2
			eq := in.Op == bytecode.OpStrictEqJump
			if a.kind == KindNumber && b.kind == KindNumber {
				cond = a.num == b.num
			} else {
				cond = strictEqualNonNumber(a, b)
			}
			cond = cond == eq
			goto condJump
		case bytecode.OpIntStrictEqJump, bytecode.OpIntStrictNeJump:
			a := stack[ex.sp-1]
			ex.sp--
			cond = a.kind == KindNumber && a.num == float64(in.A)
			cond = cond == (in.Op == bytecode.OpIntStrictEqJump)
			f.pc++
			goto condJump
		case bytecode.OpSetRegPop:
			ex.sp--
			stack[f.base+int(in.A)] = stack[ex.sp]
			f.pc++
		case bytecode.OpPopJump:
			ex.sp--
			f.pc = int(code[f.pc].A)
		case bytecode.OpGetEnvUndef:
			e := f.env
			for i := int32(0); i < in.A; i++ {
				e = e.parent
			}
			stack[ex.sp] = e.slots[in.B]
			stack[ex.sp+1] = Value{} // undefined
			ex.sp += 2
			f.pc++
		case bytecode.OpLtJump, bytecode.OpLeJump, bytecode.OpGtJump, bytecode.OpGeJump:
			a, b := stack[ex.sp-2], stack[ex.sp-1]
			if a.kind == KindNumber && b.kind == KindNumber {
				switch in.Op {
				case bytecode.OpLtJump:
					cond = a.num < b.num
				case bytecode.OpLeJump:
					cond = a.num <= b.num
				case bytecode.OpGtJump:
					cond = a.num > b.num
				default:
					cond = a.num >= b.num
				}
			} else {
				cond = vm.compare(bytecode.UnfusedCompare[in.Op], a, b)
				stack = ex.stack
			}
			ex.sp -= 2
			goto condJump
		case bytecode.OpConstStrictEqJump, bytecode.OpConstStrictNeJump:
			a, b := stack[ex.sp-1], f.code.vals[in.A]
			ex.sp--
			eq := in.Op == bytecode.OpConstStrictEqJump
			if a.kind == KindNumber && b.kind == KindNumber {
				cond = a.num == b.num
			} else {
				cond = strictEqualNonNumber(a, b)
			}
			cond = cond == eq
			f.pc++
			goto condJump
		default:
			if done, res := vm.execMisc(f, in, stopDepth); done {
				return res
			}
			f = ex.frames[len(ex.frames)-1]
			code = f.code.Code
			stack = ex.stack
		}
		continue
	condJump:
		// the conditional jump after a fused comparison, on its result cond
		in = code[f.pc]
		f.pc++
		switch in.Op {
		case bytecode.OpJumpIfFalse:
			if !cond {
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfTrue:
			if cond {
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfFalseKeep:
			if !cond {
				stack[ex.sp] = falseValue
				ex.sp++
				f.pc = int(in.A)
			}
		case bytecode.OpJumpIfTrueKeep:
			if cond {
				stack[ex.sp] = trueValue
				ex.sp++
				f.pc = int(in.A)
			}
		}
	}
}

// truthy is ToBoolean with the kinds most conditions test (booleans, objects, undefined and
// null) decided inline.
func truthy(v Value) bool {
	switch {
	case v.kind == KindBool:
		return v.num != 0
	case v.kind == KindObject:
		return true
	case v.kind <= KindNull:
		return false
	}
	return ToBoolean(v)
}

func (vm *VM) throwTDZ(name string) {
	if name == "%this" {
		vm.throwReferenceError("Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
	}
	vm.throwReferenceError("Cannot access '%s' before initialization", name)
}

func jsMod(x, y float64) float64 {
	if y == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	if math.IsInf(y, 0) {
		return x
	}
	if x == 0 {
		return x
	}
	r := math.Mod(x, y)
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

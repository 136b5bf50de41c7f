package interp

import (
	"math"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Operations of the dispatch loop that are too large to inline.

// maxStringLength is the string length cap (code units).
const maxStringLength = 1 << 24

// Bits of execState.interrupt, set from other goroutines.
const (
	interruptStop  = 1 << iota // Run's context ended: stop now, even inside natives
	interruptPause             // RunOptions.Pause closed: pause at the next safe point
)

// checkInterrupt reports whether the run's context ended.
func (vm *VM) checkInterrupt() bool {
	return atomic.LoadUint32(&vm.exec.interrupt)&interruptStop != 0
}

// checkInterrupts is the dispatch loop's periodic check of the interrupt flags: it reports
// whether the loop must return now, with ex.paused set for a pause.
func (vm *VM) checkInterrupts() bool {
	ex := &vm.exec
	flags := atomic.LoadUint32(&ex.interrupt)
	if flags == 0 {
		return false
	}
	if flags&interruptStop != 0 {
		vm.interruptNested()
		return true
	}
	if ex.noPause == 0 {
		ex.paused = true
		ex.steps-- // the instruction counted last did not run
		return true
	}
	return false
}

// errTimeLimit is the diagnostic of a run interrupted where it cannot stop at a safe point.
func errTimeLimit() *Diagnostic {
	return &Diagnostic{Kind: "TimeoutExceeded", Message: "the run exceeded its time limit"}
}

// interruptNested aborts the run when the dispatch loop that saw the interrupt flag is
// nested (entered from Go: a getter, setter, callback or generator resumed by a native).
// Such a loop cannot return early: its Go caller would take the early return for the
// function's completion (a setter finished, a generator returned undefined) and carry on
// with frames still on the stack. Only the outermost loop stops at a safe point, where
// Run reports the interruption.
func (vm *VM) interruptNested() {
	if vm.exec.depth > 1 {
		panic(&abortSignal{err: errTimeLimit()})
	}
}

func (vm *VM) concat(a, b *jsString) *jsString {
	n := a.Len() + b.Len()
	if n > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
	vm.allocated += stringBaseSize
	if n < ropeMinLength {
		vm.allocated += int64(n) * 2
	}
	return concatStrings(a, b)
}

// add is the + operator for non-number operands.
func (vm *VM) add(a, b Value) Value {
	if a.kind == KindString && b.kind == KindString {
		return stringValue(vm.concat(a.str(), b.str()))
	}
	pa, pb := vm.toPrimitive(a, hintDefault), vm.toPrimitive(b, hintDefault)
	if pa.kind == KindString || pb.kind == KindString {
		return stringValue(vm.concat(vm.toString(pa), vm.toString(pb)))
	}
	if pa.kind == KindBigInt || pb.kind == KindBigInt {
		return vm.numericBinary(bytecode.OpAdd, pa, pb)
	}
	return Value{kind: KindNumber, num: vm.toNumber(pa) + vm.toNumber(pb)}
}

// looseEqual is IsLooselyEqual (==).
func (vm *VM) looseEqual(a, b Value) bool {
	for {
		if a.kind == b.kind {
			return StrictEquals(a, b)
		}
		if a.kind <= KindNull && b.kind <= KindNull {
			return true
		}
		if a.kind <= KindNull || b.kind <= KindNull {
			return false
		}
		switch {
		case a.kind == KindNumber && b.kind == KindString:
			return a.num == vm.toNumber(b)
		case a.kind == KindString && b.kind == KindNumber:
			return vm.toNumber(a) == b.num
		case a.kind == KindBigInt && b.kind == KindNumber:
			return bigIntEqualsNumber(a.bigint(), b.num)
		case a.kind == KindNumber && b.kind == KindBigInt:
			return bigIntEqualsNumber(b.bigint(), a.num)
		case a.kind == KindBigInt && b.kind == KindString:
			n, ok := stringToBigInt(b.str())
			return ok && n.Cmp(a.bigint()) == 0
		case a.kind == KindString && b.kind == KindBigInt:
			a, b = b, a
			continue
		case a.kind == KindBool:
			a = Number(vm.toNumber(a))
		case b.kind == KindBool:
			b = Number(vm.toNumber(b))
		case a.kind == KindObject && b.kind != KindObject:
			a = vm.toPrimitive(a, hintDefault)
		case b.kind == KindObject && a.kind != KindObject:
			b = vm.toPrimitive(b, hintDefault)
		default:
			return false
		}
	}
}

// compare implements <, <=, >, >= for non-number operands.
func (vm *VM) compare(op bytecode.Op, a, b Value) bool {
	pa, pb := vm.toPrimitive(a, hintNumber), vm.toPrimitive(b, hintNumber)
	if op == bytecode.OpGt || op == bytecode.OpLe {
		// evaluate as b < a (operands already converted in order)
		pa, pb = pb, pa
	}
	var lt, undef bool
	if pa.kind == KindString && pb.kind == KindString {
		lt = pa.str().Compare(pb.str()) < 0
	} else if pa.kind == KindBigInt || pb.kind == KindBigInt {
		lt, undef = vm.bigIntLess(pa, pb)
	} else {
		x, y := vm.toNumber(pa), vm.toNumber(pb)
		if math.IsNaN(x) || math.IsNaN(y) {
			undef = true
		}
		lt = x < y
	}
	switch op {
	case bytecode.OpLt, bytecode.OpGt:
		return !undef && lt
	default: // Le, Ge: !(b < a), false when undefined
		return !undef && !lt
	}
}

// throwNullishAccess throws the TypeError of reading or writing a property of null or
// undefined. An object key is not converted (its toString must not run): as in V8's message,
// an object that inherits Object.prototype.toString is named #<Constructor>, and any other
// object key leaves the key out.
func (vm *VM) throwNullishAccess(what, verb string, obj, key Value) {
	if key.kind == KindObject {
		if o := key.obj(); !o.isCallable() && o.class != ClassProxy {
			if d := vm.describeObject(key); strings.HasPrefix(d, "#<") {
				vm.throwTypeError("Cannot %s %s (%s '%s')", what, obj.kind, verb, d)
			}
		}
		vm.throwTypeError("Cannot %s %s", what, obj.kind)
	}
	k := vm.toPropertyKey(key)
	if verb == "reading" {
		vm.throwNullishRead(obj, k)
	}
	vm.throwTypeError("Cannot %s %s (%s '%s')", what, obj.kind, verb, k.String())
}

// throwNullishRead throws the TypeError of reading key of null or undefined. V8 words a read
// of Symbol.iterator as the iteration it is usually part of.
func (vm *VM) throwNullishRead(obj Value, key PropertyKey) {
	if key == symKey(symIterator) {
		what := "undefined"
		if obj.kind == KindNull {
			what = "object null"
		}
		vm.throwTypeError("%s is not iterable (cannot read property Symbol(Symbol.iterator))", what)
	}
	vm.throwTypeError("Cannot read properties of %s (reading '%s')", obj.kind, key.String())
}

// getMember is obj.key for any value.
func (vm *VM) getMember(obj Value, key PropertyKey) Value {
	return vm.getMemberHashed(obj, key, 0)
}

// getMemberHashed is getMember with the key's hash, or 0 (see propertyMap.findHashed).
func (vm *VM) getMemberHashed(obj Value, key PropertyKey, h uint64) Value {
	if obj.kind == KindObject {
		o := obj.obj()
		if o.class == ClassObject {
			var i int
			if i, h = o.props.findHashed(key, h); i >= 0 {
				if p := &o.props.props[i]; p.flags&propAccessor == 0 {
					return o.dataValue(p.value)
				}
			} else {
				// an ordinary object without the key: the walk goes on from its prototype
				return vm.getFromHashed(o.proto, key, h, obj)
			}
		}
		return vm.getFromHashed(o, key, h, obj)
	}
	if obj.kind <= KindNull {
		vm.throwNullishRead(obj, key)
	}
	return vm.getVHashed(obj, key, h)
}

func (vm *VM) putMember(obj Value, key PropertyKey, v Value) {
	vm.putMemberHashed(obj, key, 0, v)
}

// putMemberHashed is putMember with the key's hash, or 0 (see propertyMap.findHashed).
func (vm *VM) putMemberHashed(obj Value, key PropertyKey, h uint64, v Value) {
	if obj.kind <= KindNull {
		vm.throwTypeError("Cannot set properties of %s (setting '%s')", obj.kind, key.String())
	}
	if obj.kind == KindObject {
		o := obj.obj()
		if !vm.setOnHashed(o, key, h, v, obj) {
			vm.throwSetRefused(o, key)
		}
		return
	}
	vm.putValue(obj, key, v)
}

func (vm *VM) getElem(obj Value, key Value) Value {
	if obj.kind == KindObject && key.kind == KindNumber {
		o := obj.obj()
		if o.class == ClassArray {
			if i := key.num; i >= 0 && i < float64(len(o.elems)) && i == math.Trunc(i) {
				if v := o.elems[int(i)]; v.kind != kindHole {
					return v
				}
			}
		} else if o.class == ClassTypedArray {
			if i := key.num; i >= 0 && i == math.Trunc(i) && i < math.MaxUint32 {
				return typedArrayGet(o, i+0) // -0 is the key "0"
			}
		}
	} else if obj.kind == KindString && key.kind == KindNumber {
		// a code unit of a string: no key is made for the index
		if s, i := obj.str(), key.num; i >= 0 && i < float64(s.Len()) && i == math.Trunc(i) {
			return stringValue(s.substring(int(i), int(i)+1))
		}
	}
	if obj.kind <= KindNull {
		vm.throwNullishAccess("read properties of", "reading", obj, key)
	}
	return vm.getMember(obj, vm.toPropertyKey(key))
}

func (vm *VM) setElem(obj, key, v Value) {
	if obj.kind == KindObject && key.kind == KindNumber {
		o := obj.obj()
		if o.class == ClassArray && o.extensible() {
			if i := key.num; i >= 0 && i < float64(len(o.elems)) && i == math.Trunc(i) {
				if o.elems[int(i)].kind != kindHole {
					o.elems[int(i)] = v
					return
				}
			}
		} else if o.class == ClassTypedArray {
			if i := key.num; i >= 0 && i == math.Trunc(i) && i < math.MaxUint32 {
				vm.typedArraySetElement(o, i+0, v)
				return
			}
		}
	}
	if obj.kind <= KindNull {
		vm.throwNullishAccess("set properties of", "setting", obj, key)
	}
	vm.putMember(obj, vm.toPropertyKey(key), v)
}

func (vm *VM) deleteMember(obj Value, key PropertyKey) bool {
	if obj.kind <= KindNull {
		vm.throwTypeError("Cannot convert undefined or null to object")
	}
	o := obj.asObject()
	if o == nil {
		// a string's indices and length are non-configurable properties of its wrapper, so
		// deleting them is a TypeError in strict code; any other key of a primitive is absent
		if obj.kind == KindString {
			if idx, ok := key.arrayIndex(); (ok && int64(idx) < int64(obj.str().Len())) || key == keyLength {
				vm.throwTypeError("Cannot delete property '%s' of %s", key.String(), vm.describeObject(obj))
			}
		}
		return true
	}
	if o.class == ClassProxy {
		vm.deletePropertyOrThrow(o, key)
		return true
	}
	if !o.deleteOwn(key) {
		vm.throwTypeError("Cannot delete property '%s' of %s", key.String(), vm.describeObject(obj))
	}
	return true
}

// maxArrayLength is the cap on an array's length: growing past it (push, Array(n), setting
// length) is a RangeError "Invalid array length", V8's message for lengths past 2^32-1. A
// sparse write at a higher index is the one way past it (the element lives in the property
// map, not in storage the cap protects).
const maxArrayLength = 10_000_000

func (vm *VM) arrayAppend(a *Object, v Value) {
	if len(a.elems) >= maxArrayLength {
		vm.throwRangeError("Invalid array length")
	}
	vm.reserveElems(a, 1)
	a.elems = append(a.elems, v)
	a.length = uint32(len(a.elems))
}

// spreadInto appends the values of an iterable to array a.
func (vm *VM) spreadInto(a *Object, src Value) {
	if o := src.asObject(); o != nil && o.class == ClassArray && vm.arrayIterIsPristine(o) {
		for i := 0; i < int(o.length); i++ {
			vm.arrayAppend(a, vm.getIndex(o, int64(i)))
		}
		return
	}
	// spread is the language's iteration, not a built-in's: GetIterator's message
	vm.iterate(vm.getIterator(src), func(v Value) bool {
		vm.arrayAppend(a, v)
		return true
	})
}

// checkIterable throws V8's TypeError naming the iterable as the program wrote it (the
// constant text-1 of f's code, see the compiler's notIterableText) when v is null or
// undefined, or an object without @@iterator (nor @@asyncIterator, for async). It runs no
// code: an accessor counts as a method, and primitives and proxies are left to GetIterator.
func (vm *VM) checkIterable(f *frame, text int32, v Value, async bool) {
	if int(text) > len(f.code.vals) {
		return
	}
	// for await reads @@asyncIterator of null or undefined first: V8's "Cannot read
	// properties" then, left to GetIterator
	o := v.asObject()
	if v.kind > KindNull && o == nil {
		o = vm.primitiveProtoOf(v) // a primitive is iterable through its prototype
	}
	if v.kind <= KindNull && async || v.kind > KindNull && (o == nil || o.class == ClassProxy ||
		hasMethodProperty(o, symKey(symIterator)) || async && hasMethodProperty(o, symKey(symAsyncIterator))) {
		return
	}
	msg := f.code.vals[text-1].String()
	if msg == "\x02" {
		// a destructured value, described as V8 describes it
		vm.throwTypeError("%s is not iterable (cannot read property Symbol(Symbol.iterator))", notIterableDescription(v))
	}
	if expr, ok := strings.CutPrefix(msg, "\x01"); ok {
		// a spread argument of a call, as V8 words it
		if v.kind <= KindNull {
			vm.throwTypeError("%s is not iterable (cannot read property %s)", expr, v.kind)
		}
		vm.throwTypeError("Spread syntax requires ...iterable[Symbol.iterator] to be a function")
	}
	vm.throwTypeError("%s", msg)
}

// primitiveProtoOf returns the prototype a primitive's properties are read from (nil for null
// and undefined).
func (vm *VM) primitiveProtoOf(v Value) *Object {
	switch v.kind {
	case KindString:
		return vm.realm.primitiveProto(protoString)
	case KindNumber:
		return vm.realm.primitiveProto(protoNumber)
	case KindBool:
		return vm.realm.primitiveProto(protoBoolean)
	case KindSymbol:
		return vm.realm.Intrinsic("Symbol.prototype")
	case KindBigInt:
		return vm.realm.Intrinsic("BigInt.prototype")
	}
	return nil
}

// hasMethodProperty reports whether o has or inherits key as a function or an accessor,
// without running code.
func hasMethodProperty(o *Object, key PropertyKey) bool {
	for ; o != nil; o = o.proto {
		if o.class == ClassProxy {
			return true // its traps decide
		}
		if p, ok := o.getOwn(key); ok {
			return p.isAccessor() || IsCallable(p.value)
		}
	}
	return false
}

// arrayIterIsPristine reports whether iterating o is plain index access.
func (vm *VM) arrayIterIsPristine(o *Object) bool {
	if o.proto != vm.realm.ArrayPrototype || o.props.peek(symKey(symIterator)) != nil {
		return false
	}
	// a placeholder (realm_lazy.go) names the same native as the intrinsic it stands for
	p := vm.realm.ArrayPrototype.props.peek(symKey(symIterator))
	if p == nil {
		return true // no Array iterator installed: index access is the only iteration
	}
	fn := p.value.asObject()
	if fn == nil {
		return false
	}
	nf, ok := fn.slots.(*nativeFunction)
	return ok && nf.name == "Array.prototype.values" || ok && nf.name == "Array.prototype[Symbol.iterator]"
}

// spreadArgs replaces the arguments array on top of the stack by its elements, returning argc.
func (vm *VM) spreadArgs() int {
	ex := &vm.exec
	ex.sp--
	arr := ex.stack[ex.sp].obj()
	n := int(arr.length)
	vm.ensureStack(n)
	for i := 0; i < n; i++ {
		ex.stack[ex.sp] = vm.getIndex(arr, int64(i))
		ex.sp++
	}
	return n
}

// nullishCallee runs when a read on the way to a static callee path (operand B, see
// markCalleeReads) finds null or undefined: the host's NotCallable hook may throw its own error
// for the whole path; otherwise the read throws the usual TypeError.
func (vm *VM) nullishCallee(code *FuncCode, in bytecode.Instr) {
	if int(in.B) > len(code.vals) {
		return
	}
	if h, ok := vm.exec.cfg.Host.(NotCallableHost); ok {
		if e, ok := h.NotCallable(vm, hostCalleePath(code.vals[in.B-1].String())); ok {
			vm.throw(e)
		}
	}
}

// notCallable throws for a call of v, which is not a function: the host's NotCallable hook may
// supply the error; otherwise a TypeError names the callee as written ("tools.math.ad is not a
// function") when the call site recorded its text (operand B), else the value.
func (vm *VM) notCallable(f *frame, in bytecode.Instr, v Value) {
	if in.B > 0 && int(in.B) <= len(f.code.vals) {
		text := f.code.vals[in.B-1].String()
		if msg, found := strings.CutPrefix(text, "\x00"); found {
			vm.throwTypeError("%s is not a function", msg) // a path with computed keys: no tool
		}
		if h, ok := vm.exec.cfg.Host.(NotCallableHost); ok {
			if e, ok := h.NotCallable(vm, hostCalleePath(text)); ok {
				vm.throw(e)
			}
		}
		vm.throwTypeError("%s is not a function", v8CalleeText(text))
	}
	vm.throwTypeError("%s is not a function", vm.describeForError(v))
}

// v8CalleeText writes a callee path as V8 prints it in messages: a string key in brackets
// as a dotted name (o["a"].f and o['a-b'].f are o.a.f and o.a-b.f, o?.["a"] is o?.a).
func v8CalleeText(text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '[' && i+1 < len(text) && (text[i+1] == '"' || text[i+1] == '\'') {
			q := text[i+1]
			if end := strings.IndexByte(text[i+2:], q); end >= 0 && i+2+end+1 < len(text) && text[i+2+end+1] == ']' {
				key := text[i+2 : i+2+end]
				if !strings.Contains(key, "\\") {
					if !strings.HasSuffix(b.String(), "?.") {
						b.WriteByte('.')
					}
					b.WriteString(key)
					i += 2 + end + 1
					continue
				}
			}
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// hostCalleePath is a callee path as the host's NotCallable hook reads it: without optional
// links (tools.math?.add and tools?.["math"].add are tools.math.add and tools["math"].add), the
// keys in brackets as written.
func hostCalleePath(text string) string {
	if !strings.Contains(text, "?.") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '[' && i+1 < len(text) && (text[i+1] == '"' || text[i+1] == '\''):
			// a quoted key, copied whole: "?." inside it is part of the key
			end := i + 2
			for end < len(text) && text[end] != text[i+1] {
				if text[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(text))
			b.WriteString(text[i:end])
			i = end - 1
		case strings.HasPrefix(text[i:], "?.["):
			i++ // the bracket follows
		case strings.HasPrefix(text[i:], "?."):
			b.WriteByte('.')
			i++
		default:
			b.WriteByte(text[i])
		}
	}
	return b.String()
}

// notConstructor throws the TypeError of new applied to v, naming the constructor as the
// program wrote it when the instruction knows it (new Math.abs(): "Math.abs is not a
// constructor", as V8 says).
func (vm *VM) notConstructor(f *frame, in bytecode.Instr, v Value) {
	if in.B > 0 && int(in.B) <= len(f.code.vals) {
		text := f.code.vals[in.B-1].String()
		if msg, found := strings.CutPrefix(text, "\x00"); found {
			vm.throwTypeError("%s is not a constructor", msg) // V8's text of any other callee
		}
		vm.throwTypeError("%s is not a constructor", v8CalleeText(text))
	}
	vm.throwTypeError("%s is not a constructor", vm.describeForError(v))
}

// execMisc executes the less frequent operations. It reports done when the
// dispatch loop must exit with res.
func (vm *VM) execMisc(f *frame, in bytecode.Instr, stopDepth int) (bool, Value) {
	ex := &vm.exec
	stack := ex.stack
	switch in.Op {
	case bytecode.OpRegExp:
		r := vm.regexpLiteral(f.code.vals[in.A], f.code.vals[in.B])
		stack = ex.stack
		stack[ex.sp] = r
		ex.sp++
	case bytecode.OpTemplate:
		stack[ex.sp] = objectValue(vm.templateObject(f.prog, int(in.A)))
		ex.sp++
	case bytecode.OpDefineField:
		o, key, v := stack[ex.sp-3].obj(), stack[ex.sp-2], stack[ex.sp-1]
		ex.sp -= 2
		vm.createDataPropertyOrThrow(o, vm.toPropertyKey(key), v)
	case bytecode.OpDefineName:
		o, v := stack[ex.sp-2].obj(), stack[ex.sp-1]
		ex.sp--
		vm.createDataPropertyHashed(o, f.code.keys[in.A], f.code.keyHashes[in.A], v)
	case bytecode.OpDefineGetter, bytecode.OpDefineSetter, bytecode.OpDefineMethod:
		o, key, fn := stack[ex.sp-3].obj(), vm.toPropertyKey(stack[ex.sp-2]), stack[ex.sp-1].obj()
		ex.sp -= 2
		if cl, ok := fn.slots.(*closureSlots); ok {
			cl.home = o
		}
		flags := propConfigurable
		if in.B == 1 {
			flags |= propEnumerable
		}
		switch in.Op {
		case bytecode.OpDefineMethod:
			vm.definePropertyOrThrow(o, key, dataDescriptor(objectValue(fn), flags|propWritable))
		case bytecode.OpDefineGetter:
			vm.definePropertyOrThrow(o, key, PropertyDescriptor{Get: objectValue(fn), HasGet: true,
				Enumerable: in.B == 1, HasEnumerable: true, Configurable: true, HasConfigurable: true})
		case bytecode.OpDefineSetter:
			vm.definePropertyOrThrow(o, key, PropertyDescriptor{Set: objectValue(fn), HasSet: true,
				Enumerable: in.B == 1, HasEnumerable: true, Configurable: true, HasConfigurable: true})
		}
	case bytecode.OpCopyData, bytecode.OpCopyDataExcl:
		n := int(in.A)
		if in.Op == bytecode.OpCopyData {
			n = 0
		}
		excl := map[PropertyKey]bool{}
		for i := 0; i < n; i++ {
			excl[vm.toPropertyKey(stack[ex.sp-n+i])] = true
		}
		ex.sp -= n
		o, src := stack[ex.sp-2].obj(), stack[ex.sp-1]
		ex.sp--
		vm.copyDataProperties(o, src, excl)
	case bytecode.OpSetProto:
		o, v := stack[ex.sp-2].obj(), stack[ex.sp-1]
		ex.sp--
		if v.kind == KindObject {
			o.setPrototype(v.obj())
		} else if v.kind == KindNull {
			o.setPrototype(nil)
		}
	case bytecode.OpSetFnName:
		key, fn := stack[ex.sp-2], stack[ex.sp-1].obj()
		name := vm.fnNameFromKey(vm.toPropertyKey(key))
		switch in.B {
		case 1:
			name = "get " + name
		case 2:
			name = "set " + name
		}
		if p := fn.props.get(keyName); p == nil || (p.value.kind == KindString && p.value.str().Len() == 0) {
			vm.definePropertyOrThrow(fn, keyName, dataDescriptor(asciiValue(name), propConfigurable))
		}
	case bytecode.OpClosure:
		stack[ex.sp] = objectValue(vm.makeClosure(f, int(in.A)))
		ex.sp++
	case bytecode.OpLoadThis:
		stack[ex.sp] = f.this
		ex.sp++
	case bytecode.OpLoadCallee:
		stack[ex.sp] = objectValue(f.callee)
		ex.sp++
	case bytecode.OpLoadNewTarget:
		stack[ex.sp] = objectValue(f.newTarget)
		if f.newTarget == nil {
			stack[ex.sp] = undefinedValue
		}
		ex.sp++
	case bytecode.OpArguments:
		ai := vm.argumentsIntrinsics()
		// the object and room for its properties (the arguments, length, @@iterator and
		// callee) in one allocation
		o := vm.newObjectRoom(vm.realm.ObjectPrototype, ClassArguments, f.argc+3)
		for i, a := range stack[f.argsBase : f.argsBase+f.argc] {
			o.props.add(indexKey(uint32(i)), Property{value: a, flags: propDefault})
		}
		o.props.add(keyLength, Property{value: intValue(f.argc), flags: propHidden})
		if ai.values != nil {
			o.props.add(symKey(symIterator), Property{value: objectValue(ai.values), flags: propHidden})
		}
		// An unmapped (strict) arguments object: callee throws through %ThrowTypeError%.
		if ai.thrower != nil {
			o.props.add(keyCallee, ai.callee)
		}
		stack[ex.sp] = objectValue(o)
		ex.sp++
	case bytecode.OpRestArgs:
		var rest []Value
		if int(in.A) < f.argc {
			rest = append(rest, stack[f.argsBase+int(in.A):f.argsBase+f.argc]...)
		}
		r := objectValue(vm.newArray(rest))
		stack = ex.stack
		stack[ex.sp] = r
		ex.sp++
	case bytecode.OpGetArg:
		v := undefinedValue
		if int(in.A) < f.argc {
			v = stack[f.argsBase+int(in.A)]
		}
		stack[ex.sp] = v
		ex.sp++
	case bytecode.OpClass:
		vm.defineClass(in.A == 1)
	case bytecode.OpSetHome:
		fn, home := stack[ex.sp-2].obj(), stack[ex.sp-1].obj()
		ex.sp--
		if cl, ok := fn.slots.(*closureSlots); ok {
			cl.home = home
		}
	case bytecode.OpSetFields:
		ctor, init := stack[ex.sp-2].obj(), stack[ex.sp-1].obj()
		ex.sp--
		ctor.slots.(*closureSlots).fields = init
	case bytecode.OpInitFields:
		ctor, this := stack[ex.sp-2].asObject(), stack[ex.sp-1]
		var init *Object
		if ctor != nil {
			if cl, ok := ctor.slots.(*closureSlots); ok {
				init = cl.fields
			}
		}
		if init == nil {
			ex.sp -= 2
			f.pc = int(in.A)
			break
		}
		stack[ex.sp-2] = objectValue(init)
		stack[ex.sp-1] = this
	case bytecode.OpNewPrivate:
		vm.pushPrivate(&privateName{desc: f.code.Consts[in.A].GoString(), kind: int(in.B)})
	case bytecode.OpGetPrivate:
		o, pn := stack[ex.sp-2], stack[ex.sp-1]
		ex.sp--
		r := vm.getPrivate(o, privateOf(pn))
		stack = ex.stack
		stack[ex.sp-1] = r
	case bytecode.OpSetPrivate:
		o, pn, v := stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
		ex.sp -= 2
		vm.setPrivate(o, privateOf(pn), v)
		ex.stack[ex.sp-1] = v
	case bytecode.OpHasPrivate:
		pn, o := stack[ex.sp-2], stack[ex.sp-1]
		ex.sp--
		if o.kind != KindObject {
			vm.throwTypeError("Cannot use 'in' operator to search for '%s' in %s", privateOf(pn).desc, o.String())
		}
		_, ok := vm.findPrivate(o.obj(), privateOf(pn))
		stack[ex.sp-1] = Bool(ok)
	case bytecode.OpDefPrivate:
		o, pn, v := stack[ex.sp-3], stack[ex.sp-2], stack[ex.sp-1]
		ex.sp -= 2
		vm.definePrivate(o.obj(), privateOf(pn), v, bytecode.PrivateAdd(in.B))
	case bytecode.OpDefPrivMeth:
		o, pn, fn := stack[ex.sp-3], privateOf(stack[ex.sp-2]), stack[ex.sp-1].obj()
		ex.sp -= 2
		switch in.B {
		case 0:
			pn.method = fn
		case 1:
			pn.getter = fn
		case 2:
			pn.setter = fn
		}
		if in.A == 1 {
			vm.definePrivate(o.obj(), pn, undefinedValue, bytecode.PrivateBrandShared)
		}
	case bytecode.OpThrow:
		ex.sp--
		vm.throwAt(f, stack[ex.sp])
	case bytecode.OpTryPush:
		f.handlers = append(f.handlers, handler{pc: int(in.A), sp: ex.sp, env: f.env})
	case bytecode.OpTryPop:
		f.handlers = f.handlers[:len(f.handlers)-1]
	case bytecode.OpGetIter:
		v := stack[ex.sp-1]
		var it *Iterator
		sync := false
		if in.A > 0 {
			vm.checkIterable(f, in.A, v, in.B == 1)
		}
		if in.B == 1 {
			it, sync = vm.getAsyncIterator(v)
		} else {
			it = vm.getIterator(v)
		}
		stack = ex.stack
		stack[ex.sp-1] = iteratorValue(it)
		stack[ex.sp-1].obj().slots.(*iterRecord).syncFallback = sync
	case bytecode.OpIsSyncIter:
		ex.stack[ex.sp-1] = Bool(ex.stack[ex.sp-1].obj().slots.(*iterRecord).syncFallback)
	case bytecode.OpIterNext:
		it := iteratorOf(stack[ex.sp-1])
		v, ok := vm.iteratorStep(it)
		stack = ex.stack
		if !ok {
			ex.sp--
			f.pc = int(in.A)
			break
		}
		stack[ex.sp-1] = v
	case bytecode.OpIterStep:
		it := iteratorOf(stack[ex.sp-1])
		v := undefinedValue
		if !it.Done {
			var ok bool
			v, ok = vm.iteratorStep(it)
			if !ok {
				v = undefinedValue
			}
		}
		stack = ex.stack
		stack[ex.sp-1] = v
	case bytecode.OpIterRest:
		it := iteratorOf(stack[ex.sp-1])
		var vals []Value
		for !it.Done {
			v, ok := vm.iteratorStep(it)
			if !ok {
				break
			}
			vals = append(vals, v)
		}
		stack = ex.stack
		r := objectValue(vm.newArray(vals))
		stack = ex.stack
		stack[ex.sp-1] = r
	case bytecode.OpIterClose, bytecode.OpIterCloseThrow:
		it := iteratorOf(stack[ex.sp-1])
		ex.sp--
		if in.B == 2 && it.Done {
			break
		}
		if in.B == 1 {
			// async: push the result of return() for the code to await
			ret := vm.getMethod(it.Obj, strKey("return"))
			r := undefinedValue
			if !ret.IsUndefined() {
				if in.Op == bytecode.OpIterCloseThrow {
					func() {
						defer func() { recover() }()
						r = vm.Call(ret, it.Obj)
					}()
				} else {
					r = vm.Call(ret, it.Obj)
				}
			}
			ex.stack[ex.sp] = r
			ex.sp++
			break
		}
		if in.Op == bytecode.OpIterCloseThrow {
			func() {
				defer func() { recover() }()
				vm.iteratorClose(it, true)
			}()
		} else {
			vm.iteratorClose(it, false)
		}
	case bytecode.OpIterNextRaw:
		it := iteratorOf(stack[ex.sp-1])
		r := vm.Call(it.Next, it.Obj)
		ex.stack[ex.sp-1] = r
	case bytecode.OpIterResult:
		r := stack[ex.sp-1]
		if r.kind != KindObject {
			vm.throwTypeError("Iterator result %s is not an object", r.String())
		}
		if ToBoolean(vm.getProp(r.obj(), strKey("done"))) {
			ex.sp--
			f.pc = int(in.A)
			break
		}
		ex.stack[ex.sp-1] = vm.getProp(r.obj(), strKey("value"))
	case bytecode.OpForInPrep:
		r := vm.forInPrepare(stack[ex.sp-1])
		stack = ex.stack
		stack[ex.sp-1] = r
	case bytecode.OpForInNext:
		k, ok := vm.forInNext(stack[ex.sp-1])
		if !ok {
			ex.sp--
			f.pc = int(in.A)
			break
		}
		ex.stack[ex.sp-1] = k
	case bytecode.OpAwait, bytecode.OpYield, bytecode.OpInitialYield, bytecode.OpYieldDelegate, bytecode.OpResumeMode, bytecode.OpAsyncGenYield,
		bytecode.OpAsyncDelegateCall, bytecode.OpDelegateResult, bytecode.OpDelegateResume:
		return vm.execCoroutine(f, in, stopDepth)
	case bytecode.OpImport:
		switch in.A {
		case 0:
			r := vm.requireModule(stack[ex.sp-1])
			stack = ex.stack
			stack[ex.sp-1] = r
		case 1:
			r := vm.importDynamic(stack[ex.sp-1])
			stack = ex.stack
			stack[ex.sp-1] = r
		default:
			v := vm.importNamed(stack[ex.sp-2], stack[ex.sp-1], vm.ToGoString(f.code.vals[in.B]))
			ex.sp--
			ex.stack[ex.sp-1] = v
		}
	case bytecode.OpDebugger, bytecode.OpPosMark:
	default:
		panic("interp: unknown opcode " + in.Op.String())
	}
	return false, undefinedValue
}

// throwAt throws v, recording the position of the throw for DescribeError.
func (vm *VM) throwAt(f *frame, v Value) {
	vm.throw(v)
}

func (vm *VM) fnNameFromKey(k PropertyKey) string {
	if k.sym != nil {
		if k.sym.description == nil {
			return ""
		}
		return "[" + k.sym.description.String() + "]"
	}
	return k.String()
}

// copyDataProperties copies the enumerable own properties of src into o.
func (vm *VM) copyDataProperties(o *Object, src Value, excl map[PropertyKey]bool) {
	if src.kind <= KindNull {
		return
	}
	s := vm.toObject(src)
	for _, k := range vm.ownKeysOf(s) {
		if excl[k] {
			continue
		}
		d, ok := vm.getOwnProperty(s, k)
		if !ok || !d.Enumerable {
			continue
		}
		vm.createDataPropertyOrThrow(o, k, vm.getProp(s, k))
	}
}

// defineClass: [parent? ctor] -> [ctor proto].
func (vm *VM) defineClass(hasParent bool) {
	ex := &vm.exec
	ctor := ex.stack[ex.sp-1].obj()
	protoParent := vm.realm.ObjectPrototype
	ctorParent := vm.realm.FunctionPrototype
	if hasParent {
		parent := ex.stack[ex.sp-2]
		ex.sp--
		ex.stack[ex.sp-1] = objectValue(ctor)
		switch {
		case parent.kind == KindNull:
			protoParent = nil
		case IsConstructor(parent):
			pp := vm.getProp(parent.obj(), keyPrototype)
			switch pp.kind {
			case KindObject:
				protoParent = pp.obj()
			case KindNull:
				protoParent = nil
			default:
				vm.throwTypeError("Class extends value does not have valid prototype property %s", pp.String())
			}
			ctorParent = parent.obj()
		default:
			vm.throwTypeError("Class extends value %s is not a constructor or null", vm.describeForError(parent))
		}
	}
	ctor.proto = ctorParent
	proto := vm.newObject(protoParent, ClassObject)
	ctor.props.add(keyPrototype, Property{value: objectValue(proto)})
	proto.props.add(keyConstructor, Property{value: objectValue(ctor), flags: propWritable | propConfigurable})
	ctor.slots.(*closureSlots).home = proto
	ex.stack[ex.sp] = objectValue(proto)
	ex.sp++
}

// Template objects are cached per VM and site.
func (vm *VM) templateObject(p *Program, idx int) *Object {
	key := templateKey{p.hash, idx}
	if vm.exec.templates == nil {
		vm.exec.templates = map[templateKey]*Object{}
	}
	if o := vm.exec.templates[key]; o != nil {
		return o
	}
	site := p.Templates[idx]
	cooked := make([]Value, len(site.Cooked))
	raw := make([]Value, len(site.Raw))
	for i := range site.Cooked {
		if site.Valid[i] {
			cooked[i] = stringValue(newUTF16(site.Cooked[i]))
		}
		raw[i] = stringValue(newUTF16(site.Raw[i]))
	}
	ro := vm.newArray(raw)
	ro.setIntegrity(true)
	o := vm.newArray(cooked)
	o.props.add(strKey("raw"), Property{value: objectValue(ro)})
	o.setIntegrity(true)
	vm.exec.templates[key] = o
	return o
}

type templateKey struct {
	hash string
	idx  int
}

// Iterator records travel on the operand stack as internal objects.
type iterRecord struct {
	it           *Iterator
	syncFallback bool // for await over a sync iterator: values are awaited
}

func iteratorValue(it *Iterator) Value {
	o := &Object{class: ClassOther, slots: &iterRecord{it: it}}
	return objectValue(o)
}

func iteratorOf(v Value) *Iterator { return v.obj().slots.(*iterRecord).it }

// argumentsIntrinsics are what every arguments object of a realm refers to: the
// Array.prototype.values it has as its @@iterator and the callee property that throws through
// %ThrowTypeError% (whose accessor pair is shared, as pairs are never changed).
type argumentsIntrinsics struct {
	realm           *Realm
	values, thrower *Object
	callee          Property
}

var keyCallee = strKey("callee")

// argumentsIntrinsics returns the intrinsics of arguments objects of the current realm, looked
// up once per realm.
func (vm *VM) argumentsIntrinsics() *argumentsIntrinsics {
	ai := &vm.argsIntrinsics
	if ai.realm != vm.realm {
		*ai = argumentsIntrinsics{realm: vm.realm, values: vm.realm.Intrinsic("Array.prototype.values"),
			thrower: vm.realm.Intrinsic("%ThrowTypeError%")}
		if ai.thrower != nil {
			ai.callee = accessorProperty(ai.thrower, ai.thrower, 0)
		}
	}
	return ai
}

// forIn state: the keys to visit.
type forInState struct {
	obj  *Object
	keys []PropertyKey
	i    int
}

// forInPrepare lists the enumerable string keys of v and its prototypes, each once, a key
// shadowed by an earlier object's own key (enumerable or not) left out. The own keys of the
// objects already walked are put in a set only when a later object has a key that may be
// listed: the common chain of an object and prototypes without enumerable properties needs
// none. A proxy's descriptor traps are observable, so keys of a proxy (or a host object) are
// checked against the set before its descriptor is asked for.
func (vm *VM) forInPrepare(v Value) Value {
	st := &forInState{}
	if v.kind == KindObject {
		if keys, ok := forInOrdinaryKeys(v.obj()); ok {
			st.obj, st.keys = v.obj(), keys
			return objectValue(&Object{class: ClassOther, slots: st})
		}
	}
	if v.kind > KindNull {
		o := vm.toObject(v)
		st.obj = o
		var seen map[PropertyKey]bool
		var walked [][]PropertyKey // own keys of the objects walked, not yet in seen
		isSeen := func(k PropertyKey) bool {
			if len(walked) > 0 {
				if seen == nil {
					seen = map[PropertyKey]bool{}
				}
				for _, ks := range walked {
					for _, k := range ks {
						seen[k] = true
					}
				}
				walked = walked[:0]
			}
			return seen[k]
		}
		for p := o; p != nil; p = vm.getPrototypeOf(p) {
			keys := vm.ownKeysOf(p)
			// asking a proxy (or a host object) for a descriptor may be observed
			observable := p.class == ClassProxy || p.class == ClassOther
			for _, k := range keys {
				if k.sym != nil {
					continue
				}
				if observable && isSeen(k) {
					continue
				}
				if d, ok := vm.getOwnProperty(p, k); ok && d.Enumerable && (observable || !isSeen(k)) {
					st.keys = append(st.keys, k)
				}
			}
			walked = append(walked, keys)
		}
	}
	return objectValue(&Object{class: ClassOther, slots: st})
}

// forInOrdinaryKeys lists the keys a for-in over o visits when that needs no walk of the
// prototype chain: o is an ordinary object without index keys (which would be listed first)
// and its prototypes are ordinary objects or functions without enumerable string keys (such
// as Object.prototype and a class's prototype). Those lookups observe nothing, so the keys
// are o's enumerable string keys in order. ok is false for any other object.
func forInOrdinaryKeys(o *Object) (keys []PropertyKey, ok bool) {
	if o.class != ClassObject {
		return nil, false
	}
	for p := o.proto; p != nil; p = p.proto {
		if p.class != ClassObject && p.class != ClassFunction {
			return nil, false
		}
		for i := range p.props.props {
			if p.props.props[i].flags&propEnumerable != 0 && p.props.keys[i].sym == nil {
				return nil, false
			}
		}
	}
	return ordinaryEnumerableOwnKeys(o)
}

// ordinaryEnumerableOwnKeys lists the enumerable string keys of o, an ordinary object, in
// order when none of them is an array index (which would be listed first); ok is false
// otherwise.
func ordinaryEnumerableOwnKeys(o *Object) (keys []PropertyKey, ok bool) {
	n := 0
	for i, k := range o.props.keys {
		if k.sym != nil || o.props.props[i].flags&propEnumerable == 0 {
			continue
		}
		if k.name != "" && k.name[0] >= '0' && k.name[0] <= '9' {
			if _, isIndex := k.arrayIndex(); isIndex {
				return nil, false
			}
		}
		n++
	}
	keys = make([]PropertyKey, 0, n)
	for i, k := range o.props.keys {
		if k.sym == nil && o.props.props[i].flags&propEnumerable != 0 {
			keys = append(keys, k)
		}
	}
	return keys, true
}

func (vm *VM) forInNext(v Value) (Value, bool) {
	st := v.obj().slots.(*forInState)
	for st.i < len(st.keys) {
		k := st.keys[st.i]
		st.i++
		if st.obj != nil && st.obj.class != ClassProxy && !vm.hasProperty(st.obj, k) {
			continue
		}
		return vm.keyValue(k), true
	}
	return undefinedValue, false
}

// keyStrings is a direct-mapped cache of the strings of property keys, by the address of the
// key's text: the keys of objects made by the same code share their text, so listing them
// again (for-in, Object.keys) finds the string made the first time.
type keyStrings [256]*jsString

// keyValue is k.toValue(), with the strings of ASCII keys taken from vm.keyStrs.
func (vm *VM) keyValue(k PropertyKey) Value {
	if k.sym != nil || k.name == "" {
		return k.toValue()
	}
	ks := vm.keyStrs
	if ks == nil {
		ks = new(keyStrings)
		vm.keyStrs = ks
	}
	p := unsafe.StringData(k.name)
	slot := &ks[(uintptr(unsafe.Pointer(p))>>3^uintptr(len(k.name)))%uintptr(len(ks))]
	if c := *slot; c != nil && unsafe.StringData(c.ascii) == p && len(c.ascii) == len(k.name) {
		return stringValue(c)
	}
	s := newStringFromGo(k.name)
	if s.isASCII {
		*slot = s
	}
	return stringValue(s)
}

// Private names travel on the stack as internal objects.
func privateValue(pn *privateName) Value {
	if pn.holder == nil {
		pn.holder = &Object{class: ClassOther, slots: pn}
	}
	return objectValue(pn.holder)
}

func privateOf(v Value) *privateName {
	pn := v.obj().slots.(*privateName)
	if pn.holder == nil {
		pn.holder = v.obj() // a restored name learns its carrier object on first use
	}
	return pn
}

func (vm *VM) pushPrivate(pn *privateName) {
	ex := &vm.exec
	ex.stack[ex.sp] = privateValue(pn)
	ex.sp++
}

func (vm *VM) privates(o *Object) *privateElements {
	if vm.exec.privMap == nil {
		vm.exec.privMap = map[*Object]*privateElements{}
	}
	pe := vm.exec.privMap[o]
	if pe == nil {
		pe = &privateElements{}
		vm.exec.privMap[o] = pe
		vm.exec.privOrder = append(vm.exec.privOrder, o)
	}
	return pe
}

func (vm *VM) findPrivate(o *Object, pn *privateName) (int, bool) {
	pe := vm.exec.privMap[o]
	if pe == nil {
		return 0, false
	}
	for i, n := range pe.names {
		if n == pn {
			return i, true
		}
	}
	return 0, false
}

// definePrivate adds a private element to o (PrivateFieldAdd, PrivateMethodOrAccessorAdd):
// a non-extensible object takes none, and an object takes each element once.
func (vm *VM) definePrivate(o *Object, pn *privateName, v Value, what bytecode.PrivateAdd) {
	if _, ok := vm.findPrivate(o, pn); ok {
		if what == bytecode.PrivateBrandShared {
			return
		}
		if what == bytecode.PrivateBrand {
			vm.throwTypeError("Cannot initialize private methods of class %s twice on the same object", pn.desc)
		}
		vm.throwTypeError("Cannot initialize %s twice on the same object", pn.desc)
	}
	if !o.extensible() && o.class != ClassProxy {
		vm.throwTypeError("Cannot define private %s on an object that is not extensible", pn.desc)
	}
	pe := vm.privates(o)
	pe.names = append(pe.names, pn)
	pe.values = append(pe.values, v)
}

func (vm *VM) getPrivate(ov Value, pn *privateName) Value {
	o := ov.asObject()
	i, ok := 0, false
	if o != nil {
		i, ok = vm.findPrivate(o, pn)
	}
	if !ok {
		vm.throwTypeError("Cannot read private member %s from an object whose class did not declare it", pn.desc)
	}
	switch pn.kind {
	case 1:
		return objectValue(pn.method)
	case 2:
		if pn.getter == nil {
			vm.throwTypeError("'%s' was defined without a getter", pn.desc)
		}
		return vm.callObject(pn.getter, ov, nil, nil)
	}
	return vm.exec.privMap[o].values[i]
}

func (vm *VM) setPrivate(ov Value, pn *privateName, v Value) {
	o := ov.asObject()
	i, ok := 0, false
	if o != nil {
		i, ok = vm.findPrivate(o, pn)
	}
	if !ok {
		vm.throwTypeError("Cannot write private member %s to an object whose class did not declare it", pn.desc)
	}
	switch pn.kind {
	case 1:
		vm.throwTypeError("Private method '%s' is not writable", pn.desc)
	case 2:
		if pn.setter == nil {
			vm.throwTypeError("'%s' was defined without a setter", pn.desc)
		}
		vm.callObject(pn.setter, ov, []Value{v}, nil)
		return
	}
	vm.exec.privMap[o].values[i] = v
}

// throwNotSuperConstructor throws V8's TypeError for super() in callee whose parent is not a
// constructor: the parent by its name ("null" when it has none, as Function.prototype, the
// parent of a class that extends null), the class by its own name.
func (vm *VM) throwNotSuperConstructor(callee, parent *Object) {
	super := "null"
	if parent != nil {
		if parent.isCallable() {
			if n := lookupDataProperty(parent, keyName); n.kind == KindString && n.str().Len() > 0 {
				super = n.str().String()
			}
		} else {
			super = vm.describeObject(objectValue(parent))
		}
	}
	if n := lookupDataProperty(callee, keyName); n.kind == KindString && n.str().Len() > 0 {
		vm.throwTypeError("Super constructor %s of %s is not a constructor", super, n.str().String())
	}
	vm.throwTypeError("Super constructor %s of anonymous class is not a constructor", super)
}

// throwNotDestructurable throws V8's TypeError for an object pattern whose value v is null or
// undefined; text is operand A of the CheckCoercible (see the compiler's destructText).
func (vm *VM) throwNotDestructurable(f *frame, text int32, v Value) {
	if text > 0 && int(text) <= len(f.code.vals) {
		parts := strings.Split(f.code.vals[text-1].String(), "\x00")
		switch {
		case parts[0] == "read" && len(parts) == 2:
			vm.throwTypeError("Cannot read properties of %s (reading '%s')", v.kind, parts[1])
		case parts[0] == "param" && len(parts) == 2:
			what := "undefined"
			if v.kind == KindNull {
				what = "object null" // V8 describes the argument by its type and value
			}
			vm.throwTypeError("Cannot destructure property '%s' of '%s' as it is %s.", parts[1], what, v.kind)
		case parts[0] == "of" && len(parts) == 3:
			vm.throwTypeError("Cannot destructure property '%s' of '%s' as it is %s.", parts[1], parts[2], v.kind)
		// a pattern with no static first key: V8 names the value
		case parts[0] == "value" && len(parts) == 2:
			vm.throwTypeError("Cannot destructure '%s' as it is %s.", parts[1], v.kind)
		case parts[0] == "paramvalue" && len(parts) == 1:
			what := "undefined"
			if v.kind == KindNull {
				what = "object null"
			}
			vm.throwTypeError("Cannot destructure '%s' as it is %s.", what, v.kind)
		case parts[0] == "readnone" && len(parts) == 1:
			vm.throwTypeError("Cannot read properties of %s", v.kind)
		}
	}
	vm.throwTypeError("Cannot destructure '%s' as it is %s.", v.String(), v.kind)
}

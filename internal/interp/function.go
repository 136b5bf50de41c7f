package interp

import (
	"slices"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// Closures: function objects made from compiled code.

// closureSlots are the internal slots of a function object created from
// bytecode: which code (program + function index), the environment it closes
// over, its [[HomeObject]] (methods) and its class's field initialiser.
type closureSlots struct {
	prog   *Program
	code   *FuncCode
	env    *envRecord
	home   *Object
	fields *Object // class constructors: the instance field initialiser, or nil
	obj    *Object // the function object owning these slots

	// newSize is how many own properties the object last made by calling the function as a
	// constructor had when the constructor returned. The next one starts with room for as
	// many (constructors tend to make objects of one size) rather than growing its storage
	// 4, 8, 16. It is a count, not the object, so it keeps nothing alive; it is a hint only,
	// and snapshots do not keep it.
	newSize int32
}

// privateName is a class private name (#x); objects keep private elements in
// a side table keyed by it.
type privateName struct {
	desc   string
	kind   int // 0 field, 1 method, 2 accessor
	method *Object
	getter *Object
	setter *Object
	holder *Object // the internal object that carries the name on the operand stack
}

// privateElements are the private fields and brands of one object.
type privateElements struct {
	names  []*privateName
	values []Value
}

// closureSlotsSize is the accounted size of a closureSlots (bytes).
const closureSlotsSize = 48

// makeClosure creates the function object for function index idx of the running program.
func (vm *VM) makeClosure(f *frame, idx int) *Object {
	code := f.prog.Funcs[idx]
	proto := vm.realm.FunctionPrototype
	switch {
	case code.Async && code.Generator:
		proto = vm.realm.Intrinsic("%AsyncGeneratorFunction.prototype%")
	case code.Generator:
		proto = vm.realm.Intrinsic("%GeneratorFunction.prototype%")
	case code.Async:
		proto = vm.realm.Intrinsic("%AsyncFunction.prototype%")
	}
	// the function object, its slots and its property storage are one allocation
	var o, p *Object
	var cl *closureSlots
	if code.Kind == bytecode.FuncNormal && !code.Async && !code.Generator {
		// with the prototype object too (room for its constructor property)
		r := &closureRoomProto{}
		o, cl = &r.o, &r.cl
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0] // length, name, prototype
		p = &r.proto.o
		p.props.keys, p.props.props = r.proto.s.keys[:0], r.proto.s.props[:0]
	} else if code.Generator {
		r := &closureRoom3{}
		o, cl = &r.o, &r.cl
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0] // length, name, prototype
	} else {
		r := &closureRoom2{}
		o, cl = &r.o, &r.cl
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0] // length, name
	}
	vm.allocated += objectBaseSize
	o.proto, o.class, o.flags = proto, ClassFunction, objExtensible
	vm.allocated += closureSlotsSize + 3*propertySize
	o.flags |= objCallable
	*cl = closureSlots{prog: f.prog, code: code, env: f.env, obj: o}
	o.slots = cl
	switch code.Kind {
	case bytecode.FuncNormal:
		if !code.Async && !code.Generator {
			o.flags |= objConstructor
		}
	case bytecode.FuncClassCtor, bytecode.FuncDerivedCtor:
		o.flags |= objConstructor
	}
	o.props.add(keyLength, Property{value: intValue(code.Length), flags: propConfigurable})
	name := code.name
	if name == nil {
		name = newStringFromGo(code.Name)
	}
	o.props.add(keyName, Property{value: stringValue(name), flags: propConfigurable})
	switch {
	case code.Generator:
		// generator functions (declarations and methods): prototype inherits %GeneratorPrototype%
		def := "%GeneratorPrototype%"
		if code.Async {
			def = "%AsyncGeneratorPrototype%"
		}
		p := vm.newObject(vm.realm.Intrinsic(def), ClassObject)
		o.props.add(keyPrototype, Property{value: objectValue(p), flags: propWritable})
	case code.Kind == bytecode.FuncNormal && !code.Async:
		// room for constructor only: the prototypes of most functions never get another
		// property (a class-like function's methods regrow it once)
		vm.allocated += objectBaseSize
		p.proto, p.class, p.flags = vm.realm.ObjectPrototype, ClassObject, objExtensible
		p.props.add(keyConstructor, Property{value: objectValue(o), flags: propWritable | propConfigurable})
		o.props.add(keyPrototype, Property{value: objectValue(p), flags: propWritable})
	}
	return o
}

// A closure's function object, its slots and its property storage, allocated together.
type (
	closureRoom3 struct {
		o  Object
		cl closureSlots
		s  propStorage3
	}
	// closureRoomProto is an ordinary function's: its prototype object comes in the same
	// allocation (the two refer to each other, so they mostly live as long).
	closureRoomProto struct {
		closureRoom3
		proto objectRoom1
	}
	closureRoom2 struct {
		o  Object
		cl closureSlots
		s  propStorage2
	}
)

// throwClassCtorCall throws the TypeError of calling a class constructor without new, as V8
// words it: by the class's own name, or for an anonymous class ((class {})()) in the plural.
func (vm *VM) throwClassCtorCall(name string) {
	if name == "" {
		vm.throwTypeError("Class constructors cannot be invoked without 'new'")
	}
	vm.throwTypeError("Class constructor %s cannot be invoked without 'new'", name)
}

// callFunction implements functionSlots: natives calling back into JavaScript
// run the closure in a nested dispatch loop.
func (cl *closureSlots) callFunction(vm *VM, this Value, args []Value, newTarget *Object) Value {
	ex := &vm.exec
	if cl.code.Kind == bytecode.FuncClassCtor || cl.code.Kind == bytecode.FuncDerivedCtor {
		if newTarget == nil {
			vm.throwClassCtorCall(cl.code.Name)
		}
	}
	vm.ensureStack(len(args) + 2)
	fnIdx := ex.sp
	ex.stack[ex.sp] = undefinedValue
	ex.stack[ex.sp+1] = this
	ex.sp += 2
	for _, a := range args {
		ex.stack[ex.sp] = a
		ex.sp++
	}
	depth := len(ex.frames)
	callee := cl.obj
	ex.stack[fnIdx] = objectValue(callee)
	if !vm.enterClosure(cl, callee, this, fnIdx, len(args), newTarget, retExit) {
		// completed without a frame (not possible for closures)
		v := ex.stack[ex.sp-1]
		ex.sp = fnIdx
		return v
	}
	saveSp := fnIdx
	returned := false
	ex.noPause++
	defer func() {
		ex.noPause--
		if !returned {
			// unwinding (a throw or an abort): drop the frames of this call and let the
			// panic go on without recovering it, which keeps unwinding linear in depth.
			ex.frames = ex.frames[:depth]
			ex.sp = saveSp
		}
	}()
	v := vm.run(depth)
	returned = true
	ex.sp = saveSp
	return v
}

// enterClosure pushes a frame for a closure call laid out at fnIdx. It reports
// whether a frame was pushed.
func (vm *VM) enterClosure(cl *closureSlots, callee *Object, this Value, fnIdx, argc int, newTarget *Object, ret retKind) bool {
	code := cl.code
	if newTarget != nil && code.Kind != bytecode.FuncDerivedCtor {
		proto := vm.getPrototypeFromConstructor(newTarget, "Object.prototype")
		n := int(cl.newSize)
		o := vm.newObjectRoom(proto, ClassObject, roomFor(n))
		this = objectValue(o)
	}
	f := vm.pushFrame(cl, callee, fnIdx+2, argc, this, newTarget, ret)
	if code.Async || code.Generator {
		vm.startCoroutine(f)
	}
	return true
}

// callValue performs a call of fo laid out on the stack at fnIdx ([fn this args...]).
// For closures it pushes a frame and reports true; natives run at once and
// their result replaces the call layout.
func (vm *VM) callValue(fo *Object, this Value, fnIdx, argc int, newTarget *Object) bool {
	ex := &vm.exec
	switch s := fo.slots.(type) {
	case *closureSlots:
		if newTarget == nil && (s.code.Kind == bytecode.FuncClassCtor || s.code.Kind == bytecode.FuncDerivedCtor) {
			vm.throwClassCtorCall(s.code.Name)
		}
		vm.enterClosure(s, fo, this, fnIdx, argc, newTarget, retPush)
		return true
	case *boundFunction:
		// Rebuild the layout: [target boundThis boundArgs... args...]
		n := len(s.args)
		vm.ensureStack(n)
		stack := ex.stack
		copy(stack[fnIdx+2+n:ex.sp+n], stack[fnIdx+2:ex.sp])
		copy(stack[fnIdx+2:], s.args)
		ex.sp += n
		stack[fnIdx] = objectValue(s.target)
		if newTarget == fo {
			newTarget = s.target
		}
		this = s.this
		if newTarget != nil {
			this = undefinedValue
		}
		stack[fnIdx+1] = this
		return vm.callValue(s.target, this, fnIdx, argc+n, newTarget)
	}
	if nf, ok := fo.slots.(*nativeFunction); ok && newTarget == nil {
		switch {
		case len(nf.name) > 0 && nf.name[0] == '%':
			if co, mode, ok := generatorFastPath(nf, this); ok {
				return vm.genResumeFromJS(co, mode, fnIdx, argc)
			}
		case nf.name == "Function.prototype.call":
			// f.call(thisArg, ...args): drop the call layer and call f in place,
			// so closures run in this dispatch loop instead of a nested one.
			if target := this.asObject(); target != nil && target.flags&objCallable != 0 {
				stack := ex.stack
				stack[fnIdx] = this
				if argc == 0 {
					stack[fnIdx+1] = undefinedValue
				} else {
					copy(stack[fnIdx+1:], stack[fnIdx+2:fnIdx+2+argc])
					argc--
					ex.sp--
				}
				return vm.callValue(target, stack[fnIdx+1], fnIdx, argc, nil)
			}
		case nf.name == "Function.prototype.apply":
			if target := this.asObject(); target != nil && target.flags&objCallable != 0 {
				thisArg, list := undefinedValue, undefinedValue
				if argc > 0 {
					thisArg = ex.stack[fnIdx+2]
				}
				if argc > 1 {
					list = ex.stack[fnIdx+3]
				}
				var args []Value
				if lo := list.asObject(); lo != nil && lo.class == ClassArray && int64(lo.length) == int64(len(lo.elems)) && !slices.ContainsFunc(lo.elems, Value.isHole) {
					args = lo.elems // a dense array: its elements are the list, copied below before any code runs
				} else if !list.IsNullish() {
					args = vm.createListFromArrayLike(list)
				}
				ex.sp = fnIdx + 2
				vm.ensureStack(len(args))
				stack := ex.stack
				stack[fnIdx] = this
				stack[fnIdx+1] = thisArg
				copy(stack[fnIdx+2:], args)
				ex.sp += len(args)
				return vm.callValue(target, thisArg, fnIdx, len(args), nil)
			}
		}
	}
	// The arguments stay where they are on the stack: natives do not keep c.Args (see
	// realm.go), calls they make push above them, and the capacity ends with them, so that an
	// append copies.
	args := ex.stack[fnIdx+2 : fnIdx+2+argc : fnIdx+2+argc]
	var r Value
	if newTarget != nil {
		r = vm.callObject(fo, undefinedValue, args, newTarget)
	} else {
		r = vm.callObject(fo, this, args, nil)
	}
	ex.sp = fnIdx
	ex.stack[ex.sp] = r
	ex.sp++
	return false
}

// doReturn finishes the top frame with v. It reports done when the dispatch
// loop must exit with res (the frame was entered from Go).
func (vm *VM) doReturn(f *frame, v Value, stopDepth int) (bool, Value) {
	ex := &vm.exec
	if f.construct {
		if v.kind != KindObject {
			v = f.this
			if f.code.Kind == bytecode.FuncDerivedCtor {
				v = ex.stack[ex.sp-1]
			}
		}
		if o := f.this.asObject(); o != nil && f.code.Kind != bytecode.FuncDerivedCtor {
			if cl, ok := f.callee.slots.(*closureSlots); ok {
				cl.newSize = int32(len(o.props.keys))
			}
		}
	}
	ex.frames = ex.frames[:len(ex.frames)-1]
	ex.sp = f.argsBase - 2
	if f.co != nil || f.isReaction {
		v = vm.frameReturned(f, v)
	}
	if f.co == nil && !f.isReaction {
		ex.framePool = append(ex.framePool, f)
	}
	if f.ret == retExit {
		return true, v
	}
	ex.stack[ex.sp] = v
	ex.sp++
	return false, undefinedValue
}

// boundFunction is the internal slot data of a bound function (Function.prototype.bind).
type boundFunction struct {
	target *Object
	this   Value
	args   []Value
	self   *Object // the bound function object
}

func (b *boundFunction) boundTarget() *Object { return b.target }

package interp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// ErrNotReady is returned (wrapped) when an operation needs a part of the VM that is not
// available, for example calling a JavaScript function before the execution engine exists.
var ErrNotReady = errors.New("interp: not ready")

// Exception is a JavaScript exception travelling through Go code: natives throw by panicking
// with *Exception and the VM catches it at the native call boundary; as an error (vm.Throw)
// it lets host functions throw a value.
type Exception struct {
	Value Value
}

// Error describes the thrown value.
func (e *Exception) Error() string { return "uncaught " + e.Value.String() }

// Throw returns an error that, returned by a host function, throws v in JavaScript.
func (vm *VM) Throw(v Value) error { return &Exception{Value: v} }

// throw throws v (panics with *Exception).
func (vm *VM) throw(v Value) { panic(&Exception{Value: v}) }

// throwError throws a new error of the given constructor name ("TypeError").
func (vm *VM) throwError(kind, format string, args ...any) {
	vm.throw(vm.NewError(kind, fmt.Sprintf(format, args...)))
}

// throwTypeError throws a TypeError with a formatted message.
func (vm *VM) throwTypeError(format string, args ...any) {
	vm.throwError("TypeError", format, args...)
}

// throwRangeError throws a RangeError with a formatted message.
func (vm *VM) throwRangeError(format string, args ...any) {
	vm.throwError("RangeError", format, args...)
}

// throwReferenceError throws a ReferenceError with a formatted message.
func (vm *VM) throwReferenceError(format string, args ...any) {
	vm.throwError("ReferenceError", format, args...)
}

// throwSyntaxError throws a SyntaxError with a formatted message.
func (vm *VM) throwSyntaxError(format string, args ...any) {
	vm.throwError("SyntaxError", format, args...)
}

// newTypeError creates (without throwing) a TypeError.
func (vm *VM) newTypeError(format string, args ...any) Value {
	return vm.NewError("TypeError", fmt.Sprintf(format, args...))
}

// newRangeError creates (without throwing) a RangeError.
func (vm *VM) newRangeError(format string, args ...any) Value {
	return vm.NewError("RangeError", fmt.Sprintf(format, args...))
}

// NewError creates an error object of the given kind ("Error", "TypeError", "RangeError",
// "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError") with a message.
// An unknown kind gives a plain Error.
func (vm *VM) NewError(kind, message string) Value {
	proto := vm.realm.Intrinsic(kind + ".prototype")
	if proto == nil {
		proto = vm.realm.errorPrototype()
	}
	o := vm.newObject(proto, ClassError)
	o.slots = &errorData{}
	o.props.keys = make([]PropertyKey, 0, 2)
	o.props.props = make([]Property, 0, 2)
	o.props.add(keyMessage, Property{value: asciiValue(message), flags: propHidden})
	vm.recordErrorPosition(o)
	return objectValue(o)
}

// errorData is the [[ErrorData]] slot: where the error was created.
type errorData struct {
	line, column int // 1-based; 0 when unknown
	// fn is the name of the function that made the error ("" for the program itself or an
	// anonymous function), and callers the frames that called it, innermost first: the
	// stack the Error.prototype.stack getter formats as V8 does.
	fn      string
	callers []stackFrame
}

// stackFrame is one caller in an error's stack.
type stackFrame struct {
	fn           string
	line, column int
}

// stackTraceLimit is how many frames an error's stack holds, as V8's default
// Error.stackTraceLimit.
const stackTraceLimit = 10

// recordErrorPosition records on a new error where the running code made it and the frames
// that called it: the stack text the Error.prototype.stack getter formats.
func (vm *VM) recordErrorPosition(o *Object) {
	ed, _ := o.slots.(*errorData)
	if ed == nil || vm.positionHook == nil {
		return
	}
	ed.line, ed.column = vm.positionHook()
	frames := vm.exec.frames
	if len(frames) == 0 {
		return
	}
	ed.fn = frameName(frames[len(frames)-1])
	if n := min(len(frames)-1, stackTraceLimit-1); n > 0 {
		ed.callers = make([]stackFrame, 0, n)
	}
	for i := len(frames) - 2; i >= 0 && len(ed.callers) < stackTraceLimit-1; i-- {
		f := frames[i]
		line, col := f.code.PosAt(f.pc - 1)
		ed.callers = append(ed.callers, stackFrame{fn: frameName(f), line: line, column: col})
	}
}

// frameName is the name a stack shows for a frame: its function's name property as it is
// now (names given at run time included), "" for the program and anonymous functions.
func frameName(f *frame) string {
	if f.code.Kind == bytecode.FuncProgram {
		return ""
	}
	name := f.code.Name
	if f.callee != nil {
		if n := lookupDataProperty(f.callee, keyName); n.kind == KindString {
			name = n.str().String()
		}
	}
	// A method called on an object is named after the receiver's constructor, as V8 names
	// it ("A.m", "Object.f").
	if recv := f.this.asObject(); recv != nil && name != "" && !f.construct && !recv.isCallable() {
		if ctor := lookupDataProperty(recv, keyConstructor).asObject(); ctor != nil {
			if n := lookupDataProperty(ctor, keyName); n.kind == KindString && n.str().Len() > 0 {
				return n.str().String() + "." + name
			}
		}
	}
	return name
}

// writeStackFrame writes one "    at" line as V8 does for a script without a file name.
func writeStackFrame(b *strings.Builder, fn string, line, column int) {
	if fn == "" {
		fmt.Fprintf(b, "\n    at <anonymous>:%d:%d", line, column)
		return
	}
	fmt.Fprintf(b, "\n    at %s (<anonymous>:%d:%d)", fn, line, column)
}

// errorStackString formats the stack text of an error object without calling JavaScript
// (getters are not run; missing parts are left out).
func errorStackString(o *Object) *jsString {
	name, msg := "Error", ""
	if p := lookupDataProperty(o, keyName); p.kind == KindString {
		name = p.str().String()
	}
	if p := lookupDataProperty(o, keyMessage); p.kind == KindString {
		msg = p.str().String()
	}
	head := name
	if msg != "" {
		head = name + ": " + msg
	}
	if ed, _ := o.slots.(*errorData); ed != nil && ed.line > 0 {
		var b strings.Builder
		b.WriteString(head)
		writeStackFrame(&b, ed.fn, ed.line, ed.column)
		for _, f := range ed.callers {
			if f.line > 0 {
				writeStackFrame(&b, f.fn, f.line, f.column)
			}
		}
		head = b.String()
	}
	return newStringFromGo(head)
}

// lookupDataProperty finds a data property along the prototype chain without running
// getters; it returns undefined when absent or an accessor.
func lookupDataProperty(o *Object, key PropertyKey) Value {
	for ; o != nil; o = o.proto {
		if p, ok := o.getOwn(key); ok {
			if p.isAccessor() {
				return undefinedValue
			}
			return p.value
		}
	}
	return undefinedValue
}

// newObject allocates an object with the given prototype and class (extensible, no
// properties) and counts it against the heap budget.
func (vm *VM) newObject(proto *Object, class Class) *Object {
	vm.allocated += objectBaseSize
	return &Object{proto: proto, class: class, flags: objExtensible}
}

// Objects made with room for their properties: the object and its first property storage
// are one allocation (see newObjectRoom).
type (
	objectRoom1 struct {
		o Object
		s propStorage1
	}
	objectRoom4 struct {
		o Object
		s propStorage4
	}
	objectRoom6 struct {
		o Object
		s propStorage6
	}
	objectRoom8 struct {
		o Object
		s propStorage8
	}
	objectRoom14 struct {
		o Object
		s propStorage14
	}
	objectRoom16 struct {
		o Object
		s propStorage16
	}
)

// newObjectRoom is newObject for an object about to get n properties: it is made with its
// property storage (room for exactly 1, else for 4, 6, 8, 14 or 16: 6 and 14 fill the
// allocator's size classes of 448 and 896 bytes that 8 and 16 would round up to 576 and 1024)
// in the same allocation. From 17 properties on the storage is a separate allocation of n.
func (vm *VM) newObjectRoom(proto *Object, class Class, n int) *Object {
	vm.allocated += objectBaseSize
	var o *Object
	switch {
	case n <= 0:
		o = &Object{}
	case n == 1:
		r := &objectRoom1{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	case n <= 4:
		r := &objectRoom4{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	case n <= 6:
		r := &objectRoom6{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	case n <= 8:
		r := &objectRoom8{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	case n <= 14:
		r := &objectRoom14{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	case n <= 16:
		r := &objectRoom16{}
		o = &r.o
		o.props.keys, o.props.props = r.s.keys[:0], r.s.props[:0]
	default:
		o = &Object{}
		o.props.keys, o.props.props = newPropStorage(n)
	}
	o.proto, o.class, o.flags = proto, class, objExtensible
	return o
}

// roomFor returns the room an object expected to get n properties is made with: none for 0
// (the first add makes some), at least 4 (as the first add would) otherwise.
func roomFor(n int) int {
	if n > 0 && n < 4 {
		return 4
	}
	return n
}

// objectBaseSize is the accounted size of an object without properties (bytes).
const objectBaseSize = 112

// NewObject creates an empty ordinary object whose prototype is Object.prototype.
func (vm *VM) NewObject() Value {
	return objectValue(vm.newObject(vm.realm.ObjectPrototype, ClassObject))
}

// newPlainObject creates an empty ordinary object (Object.prototype).
func (vm *VM) newPlainObject() *Object {
	return vm.newObject(vm.realm.ObjectPrototype, ClassObject)
}

// newArray creates an array holding the given elements (taking ownership of the slice).
func (vm *VM) newArray(elems []Value) *Object {
	o := vm.newObject(vm.realm.ArrayPrototype, ClassArray)
	o.elems = elems
	o.length = uint32(len(elems))
	vm.allocated += int64(cap(elems)) * valueSize
	return o
}

// newArrayValue is newArray wrapped as a Value.
func (vm *VM) newArrayValue(elems []Value) Value { return objectValue(vm.newArray(elems)) }

// valueSize is the accounted size of one Value slot (bytes).
const valueSize = 24

// newNativeFunction creates a function object for native, with "length" and "name" own
// properties (non-writable, non-enumerable, configurable).
func (vm *VM) newNativeFunction(native *nativeFunction, name string, length int) *Object {
	f := vm.newObject(vm.realm.FunctionPrototype, ClassFunction)
	f.flags |= objCallable
	f.slots = native
	f.props.add(keyLength, Property{value: intValue(length), flags: propConfigurable})
	f.props.add(keyName, Property{value: asciiValue(name), flags: propConfigurable})
	return f
}

// functionSlots is implemented by the internal slots of callable objects other than natives
// (closures, bound functions, class constructors: defined by the execution engine).
type functionSlots interface {
	// callFunction runs the function to completion and returns its result, or throws
	// (panics with *Exception). newTarget is nil for [[Call]].
	callFunction(vm *VM, this Value, args []Value, newTarget *Object) Value
}

// maxNativeDepth caps the nesting of calls that go through Go: natives (including natives
// calling natives, such as a chain of iterator helpers) and JavaScript functions re-entered
// from natives. It protects the Go stack; exceeding it throws a RangeError.
const maxNativeDepth = 1000

// Call calls fn with this and args ([[Call]]); it throws a TypeError when fn is not
// callable. Natives use it to call back into JavaScript; a JavaScript exception propagates
// as a panic with *Exception.
func (vm *VM) Call(fn Value, this Value, args ...Value) Value {
	o := fn.asObject()
	if o == nil || !o.isCallable() {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	return vm.callObject(o, this, args, nil)
}

// callObject dispatches [[Call]] / [[Construct]] on a callable object.
func (vm *VM) callObject(o *Object, this Value, args []Value, newTarget *Object) Value {
	switch s := o.slots.(type) {
	case *nativeFunction:
		vm.nativeDepth++
		defer func() { vm.nativeDepth-- }()
		if vm.nativeDepth > maxNativeDepth {
			vm.throwRangeError("Maximum call stack size exceeded")
		}
		return s.fn(vm, NativeCall{This: this, Args: args, NewTarget: newTarget, Callee: o})
	case functionSlots:
		vm.nativeDepth++
		defer func() { vm.nativeDepth-- }()
		if vm.nativeDepth > maxNativeDepth {
			vm.throwRangeError("Maximum call stack size exceeded")
		}
		return s.callFunction(vm, this, args, newTarget)
	}
	panic(fmt.Errorf("call of %T: %w", o.slots, ErrNotReady))
}

// construct is [[Construct]]: new fn(...args) with the given newTarget (fn itself when nil).
func (vm *VM) construct(fn Value, newTarget *Object, args ...Value) Value {
	o := fn.asObject()
	if o == nil || !o.isConstructor() {
		vm.throwTypeError("%s is not a constructor", vm.describeForError(fn))
	}
	if newTarget == nil {
		newTarget = o
	}
	return vm.callObject(o, undefinedValue, args, newTarget)
}

// describeForError renders a value for an error message without calling JavaScript.
// throwSetRefused throws the TypeError of a strict-mode assignment to key of o that was
// refused, with V8's wording for each reason: a read-only property (own or inherited), an
// accessor without a setter, or a new property on an object that is not extensible (frozen,
// sealed, preventExtensions).
func (vm *VM) throwSetRefused(o *Object, key PropertyKey) {
	if o != nil && o.class == ClassProxy {
		vm.throwTypeError("'set' on proxy: trap returned falsish for property '%s'", key)
	}
	if o != nil && o.class == ClassArray && key == keyLength && o.flags&objLengthReadOnly == 0 && o.length > 0 {
		// a writable length that could not shrink past an element that cannot be deleted
		vm.throwTypeError("Cannot delete property '%d' of %s", o.length-1, vm.describeObject(objectValue(o)))
	}
	if o != nil && o.class == ClassArray && o.flags&objLengthReadOnly != 0 && o.extensible() {
		if idx, ok := key.arrayIndex(); ok && int64(idx) >= int64(o.length) {
			key = keyLength // a new element would grow a length that is read-only: V8 names length
		}
	}
	for q := o; q != nil; q = q.proto {
		p, ok := q.getOwn(key)
		if !ok {
			continue
		}
		// V8 prints the receiver with Object::NoSideEffectsToString and its typeof
		desc, kind := objectTag(o), "object"
		if o != nil {
			desc = vm.describeObject(objectValue(o))
			if o.isCallable() {
				kind = "function"
			}
		}
		if p.isAccessor() {
			vm.throwTypeError("Cannot set property %s of %s which has only a getter", key.String(), desc)
		}
		vm.throwTypeError("Cannot assign to read only property '%s' of %s '%s'", key.String(), kind, desc)
	}
	if o != nil && !o.extensible() {
		vm.throwTypeError("Cannot add property %s, object is not extensible", key.String())
	}
	vm.throwTypeError("Cannot assign to read only property '%s' of object", key.String())
}

// throwSuperSetRefused throws the TypeError of a strict-mode super.key = v (the set started at
// home, the method's home object's prototype, with this as the receiver) that was refused: an
// inherited read-only property or getter is reported as for an ordinary assignment; otherwise
// the receiver refused it, with V8's words: an own accessor ("Cannot redefine property: x"), an
// own read-only property, or no room for a new one.
func (vm *VM) throwSuperSetRefused(home *Object, key PropertyKey, this Value) {
	recv := this.asObject()
	if home == nil || home.class == ClassProxy || recv == nil {
		vm.throwSetRefused(home, key)
	}
	for q := home; q != nil; q = q.proto {
		if p, ok := q.getOwn(key); ok {
			if p.isAccessor() && (p.setter() == nil) || !p.isAccessor() && !p.writable() {
				vm.throwSetRefused(recv, key)
			}
			break
		}
	}
	if recv.class != ClassProxy {
		if p, ok := recv.getOwn(key); ok {
			if p.isAccessor() {
				vm.throwTypeError("Cannot redefine property: %s", key.String())
			}
			vm.throwSetRefused(recv, key)
		}
	}
	vm.throwSetRefused(recv, key)
}

// objectTag names an object in a message as V8 does: '[object Array]' for an array,
// '#<Name>' after its constructor otherwise (without running getters).
func objectTag(o *Object) string {
	if o == nil {
		return "#<Object>"
	}
	if o.class == ClassArray {
		return "[object Array]"
	}
	name := "Object"
	if c := lookupDataProperty(o, strKey("constructor")).asObject(); c != nil {
		if n := lookupDataProperty(c, keyName); n.kind == KindString && n.str().Len() > 0 {
			name = n.str().String()
		}
	}
	return "#<" + name + ">"
}

// describeObject describes v as V8 does where its messages print an object
// (Object::NoSideEffectsToString, "Cannot delete property 'x' of #<Object>"): a function by
// its source text, an error as "Name: message", an object that inherits
// Object.prototype.toString as #<Constructor>, any other object as [object Tag]. It runs no
// JavaScript.
func (vm *VM) describeObject(v Value) string {
	o := v.asObject()
	if o == nil {
		if v.kind == KindString {
			return "[object String]" // a primitive's wrapper
		}
		return vm.describeForError(v)
	}
	if o.isCallable() && o.class != ClassProxy {
		return functionToString(vm, NativeCall{This: v}).str().String()
	}
	toString := lookupDataProperty(o, keyToString)
	if o.class == ClassError {
		name, msg := lookupDataProperty(o, keyName), lookupDataProperty(o, keyMessage)
		n, m := "Error", ""
		if name.kind == KindString {
			n = name.str().String()
		}
		if msg.kind == KindString {
			m = msg.str().String()
		}
		switch {
		case n == "":
			return m
		case m == "":
			return n
		}
		return n + ": " + m
	}
	if objToString := lookupDataProperty(vm.realm.ObjectPrototype, keyToString); toString.kind == KindObject && objToString.kind == KindObject && toString.obj() == objToString.obj() {
		if ctor := lookupDataProperty(o, keyConstructor); ctor.kind == KindObject && ctor.obj().isCallable() {
			if n := lookupDataProperty(ctor.obj(), keyName); n.kind == KindString && n.str().Len() > 0 {
				return "#<" + n.str().String() + ">"
			}
		}
	}
	if t := lookupDataProperty(o, symKey(symToStringTag)); t.kind == KindString {
		return "[object " + t.str().String() + "]"
	}
	return "[object " + builtinTag(o) + "]"
}

func (vm *VM) describeForError(v Value) string {
	switch v.kind {
	case KindString:
		return "\"" + v.str().String() + "\""
	case KindObject:
		if v.obj().isCallable() {
			if n := lookupDataProperty(v.obj(), keyName); n.kind == KindString && n.str().Len() > 0 {
				return "function " + n.str().String()
			}
			return "function"
		}
		if v.obj().class == ClassArray {
			return "array"
		}
		return "object"
	}
	return v.String()
}

package interp

import "fmt"

// The Error constructor, the native errors (TypeError, RangeError, SyntaxError,
// ReferenceError, EvalError, URIError) and AggregateError, and the Error.prototype.stack
// accessor (error stack accessor proposal).

func init() { registerBuiltin("Error", 1, setupError) }

// nativeErrorNames lists the NativeError constructors in a fixed order.
var nativeErrorNames = []string{"EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"}

// setupError installs Error, the native errors and AggregateError.
func setupError(r *Realm) {
	errorCtor := r.newConstructor("Error", 1, errorConstructor, r.ErrorPrototype)
	r.method(errorCtor, "captureStackTrace", 2, errorCaptureStackTrace)
	r.method(errorCtor, "isError", 1, errorIsError)
	r.value(r.ErrorPrototype, keyName, asciiValue("Error"), propHidden)
	r.value(r.ErrorPrototype, keyMessage, stringValue(strEmpty), propHidden)
	r.method(r.ErrorPrototype, "toString", 0, errorToString)
	r.accessor(r.ErrorPrototype, keyStack, errorStackGet, errorStackSet)
	r.defineGlobal("Error", objectValue(errorCtor))
	for _, name := range nativeErrorNames {
		proto := r.vm.newObject(r.ErrorPrototype, ClassObject)
		r.addIntrinsic(name+".prototype", proto)
		ctor := r.newConstructor(name, 1, errorConstructor, proto)
		ctor.proto = errorCtor
		r.value(proto, keyName, asciiValue(name), propHidden)
		r.value(proto, keyMessage, stringValue(strEmpty), propHidden)
		r.defineGlobal(name, objectValue(ctor))
	}
	aggProto := r.vm.newObject(r.ErrorPrototype, ClassObject)
	r.addIntrinsic("AggregateError.prototype", aggProto)
	agg := r.newConstructor("AggregateError", 2, aggregateErrorConstructor, aggProto)
	agg.proto = errorCtor
	r.value(aggProto, keyName, asciiValue("AggregateError"), propHidden)
	r.value(aggProto, keyMessage, stringValue(strEmpty), propHidden)
	r.defineGlobal("AggregateError", objectValue(agg))
}

// errorConstructor is Error(message, options) and every NativeError: callable without new.
func errorConstructor(vm *VM, c NativeCall) Value {
	return objectValue(vm.makeError(c, c.Arg(0), c.Arg(1)))
}

// errorObject is an error instance and its data, allocated together: programs that throw in a
// loop make many.
type errorObject struct {
	obj  Object
	data errorData
}

// makeError is the shared body of the error constructors: OrdinaryCreateFromConstructor,
// message, cause (InstallErrorCause), and the position the stack text shows. The instance
// gets no own "stack": Error.prototype.stack formats it on read.
func (vm *VM) makeError(c NativeCall, message, options Value) *Object {
	nt := c.NewTarget
	if nt == nil {
		nt = c.Callee
	}
	var proto *Object
	if p := vm.getProp(nt, keyPrototype); p.kind == KindObject {
		proto = p.obj()
	} else {
		proto = vm.realm.Intrinsic(vm.realm.nameOf(c.Callee) + ".prototype")
	}
	eo := &errorObject{obj: Object{proto: proto, class: ClassError, flags: objExtensible}}
	vm.allocated += objectBaseSize
	o := &eo.obj
	o.slots = &eo.data
	o.props.keys, o.props.props = newPropStorage(3)
	if !message.IsUndefined() {
		msg := vm.toString(message)
		o.props.add(keyMessage, Property{value: stringValue(msg), flags: propHidden})
	}
	if opts := options.asObject(); opts != nil && vm.hasProperty(opts, keyCause) {
		cause := vm.getProp(opts, keyCause)
		o.props.add(keyCause, Property{value: cause, flags: propHidden})
	}
	vm.recordErrorPosition(o)
	return o
}

// aggregateErrorConstructor is AggregateError(errors, message, options).
func aggregateErrorConstructor(vm *VM, c NativeCall) Value {
	o := vm.makeError(c, c.Arg(1), c.Arg(2))
	errs := vm.iterableToList(c.Arg(0))
	o.props.add(keyErrors, Property{value: vm.CreateArrayFromList(errs), flags: propHidden})
	return objectValue(o)
}

// errorToString is Error.prototype.toString.
func errorToString(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Error.prototype.toString called on non-object")
	}
	name := vm.getProp(o, keyName)
	msg := vm.getProp(o, keyMessage)
	ns := newASCII("Error")
	if !name.IsUndefined() {
		ns = vm.toString(name)
	}
	ms := strEmpty
	if !msg.IsUndefined() {
		ms = vm.toString(msg)
	}
	switch {
	case ns.Len() == 0:
		return stringValue(ms)
	case ms.Len() == 0:
		return stringValue(ns)
	}
	return stringValue(concatStrings(concatStrings(ns, newASCII(": ")), ms))
}

// errorCaptureStackTrace is Error.captureStackTrace(object) (a V8 extension that node code
// uses): it gives object a "stack" own property formatted from its name and message.
func errorCaptureStackTrace(vm *VM, c NativeCall) Value {
	o := c.Arg(0).asObject()
	if o == nil {
		vm.throwTypeError("Invalid argument")
	}
	text := errorStackString(o)
	if ed, ok := o.slots.(*errorData); ok && vm.positionHook != nil {
		ed.line, ed.column = vm.positionHook()
		text = errorStackString(o)
	} else if vm.positionHook != nil {
		if line, col := vm.positionHook(); line > 0 {
			text = concatStrings(text, newASCII(fmt.Sprintf("\n    at %d:%d", line, col)))
		}
	}
	vm.definePropertyOrThrow(o, keyStack, dataDescriptor(stringValue(text), propHidden))
	return undefinedValue
}

// errorIsError is Error.isError(value): whether value has an [[ErrorData]] slot.
func errorIsError(vm *VM, c NativeCall) Value {
	if o := c.Arg(0).asObject(); o != nil {
		_, ok := o.slots.(*errorData)
		return Bool(ok)
	}
	return falseValue
}

// errorStackGet is the getter of Error.prototype.stack: for an object with [[ErrorData]] its
// stack text ("Name: message" and, where known, "\n    at line:column", from the current
// name and message), undefined for other objects, a TypeError for primitives.
func errorStackGet(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Error.prototype.stack getter called on %s", vm.describeForError(c.This))
	}
	if _, ok := o.slots.(*errorData); !ok {
		return undefinedValue
	}
	return stringValue(errorStackString(o))
}

// errorStackSet is the setter of Error.prototype.stack: v must be a string; it becomes (or
// is assigned to) the receiver's own "stack" property, never Error.prototype's.
func errorStackSet(vm *VM, c NativeCall) Value {
	if c.This.kind != KindObject {
		vm.throwTypeError("Error.prototype.stack setter called on %s", vm.describeForError(c.This))
	}
	v := c.Arg(0)
	if v.kind != KindString {
		vm.throwTypeError("Error.prototype.stack must be a string, got %s", vm.describeForError(v))
	}
	vm.setterIgnoringPrototype(c.This, vm.realm.errorPrototype(), keyStack, v)
	return undefinedValue
}

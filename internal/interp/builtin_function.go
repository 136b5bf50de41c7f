package interp

import "strings"

// Function.prototype: call, apply, bind, toString and Symbol.hasInstance. The
// Function constructor cannot evaluate code: calling it (with or without new) throws
// EvalError when the call happens, so code that only names it compiles; the global
// binding exists for Function.prototype and instanceof Function. eval (builtin_global.go)
// throws EvalError the same way.

func init() { registerBuiltin("Function", 1, setupFunction) }

func setupFunction(r *Realm) {
	fp := r.FunctionPrototype
	fp.props.add(keyLength, Property{value: intValue(0), flags: propConfigurable})
	fp.props.add(keyName, Property{value: asciiValue(""), flags: propConfigurable})
	r.method(fp, "call", 1, functionCall)
	r.method(fp, "apply", 2, functionApply)
	r.method(fp, "bind", 1, functionBind)
	r.method(fp, "toString", 0, functionToString)
	r.symbolMethod(fp, symHasInstance, 1, functionHasInstance, 0)
	// %ThrowTypeError% guards the legacy caller and arguments members: strict and class
	// functions have no own ones, and reading them through Function.prototype throws.
	thrower := r.newFunction("%ThrowTypeError%", "", 0, throwTypeErrorIntrinsic)
	thrower.props.get(keyLength).flags = 0
	thrower.props.get(keyName).flags = 0
	thrower.flags &^= objExtensible
	for _, name := range []string{"caller", "arguments"} {
		fp.props.add(strKey(name), accessorProperty(thrower, thrower, propConfigurable))
	}
	// The global Function exists so that Function.prototype, instanceof Function and
	// f.constructor === Function work (test262's propertyHelper needs them); calling it
	// cannot evaluate code: it throws an EvalError, but for Function("return this").
	ctor := r.newConstructor("Function", 1, functionConstructorAbsent, fp)
	r.defineGlobal("Function", objectValue(ctor))
}

// throwTypeErrorIntrinsic is %ThrowTypeError%: every call throws.
func throwTypeErrorIntrinsic(vm *VM, c NativeCall) Value {
	vm.throwTypeError("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them")
	return undefinedValue
}

// functionConstructorAbsent is what calling Function does: programs cannot evaluate code at
// run time, so it throws an EvalError. The one exception is a body of just "return this",
// which libraries (lodash, json5, handlebars) use as their last way to find the global
// object: it gives a function doing what that sloppy-mode function would do, without
// compiling anything.
func functionConstructorAbsent(vm *VM, c NativeCall) Value {
	if isReturnThis(c.Args) {
		return objectValue(vm.newNativeFunction(nativeReturnThis, "anonymous", 0))
	}
	vm.throwError("EvalError", "the Function constructor is not supported: programs cannot evaluate code at run time")
	return undefinedValue
}

// functionKindConstructorAbsent is what calling GeneratorFunction, AsyncGeneratorFunction or
// AsyncFunction does: an EvalError, as for Function.
func functionKindConstructorAbsent(vm *VM, c NativeCall) Value {
	vm.throwError("EvalError", "the Function constructor is not supported: programs cannot evaluate code at run time")
	return undefinedValue
}

// nativeReturnThis is the function Function("return this") makes: a sloppy-mode function
// returning its receiver, the global object when called without one.
var nativeReturnThis = registerNative("Function(\"return this\")", func(vm *VM, c NativeCall) Value {
	if c.This.IsNullish() {
		return objectValue(vm.realm.Global)
	}
	return objectValue(vm.toObject(c.This))
})

// isReturnThis reports whether the arguments of Function are only string parameters of blank
// text and a body that is "return this" between blanks, with or without a semicolon.
func isReturnThis(args []Value) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if a.kind != KindString {
			return false
		}
	}
	for _, p := range args[:len(args)-1] {
		if strings.TrimSpace(p.str().String()) != "" {
			return false
		}
	}
	body := strings.TrimSpace(args[len(args)-1].str().String())
	body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
	return body == "return this"
}

func requireCallable(vm *VM, v Value, method string) *Object {
	if !IsCallable(v) {
		vm.throwTypeError("Function.prototype.%s called on a value that is not a function", method)
	}
	return v.obj()
}

func functionCall(vm *VM, c NativeCall) Value {
	fn := requireCallable(vm, c.This, "call")
	var args []Value
	if len(c.Args) > 1 {
		args = append(args, c.Args[1:]...)
	}
	return vm.callObject(fn, c.Arg(0), args, nil)
}

func functionApply(vm *VM, c NativeCall) Value {
	fn := requireCallable(vm, c.This, "apply")
	var args []Value
	if a := c.Arg(1); !a.IsNullish() {
		args = vm.createListFromArrayLike(a)
	}
	return vm.callObject(fn, c.Arg(0), args, nil)
}

// boundFunction slots are callable and constructible like their target.
func (b *boundFunction) callFunction(vm *VM, this Value, args []Value, newTarget *Object) Value {
	all := append(append([]Value(nil), b.args...), args...)
	if newTarget != nil {
		if newTarget == b.self {
			newTarget = b.target
		}
		return vm.construct(objectValue(b.target), newTarget, all...)
	}
	return vm.callObject(b.target, b.this, all, nil)
}

func functionBind(vm *VM, c NativeCall) Value {
	target := requireCallable(vm, c.This, "bind")
	var args []Value
	if len(c.Args) > 1 {
		args = append(args, c.Args[1:]...)
	}
	f := vm.newObject(target.proto, ClassFunction)
	f.flags |= objCallable | (target.flags & objConstructor)
	f.slots = &boundFunction{target: target, this: c.Arg(0), args: args, self: f}
	length := 0.0
	if vm.hasOwnProperty(target, keyLength) {
		if l := vm.getProp(target, keyLength); l.kind == KindNumber {
			length = vm.toIntegerOrInfinity(l) - float64(len(args))
			if length < 0 {
				length = 0
			}
		}
	}
	name := vm.getProp(target, keyName)
	if name.kind != KindString {
		name = asciiValue("")
	}
	f.props.add(keyLength, Property{value: Number(length), flags: propConfigurable})
	f.props.add(keyName, Property{value: stringValue(concatStrings(newStringFromGo("bound "), name.str())), flags: propConfigurable})
	return objectValue(f)
}

func functionToString(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil || !o.isCallable() {
		vm.throwTypeError("Function.prototype.toString requires that 'this' be a Function")
	}
	if cl, ok := o.slots.(*closureSlots); ok {
		if src := cl.prog.source; cl.code.SourceEnd > cl.code.SourceStart && cl.code.SourceEnd <= len(src) {
			return stringValue(newStringFromGo(src[cl.code.SourceStart:cl.code.SourceEnd]))
		}
	}
	if _, bound := o.slots.(*boundFunction); bound {
		return asciiValue("function () { [native code] }") // V8's text: no name
	}
	name := ""
	if n := lookupDataProperty(o, keyName); n.kind == KindString {
		name = n.str().String()
	}
	return stringValue(newStringFromGo("function " + name + "() { [native code] }"))
}

func functionHasInstance(vm *VM, c NativeCall) Value {
	return Bool(vm.ordinaryHasInstance(c.This, c.Arg(0)))
}

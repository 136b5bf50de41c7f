package interp

// Reflect: the object operations as functions (ECMA-262 28.1). Each is the generic internal
// method, which runs a proxy's trap; the errors are V8's.

func init() { registerBuiltin("reflect", 1, setupReflect) }

func setupReflect(r *Realm) {
	o := r.vm.newObject(r.ObjectPrototype, ClassOther)
	r.addIntrinsic("Reflect", o)
	for _, f := range []struct {
		name   string
		length int
		fn     NativeFunc
	}{
		{"defineProperty", 3, reflectDefineProperty},
		{"deleteProperty", 2, reflectDeleteProperty},
		{"apply", 3, reflectApply},
		{"construct", 2, reflectConstruct},
		{"get", 2, reflectGet},
		{"getOwnPropertyDescriptor", 2, reflectGetOwnPropertyDescriptor},
		{"getPrototypeOf", 1, reflectGetPrototypeOf},
		{"has", 2, reflectHas},
		{"isExtensible", 1, reflectIsExtensible},
		{"ownKeys", 1, reflectOwnKeys},
		{"preventExtensions", 1, reflectPreventExtensions},
		{"set", 3, reflectSet},
		{"setPrototypeOf", 2, reflectSetPrototypeOf},
	} {
		r.method(o, f.name, f.length, f.fn)
	}
	r.value(o, symKey(symToStringTag), asciiValue("Reflect"), propConfigurable)
	r.defineGlobal("Reflect", objectValue(o))
}

// reflectTarget is the target argument, which must be an object.
func reflectTarget(vm *VM, c NativeCall, fn string) *Object {
	o := c.Arg(0).asObject()
	if o == nil {
		vm.throwTypeError("Reflect.%s called on non-object", fn)
	}
	return o
}

func reflectDefineProperty(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "defineProperty")
	key := vm.toPropertyKey(c.Arg(1))
	return Bool(vm.defineOwnProperty(o, key, vm.toPropertyDescriptor(c.Arg(2))))
}

func reflectDeleteProperty(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "deleteProperty")
	return Bool(vm.deleteProperty(o, vm.toPropertyKey(c.Arg(1))))
}

func reflectApply(vm *VM, c NativeCall) Value {
	fn := c.Arg(0).asObject()
	if fn == nil || !fn.isCallable() {
		vm.throwTypeError("Function.prototype.apply was called on %s, which is %s and not a function", vm.describeForError(c.Arg(0)), withArticle(c.Arg(0).typeOf()))
	}
	if c.Arg(2).asObject() == nil {
		vm.throwTypeError("CreateListFromArrayLike called on non-object")
	}
	return vm.callObject(fn, c.Arg(1), vm.createListFromArrayLike(c.Arg(2)), nil)
}

func reflectConstruct(vm *VM, c NativeCall) Value {
	target := c.Arg(0)
	if !IsConstructor(target) {
		vm.throwTypeError("%s is not a constructor", reflectDescribe(vm, target))
	}
	newTarget := target
	if len(c.Args) > 2 {
		newTarget = c.Arg(2)
		if !IsConstructor(newTarget) {
			vm.throwTypeError("%s is not a constructor", reflectDescribe(vm, newTarget))
		}
	}
	if c.Arg(1).asObject() == nil {
		vm.throwTypeError("CreateListFromArrayLike called on non-object")
	}
	return vm.construct(target, newTarget.asObject(), vm.createListFromArrayLike(c.Arg(1))...)
}

// reflectDescribe names a value in an error as V8's Reflect does: a function by its source
// text.
func reflectDescribe(vm *VM, v Value) string {
	if IsCallable(v) {
		return functionToString(vm, NativeCall{This: v}).str().String()
	}
	return vm.describeForError(v)
}

func reflectGet(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "get")
	key := vm.toPropertyKey(c.Arg(1))
	receiver := c.Arg(0)
	if len(c.Args) > 2 {
		receiver = c.Arg(2)
	}
	return vm.getFrom(o, key, receiver)
}

func reflectGetOwnPropertyDescriptor(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "getOwnPropertyDescriptor")
	d, ok := vm.getOwnProperty(o, vm.toPropertyKey(c.Arg(1)))
	if !ok {
		return undefinedValue
	}
	return vm.fromPropertyDescriptor(d)
}

func reflectGetPrototypeOf(vm *VM, c NativeCall) Value {
	return objectValue(vm.getPrototypeOf(reflectTarget(vm, c, "getPrototypeOf")))
}

func reflectHas(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "has")
	return Bool(vm.hasProperty(o, vm.toPropertyKey(c.Arg(1))))
}

func reflectIsExtensible(vm *VM, c NativeCall) Value {
	return Bool(vm.isExtensible(reflectTarget(vm, c, "isExtensible")))
}

func reflectOwnKeys(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "ownKeys")
	keys := vm.ownPropertyKeys(o)
	out := make([]Value, len(keys))
	for i, k := range keys {
		out[i] = k.toValue()
	}
	return vm.newArrayValue(out)
}

func reflectPreventExtensions(vm *VM, c NativeCall) Value {
	return Bool(vm.preventExtensions(reflectTarget(vm, c, "preventExtensions")))
}

func reflectSet(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "set")
	key := vm.toPropertyKey(c.Arg(1))
	receiver := c.Arg(0)
	if len(c.Args) > 3 {
		receiver = c.Arg(3)
	}
	return Bool(vm.setOn(o, key, c.Arg(2), receiver))
}

func reflectSetPrototypeOf(vm *VM, c NativeCall) Value {
	o := reflectTarget(vm, c, "setPrototypeOf")
	proto := c.Arg(1)
	if proto.kind != KindObject && proto.kind != KindNull {
		vm.throwTypeError("Object prototype may only be an Object or null: %s", vm.describeForError(proto))
	}
	return Bool(vm.setPrototypeOf(o, proto.asObject()))
}

// withArticle is "a number", "an object", "undefined" as V8's messages say a type.
func withArticle(t string) string {
	switch t {
	case "undefined":
		return t
	case "object":
		return "an object"
	}
	return "a " + t
}

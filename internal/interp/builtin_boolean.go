package interp

// The Boolean global: the smallest complete example of a built-in (see realm.go for the
// registration table and the helpers).

func init() { registerBuiltin("Boolean", 10, setupBoolean) }

// setupBoolean installs Boolean and Boolean.prototype.
func setupBoolean(r *Realm) {
	// Boolean.prototype is itself a Boolean object whose [[BooleanData]] is false.
	proto := r.vm.newObject(r.ObjectPrototype, ClassBoolean)
	proto.slots = falseValue
	ctor := r.newConstructor("Boolean", 1, booleanConstructor, proto)
	r.method(proto, "toString", 0, booleanToString)
	r.method(proto, "valueOf", 0, booleanValueOf)
	r.defineGlobal("Boolean", objectValue(ctor))
}

// booleanConstructor is Boolean(value): a conversion when called, a wrapper when constructed.
func booleanConstructor(vm *VM, c NativeCall) Value {
	b := Bool(ToBoolean(c.Arg(0)))
	if c.NewTarget == nil {
		return b
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "Boolean.prototype", ClassBoolean)
	o.slots = b
	return objectValue(o)
}

// thisBooleanValue unwraps this as a boolean (thisBooleanValue in the spec).
func thisBooleanValue(vm *VM, v Value, method string) Value {
	if v.kind == KindBool {
		return v
	}
	if o := v.asObject(); o != nil && o.class == ClassBoolean {
		return o.slots.(Value)
	}
	vm.throwTypeError("%s requires that 'this' be a Boolean", method)
	return undefinedValue
}

// booleanToString is Boolean.prototype.toString.
func booleanToString(vm *VM, c NativeCall) Value {
	return stringValue(vm.toString(thisBooleanValue(vm, c.This, "Boolean.prototype.toString")))
}

// booleanValueOf is Boolean.prototype.valueOf.
func booleanValueOf(vm *VM, c NativeCall) Value {
	return thisBooleanValue(vm, c.This, "Boolean.prototype.valueOf")
}

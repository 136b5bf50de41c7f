package interp

// The WeakMap and WeakSet globals. Their keys are objects and symbols that are not in the
// global symbol registry (CanBeHeldWeakly). Runs are short-lived, so the keys are held
// strongly: a WeakMap is a Map without iteration, size or clear, stored in the same
// collection type (builtin_map_data.go) and snapshotted the same way.

func init() {
	registerBuiltin("WeakMap", 20, setupWeakMap)
	registerBuiltin("WeakSet", 20, setupWeakSet)
}

// setupWeakMap installs WeakMap and WeakMap.prototype.
func setupWeakMap(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("WeakMap", 0, weakMapConstructor, proto)
	r.method(proto, "delete", 1, weakMapDelete)
	r.method(proto, "get", 1, weakMapGet)
	r.method(proto, "getOrInsert", 2, weakMapGetOrInsert)
	r.method(proto, "getOrInsertComputed", 2, weakMapGetOrInsertComputed)
	r.method(proto, "set", 2, weakMapSet)
	r.method(proto, "has", 1, weakMapHas)
	r.value(proto, symKey(symToStringTag), asciiValue("WeakMap"), propConfigurable)
	r.defineGlobal("WeakMap", objectValue(ctor))
}

// setupWeakSet installs WeakSet and WeakSet.prototype.
func setupWeakSet(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("WeakSet", 0, weakSetConstructor, proto)
	r.method(proto, "add", 1, weakSetAdd)
	r.method(proto, "delete", 1, weakSetDelete)
	r.method(proto, "has", 1, weakSetHas)
	r.value(proto, symKey(symToStringTag), asciiValue("WeakSet"), propConfigurable)
	r.defineGlobal("WeakSet", objectValue(ctor))
}

// canBeHeldWeakly is CanBeHeldWeakly: objects and unregistered symbols.
func canBeHeldWeakly(v Value) bool {
	return v.kind == KindObject || (v.kind == KindSymbol && !v.sym().registered)
}

// thisWeak returns the collection of this when it is a WeakMap (isMap) or WeakSet.
func thisWeak(vm *VM, this Value, isMap bool, method string) *collection {
	if o := this.asObject(); o != nil {
		if s, ok := o.slots.(*collSlot); ok && s.data.isMap == isMap &&
			((isMap && o.class == ClassWeakMap) || (!isMap && o.class == ClassWeakSet)) {
			return s.data
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return nil
}

// weakMapConstructor is new WeakMap(iterable).
func weakMapConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor WeakMap requires 'new'")
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "WeakMap.prototype", ClassWeakMap)
	data := newCollection(true)
	o.slots = &collSlot{data: data, weak: true}
	it := c.Arg(0)
	if it.IsNullish() {
		return objectValue(o)
	}
	adder := vm.getProp(o, strKey("set"))
	if !IsCallable(adder) {
		vm.throwTypeError("'%s' returned for property 'set' of object '#<WeakMap>' is not a function", vm.describeForError(adder))
	}
	vm.addEntriesFromIterable(objectValue(o), it, adder, func(k, v Value) { vm.Call(adder, objectValue(o), k, v) })
	return objectValue(o)
}

// weakMapGet is WeakMap.prototype.get.
func weakMapGet(vm *VM, c NativeCall) Value {
	v, _ := thisWeak(vm, c.This, true, "WeakMap.prototype.get").get(c.Arg(0))
	return v
}

// weakMapHas is WeakMap.prototype.has.
func weakMapHas(vm *VM, c NativeCall) Value {
	return Bool(thisWeak(vm, c.This, true, "WeakMap.prototype.has").has(c.Arg(0)))
}

// weakMapDelete is WeakMap.prototype.delete.
func weakMapDelete(vm *VM, c NativeCall) Value {
	return Bool(thisWeak(vm, c.This, true, "WeakMap.prototype.delete").remove(c.Arg(0)))
}

// weakMapSet is WeakMap.prototype.set.
func weakMapSet(vm *VM, c NativeCall) Value {
	data := thisWeak(vm, c.This, true, "WeakMap.prototype.set")
	if !canBeHeldWeakly(c.Arg(0)) {
		vm.throwTypeError("Invalid value used as weak map key")
	}
	data.set(vm, c.Arg(0), c.Arg(1))
	return c.This
}

// weakMapGetOrInsert is WeakMap.prototype.getOrInsert.
func weakMapGetOrInsert(vm *VM, c NativeCall) Value {
	data := thisWeak(vm, c.This, true, "WeakMap.prototype.getOrInsert")
	if !canBeHeldWeakly(c.Arg(0)) {
		vm.throwTypeError("Invalid value used as weak map key")
	}
	if v, ok := data.get(c.Arg(0)); ok {
		return v
	}
	data.set(vm, c.Arg(0), c.Arg(1))
	return c.Arg(1)
}

// weakMapGetOrInsertComputed is WeakMap.prototype.getOrInsertComputed.
func weakMapGetOrInsertComputed(vm *VM, c NativeCall) Value {
	data := thisWeak(vm, c.This, true, "WeakMap.prototype.getOrInsertComputed")
	if !canBeHeldWeakly(c.Arg(0)) {
		vm.throwTypeError("Invalid value used as weak map key")
	}
	fn := c.Arg(1)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	return data.getOrInsertComputed(vm, c.Arg(0), fn)
}

// weakSetConstructor is new WeakSet(iterable).
func weakSetConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor WeakSet requires 'new'")
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "WeakSet.prototype", ClassWeakSet)
	o.slots = &collSlot{data: newCollection(false), weak: true}
	it := c.Arg(0)
	if it.IsNullish() {
		return objectValue(o)
	}
	adder := vm.getProp(o, strKey("add"))
	if !IsCallable(adder) {
		vm.throwTypeError("'%s' returned for property 'add' of object '#<WeakSet>' is not a function", vm.describeForError(adder))
	}
	vm.forOf(it, func(v Value) bool {
		vm.Call(adder, objectValue(o), v)
		return true
	})
	return objectValue(o)
}

// weakSetAdd is WeakSet.prototype.add.
func weakSetAdd(vm *VM, c NativeCall) Value {
	data := thisWeak(vm, c.This, false, "WeakSet.prototype.add")
	if !canBeHeldWeakly(c.Arg(0)) {
		vm.throwTypeError("Invalid value used in weak set")
	}
	data.set(vm, c.Arg(0), undefinedValue)
	return c.This
}

// weakSetHas is WeakSet.prototype.has.
func weakSetHas(vm *VM, c NativeCall) Value {
	return Bool(thisWeak(vm, c.This, false, "WeakSet.prototype.has").has(c.Arg(0)))
}

// weakSetDelete is WeakSet.prototype.delete.
func weakSetDelete(vm *VM, c NativeCall) Value {
	return Bool(thisWeak(vm, c.This, false, "WeakSet.prototype.delete").remove(c.Arg(0)))
}

package interp

// The Object global: the constructor, its static functions and Object.prototype.

func init() { registerBuiltin("Object", 0, setupObject) }

func setupObject(r *Realm) {
	p := r.ObjectPrototype
	ctor := r.newConstructor("Object", 1, objectConstructor, p)
	r.ObjectConstructor = ctor
	statics := []struct {
		name   string
		length int
		fn     NativeFunc
	}{
		{"assign", 2, objectAssign},
		{"create", 2, objectCreate},
		{"defineProperties", 2, objectDefineProperties},
		{"defineProperty", 3, objectDefineProperty},
		{"entries", 1, objectEntries},
		{"freeze", 1, objectFreeze},
		{"fromEntries", 1, objectFromEntries},
		{"getOwnPropertyDescriptor", 2, objectGetOwnPropertyDescriptor},
		{"getOwnPropertyDescriptors", 1, objectGetOwnPropertyDescriptors},
		{"getOwnPropertyNames", 1, objectGetOwnPropertyNames},
		{"getOwnPropertySymbols", 1, objectGetOwnPropertySymbols},
		{"getPrototypeOf", 1, objectGetPrototypeOf},
		{"groupBy", 2, objectGroupBy},
		{"hasOwn", 2, objectHasOwn},
		{"is", 2, objectIs},
		{"isExtensible", 1, objectIsExtensible},
		{"isFrozen", 1, objectIsFrozen},
		{"isSealed", 1, objectIsSealed},
		{"keys", 1, objectKeys},
		{"preventExtensions", 1, objectPreventExtensions},
		{"seal", 1, objectSeal},
		{"setPrototypeOf", 2, objectSetPrototypeOf},
		{"values", 1, objectValues},
	}
	for _, s := range statics {
		r.method(ctor, s.name, s.length, s.fn)
	}
	r.method(p, "hasOwnProperty", 1, objectProtoHasOwnProperty)
	r.method(p, "isPrototypeOf", 1, objectProtoIsPrototypeOf)
	r.method(p, "propertyIsEnumerable", 1, objectProtoPropertyIsEnumerable)
	r.method(p, "toLocaleString", 0, objectProtoToLocaleString)
	r.method(p, "toString", 0, objectProtoToString)
	r.method(p, "valueOf", 0, objectProtoValueOf)
	r.method(p, "__defineGetter__", 2, objectProtoDefineGetter)
	r.method(p, "__defineSetter__", 2, objectProtoDefineSetter)
	r.method(p, "__lookupGetter__", 1, objectProtoLookupGetter)
	r.method(p, "__lookupSetter__", 1, objectProtoLookupSetter)
	protoKey := strKey("__proto__")
	get := r.newFunction("get Object.prototype.__proto__", "get __proto__", 0, objectProtoGetProto)
	set := r.newFunction("set Object.prototype.__proto__", "set __proto__", 1, objectProtoSetProto)
	p.props.add(protoKey, accessorProperty(get, set, propConfigurable))
	r.defineGlobal("Object", objectValue(ctor))
}

// objectConstructor is Object(value) / new Object(value).
func objectConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget != nil && c.NewTarget != c.Callee {
		return objectValue(vm.ordinaryCreateFromConstructor(c.NewTarget, "Object.prototype", ClassObject))
	}
	v := c.Arg(0)
	if v.IsNullish() {
		return vm.NewObject()
	}
	return objectValue(vm.toObject(v))
}

// objectAssign is Object.assign(target, ...sources).
func objectAssign(vm *VM, c NativeCall) Value {
	to := vm.toObject(c.Arg(0))
	for _, src := range c.Args[min(1, len(c.Args)):] {
		if src.IsNullish() {
			continue
		}
		from := vm.toObject(src)
		for _, k := range vm.ownPropertyKeys(from) {
			p, ok := vm.getOwnProperty(from, k)
			if !ok || !p.Enumerable {
				continue
			}
			vm.setProp(to, k, vm.getFrom(from, k, objectValue(from)))
		}
	}
	return objectValue(to)
}

// objectCreate is Object.create(proto, properties).
func objectCreate(vm *VM, c NativeCall) Value {
	proto := c.Arg(0)
	if proto.kind != KindObject && proto.kind != KindNull {
		vm.throwTypeError("Object prototype may only be an Object or null: %s", vm.describeForError(proto))
	}
	o := vm.newObject(proto.asObject(), ClassObject)
	if props := c.Arg(1); !props.IsUndefined() {
		vm.objectDefineProperties(o, props)
	}
	return objectValue(o)
}

// objectDefineProperties applies ObjectDefineProperties: all descriptors are read first.
func (vm *VM) objectDefineProperties(o *Object, props Value) {
	src := vm.toObject(props)
	type pending struct {
		key  PropertyKey
		desc PropertyDescriptor
	}
	var list []pending
	for _, k := range vm.ownPropertyKeys(src) {
		p, ok := vm.getOwnProperty(src, k)
		if !ok || !p.Enumerable {
			continue
		}
		list = append(list, pending{k, vm.toPropertyDescriptor(vm.getFrom(src, k, objectValue(src)))})
	}
	for _, p := range list {
		vm.definePropertyOrThrow(o, p.key, p.desc)
	}
}

// requireObjectArg throws a TypeError unless v is an object.
func (vm *VM) requireObjectArg(v Value, fn string) *Object {
	o := v.asObject()
	if o == nil {
		vm.throwTypeError("%s called on non-object", fn)
	}
	return o
}

func objectDefineProperties(vm *VM, c NativeCall) Value {
	o := vm.requireObjectArg(c.Arg(0), "Object.defineProperties")
	vm.objectDefineProperties(o, c.Arg(1))
	return c.Arg(0)
}

func objectDefineProperty(vm *VM, c NativeCall) Value {
	o := vm.requireObjectArg(c.Arg(0), "Object.defineProperty")
	key := vm.toPropertyKey(c.Arg(1))
	d := vm.toPropertyDescriptor(c.Arg(2))
	vm.definePropertyOrThrow(o, key, d)
	return c.Arg(0)
}

// enumerableOwn is EnumerableOwnProperties for keys, values or entries (string keys only).
func (vm *VM) enumerableOwn(o *Object, kind arrayIterKind) []Value {
	if kind == iterKeys && o.class == ClassObject {
		// no code runs to list an ordinary object's keys: they are read off its storage
		if keys, ok := ordinaryEnumerableOwnKeys(o); ok {
			vm.chargeAhead(int64(o.props.len()) * 40) // as ownPropertyKeys charges
			out := make([]Value, len(keys))
			for i, k := range keys {
				out[i] = vm.keyValue(k)
			}
			return out
		}
	}
	keys := vm.ownPropertyKeys(o)
	out := make([]Value, 0, len(keys))
	for _, k := range keys {
		if k.sym != nil {
			continue
		}
		p, ok := vm.getOwnProperty(o, k)
		if !ok || !p.Enumerable {
			continue
		}
		if kind == iterKeys {
			out = append(out, vm.keyValue(k))
			continue
		}
		v := vm.getFrom(o, k, objectValue(o))
		if kind == iterValues {
			out = append(out, v)
			continue
		}
		out = append(out, vm.newArrayValue([]Value{k.toValue(), v}))
	}
	return out
}

func objectKeys(vm *VM, c NativeCall) Value {
	return vm.newArrayValue(vm.enumerableOwn(vm.toObject(c.Arg(0)), iterKeys))
}

func objectValues(vm *VM, c NativeCall) Value {
	return vm.newArrayValue(vm.enumerableOwn(vm.toObject(c.Arg(0)), iterValues))
}

func objectEntries(vm *VM, c NativeCall) Value {
	return vm.newArrayValue(vm.enumerableOwn(vm.toObject(c.Arg(0)), iterEntries))
}

func objectFreeze(vm *VM, c NativeCall) Value {
	if o := c.Arg(0).asObject(); o != nil {
		if o.class == ClassTypedArray {
			if n, _ := o.slots.(*typedArray).length(); n > 0 {
				o.preventExtensions() // as SetIntegrityLevel does before defining the elements
				vm.throwTypeError("Cannot freeze array buffer views with elements")
			}
		}
		vm.setIntegrity(o, true)
	}
	return c.Arg(0)
}

func objectSeal(vm *VM, c NativeCall) Value {
	if o := c.Arg(0).asObject(); o != nil {
		if o.class == ClassTypedArray {
			if n, _ := o.slots.(*typedArray).length(); n > 0 {
				o.preventExtensions() // as SetIntegrityLevel does before defining the elements
				vm.throwTypeError("Cannot seal array buffer views with elements")
			}
		}
		vm.setIntegrity(o, false)
	}
	return c.Arg(0)
}

func objectPreventExtensions(vm *VM, c NativeCall) Value {
	if o := c.Arg(0).asObject(); o != nil && !vm.preventExtensions(o) {
		vm.throwTypeError("'preventExtensions' on proxy: trap returned falsish")
	}
	return c.Arg(0)
}

func objectIsFrozen(vm *VM, c NativeCall) Value {
	o := c.Arg(0).asObject()
	return Bool(o == nil || vm.testIntegrity(o, true))
}

func objectIsSealed(vm *VM, c NativeCall) Value {
	o := c.Arg(0).asObject()
	return Bool(o == nil || vm.testIntegrity(o, false))
}

func objectIsExtensible(vm *VM, c NativeCall) Value {
	o := c.Arg(0).asObject()
	return Bool(o != nil && vm.isExtensible(o))
}

// objectFromEntries is Object.fromEntries(iterable).
func objectFromEntries(vm *VM, c NativeCall) Value {
	it := c.Arg(0)
	if it.IsNullish() {
		vm.throwTypeError("%s is not iterable", it.String())
	}
	o := vm.newPlainObject()
	vm.forOf(it, func(entry Value) bool {
		e := entry.asObject()
		if e == nil {
			vm.throwTypeError("Iterator value %s is not an entry object", vm.describeForError(entry))
		}
		k := vm.getIndex(e, 0)
		v := vm.getIndex(e, 1)
		vm.createDataPropertyOrThrow(o, vm.toPropertyKey(k), v)
		return true
	})
	return objectValue(o)
}

func objectGetOwnPropertyDescriptor(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.Arg(0))
	key := vm.toPropertyKey(c.Arg(1))
	d, ok := vm.getOwnProperty(o, key)
	if !ok {
		return undefinedValue
	}
	return vm.fromPropertyDescriptor(d)
}

func objectGetOwnPropertyDescriptors(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.Arg(0))
	out := vm.newPlainObject()
	for _, k := range vm.ownPropertyKeys(o) {
		if d, ok := vm.getOwnProperty(o, k); ok {
			vm.createDataProperty(out, k, vm.fromPropertyDescriptor(d))
		}
	}
	return objectValue(out)
}

func objectGetOwnPropertyNames(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.Arg(0))
	var out []Value
	for _, k := range vm.ownPropertyKeys(o) {
		if k.sym == nil {
			out = append(out, k.toValue())
		}
	}
	return vm.newArrayValue(out)
}

func objectGetOwnPropertySymbols(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.Arg(0))
	var out []Value
	for _, k := range vm.ownPropertyKeys(o) {
		if k.sym != nil {
			out = append(out, k.toValue())
		}
	}
	return vm.newArrayValue(out)
}

func objectGetPrototypeOf(vm *VM, c NativeCall) Value {
	return objectValue(vm.getPrototypeOf(vm.toObject(c.Arg(0))))
}

func objectSetPrototypeOf(vm *VM, c NativeCall) Value {
	v, proto := c.Arg(0), c.Arg(1)
	if v.IsNullish() {
		vm.throwTypeError("Object.setPrototypeOf called on null or undefined")
	}
	if proto.kind != KindObject && proto.kind != KindNull {
		vm.throwTypeError("Object prototype may only be an Object or null: %s", vm.describeForError(proto))
	}
	o := v.asObject()
	if o == nil {
		return v
	}
	if !vm.setPrototypeOf(o, proto.asObject()) {
		if o.class == ClassProxy {
			vm.throwTypeError("'setPrototypeOf' on proxy: trap returned falsish for property 'undefined'")
		}
		if o == vm.realm.ObjectPrototype {
			vm.throwTypeError("Immutable prototype object 'Object.prototype' cannot have their prototype set")
		}
		if !o.extensible() {
			vm.throwTypeError("%s is not extensible", vm.describeObject(v))
		}
		vm.throwTypeError("Cyclic __proto__ value")
	}
	return v
}

// objectGroupBy is Object.groupBy(items, callback).
func objectGroupBy(vm *VM, c NativeCall) Value {
	items, fn := c.Arg(0), c.Arg(1)
	if items.IsNullish() {
		vm.throwTypeError("%s is not iterable", items.String())
	}
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	out := vm.newObject(nil, ClassObject)
	var order []PropertyKey
	groups := map[PropertyKey][]Value{}
	it := vm.getIterator(items)
	k := 0
	vm.iterate(it, func(v Value) bool {
		key := vm.toPropertyKey(vm.Call(fn, undefinedValue, v, intValue(k)))
		k++
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], v)
		return true
	})
	for _, key := range order {
		vm.createDataProperty(out, key, vm.newArrayValue(groups[key]))
	}
	return objectValue(out)
}

func objectHasOwn(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.Arg(0))
	return Bool(vm.hasOwnProperty(o, vm.toPropertyKey(c.Arg(1))))
}

func objectIs(vm *VM, c NativeCall) Value { return Bool(SameValue(c.Arg(0), c.Arg(1))) }

func objectProtoHasOwnProperty(vm *VM, c NativeCall) Value {
	key := vm.toPropertyKey(c.Arg(0))
	return Bool(vm.hasOwnProperty(vm.toObject(c.This), key))
}

func objectProtoIsPrototypeOf(vm *VM, c NativeCall) Value {
	v := c.Arg(0).asObject()
	if v == nil {
		return falseValue
	}
	o := vm.toObject(c.This)
	for q := vm.getPrototypeOf(v); q != nil; q = vm.getPrototypeOf(q) {
		if q == o {
			return trueValue
		}
	}
	return falseValue
}

func objectProtoPropertyIsEnumerable(vm *VM, c NativeCall) Value {
	key := vm.toPropertyKey(c.Arg(0))
	p, ok := vm.getOwnProperty(vm.toObject(c.This), key)
	return Bool(ok && p.Enumerable)
}

func objectProtoToLocaleString(vm *VM, c NativeCall) Value {
	return vm.invoke(c.This, keyToString)
}

// builtinTag returns the tag Object.prototype.toString uses before @@toStringTag.
func builtinTag(o *Object) string {
	switch o.class {
	case ClassArray, ClassFunction, ClassError, ClassBoolean, ClassNumber, ClassString,
		ClassDate, ClassRegExp, ClassArguments:
		return o.class.String()
	}
	return "Object"
}

// objectProtoToString is Object.prototype.toString: "[object Tag]".
func objectProtoToString(vm *VM, c NativeCall) Value {
	switch c.This.kind {
	case KindUndefined:
		return asciiValue("[object Undefined]")
	case KindNull:
		return asciiValue("[object Null]")
	}
	o := vm.toObject(c.This)
	tag := builtinTag(o)
	if o.class == ClassProxy {
		tag = vm.proxyBuiltinTag(o)
	}
	if t := vm.getProp(o, symKey(symToStringTag)); t.kind == KindString {
		return stringValue(concatStrings(concatStrings(newASCII("[object "), t.str()), newASCII("]")))
	}
	return asciiValue("[object " + tag + "]")
}

func objectProtoValueOf(vm *VM, c NativeCall) Value { return objectValue(vm.toObject(c.This)) }

func objectProtoGetProto(vm *VM, c NativeCall) Value {
	return objectValue(vm.getPrototypeOf(vm.toObject(c.This)))
}

func objectProtoSetProto(vm *VM, c NativeCall) Value {
	if c.This.IsNullish() {
		vm.throwTypeError("Object.prototype.__proto__ called on null or undefined")
	}
	proto := c.Arg(0)
	o := c.This.asObject()
	if (proto.kind != KindObject && proto.kind != KindNull) || o == nil {
		return undefinedValue
	}
	if !vm.setPrototypeOf(o, proto.asObject()) {
		if o.class == ClassProxy {
			vm.throwTypeError("'setPrototypeOf' on proxy: trap returned falsish for property 'undefined'")
		}
		if o == vm.realm.ObjectPrototype {
			vm.throwTypeError("Immutable prototype object 'Object.prototype' cannot have their prototype set")
		}
		vm.throwTypeError("Cyclic __proto__ value")
	}
	return undefinedValue
}

func objectProtoDefineGetter(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.This)
	if !IsCallable(c.Arg(1)) {
		vm.throwTypeError("Object.prototype.__defineGetter__: Expecting function")
	}
	vm.definePropertyOrThrow(o, vm.toPropertyKey(c.Arg(0)), PropertyDescriptor{Get: c.Arg(1), HasGet: true,
		Enumerable: true, HasEnumerable: true, Configurable: true, HasConfigurable: true})
	return undefinedValue
}

func objectProtoDefineSetter(vm *VM, c NativeCall) Value {
	o := vm.toObject(c.This)
	if !IsCallable(c.Arg(1)) {
		vm.throwTypeError("Object.prototype.__defineSetter__: Expecting function")
	}
	vm.definePropertyOrThrow(o, vm.toPropertyKey(c.Arg(0)), PropertyDescriptor{Set: c.Arg(1), HasSet: true,
		Enumerable: true, HasEnumerable: true, Configurable: true, HasConfigurable: true})
	return undefinedValue
}

func (vm *VM) lookupAccessor(c NativeCall, setter bool) Value {
	o := vm.toObject(c.This)
	key := vm.toPropertyKey(c.Arg(0))
	for ; o != nil; o = vm.getPrototypeOf(o) {
		if p, ok := vm.getOwnProperty(o, key); ok {
			if !p.isAccessor() {
				return undefinedValue
			}
			if setter {
				return p.Set
			}
			return p.Get
		}
	}
	return undefinedValue
}

func objectProtoLookupGetter(vm *VM, c NativeCall) Value { return vm.lookupAccessor(c, false) }

func objectProtoLookupSetter(vm *VM, c NativeCall) Value { return vm.lookupAccessor(c, true) }

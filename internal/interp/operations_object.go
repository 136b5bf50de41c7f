package interp

import "math"

// getFrom is [[Get]] on o with the given receiver: walks the prototype chain and runs getters.
// Objects whose own properties all live in the property map (every class but String
// wrappers, and arrays for keys that cannot be an index or "length") are looked up directly.
func (vm *VM) getFrom(o *Object, key PropertyKey, receiver Value) Value {
	return vm.getFromHashed(o, key, 0, receiver)
}

// getFromHashed is getFrom with the key's hash, or 0 (see propertyMap.findHashed): the walk
// hashes the key at most once.
func (vm *VM) getFromHashed(o *Object, key PropertyKey, h uint64, receiver Value) Value {
	plain := !key.mayBeIndexOrLength()
	for ; o != nil; o = o.proto {
		if o.class != ClassString && o.class != ClassTypedArray && (plain || o.class != ClassArray) {
			var i int
			if i, h = o.props.findHashed(key, h); i >= 0 {
				p := &o.props.props[i] // read only: shared storage stays shared
				if p.flags&propAccessor == 0 {
					return o.dataValue(p.value)
				}
				if p.getter() == nil {
					return undefinedValue
				}
				return vm.callObject(p.getter(), receiver, nil, nil)
			}
			if o.class == ClassProxy {
				return vm.proxyGet(o, key, receiver)
			}
			continue
		}
		if o.class == ClassTypedArray {
			if idx, ok := canonicalNumericKey(key); ok {
				return typedArrayGet(o, idx) // no prototype walk for numeric keys
			}
		}
		if p, ok := o.getOwn(key); ok {
			if !p.isAccessor() {
				return p.value
			}
			if p.getter() == nil {
				return undefinedValue
			}
			return vm.callObject(p.getter(), receiver, nil, nil)
		}
	}
	return undefinedValue
}

// getV is the ECMAScript GetV: [[Get]] on any value (primitives use their prototype).
func (vm *VM) getV(v Value, key PropertyKey) Value { return vm.getVHashed(v, key, 0) }

// getVHashed is getV with the key's hash, or 0 (see propertyMap.findHashed).
func (vm *VM) getVHashed(v Value, key PropertyKey, h uint64) Value {
	switch v.kind {
	case KindObject:
		return vm.getFromHashed(v.obj(), key, h, v)
	case KindString:
		s := v.str()
		if key.mayBeIndexOrLength() {
			if key == keyLength {
				return intValue(s.Len())
			}
			if idx, ok := key.arrayIndex(); ok && int64(idx) < int64(s.Len()) {
				return stringValue(s.substring(int(idx), int(idx)+1))
			}
		}
		return vm.getFromHashed(vm.realm.primitiveProto(protoString), key, h, v)
	case KindNumber:
		return vm.getFromHashed(vm.realm.primitiveProto(protoNumber), key, h, v)
	case KindBool:
		return vm.getFromHashed(vm.realm.primitiveProto(protoBoolean), key, h, v)
	case KindSymbol:
		return vm.getFrom(vm.realm.Intrinsic("Symbol.prototype"), key, v)
	case KindBigInt:
		return vm.getFrom(vm.realm.Intrinsic("BigInt.prototype"), key, v)
	}
	vm.throwNullishRead(v, key)
	return undefinedValue
}

// getProp is [[Get]] on an object value by key.
func (vm *VM) getProp(o *Object, key PropertyKey) Value { return vm.getFrom(o, key, objectValue(o)) }

// Get reads property key (UTF-8 name) of an object or primitive (embedding API).
func (vm *VM) Get(obj Value, key string) (v Value, err error) {
	defer vm.catchException(&err)
	return vm.getV(obj, strKey(string(newStringFromGo(key).wtf8()))), nil
}

// Set creates or overwrites an own data property (CreateDataProperty semantics; embedding API).
func (vm *VM) Set(obj Value, key string, v Value) (err error) {
	defer vm.catchException(&err)
	o := obj.asObject()
	if o == nil {
		vm.throwTypeError("Set on a non-object")
	}
	vm.createDataPropertyOrThrow(o, strKey(newStringFromGo(key).wtf8()), v)
	return nil
}

// catchException turns a JavaScript exception panic into an error (for API entry points).
func (vm *VM) catchException(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*Exception); ok {
			*err = e
			return
		}
		panic(r)
	}
}

// getMethod is the ECMAScript GetMethod: undefined when absent; TypeError when not callable.
func (vm *VM) getMethod(v Value, key PropertyKey) Value {
	f := vm.getV(v, key)
	if f.IsNullish() {
		return undefinedValue
	}
	if f.kind != KindObject || !f.obj().isCallable() {
		vm.throwTypeError("%s is not a function", key)
	}
	return f
}

// invoke calls the method key of v with args.
func (vm *VM) invoke(v Value, key PropertyKey, args ...Value) Value {
	return vm.Call(vm.getV(v, key), v, args...)
}

// setOn is OrdinarySet: [[Set]] of key on o with receiver; returns false when refused
// (callers in strict code throw a TypeError).
func (vm *VM) setOn(o *Object, key PropertyKey, v Value, receiver Value) bool {
	return vm.setOnHashed(o, key, 0, v, receiver)
}

// setOnHashed is setOn with the key's hash, or 0 (see propertyMap.findHashed).
func (vm *VM) setOnHashed(o *Object, key PropertyKey, h uint64, v Value, receiver Value) bool {
	// ownAbsent: the receiver is o, an ordinary object found without the key, and no code has
	// run since (that could have added it)
	ownAbsent := false
	q := o
	// fast path: own writable data property on an ordinary receiver
	if receiver.kind == KindObject && receiver.obj() == o && (o.class == ClassObject || o.class == ClassFunction) {
		var i int
		if i, h = o.props.findHashed(key, h); i >= 0 {
			if p := o.props.at(i); p.flags&(propAccessor|propWritable) == propWritable {
				p.value = v
				return true
			}
		} else {
			ownAbsent = true
			q = o.proto
		}
	}
	for ; q != nil; q = q.proto {
		var p Property
		var ok bool
		if q.class == ClassObject || q.class == ClassFunction {
			var i int
			if i, h = q.props.findHashed(key, h); i >= 0 {
				p, ok = q.props.props[i], true // read only: shared storage stays shared
			}
		} else if q.class == ClassProxy {
			return vm.proxySet(q, key, v, receiver)
		} else if q.class == ClassTypedArray && vm.typedArraySetStops(q, key, v, receiver) {
			return true
		} else {
			ownAbsent = false // getOwn and typedArraySetStops may run code
			p, ok = q.getOwn(key)
		}
		if !ok {
			continue
		}
		if p.isAccessor() {
			if p.setter() == nil {
				return false
			}
			vm.callObject(p.setter(), receiver, []Value{v}, nil)
			return true
		}
		if !p.writable() {
			return false
		}
		break
	}
	r := receiver.asObject()
	if r == nil {
		return false
	}
	if r == o && (r.class == ClassObject || r.class == ClassFunction) && (ownAbsent || !r.props.has(key)) {
		// the chain walk found no own property on the receiver: create it
		if !r.extensible() {
			return false
		}
		vm.chargeProperty(r)
		r.props.addHashed(key, h, Property{value: v, flags: propDefault})
		return true
	}
	if r.class == ClassProxy {
		return vm.setOnProxyReceiver(r, key, v)
	}
	if r.class == ClassTypedArray {
		if _, ok := canonicalNumericKey(key); ok {
			return vm.defineOwnProperty(r, key, PropertyDescriptor{Value: v, HasValue: true})
		}
	}
	if existing, ok := r.getOwn(key); ok {
		if existing.isAccessor() || !existing.writable() {
			return false
		}
		if r.class == ClassArray && key == keyLength {
			return vm.arraySetLength(r, v)
		}
		return r.defineOwn(key, PropertyDescriptor{Value: v, HasValue: true})
	}
	if idx, ok := key.arrayIndex(); ok && r.class == ClassArray && int(idx) == len(r.elems) {
		vm.reserveElems(r, 1) // appending to dense storage
	} else {
		vm.chargeProperty(r)
	}
	return r.defineOwn(key, dataDescriptor(v, propDefault))
}

// setProp is [[Set]] with Throw=true (strict mode assignment).
func (vm *VM) setProp(o *Object, key PropertyKey, v Value) {
	if !vm.setOn(o, key, v, objectValue(o)) {
		vm.throwSetRefused(o, key)
	}
}

// putValue assigns to a property of any value (strict: primitives' setters run, otherwise a
// TypeError).
func (vm *VM) putValue(base Value, key PropertyKey, v Value) {
	switch base.kind {
	case KindObject:
		vm.setProp(base.obj(), key, v)
		return
	case KindUndefined, KindNull:
		vm.throwTypeError("Cannot set properties of %s (setting '%s')", base.kind, key)
	}
	proto := vm.toObject(base)
	if !vm.setOn(proto, key, v, base) {
		// V8 names the primitive; a string's own index or length is read-only
		if base.kind == KindString {
			if i, ok := key.arrayIndex(); ok && int64(i) < int64(base.str().Len()) || key == keyLength {
				vm.throwTypeError("Cannot assign to read only property '%s' of string '%s'", key, base.String())
			}
		}
		vm.throwTypeError("Cannot create property '%s' on %s '%s'", key, base.typeOf(), base.String())
	}
}

// arraySetLength assigns to an array's length (ArraySetLength with a value).
func (vm *VM) arraySetLength(a *Object, v Value) bool {
	n := vm.toNumber(v)
	u := vm.toUint32(v)
	if float64(u) != n || (u > maxArrayLength && u > a.length) {
		vm.throwRangeError("Invalid array length")
	}
	if a.flags&objLengthReadOnly != 0 {
		return u == a.length
	}
	return a.setArrayLength(u)
}

// defineOwnProperty is [[DefineOwnProperty]]; it returns false when refused. For arrays a
// length value is validated (RangeError) first.
func (vm *VM) defineOwnProperty(o *Object, key PropertyKey, d PropertyDescriptor) bool {
	if o.class == ClassProxy {
		return vm.proxyDefineOwn(o, key, d)
	}
	if o.class == ClassArray && key == keyLength && d.HasValue {
		n := vm.toNumber(d.Value)
		u := vm.toUint32(d.Value)
		if float64(u) != n || (u > maxArrayLength && u > o.length) {
			vm.throwRangeError("Invalid array length")
		}
		d.Value = Number(float64(u))
	}
	if o.class == ClassTypedArray {
		if idx, ok := canonicalNumericKey(key); ok {
			return vm.typedArrayDefine(o, idx, d)
		}
	}
	return o.defineOwn(key, d)
}

// definePropertyOrThrow is [[DefineOwnProperty]] that throws a TypeError when refused.
func (vm *VM) definePropertyOrThrow(o *Object, key PropertyKey, d PropertyDescriptor) {
	if !vm.defineOwnProperty(o, key, d) {
		if o.class == ClassProxy {
			vm.throwTypeError("'defineProperty' on proxy: trap returned falsish for property '%s'", key)
		}
		if _, exists := o.getOwn(key); !exists && !o.extensible() {
			vm.throwTypeError("Cannot define property %s, object is not extensible", key)
		}
		vm.throwTypeError("Cannot redefine property: %s", key)
	}
}

// createDataProperty defines a default data property; false when refused.
func (vm *VM) createDataProperty(o *Object, key PropertyKey, v Value) bool {
	if o.class == ClassProxy {
		return vm.proxyDefineOwn(o, key, dataDescriptor(v, propDefault))
	}
	vm.chargeProperty(o)
	return o.defineOwn(key, dataDescriptor(v, propDefault))
}

// createDataPropertyOrThrow is CreateDataProperty that throws a TypeError when refused.
func (vm *VM) createDataPropertyOrThrow(o *Object, key PropertyKey, v Value) {
	vm.createDataPropertyHashed(o, key, 0, v)
}

// createDataPropertyHashed is createDataPropertyOrThrow with the key's hash, or 0 (see
// propertyMap.findHashed).
func (vm *VM) createDataPropertyHashed(o *Object, key PropertyKey, h uint64, v Value) {
	if o.class == ClassProxy {
		vm.definePropertyOrThrow(o, key, dataDescriptor(v, propDefault))
		return
	}
	vm.chargeProperty(o)
	if o.class == ClassObject && !o.lazyMarked() {
		// an ordinary object: a new key is added, and an own property with the default
		// attributes takes the value, without building a descriptor
		var i int
		if i, h = o.props.findHashed(key, h); i < 0 {
			if !o.extensible() {
				vm.throwTypeError("Cannot define property %s, object is not extensible", key)
			}
			o.props.addHashed(key, h, Property{value: v, flags: propDefault})
			return
		} else if p := o.props.at(i); p.flags == propDefault {
			p.value = v
			return
		}
	}
	if !o.defineOwn(key, dataDescriptor(v, propDefault)) {
		vm.throwTypeError("Cannot define property %s, object is not extensible", key)
	}
}

// hasProperty is [[HasProperty]] along the prototype chain.
func (vm *VM) hasProperty(o *Object, key PropertyKey) bool {
	for ; o != nil; o = o.proto {
		if o.class == ClassProxy {
			return vm.proxyHas(o, key)
		}
		if o.class == ClassTypedArray {
			if idx, ok := canonicalNumericKey(key); ok {
				return o.slots.(*typedArray).validIndex(idx) // no prototype walk
			}
		}
		if o.hasOwn(key) {
			return true
		}
	}
	return false
}

// hasOwnProperty reports whether o has own property key.
func (vm *VM) hasOwnProperty(o *Object, key PropertyKey) bool {
	if o.class == ClassProxy {
		_, ok := vm.proxyGetOwnProperty(o, key)
		return ok
	}
	return o.hasOwn(key)
}

// deletePropertyOrThrow deletes key; strict mode: TypeError when non-configurable.
func (vm *VM) deletePropertyOrThrow(o *Object, key PropertyKey) {
	if !vm.deleteProperty(o, key) {
		if o.class == ClassProxy {
			vm.throwTypeError("'deleteProperty' on proxy: trap returned falsish for property '%s'", key)
		}
		vm.throwTypeError("Cannot delete property '%s' of %s", key, vm.describeObject(objectValue(o)))
	}
}

// ownPropertyKeys is [[OwnPropertyKeys]] (integer keys ascending, strings, symbols). The
// keys are charged to the heap budget; a String wrapper too long to list (more keys than
// the dense array cap) throws a RangeError instead of allocating them.
func (vm *VM) ownPropertyKeys(o *Object) []PropertyKey {
	if o.class == ClassProxy {
		return vm.proxyOwnKeys(o)
	}
	n := int64(o.props.len())
	switch o.class {
	case ClassArray:
		n += int64(len(o.elems))
	case ClassString:
		n += int64(o.slots.(Value).str().Len())
	case ClassTypedArray:
		l, _ := o.slots.(*typedArray).length()
		n += int64(l)
	}
	if n > maxDenseLength {
		vm.throwRangeError("Too many properties to enumerate")
	}
	vm.chargeAhead(n * 40)
	return o.ownKeys()
}

// getOwnProperty is [[GetOwnProperty]] as a descriptor; ok is false when absent.
func (vm *VM) getOwnProperty(o *Object, key PropertyKey) (PropertyDescriptor, bool) {
	if o.class == ClassProxy {
		return vm.proxyGetOwnProperty(o, key)
	}
	p, ok := o.getOwn(key)
	if !ok {
		return PropertyDescriptor{}, false
	}
	return descriptorOf(&p), true
}

// lengthOfArrayLike is ToLength(Get(o, "length")).
func (vm *VM) lengthOfArrayLike(o *Object) int64 {
	if o.class == ClassArray {
		return int64(o.length)
	}
	return vm.toLength(vm.getProp(o, keyLength))
}

// IsCallable reports whether v is a callable object.
func IsCallable(v Value) bool { return v.kind == KindObject && v.obj().isCallable() }

// IsConstructor reports whether v is an object with [[Construct]].
func IsConstructor(v Value) bool { return v.kind == KindObject && v.obj().isConstructor() }

// IsArray reports whether v is an array (not looking through proxies; vm.isArray does).
func IsArray(v Value) bool { return v.kind == KindObject && v.obj().class == ClassArray }

// CreateArrayFromList makes an array of the values (copied).
func (vm *VM) CreateArrayFromList(vals []Value) Value {
	return vm.newArrayValue(append([]Value(nil), vals...))
}

// createListFromArrayLike reads elements 0..length-1 of an array-like object.
func (vm *VM) createListFromArrayLike(v Value) []Value {
	o := v.asObject()
	if o == nil {
		vm.throwTypeError("CreateListFromArrayLike called on non-object")
	}
	n := vm.lengthOfArrayLike(o)
	if n > maxDenseLength {
		vm.throwRangeError("Too many arguments in function call")
	}
	out := make([]Value, n)
	for i := int64(0); i < n; i++ {
		out[i] = vm.getProp(o, indexKey(uint32(i)))
	}
	return out
}

// getIndex reads element i of any object (fast for dense arrays).
func (vm *VM) getIndex(o *Object, i int64) Value {
	if o.class == ClassArray && i >= 0 && i < int64(len(o.elems)) && !o.elems[i].isHole() {
		return o.elems[i]
	}
	return vm.getProp(o, vm.indexToKey(i))
}

// indexToKey converts a non-negative integer index (possibly >= 2^32-1) to a key.
func (vm *VM) indexToKey(i int64) PropertyKey {
	if i >= 0 && i < math.MaxUint32 {
		return indexKey(uint32(i))
	}
	return strKey(numberToString(float64(i)))
}

// ordinaryHasInstance is the default instanceof: walks o's prototype chain for C.prototype.
func (vm *VM) ordinaryHasInstance(c Value, o Value) bool {
	if !IsCallable(c) {
		return false
	}
	// bound functions delegate to their target (resolved by the execution engine's slots)
	if b, ok := c.obj().slots.(interface{ boundTarget() *Object }); ok {
		return vm.instanceOf(o, objectValue(b.boundTarget()))
	}
	obj := o.asObject()
	if obj == nil {
		return false
	}
	p := vm.getProp(c.obj(), keyPrototype)
	if p.kind != KindObject {
		vm.throwTypeError("Function has non-object prototype '%s' in instanceof check", p.String())
	}
	for q := vm.getPrototypeOf(obj); q != nil; q = vm.getPrototypeOf(q) {
		if q == p.obj() {
			return true
		}
	}
	return false
}

// instanceOf is the instanceof operator (Symbol.hasInstance, then OrdinaryHasInstance).
func (vm *VM) instanceOf(o Value, c Value) bool {
	if c.kind != KindObject {
		vm.throwTypeError("Right-hand side of 'instanceof' is not an object")
	}
	h := vm.getMethod(c, symKey(symHasInstance))
	if !h.IsUndefined() {
		return ToBoolean(vm.Call(h, c, o))
	}
	if !IsCallable(c) {
		vm.throwTypeError("Right-hand side of 'instanceof' is not callable")
	}
	return vm.ordinaryHasInstance(c, o)
}

// speciesConstructor returns o.constructor[Symbol.species], or def when undefined.
func (vm *VM) speciesConstructor(o *Object, def Value) Value {
	c := vm.getProp(o, keyConstructor)
	if c.IsUndefined() {
		return def
	}
	if c.kind != KindObject {
		vm.throwTypeError("object.constructor is not an object")
	}
	s := vm.getProp(c.obj(), symKey(symSpecies))
	if s.IsNullish() {
		return def
	}
	if IsConstructor(s) {
		return s
	}
	vm.throwTypeError("object.constructor[Symbol.species] is not a constructor")
	return undefinedValue
}

// getPrototypeFromConstructor returns newTarget.prototype when it is an object, else the
// named intrinsic default ("Map.prototype").
func (vm *VM) getPrototypeFromConstructor(newTarget *Object, defaultProto string) *Object {
	if newTarget != nil {
		if p := vm.getProp(newTarget, keyPrototype); p.kind == KindObject {
			return p.obj()
		}
		if newTarget.class == ClassProxy {
			vm.proxyFunctionRealm(newTarget)
		}
	}
	return vm.realm.Intrinsic(defaultProto)
}

// ordinaryCreateFromConstructor creates an object of class whose prototype comes from
// newTarget (for subclassing), falling back to the named intrinsic.
func (vm *VM) ordinaryCreateFromConstructor(newTarget *Object, defaultProto string, class Class) *Object {
	return vm.newObject(vm.getPrototypeFromConstructor(newTarget, defaultProto), class)
}

// toPropertyDescriptor converts a descriptor object (Object.defineProperty's argument).
func (vm *VM) toPropertyDescriptor(v Value) PropertyDescriptor {
	o := v.asObject()
	if o == nil {
		vm.throwTypeError("Property description must be an object: %s", v.String())
	}
	var d PropertyDescriptor
	if vm.hasProperty(o, keyEnumerable) {
		d.HasEnumerable, d.Enumerable = true, ToBoolean(vm.getProp(o, keyEnumerable))
	}
	if vm.hasProperty(o, keyConfigurable) {
		d.HasConfigurable, d.Configurable = true, ToBoolean(vm.getProp(o, keyConfigurable))
	}
	if vm.hasProperty(o, keyValue) {
		d.HasValue, d.Value = true, vm.getProp(o, keyValue)
	}
	if vm.hasProperty(o, keyWritable) {
		d.HasWritable, d.Writable = true, ToBoolean(vm.getProp(o, keyWritable))
	}
	if vm.hasProperty(o, keyGet) {
		d.HasGet, d.Get = true, vm.getProp(o, keyGet)
		if !d.Get.IsUndefined() && !IsCallable(d.Get) {
			vm.throwTypeError("Getter must be a function: %s", vm.describeForError(d.Get))
		}
	}
	if vm.hasProperty(o, keySet) {
		d.HasSet, d.Set = true, vm.getProp(o, keySet)
		if !d.Set.IsUndefined() && !IsCallable(d.Set) {
			vm.throwTypeError("Setter must be a function: %s", vm.describeForError(d.Set))
		}
	}
	if d.isAccessor() && d.isData() {
		vm.throwTypeError("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute, %s", vm.describeObject(v))
	}
	return d
}

// fromPropertyDescriptor converts a descriptor to an object (getOwnPropertyDescriptor).
func (vm *VM) fromPropertyDescriptor(d PropertyDescriptor) Value {
	o := vm.newPlainObject()
	if d.HasValue {
		vm.createDataProperty(o, keyValue, d.Value)
	}
	if d.HasWritable {
		vm.createDataProperty(o, keyWritable, Bool(d.Writable))
	}
	if d.HasGet {
		vm.createDataProperty(o, keyGet, d.Get)
	}
	if d.HasSet {
		vm.createDataProperty(o, keySet, d.Set)
	}
	if d.HasEnumerable {
		vm.createDataProperty(o, keyEnumerable, Bool(d.Enumerable))
	}
	if d.HasConfigurable {
		vm.createDataProperty(o, keyConfigurable, Bool(d.Configurable))
	}
	return objectValue(o)
}

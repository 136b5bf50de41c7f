package interp

// The internal methods of proxy objects (ECMA-262 10.5): each looks up its trap on the
// handler, calls it, and checks the invariants that keep a proxy consistent with its target;
// without a trap it forwards to the target through the generic operation (which may be
// another proxy). Errors are V8's.
//
// Every method counts as a nested native call (vm.nativeDepth): a chain of proxies whose
// targets are proxies, or traps that re-enter the proxy, end with V8's RangeError instead of
// exhausting the Go stack.

// proxyEnter checks the proxy's revocation for operation op and counts the nesting; the
// caller must defer vm.proxyLeave().
func (vm *VM) proxyEnter(p *Object, op string) *proxySlots {
	s := p.slots.(*proxySlots)
	if s.handler == nil {
		vm.throwTypeError("Cannot perform '%s' on a proxy that has been revoked", op)
	}
	vm.nativeDepth++
	if vm.nativeDepth > maxNativeDepth {
		vm.nativeDepth--
		vm.throwRangeError("Maximum call stack size exceeded")
	}
	return s
}

// proxyLeave ends what proxyEnter began.
func (vm *VM) proxyLeave() { vm.nativeDepth-- }

// proxyTrap is GetMethod(handler, name) with V8's message for a trap that is not callable.
func (vm *VM) proxyTrap(s *proxySlots, name string) Value {
	f := vm.getFrom(s.handler, strKey(name), objectValue(s.handler))
	if f.IsNullish() {
		return undefinedValue
	}
	if !IsCallable(f) {
		vm.throwTypeError("'%s' returned for property '%s' of object '%s' is not a function", proxyShow(f), name, objectTag(s.handler))
	}
	return f
}

// proxyShow renders a value in an invariant message without calling JavaScript.
func proxyShow(v Value) string {
	if v.kind == KindObject {
		if v.obj().isCallable() {
			return "function"
		}
		return objectTag(v.obj())
	}
	return v.String()
}

// Generic internal methods that dispatch to a proxy. Ordinary objects keep their direct
// paths; these are for the callers that did o.proto, o.extensible() and the like.

// getPrototypeOf is [[GetPrototypeOf]].
func (vm *VM) getPrototypeOf(o *Object) *Object {
	if o.class == ClassProxy {
		return vm.proxyGetPrototypeOf(o)
	}
	return o.proto
}

// setPrototypeOf is [[SetPrototypeOf]]; false when refused. Object.prototype is an
// immutable prototype exotic object: only its current prototype may be set.
func (vm *VM) setPrototypeOf(o, proto *Object) bool {
	if o.class == ClassProxy {
		return vm.proxySetPrototypeOf(o, proto)
	}
	if o == vm.realm.ObjectPrototype {
		return proto == o.proto
	}
	return o.setPrototype(proto)
}

// proxyFunctionRealm is GetFunctionRealm of a proxy, for GetPrototypeFromConstructor: there
// is one realm, so it only checks that no proxy on the way to a function is revoked.
func (vm *VM) proxyFunctionRealm(p *Object) {
	for p.class == ClassProxy {
		s := p.slots.(*proxySlots)
		if s.handler == nil {
			vm.throwTypeError("Cannot perform 'construct' on a proxy that has been revoked")
		}
		p = s.target
	}
}

// isExtensible is [[IsExtensible]].
func (vm *VM) isExtensible(o *Object) bool {
	if o.class == ClassProxy {
		return vm.proxyIsExtensible(o)
	}
	return o.extensible()
}

// preventExtensions is [[PreventExtensions]]; false when refused.
func (vm *VM) preventExtensions(o *Object) bool {
	if o.class == ClassProxy {
		return vm.proxyPreventExtensions(o)
	}
	o.preventExtensions()
	return true
}

// deleteProperty is [[Delete]]; false when refused.
func (vm *VM) deleteProperty(o *Object, key PropertyKey) bool {
	if o.class == ClassProxy {
		return vm.proxyDelete(o, key)
	}
	return o.deleteOwn(key)
}

// isArray is IsArray: true for arrays and for proxies of arrays; a revoked proxy throws.
func (vm *VM) isArray(v Value) bool {
	if v.kind != KindObject {
		return false
	}
	o := v.obj()
	for o.class == ClassProxy {
		s := o.slots.(*proxySlots)
		if s.handler == nil {
			vm.throwTypeError("Cannot perform 'IsArray' on a proxy that has been revoked")
		}
		o = s.target
	}
	return o.class == ClassArray
}

// The trapped methods.

func (vm *VM) proxyGetPrototypeOf(p *Object) *Object {
	s := vm.proxyEnter(p, "getPrototypeOf")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "getPrototypeOf")
	if trap.IsUndefined() {
		return vm.getPrototypeOf(target)
	}
	r := vm.Call(trap, objectValue(s.handler), objectValue(target))
	if r.kind != KindObject && r.kind != KindNull {
		vm.throwTypeError("'getPrototypeOf' on proxy: trap returned neither object nor null")
	}
	if vm.isExtensible(target) {
		return r.asObject()
	}
	if r.asObject() != vm.getPrototypeOf(target) {
		vm.throwTypeError("'getPrototypeOf' on proxy: proxy target is non-extensible but the trap did not return its actual prototype")
	}
	return r.asObject()
}

func (vm *VM) proxySetPrototypeOf(p, proto *Object) bool {
	s := vm.proxyEnter(p, "setPrototypeOf")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "setPrototypeOf")
	if trap.IsUndefined() {
		return vm.setPrototypeOf(target, proto)
	}
	if !ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target), objectValue(proto))) {
		return false
	}
	if vm.isExtensible(target) {
		return true
	}
	if vm.getPrototypeOf(target) != proto {
		vm.throwTypeError("'setPrototypeOf' on proxy: trap returned truish for setting a new prototype on the non-extensible proxy target")
	}
	return true
}

func (vm *VM) proxyIsExtensible(p *Object) bool {
	s := vm.proxyEnter(p, "isExtensible")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "isExtensible")
	if trap.IsUndefined() {
		return vm.isExtensible(target)
	}
	r := ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target)))
	if t := vm.isExtensible(target); r != t {
		vm.throwTypeError("'isExtensible' on proxy: trap result does not reflect extensibility of proxy target (which is '%t')", t)
	}
	return r
}

func (vm *VM) proxyPreventExtensions(p *Object) bool {
	s := vm.proxyEnter(p, "preventExtensions")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "preventExtensions")
	if trap.IsUndefined() {
		return vm.preventExtensions(target)
	}
	r := ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target)))
	if r && vm.isExtensible(target) {
		vm.throwTypeError("'preventExtensions' on proxy: trap returned truish but the proxy target is extensible")
	}
	return r
}

// completeDescriptor is CompletePropertyDescriptor.
func completeDescriptor(d PropertyDescriptor) PropertyDescriptor {
	if !d.isAccessor() {
		if !d.HasValue {
			d.Value, d.HasValue = undefinedValue, true
		}
		d.HasWritable = true
	} else {
		if !d.HasGet {
			d.Get, d.HasGet = undefinedValue, true
		}
		if !d.HasSet {
			d.Set, d.HasSet = undefinedValue, true
		}
	}
	d.HasEnumerable, d.HasConfigurable = true, true
	return d
}

// compatibleDescriptor is IsCompatiblePropertyDescriptor against a complete current
// descriptor (has false: no current property).
func compatibleDescriptor(extensible bool, d PropertyDescriptor, cur PropertyDescriptor, has bool) bool {
	if !has {
		return extensible
	}
	var p Property
	if cur.isAccessor() {
		p = accessorProperty(cur.Get.asObject(), cur.Set.asObject(), 0)
	} else {
		p.value = cur.Value
		if cur.Writable {
			p.flags |= propWritable
		}
	}
	if cur.Enumerable {
		p.flags |= propEnumerable
	}
	if cur.Configurable {
		p.flags |= propConfigurable
	}
	return isCompatibleDescriptor(extensible, d, &p)
}

func (vm *VM) proxyGetOwnProperty(p *Object, key PropertyKey) (PropertyDescriptor, bool) {
	s := vm.proxyEnter(p, "getOwnPropertyDescriptor")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "getOwnPropertyDescriptor")
	if trap.IsUndefined() {
		return vm.getOwnProperty(target, key)
	}
	r := vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue())
	if r.kind != KindObject && r.kind != KindUndefined {
		vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap returned neither object nor undefined for property '%s'", key)
	}
	targetDesc, has := vm.getOwnProperty(target, key)
	if r.kind == KindUndefined {
		if !has {
			return PropertyDescriptor{}, false
		}
		if !targetDesc.Configurable {
			vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '%s' which is non-configurable in the proxy target", key)
		}
		if !vm.isExtensible(target) {
			vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '%s' which exists in the non-extensible proxy target", key)
		}
		return PropertyDescriptor{}, false
	}
	extensible := vm.isExtensible(target)
	d := completeDescriptor(vm.toPropertyDescriptor(r))
	if !compatibleDescriptor(extensible, d, targetDesc, has) {
		vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap returned descriptor for property '%s' that is incompatible with the existing property in the proxy target", key)
	}
	if !d.Configurable {
		if !has || targetDesc.Configurable {
			vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap reported non-configurability for property '%s' which is either non-existent or configurable in the proxy target", key)
		}
		if d.HasWritable && !d.Writable && targetDesc.Writable {
			vm.throwTypeError("'getOwnPropertyDescriptor' on proxy: trap reported non-configurable and writable for property '%s' which is non-configurable, non-writable in the proxy target", key)
		}
	}
	return d, true
}

func (vm *VM) proxyDefineOwn(p *Object, key PropertyKey, d PropertyDescriptor) bool {
	s := vm.proxyEnter(p, "defineProperty")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "defineProperty")
	if trap.IsUndefined() {
		return vm.defineOwnProperty(target, key, d)
	}
	descObj := vm.fromPropertyDescriptor(d)
	if !ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue(), descObj)) {
		return false
	}
	targetDesc, has := vm.getOwnProperty(target, key)
	extensible := vm.isExtensible(target)
	settingConfigFalse := d.HasConfigurable && !d.Configurable
	if !has {
		if !extensible {
			vm.throwTypeError("'defineProperty' on proxy: trap returned truish for adding property '%s'  to the non-extensible proxy target", key)
		}
		if settingConfigFalse {
			vm.throwTypeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '%s' which is either non-existent or configurable in the proxy target", key)
		}
		return true
	}
	if !compatibleDescriptor(extensible, d, targetDesc, true) {
		vm.throwTypeError("'defineProperty' on proxy: trap returned truish for adding property '%s'  that is incompatible with the existing property in the proxy target", key)
	}
	if settingConfigFalse && targetDesc.Configurable {
		vm.throwTypeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '%s' which is either non-existent or configurable in the proxy target", key)
	}
	if !targetDesc.isAccessor() && !targetDesc.Configurable && targetDesc.Writable && d.HasWritable && !d.Writable {
		vm.throwTypeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '%s' which cannot be non-writable, unless there exists a corresponding non-configurable, non-writable own property of the target object.", key)
	}
	return true
}

func (vm *VM) proxyHas(p *Object, key PropertyKey) bool {
	s := vm.proxyEnter(p, "has")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "has")
	if trap.IsUndefined() {
		return vm.hasProperty(target, key)
	}
	r := ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue()))
	if !r {
		if td, has := vm.getOwnProperty(target, key); has {
			if !td.Configurable {
				vm.throwTypeError("'has' on proxy: trap returned falsish for property '%s' which exists in the proxy target as non-configurable", key)
			}
			if !vm.isExtensible(target) {
				vm.throwTypeError("'has' on proxy: trap returned falsish for property '%s' but the proxy target is not extensible", key)
			}
		}
	}
	return r
}

func (vm *VM) proxyGet(p *Object, key PropertyKey, receiver Value) Value {
	s := vm.proxyEnter(p, "get")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "get")
	if trap.IsUndefined() {
		return vm.getFrom(target, key, receiver)
	}
	v := vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue(), receiver)
	if td, has := vm.getOwnProperty(target, key); has && !td.Configurable {
		if !td.isAccessor() && !td.Writable && !SameValue(v, td.Value) {
			vm.throwTypeError("'get' on proxy: property '%s' is a read-only and non-configurable data property on the proxy target but the proxy did not return its actual value (expected '%s' but got '%s')", key, proxyShow(td.Value), proxyShow(v))
		}
		if td.isAccessor() && td.Get.IsUndefined() && !v.IsUndefined() {
			vm.throwTypeError("'get' on proxy: property '%s' is a non-configurable accessor property on the proxy target and does not have a getter function, but the trap did not return 'undefined' (got '%s')", key, proxyShow(v))
		}
	}
	return v
}

func (vm *VM) proxySet(p *Object, key PropertyKey, v, receiver Value) bool {
	s := vm.proxyEnter(p, "set")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "set")
	if trap.IsUndefined() {
		return vm.setOn(target, key, v, receiver)
	}
	if !ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue(), v, receiver)) {
		return false
	}
	if td, has := vm.getOwnProperty(target, key); has && !td.Configurable {
		if !td.isAccessor() && !td.Writable && !SameValue(v, td.Value) {
			vm.throwTypeError("'set' on proxy: trap returned truish for property '%s' which exists in the proxy target as a non-configurable and non-writable data property with a different value", key)
		}
		if td.isAccessor() && td.Set.IsUndefined() {
			vm.throwTypeError("'set' on proxy: trap returned truish for property '%s' which exists in the proxy target as a non-configurable and non-writable accessor property without a setter", key)
		}
	}
	return true
}

func (vm *VM) proxyDelete(p *Object, key PropertyKey) bool {
	s := vm.proxyEnter(p, "deleteProperty")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "deleteProperty")
	if trap.IsUndefined() {
		return vm.deleteProperty(target, key)
	}
	if !ToBoolean(vm.Call(trap, objectValue(s.handler), objectValue(target), key.toValue())) {
		return false
	}
	td, has := vm.getOwnProperty(target, key)
	if !has {
		return true
	}
	if !td.Configurable {
		vm.throwTypeError("'deleteProperty' on proxy: trap returned truish for property '%s' which is non-configurable in the proxy target", key)
	}
	if !vm.isExtensible(target) {
		vm.throwTypeError("'deleteProperty' on proxy: trap returned truish for property '%s' but the proxy target is non-extensible", key)
	}
	return true
}

func (vm *VM) proxyOwnKeys(p *Object) []PropertyKey {
	s := vm.proxyEnter(p, "ownKeys")
	defer vm.proxyLeave()
	target := s.target
	trap := vm.proxyTrap(s, "ownKeys")
	if trap.IsUndefined() {
		return vm.ownPropertyKeys(target)
	}
	res := vm.Call(trap, objectValue(s.handler), objectValue(target))
	arr := res.asObject()
	if arr == nil {
		vm.throwTypeError("CreateListFromArrayLike called on non-object")
	}
	n := vm.lengthOfArrayLike(arr)
	if n > maxDenseLength {
		vm.throwRangeError("Too many properties to enumerate")
	}
	vm.chargeAhead(n * 40)
	keys := make([]PropertyKey, 0, n)
	seen := make(map[PropertyKey]bool, n)
	for i := int64(0); i < n; i++ {
		v := vm.getIndex(arr, i)
		if v.kind != KindString && v.kind != KindSymbol {
			vm.throwTypeError("%s is not a valid property name", proxyShow(v))
		}
		k := vm.toPropertyKey(v)
		if seen[k] {
			vm.throwTypeError("'ownKeys' on proxy: trap returned duplicate entries")
		}
		seen[k] = true
		keys = append(keys, k)
	}
	extensible := vm.isExtensible(target)
	targetKeys := vm.ownPropertyKeys(target)
	var configurable, nonConfigurable []PropertyKey
	for _, k := range targetKeys {
		if d, has := vm.getOwnProperty(target, k); has && !d.Configurable {
			nonConfigurable = append(nonConfigurable, k)
		} else {
			configurable = append(configurable, k)
		}
	}
	if extensible && len(nonConfigurable) == 0 {
		return keys
	}
	for _, k := range nonConfigurable {
		if !seen[k] {
			vm.throwTypeError("'ownKeys' on proxy: trap result did not include '%s'", k)
		}
		delete(seen, k)
	}
	if extensible {
		return keys
	}
	for _, k := range configurable {
		if !seen[k] {
			vm.throwTypeError("'ownKeys' on proxy: trap result did not include '%s'", k)
		}
		delete(seen, k)
	}
	if len(seen) > 0 {
		vm.throwTypeError("'ownKeys' on proxy: trap returned extra keys but proxy target is non-extensible")
	}
	return keys
}

// proxyCall is [[Call]] of a callable proxy.
func (vm *VM) proxyCall(s *proxySlots, this Value, args []Value) Value {
	if s.handler == nil {
		vm.throwTypeError("Cannot perform 'apply' on a proxy that has been revoked")
	}
	target := s.target
	trap := vm.proxyTrap(s, "apply")
	if trap.IsUndefined() {
		return vm.callObject(target, this, args, nil)
	}
	return vm.Call(trap, objectValue(s.handler), objectValue(target), this, vm.CreateArrayFromList(args))
}

// proxyConstruct is [[Construct]] of a constructor proxy.
func (vm *VM) proxyConstruct(s *proxySlots, args []Value, newTarget *Object) Value {
	if s.handler == nil {
		vm.throwTypeError("Cannot perform 'construct' on a proxy that has been revoked")
	}
	target := s.target
	trap := vm.proxyTrap(s, "construct")
	if trap.IsUndefined() {
		return vm.construct(objectValue(target), newTarget, args...)
	}
	r := vm.Call(trap, objectValue(s.handler), objectValue(target), vm.CreateArrayFromList(args), objectValue(newTarget))
	if r.kind != KindObject {
		vm.throwTypeError("'construct' on proxy: trap returned non-object ('%s')", proxyShow(r))
	}
	return r
}

// setOnProxyReceiver is the end of OrdinarySet when the receiver is a proxy: the receiver's
// own property is redefined with the value, or a new data property created, through its
// traps.
func (vm *VM) setOnProxyReceiver(r *Object, key PropertyKey, v Value) bool {
	if d, ok := vm.getOwnProperty(r, key); ok {
		if d.isAccessor() || !d.Writable {
			return false
		}
		return vm.defineOwnProperty(r, key, PropertyDescriptor{Value: v, HasValue: true})
	}
	return vm.defineOwnProperty(r, key, dataDescriptor(v, propDefault))
}

// proxyBuiltinTag is the tag Object.prototype.toString gives a proxy: "Array" through
// IsArray, "Function" for a callable one, otherwise "Object".
func (vm *VM) proxyBuiltinTag(p *Object) string {
	if p.slots.(*proxySlots).handler == nil {
		vm.throwTypeError("Cannot perform 'Object.prototype.toString' on a proxy that has been revoked")
	}
	if vm.isArray(objectValue(p)) {
		return "Array"
	}
	if p.isCallable() {
		return "Function"
	}
	return "Object"
}

// setIntegrity is SetIntegrityLevel; ordinary objects take their direct path, a proxy goes
// through its traps (and a refusal throws).
func (vm *VM) setIntegrity(o *Object, freeze bool) {
	if o.class != ClassProxy {
		o.setIntegrity(freeze)
		return
	}
	if !vm.preventExtensions(o) {
		vm.throwTypeError("'preventExtensions' on proxy: trap returned falsish")
	}
	for _, k := range vm.ownPropertyKeys(o) {
		d := PropertyDescriptor{Configurable: false, HasConfigurable: true}
		if freeze {
			if cur, ok := vm.getOwnProperty(o, k); ok && !cur.isAccessor() {
				d.Writable, d.HasWritable = false, true
			} else if !ok {
				continue
			}
		}
		vm.definePropertyOrThrow(o, k, d)
	}
}

// testIntegrity is TestIntegrityLevel.
func (vm *VM) testIntegrity(o *Object, frozen bool) bool {
	if o.class != ClassProxy {
		return o.testIntegrity(frozen)
	}
	if vm.isExtensible(o) {
		return false
	}
	for _, k := range vm.ownPropertyKeys(o) {
		if d, ok := vm.getOwnProperty(o, k); ok {
			if d.Configurable {
				return false
			}
			if frozen && !d.isAccessor() && d.Writable {
				return false
			}
		}
	}
	return true
}

// ownKeysOf is [[OwnPropertyKeys]] for the callers that list an ordinary object's keys
// directly (without OwnPropertyKeys' accounting): a proxy runs its trap.
func (vm *VM) ownKeysOf(o *Object) []PropertyKey {
	if o.class == ClassProxy {
		return vm.ownPropertyKeys(o)
	}
	return o.ownKeys()
}

// proxiedArray reports whether o is a proxy (of proxies) of an array, without throwing for a
// revoked one (messages use it).
func proxiedArray(o *Object) bool {
	if o.class != ClassProxy {
		return false
	}
	for o != nil && o.class == ClassProxy {
		o = o.slots.(*proxySlots).target
	}
	return o != nil && o.class == ClassArray
}

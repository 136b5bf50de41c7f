package interp

// The Map global: Map, Map.prototype, Map.groupBy and %MapIteratorPrototype%. The entries live
// in a collection (builtin_map_data.go).

func init() { registerBuiltin("Map", 20, setupMap) }

// setupMap installs Map, its prototype and its iterator prototype.
func setupMap(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("Map", 0, mapConstructor, proto)
	r.method(ctor, "groupBy", 2, mapGroupBy)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.method(proto, "get", 1, mapGet)
	r.method(proto, "set", 2, mapSet)
	r.method(proto, "has", 1, mapHas)
	r.method(proto, "getOrInsert", 2, mapGetOrInsert)
	r.method(proto, "getOrInsertComputed", 2, mapGetOrInsertComputed)
	r.method(proto, "delete", 1, mapDelete)
	r.method(proto, "clear", 0, mapClear)
	entries := r.method(proto, "entries", 0, mapEntries)
	r.method(proto, "forEach", 1, mapForEach)
	r.method(proto, "keys", 0, mapKeys)
	r.getter(proto, strKey("size"), mapSize)
	r.method(proto, "values", 0, mapValues)
	r.value(proto, symKey(symIterator), objectValue(entries), propHidden)
	r.value(proto, symKey(symToStringTag), asciiValue("Map"), propConfigurable)
	r.defineGlobal("Map", objectValue(ctor))

	ip := r.vm.newObject(r.IteratorPrototype, ClassObject)
	r.addIntrinsic("%MapIteratorPrototype%", ip)
	r.method(ip, "next", 0, mapIteratorNext)
	r.value(ip, symKey(symToStringTag), asciiValue("Map Iterator"), propConfigurable)
}

// describeReceiver renders a receiver the way V8's "incompatible receiver" messages do
// (Object::NoSideEffectsToString): an object as describeObject does ("#<Object>",
// "[object Array]", a function's source text, "Error: x"), a string as its text, a symbol as
// Symbol(desc), any other primitive as String does.
func (vm *VM) describeReceiver(v Value) string {
	switch v.kind {
	case KindObject:
		o := v.obj()
		if o.class != ClassProxy {
			return vm.describeObject(v)
		}
		// a proxy: V8 names it after the constructor its target reaches
		if o.isCallable() {
			return vm.describeForError(v)
		}
		name := "Object"
		if ctor := lookupDataProperty(o, keyConstructor); ctor.kind == KindObject {
			if n := lookupDataProperty(ctor.obj(), keyName); n.kind == KindString && n.str().Len() > 0 {
				name = n.str().String()
			}
		}
		return "#<" + name + ">"
	case KindString:
		return v.str().String()
	case KindSymbol:
		return v.sym().descriptiveString()
	}
	return v.String()
}

// thisCollection returns the collection of this when it is a Map (isMap) or Set, or throws
// V8's incompatible-receiver TypeError naming method.
func thisCollection(vm *VM, this Value, isMap bool, method string) *collection {
	if o := this.asObject(); o != nil {
		if s, ok := o.slots.(*collSlot); ok && s.data.isMap == isMap &&
			((isMap && o.class == ClassMap) || (!isMap && o.class == ClassSet)) {
			return s.data
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return nil
}

// mapConstructor is new Map(iterable).
func mapConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor Map requires 'new'")
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "Map.prototype", ClassMap)
	data := newCollection(true)
	o.slots = &collSlot{data: data}
	it := c.Arg(0)
	if it.IsNullish() {
		return objectValue(o)
	}
	adder := vm.getProp(o, strKey("set"))
	if !IsCallable(adder) {
		vm.throwTypeError("'%s' returned for property 'set' of object '#<Map>' is not a function", vm.describeForError(adder))
	}
	direct := adder.obj() == vm.realm.Intrinsic("Map.prototype.set")
	vm.addEntriesFromIterable(objectValue(o), it, adder, func(k, v Value) {
		if direct {
			data.set(vm, k, v)
			return
		}
		vm.Call(adder, objectValue(o), k, v)
	})
	return objectValue(o)
}

// addEntriesFromIterable is AddEntriesFromIterable: each item must be an object whose "0"
// and "1" properties are the key and value; add receives them.
func (vm *VM) addEntriesFromIterable(target, iterable, adder Value, add func(k, v Value)) {
	vm.forOf(iterable, func(item Value) bool {
		o := item.asObject()
		if o == nil {
			vm.throwTypeError("Iterator value %s is not an entry object", vm.describeReceiver(item))
		}
		if o.class == ClassArray && len(o.elems) >= 2 && o.elems[0].kind != kindHole && o.elems[1].kind != kindHole {
			add(o.elems[0], o.elems[1])
			return true
		}
		k := vm.getProp(o, strKey("0"))
		v := vm.getProp(o, strKey("1"))
		add(k, v)
		return true
	})
}

// mapGroupBy is Map.groupBy(items, callback).
func mapGroupBy(vm *VM, c NativeCall) Value {
	items, fn := c.Arg(0), c.Arg(1)
	if items.IsNullish() {
		vm.throwTypeError("%s is not iterable", vm.describeForError(items))
	}
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	data := newCollection(true)
	var k int64
	vm.forOf(items, func(v Value) bool {
		key := vm.Call(fn, undefinedValue, v, Number(float64(k)))
		k++
		key = normalizeKey(key)
		if g, ok := data.get(key); ok {
			arr := g.obj()
			vm.reserveElems(arr, 1)
			arr.elems = append(arr.elems, v)
			arr.length++
		} else {
			data.set(vm, key, vm.newArrayValue([]Value{v}))
		}
		return true
	})
	o := vm.newObject(vm.realm.Intrinsic("Map.prototype"), ClassMap)
	o.slots = &collSlot{data: data}
	return objectValue(o)
}

// mapGet is Map.prototype.get.
func mapGet(vm *VM, c NativeCall) Value {
	v, _ := thisCollection(vm, c.This, true, "Map.prototype.get").get(c.Arg(0))
	return v
}

// mapSet is Map.prototype.set.
func mapSet(vm *VM, c NativeCall) Value {
	thisCollection(vm, c.This, true, "Map.prototype.set").set(vm, c.Arg(0), c.Arg(1))
	return c.This
}

// mapHas is Map.prototype.has.
func mapHas(vm *VM, c NativeCall) Value {
	return Bool(thisCollection(vm, c.This, true, "Map.prototype.has").has(c.Arg(0)))
}

// mapDelete is Map.prototype.delete.
func mapDelete(vm *VM, c NativeCall) Value {
	return Bool(thisCollection(vm, c.This, true, "Map.prototype.delete").remove(c.Arg(0)))
}

// mapClear is Map.prototype.clear.
func mapClear(vm *VM, c NativeCall) Value {
	thisCollection(vm, c.This, true, "Map.prototype.clear").clear()
	return undefinedValue
}

// mapSize is get Map.prototype.size.
func mapSize(vm *VM, c NativeCall) Value {
	return intValue(thisCollection(vm, c.This, true, "get Map.prototype.size").live)
}

// mapForEach is Map.prototype.forEach(callback, thisArg).
func mapForEach(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, true, "Map.prototype.forEach")
	fn := c.Arg(0)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	this := c.Arg(1)
	data.each(func(k, v Value) { vm.Call(fn, this, v, k, c.This) })
	return undefinedValue
}

// newCollIterator creates a Map or Set iterator over data.
func (vm *VM) newCollIterator(data *collection, kind collIterKind) Value {
	proto := "%SetIteratorPrototype%"
	if data.isMap {
		proto = "%MapIteratorPrototype%"
	}
	o := vm.newObject(vm.realm.Intrinsic(proto), ClassIterator)
	it := &collIterator{data: data, kind: kind, isMap: data.isMap}
	data.register(it)
	o.slots = it
	return objectValue(o)
}

// mapEntries is Map.prototype.entries (and [Symbol.iterator]).
func mapEntries(vm *VM, c NativeCall) Value {
	return vm.newCollIterator(thisCollection(vm, c.This, true, "Map.prototype.entries"), collEntries)
}

// mapKeys is Map.prototype.keys.
func mapKeys(vm *VM, c NativeCall) Value {
	return vm.newCollIterator(thisCollection(vm, c.This, true, "Map.prototype.keys"), collKeys)
}

// mapValues is Map.prototype.values.
func mapValues(vm *VM, c NativeCall) Value {
	return vm.newCollIterator(thisCollection(vm, c.This, true, "Map.prototype.values"), collValues)
}

// collIteratorNext is the next method of Map and Set iterators.
func collIteratorNext(vm *VM, c NativeCall, isMap bool, method string) Value {
	var it *collIterator
	if o := c.This.asObject(); o != nil && o.class == ClassIterator {
		it, _ = o.slots.(*collIterator)
	}
	if it == nil || it.isMap != isMap {
		vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(c.This))
	}
	k, v, ok := it.step()
	if !ok {
		return vm.createIterResultObject(undefinedValue, true)
	}
	switch it.kind {
	case collKeys:
		return vm.createIterResultObject(k, false)
	case collValues:
		return vm.createIterResultObject(v, false)
	}
	return vm.createIterResultObject(vm.newArrayValue([]Value{k, v}), false)
}

// mapIteratorNext is %MapIteratorPrototype%.next.
func mapIteratorNext(vm *VM, c NativeCall) Value {
	return collIteratorNext(vm, c, true, "Map Iterator.prototype.next")
}

// mapGetOrInsert is Map.prototype.getOrInsert(key, value): the stored value, or value after
// storing it.
func mapGetOrInsert(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, true, "Map.prototype.getOrInsert")
	key := normalizeKey(c.Arg(0))
	if v, ok := data.get(key); ok {
		return v
	}
	data.set(vm, key, c.Arg(1))
	return c.Arg(1)
}

// mapGetOrInsertComputed is Map.prototype.getOrInsertComputed(key, callback): the stored
// value, or callback(key) after storing it (overwriting what the callback may have stored).
func mapGetOrInsertComputed(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, true, "Map.prototype.getOrInsertComputed")
	fn := c.Arg(1)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	return data.getOrInsertComputed(vm, normalizeKey(c.Arg(0)), fn)
}

// getOrInsertComputed returns the value of key, or computes it with fn and stores it.
func (c *collection) getOrInsertComputed(vm *VM, key, fn Value) Value {
	if v, ok := c.get(key); ok {
		return v
	}
	v := vm.Call(fn, undefinedValue, key)
	if i := c.find(key); i >= 0 {
		c.vals[i] = v
		return v
	}
	c.set(vm, key, v)
	return v
}

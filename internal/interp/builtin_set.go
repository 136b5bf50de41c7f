package interp

// The Set global: Set, Set.prototype with the set algebra methods (union, intersection,
// difference, symmetricDifference, isSubsetOf, isSupersetOf, isDisjointFrom, which accept
// any set-like argument) and %SetIteratorPrototype%. The values live in a collection
// (builtin_map_data.go).

import "slices"

func init() { registerBuiltin("Set", 20, setupSet) }

// setupSet installs Set, its prototype and its iterator prototype.
func setupSet(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("Set", 0, setConstructor, proto)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.method(proto, "has", 1, setHas)
	r.method(proto, "add", 1, setAdd)
	r.method(proto, "delete", 1, setDelete)
	r.method(proto, "clear", 0, setClear)
	r.method(proto, "entries", 0, setEntries)
	r.method(proto, "forEach", 1, setForEach)
	r.getter(proto, strKey("size"), setSize)
	values := r.method(proto, "values", 0, setValues)
	r.value(proto, strKey("keys"), objectValue(values), propHidden)
	r.value(proto, symKey(symIterator), objectValue(values), propHidden)
	r.method(proto, "union", 1, setUnion)
	r.method(proto, "intersection", 1, setIntersection)
	r.method(proto, "difference", 1, setDifference)
	r.method(proto, "symmetricDifference", 1, setSymmetricDifference)
	r.method(proto, "isSubsetOf", 1, setIsSubsetOf)
	r.method(proto, "isSupersetOf", 1, setIsSupersetOf)
	r.method(proto, "isDisjointFrom", 1, setIsDisjointFrom)
	r.value(proto, symKey(symToStringTag), asciiValue("Set"), propConfigurable)
	r.defineGlobal("Set", objectValue(ctor))

	ip := r.vm.newObject(r.IteratorPrototype, ClassObject)
	r.addIntrinsic("%SetIteratorPrototype%", ip)
	r.method(ip, "next", 0, setIteratorNext)
	r.value(ip, symKey(symToStringTag), asciiValue("Set Iterator"), propConfigurable)
}

// setConstructor is new Set(iterable).
func setConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor Set requires 'new'")
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "Set.prototype", ClassSet)
	data := newCollection(false)
	o.slots = &collSlot{data: data}
	it := c.Arg(0)
	if it.IsNullish() {
		return objectValue(o)
	}
	adder := vm.getProp(o, strKey("add"))
	if !IsCallable(adder) {
		vm.throwTypeError("'%s' returned for property 'add' of object '#<Set>' is not a function", vm.describeForError(adder))
	}
	direct := adder.obj() == vm.realm.Intrinsic("Set.prototype.add")
	vm.forOf(it, func(v Value) bool {
		if direct {
			data.set(vm, v, undefinedValue)
		} else {
			vm.Call(adder, objectValue(o), v)
		}
		return true
	})
	return objectValue(o)
}

// newSetFrom makes a Set object (with %Set.prototype%) around data.
func (vm *VM) newSetFrom(data *collection) Value {
	o := vm.newObject(vm.realm.Intrinsic("Set.prototype"), ClassSet)
	o.slots = &collSlot{data: data}
	return objectValue(o)
}

// setHas is Set.prototype.has.
func setHas(vm *VM, c NativeCall) Value {
	return Bool(thisCollection(vm, c.This, false, "Set.prototype.has").has(c.Arg(0)))
}

// setAdd is Set.prototype.add.
func setAdd(vm *VM, c NativeCall) Value {
	thisCollection(vm, c.This, false, "Set.prototype.add").set(vm, c.Arg(0), undefinedValue)
	return c.This
}

// setDelete is Set.prototype.delete.
func setDelete(vm *VM, c NativeCall) Value {
	return Bool(thisCollection(vm, c.This, false, "Set.prototype.delete").remove(c.Arg(0)))
}

// setClear is Set.prototype.clear.
func setClear(vm *VM, c NativeCall) Value {
	thisCollection(vm, c.This, false, "Set.prototype.clear").clear()
	return undefinedValue
}

// setSize is get Set.prototype.size.
func setSize(vm *VM, c NativeCall) Value {
	return intValue(thisCollection(vm, c.This, false, "get Set.prototype.size").live)
}

// setForEach is Set.prototype.forEach(callback, thisArg).
func setForEach(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.forEach")
	fn := c.Arg(0)
	if !IsCallable(fn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(fn))
	}
	this := c.Arg(1)
	data.each(func(k, _ Value) { vm.Call(fn, this, k, k, c.This) })
	return undefinedValue
}

// setEntries is Set.prototype.entries.
func setEntries(vm *VM, c NativeCall) Value {
	return vm.newCollIterator(thisCollection(vm, c.This, false, "Set.prototype.entries"), collEntries)
}

// setValues is Set.prototype.values (also keys and [Symbol.iterator]).
func setValues(vm *VM, c NativeCall) Value {
	return vm.newCollIterator(thisCollection(vm, c.This, false, "Set.prototype.values"), collKeys)
}

// setIteratorNext is %SetIteratorPrototype%.next.
func setIteratorNext(vm *VM, c NativeCall) Value {
	return collIteratorNext(vm, c, false, "Set Iterator.prototype.next")
}

// setRecord is a Set Record (GetSetRecord): a set-like object with its size, has and keys.
type setRecord struct {
	set  Value
	size float64
	has  Value
	keys Value
}

// getSetRecord is GetSetRecord(obj).
func (vm *VM) getSetRecord(v Value) setRecord {
	o := v.asObject()
	if o == nil {
		vm.throwTypeError("%s is not an object", vm.describeForError(v))
	}
	raw := vm.getProp(o, strKey("size"))
	num := vm.toNumber(raw)
	if num != num {
		vm.throwTypeError("The 'size' property must be a number")
	}
	size := vm.toIntegerOrInfinity(Number(num))
	if size < 0 {
		vm.throwRangeError("'%s' is an invalid size", numberToString(size))
	}
	has := vm.getProp(o, strKey("has"))
	if !IsCallable(has) {
		vm.throwTypeError("The 'has' property must be a function")
	}
	keys := vm.getProp(o, strKey("keys"))
	if !IsCallable(keys) {
		vm.throwTypeError("The 'keys' property must be a function")
	}
	return setRecord{set: v, size: size, has: has, keys: keys}
}

// keysIterator is GetIteratorFromMethod on the record's keys, with next required to be
// callable (GetKeysIterator).
func (vm *VM) keysIterator(rec setRecord) *Iterator {
	it := vm.Call(rec.keys, rec.set)
	if it.kind != KindObject {
		vm.throwTypeError("%s is not an object", vm.describeForError(it))
	}
	next := vm.getV(it, keyNext)
	if !IsCallable(next) {
		vm.throwTypeError("%s is not a function", vm.describeForError(next))
	}
	return &Iterator{Obj: it, Next: next}
}

// eachKey drives the keys iterator of rec; fn returns false to stop (the iterator is then
// closed).
func (vm *VM) eachKey(rec setRecord, fn func(v Value) bool) {
	it := vm.keysIterator(rec)
	for {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return
		}
		if !fn(normalizeKey(v)) {
			vm.iteratorClose(it, false)
			return
		}
	}
}

// copy returns a compacted copy of c (no tombstones, no iterators).
func (c *collection) copy(vm *VM) *collection {
	out := newCollection(c.isMap)
	if c.live == len(c.keys) {
		// no tombstones: the positions stay the same, so the index is copied as it is
		out.keys = slices.Clone(c.keys)
		if c.isMap {
			out.vals = slices.Clone(c.vals)
		}
		out.index = collIndex{slots: slices.Clone(c.index.slots), used: c.index.used}
		out.live = c.live
		if vm != nil {
			vm.allocated += int64(c.live) * collEntrySize
		}
		return out
	}
	out.keys = make([]Value, 0, c.live)
	if c.isMap {
		out.vals = make([]Value, 0, c.live)
	}
	out.index.reserve(c.live)
	for i, k := range c.keys {
		if k.kind == kindHole {
			continue
		}
		v := undefinedValue
		if c.isMap {
			v = c.vals[i]
		}
		out.set(vm, k, v)
	}
	return out
}

// otherHas calls rec.has(v) and converts the result to a boolean.
func (vm *VM) otherHas(rec setRecord, v Value) bool {
	return ToBoolean(vm.Call(rec.has, rec.set, v))
}

// setUnion is Set.prototype.union(other).
func setUnion(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.union")
	rec := vm.getSetRecord(c.Arg(0))
	keys := vm.keysIterator(rec)
	out := data.copy(vm)
	for {
		v, ok := vm.iteratorStep(keys)
		if !ok {
			break
		}
		out.set(vm, normalizeKey(v), undefinedValue)
	}
	return vm.newSetFrom(out)
}

// setIntersection is Set.prototype.intersection(other).
func setIntersection(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.intersection")
	rec := vm.getSetRecord(c.Arg(0))
	out := newCollection(false)
	if float64(data.live) <= rec.size {
		data.each(func(k, _ Value) {
			if vm.otherHas(rec, k) {
				out.set(vm, k, undefinedValue)
			}
		})
	} else {
		vm.eachKey(rec, func(v Value) bool {
			if data.has(v) {
				out.set(vm, v, undefinedValue)
			}
			return true
		})
	}
	return vm.newSetFrom(out)
}

// setDifference is Set.prototype.difference(other).
func setDifference(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.difference")
	rec := vm.getSetRecord(c.Arg(0))
	out := data.copy(vm)
	if float64(data.live) <= rec.size {
		n := len(out.keys)
		for i := 0; i < n; i++ {
			k := out.keys[i]
			if k.kind != kindHole && vm.otherHas(rec, k) {
				out.removeNoCompact(k)
			}
		}
		out.compact()
	} else {
		vm.eachKey(rec, func(v Value) bool {
			out.remove(v)
			return true
		})
	}
	return vm.newSetFrom(out)
}

// removeNoCompact deletes key leaving a tombstone, without compacting (for walks by index
// over a collection no iterator sees).
func (c *collection) removeNoCompact(key Value) {
	if i, slot := c.index.find(c.keys, key, collHash(key)); i >= 0 {
		c.index.remove(slot)
		c.keys[i] = Value{kind: kindHole}
		c.live--
	}
}

// setSymmetricDifference is Set.prototype.symmetricDifference(other).
func setSymmetricDifference(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.symmetricDifference")
	rec := vm.getSetRecord(c.Arg(0))
	keys := vm.keysIterator(rec)
	out := data.copy(vm)
	for {
		v, ok := vm.iteratorStep(keys)
		if !ok {
			break
		}
		v = normalizeKey(v)
		if data.has(v) {
			out.remove(v)
		} else {
			out.set(vm, v, undefinedValue)
		}
	}
	return vm.newSetFrom(out)
}

// setIsSubsetOf is Set.prototype.isSubsetOf(other).
func setIsSubsetOf(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.isSubsetOf")
	rec := vm.getSetRecord(c.Arg(0))
	if float64(data.live) > rec.size {
		return falseValue
	}
	result := true
	data.eachUntil(func(k Value) bool {
		if !vm.otherHas(rec, k) {
			result = false
		}
		return result
	})
	return Bool(result)
}

// setIsSupersetOf is Set.prototype.isSupersetOf(other).
func setIsSupersetOf(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.isSupersetOf")
	rec := vm.getSetRecord(c.Arg(0))
	if float64(data.live) < rec.size {
		return falseValue
	}
	result := true
	vm.eachKey(rec, func(v Value) bool {
		result = data.has(v)
		return result
	})
	return Bool(result)
}

// setIsDisjointFrom is Set.prototype.isDisjointFrom(other).
func setIsDisjointFrom(vm *VM, c NativeCall) Value {
	data := thisCollection(vm, c.This, false, "Set.prototype.isDisjointFrom")
	rec := vm.getSetRecord(c.Arg(0))
	result := true
	if float64(data.live) <= rec.size {
		data.eachUntil(func(k Value) bool {
			if vm.otherHas(rec, k) {
				result = false
			}
			return result
		})
	} else {
		vm.eachKey(rec, func(v Value) bool {
			result = !data.has(v)
			return result
		})
	}
	return Bool(result)
}

// eachUntil walks the live keys like each, stopping when fn returns false.
func (c *collection) eachUntil(fn func(k Value) bool) {
	it := &collIterator{data: c, isMap: c.isMap}
	c.register(it)
	defer func() { it.data = nil }()
	for {
		k, _, ok := it.step()
		if !ok || !fn(k) {
			return
		}
	}
}

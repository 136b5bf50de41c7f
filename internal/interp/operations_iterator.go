package interp

// Iterator records and the iteration abstract operations (GetIterator, IteratorStep,
// IteratorClose, ...), used by built-ins that consume iterables.

// Iterator is an Iterator Record: the iterator object, its next method, and whether it is
// exhausted.
type Iterator struct {
	Obj  Value
	Next Value
	Done bool
}

// getIterator is GetIterator(v, sync): calls v[Symbol.iterator]().
func (vm *VM) getIterator(v Value) *Iterator {
	m := vm.getMethod(v, symKey(symIterator))
	if m.IsUndefined() {
		vm.throwTypeError("%s is not iterable", vm.describeForError(v))
	}
	return vm.getIteratorFromMethod(v, m)
}

// getIteratorFromMethod calls method on v and checks that the result is an object.
func (vm *VM) getIteratorFromMethod(v, method Value) *Iterator {
	it := vm.Call(method, v)
	if it.kind != KindObject {
		vm.throwTypeError("Result of the Symbol.iterator method is not an object")
	}
	return &Iterator{Obj: it, Next: vm.getV(it, keyNext)}
}

// getIteratorDirect makes an iterator record from an iterator object (iterator helpers).
func (vm *VM) getIteratorDirect(o *Object) *Iterator {
	return &Iterator{Obj: objectValue(o), Next: vm.getProp(o, keyNext)}
}

// iteratorNext calls next() and checks that the result is an object.
func (vm *VM) iteratorNext(it *Iterator, args ...Value) *Object {
	r := vm.Call(it.Next, it.Obj, args...)
	if r.kind != KindObject {
		it.Done = true
		vm.throwTypeError("Iterator result %s is not an object", r.String())
	}
	return r.obj()
}

// iteratorStep advances: it returns (value, true) or (undefined, false) when done.
func (vm *VM) iteratorStep(it *Iterator) (Value, bool) {
	if it.Done {
		return undefinedValue, false
	}
	// An abrupt next(), done or value leaves the iterator done, so it is not closed afterwards
	// (IteratorStep and IteratorValue set [[Done]] before returning an abrupt completion).
	it.Done = true
	r := vm.iteratorNext(it)
	if ToBoolean(vm.getProp(r, keyDone)) {
		return undefinedValue, false
	}
	v := vm.getProp(r, keyValue)
	it.Done = false
	return v, true
}

// iteratorClose calls return() on an abrupt exit. Errors from return() are ignored when the
// exit is already a throw (pass thrown=true), as the spec says.
func (vm *VM) iteratorClose(it *Iterator, thrown bool) {
	if it.Done {
		return
	}
	it.Done = true
	if thrown {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*Exception); !ok {
					panic(r)
				}
			}
		}()
	}
	ret := vm.getMethod(it.Obj, keyReturn)
	if ret.IsUndefined() {
		return
	}
	r := vm.Call(ret, it.Obj)
	if !thrown && r.kind != KindObject {
		vm.throwTypeError("Iterator result %s is not an object", r.String())
	}
}

// forOf iterates an iterable calling fn for each value; fn returns false to stop early (the
// iterator is then closed). If fn throws, the iterator is closed and the exception goes on.
//
// ForOf serves built-ins given an iterable argument (Promise.all, new Set, ...): a value that is
// not iterable is a TypeError worded as V8 words it for them, naming the value's type
// ("number 5 is not iterable (cannot read property Symbol(Symbol.iterator))").
func (vm *VM) forOf(iterable Value, fn func(v Value) bool) {
	var m Value
	if !iterable.IsNullish() {
		m = vm.getMethod(iterable, symKey(symIterator))
	}
	if iterable.IsNullish() || m.IsUndefined() {
		vm.throwTypeError("%s is not iterable (cannot read property Symbol(Symbol.iterator))", notIterableDescription(iterable))
	}
	vm.iterate(vm.getIteratorFromMethod(iterable, m), fn)
}

// notIterableDescription names a value that is not iterable as V8's messages for built-ins
// do: its type, and the value itself for a primitive that has a short form.
func notIterableDescription(v Value) string {
	switch v.kind {
	case KindUndefined:
		return "undefined"
	case KindNull:
		return "object null"
	case KindNumber:
		return "number " + v.String()
	case KindBool:
		return "boolean " + v.String()
	case KindSymbol:
		return "symbol"
	case KindObject:
		if v.obj().isCallable() {
			return "function"
		}
	}
	return "object"
}

// iterate drives an iterator record with fn (see ForOf).
func (vm *VM) iterate(it *Iterator, fn func(v Value) bool) {
	for {
		v, ok := vm.iteratorStep(it)
		if !ok {
			return
		}
		cont := func() (cont bool) {
			defer func() {
				if r := recover(); r != nil {
					vm.iteratorClose(it, true)
					panic(r)
				}
			}()
			return fn(v)
		}()
		if !cont {
			vm.iteratorClose(it, false)
			return
		}
	}
}

// iterableToList collects the values of an iterable.
func (vm *VM) iterableToList(iterable Value) []Value {
	var out []Value
	vm.forOf(iterable, func(v Value) bool {
		out = append(out, v)
		return true
	})
	return out
}

// createIterResultObject makes {value, done}.
func (vm *VM) createIterResultObject(v Value, done bool) Value {
	o := vm.newPlainObject()
	o.props.reserve(2)
	o.props.add(keyValue, Property{value: v, flags: propDefault})
	o.props.add(keyDone, Property{value: Bool(done), flags: propDefault})
	return objectValue(o)
}

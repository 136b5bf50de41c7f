package interp

// The Symbol global: the constructor (callable, not constructible), the well-known symbols,
// the global registry (Symbol.for / Symbol.keyFor) and Symbol.prototype.

func init() { registerBuiltin("Symbol", 2, setupSymbol) }

// setupSymbol installs Symbol and Symbol.prototype.
func setupSymbol(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("Symbol", 0, symbolConstructor, proto)
	for _, s := range wellKnownSymbols {
		r.value(ctor, strKey(s.wellKnown), symbolValue(s), 0)
	}
	r.method(ctor, "for", 1, symbolFor)
	r.method(ctor, "keyFor", 1, symbolKeyFor)
	r.method(proto, "toString", 0, symbolToString)
	r.method(proto, "valueOf", 0, symbolValueOf)
	r.getter(proto, strKey("description"), symbolDescription)
	r.symbolMethod(proto, symToPrimitive, 1, symbolValueOf, propConfigurable)
	r.value(proto, symKey(symToStringTag), asciiValue("Symbol"), propConfigurable)
	r.defineGlobal("Symbol", objectValue(ctor))
}

// symbolConstructor is Symbol(description); new Symbol() throws.
func symbolConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget != nil {
		vm.throwTypeError("Symbol is not a constructor")
	}
	var desc *jsString
	if d := c.Arg(0); !d.IsUndefined() {
		desc = vm.toString(d)
	}
	return symbolValue(newSymbol(desc))
}

// symbolFor is Symbol.for(key): the registered symbol for key, created on first use.
func symbolFor(vm *VM, c NativeCall) Value {
	key := vm.toString(c.Arg(0))
	k := key.wtf8()
	if s, ok := vm.realm.symbolRegistry[k]; ok {
		return symbolValue(s)
	}
	s := &Symbol{description: key, registered: true}
	vm.realm.symbolRegistry[k] = s
	return symbolValue(s)
}

// symbolKeyFor is Symbol.keyFor(sym): the registry key, or undefined.
func symbolKeyFor(vm *VM, c NativeCall) Value {
	v := c.Arg(0)
	if v.kind != KindSymbol {
		vm.throwTypeError("%s is not a symbol", vm.describeForError(v))
	}
	if s := v.sym(); s.registered {
		return stringValue(s.description)
	}
	return undefinedValue
}

// thisSymbolValue unwraps this as a symbol.
func thisSymbolValue(vm *VM, v Value, method string) *Symbol {
	if v.kind == KindSymbol {
		return v.sym()
	}
	if o := v.asObject(); o != nil && o.class == ClassSymbol {
		return o.slots.(Value).sym()
	}
	vm.throwTypeError("%s requires that 'this' be a Symbol", method)
	return nil
}

// symbolToString is Symbol.prototype.toString.
func symbolToString(vm *VM, c NativeCall) Value {
	s := thisSymbolValue(vm, c.This, "Symbol.prototype.toString")
	return stringValue(newStringFromGo(s.descriptiveStringWTF8()))
}

// symbolValueOf is Symbol.prototype.valueOf and [Symbol.toPrimitive].
func symbolValueOf(vm *VM, c NativeCall) Value {
	return symbolValue(thisSymbolValue(vm, c.This, "Symbol.prototype.valueOf"))
}

// symbolDescription is the Symbol.prototype.description getter.
func symbolDescription(vm *VM, c NativeCall) Value {
	s := thisSymbolValue(vm, c.This, "Symbol.prototype.description")
	if s.description == nil {
		return undefinedValue
	}
	return stringValue(s.description)
}

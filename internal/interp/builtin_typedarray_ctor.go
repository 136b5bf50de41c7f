package interp

// %TypedArray% and the typed array constructors (Int8Array ... Float64Array): construction
// from a length, an array-like, an iterable, another typed array or a buffer; from/of; and
// the species machinery the prototype methods use to make their results.

func init() { registerBuiltin("TypedArray", 31, setupTypedArray) }

func setupTypedArray(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("TypedArray", 0, func(vm *VM, c NativeCall) Value {
		vm.throwTypeError("Abstract class TypedArray not directly constructable")
		return undefinedValue
	}, proto)
	r.method(ctor, "from", 1, typedArrayFrom)
	r.method(ctor, "of", 0, typedArrayOf)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	setupTypedArrayPrototype(r, proto)
	for k := range elemTypes {
		kind := elemKind(k)
		e := &elemTypes[k]
		p := r.vm.newObject(proto, ClassObject)
		c := r.newConstructor(e.name, 3, func(vm *VM, c NativeCall) Value {
			return vm.constructTypedArray(kind, c)
		}, p)
		c.proto = ctor
		r.value(c, strKey("BYTES_PER_ELEMENT"), intValue(e.size), 0)
		r.value(p, strKey("BYTES_PER_ELEMENT"), intValue(e.size), 0)
		if kind == elemUint8 {
			setupUint8ArrayBase64(r, c, p)
		}
		r.defineGlobal(e.name, objectValue(c))
	}
}

// constructTypedArray is new XxxArray(...).
func (vm *VM) constructTypedArray(kind elemKind, c NativeCall) Value {
	e := &elemTypes[kind]
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor %s requires 'new'", e.name)
	}
	first := c.Arg(0)
	src := first.asObject()
	if src == nil {
		n := vm.toIndexMsg(first, "Invalid typed array length: "+vm.ToGoString(first))
		proto := vm.getPrototypeFromConstructor(c.NewTarget, e.name+".prototype")
		return objectValue(vm.allocTypedArray(proto, kind, n))
	}
	proto := vm.getPrototypeFromConstructor(c.NewTarget, e.name+".prototype")
	switch src.class {
	case ClassTypedArray:
		st := src.slots.(*typedArray)
		n, ok := st.length()
		if !ok {
			vm.throwTypeError("Cannot perform Construct on a detached ArrayBuffer")
		}
		o := vm.allocTypedArray(proto, kind, int64(n))
		t := o.slots.(*typedArray)
		if st.elem().bigint != e.bigint {
			vm.throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
		}
		if st.kind == kind {
			copy(t.bytes(), st.bytes())
		} else {
			for i := 0; i < n; i++ {
				t.put(i, st.at(i))
			}
		}
		return objectValue(o)
	case ClassArrayBuffer:
		return objectValue(vm.typedArrayOverBuffer(proto, kind, src, c.Arg(1), c.Arg(2)))
	}
	o := vm.newObject(proto, ClassTypedArray)
	defer vm.unpin(vm.pin(o))
	if m := vm.getMethod(first, symKey(symIterator)); !m.IsUndefined() {
		var vals []Value
		vm.iterate(vm.getIteratorFromMethod(first, m), func(v Value) bool {
			vals = append(vals, v)
			return true
		})
		vm.initTypedArray(o, kind, int64(len(vals)))
		for i, v := range vals {
			vm.typedArraySetElement(o, float64(i), v)
		}
		return objectValue(o)
	}
	n := vm.lengthOfArrayLike(src)
	vm.initTypedArray(o, kind, n)
	for i := int64(0); i < n; i++ {
		vm.typedArraySetElement(o, float64(i), vm.getIndex(src, i))
	}
	return objectValue(o)
}

// allocTypedArray makes a typed array of n elements over a new buffer.
func (vm *VM) allocTypedArray(proto *Object, kind elemKind, n int64) *Object {
	o := vm.newObject(proto, ClassTypedArray)
	vm.initTypedArray(o, kind, n)
	return o
}

// initTypedArray gives o (made by the caller) a new buffer of n elements.
func (vm *VM) initTypedArray(o *Object, kind elemKind, n int64) {
	size := int64(elemTypes[kind].size)
	if n > (1<<48)/size {
		vm.throwRangeError("Invalid typed array length: %d", n)
	}
	buf := vm.newArrayBuffer(vm.realm.Intrinsic("ArrayBuffer.prototype"), n*size, -1)
	o.slots = &typedArray{buffer: buf, kind: kind, fixed: int(n)}
}

// typedArrayOverBuffer is InitializeTypedArrayFromArrayBuffer.
func (vm *VM) typedArrayOverBuffer(proto *Object, kind elemKind, bo *Object, offsetArg, lengthArg Value) *Object {
	e := &elemTypes[kind]
	offset := vm.toIndexMsg(offsetArg, "Start offset "+vm.ToGoString(offsetArg)+" is outside the bounds of the buffer")
	if offset%int64(e.size) != 0 {
		vm.throwRangeError("start offset of %s should be a multiple of %d", e.name, e.size)
	}
	b := bo.slots.(*arrayBuffer)
	fixedBuffer := !b.resizable()
	newLength := int64(-1)
	if !lengthArg.IsUndefined() {
		newLength = vm.toIndexMsg(lengthArg, "Invalid typed array length: "+vm.ToGoString(lengthArg))
	}
	if b.detached {
		vm.throwTypeError("Cannot perform Construct on a detached ArrayBuffer")
	}
	bufLen := int64(len(b.data))
	t := &typedArray{buffer: bo, kind: kind, offset: int(offset), fixed: -1}
	switch {
	case newLength < 0 && !fixedBuffer:
		if offset > bufLen {
			vm.throwRangeError("Start offset %d is outside the bounds of the buffer", offset)
		}
	case newLength < 0:
		if bufLen%int64(e.size) != 0 {
			vm.throwRangeError("byte length of %s should be a multiple of %d", e.name, e.size)
		}
		if bufLen < offset {
			vm.throwRangeError("Start offset %d is outside the bounds of the buffer", offset)
		}
		t.fixed = int((bufLen - offset) / int64(e.size))
	default:
		if offset+newLength*int64(e.size) > bufLen {
			vm.throwRangeError("Invalid typed array length: %d", newLength)
		}
		t.fixed = int(newLength)
	}
	o := vm.newObject(proto, ClassTypedArray)
	o.slots = t
	return o
}

// thisTypedArray checks that v is a typed array (ValidateTypedArray without the bounds
// check) and returns it.
func (vm *VM) thisTypedArray(v Value) (*Object, *typedArray) {
	if o := v.asObject(); o != nil && o.class == ClassTypedArray {
		return o, o.slots.(*typedArray)
	}
	vm.throwTypeError("this is not a typed array.")
	return nil, nil
}

// validateTypedArray is ValidateTypedArray: v is a typed array inside its buffer; it
// returns the array and its length. method names the caller in the message.
func (vm *VM) validateTypedArray(v Value, method string) (*Object, *typedArray, int) {
	o, t := vm.thisTypedArray(v)
	n, ok := t.length()
	if !ok {
		vm.throwTypeError("Cannot perform %s on a detached ArrayBuffer", method)
	}
	return o, t, n
}

// typedArrayCreate is TypedArrayCreateFromConstructor: construct with args, check the
// result is a typed array in bounds and, for a single length argument, long enough.
func (vm *VM) typedArrayCreate(ctor Value, method string, args ...Value) (*Object, *typedArray) {
	r := vm.construct(ctor, nil, args...)
	o, t, n := vm.validateTypedArray(r, method)
	if len(args) == 1 && args[0].kind == KindNumber && float64(n) < args[0].num {
		vm.throwTypeError("Derived TypedArray constructor created an array which was too small")
	}
	return o, t
}

// typedArraySpeciesCreate is TypedArraySpeciesCreate(exemplar, args).
func (vm *VM) typedArraySpeciesCreate(exemplar *Object, method string, args ...Value) (*Object, *typedArray) {
	et := exemplar.slots.(*typedArray)
	def := objectValue(vm.realm.Intrinsic(et.elem().name))
	ctor := vm.speciesConstructor(exemplar, def)
	if ctor.asObject() == def.asObject() && len(args) == 1 {
		o := vm.allocTypedArray(vm.realm.Intrinsic(et.elem().name+".prototype"), et.kind, int64(args[0].num))
		return o, o.slots.(*typedArray)
	}
	o, t := vm.typedArrayCreate(ctor, method, args...)
	if t.elem().bigint != et.elem().bigint {
		vm.throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
	}
	return o, t
}

// typedArrayCreateSameType is TypedArrayCreateSameType(exemplar, length).
func (vm *VM) typedArrayCreateSameType(exemplar *typedArray, n int) (*Object, *typedArray) {
	e := exemplar.elem()
	o := vm.allocTypedArray(vm.realm.Intrinsic(e.name+".prototype"), exemplar.kind, int64(n))
	return o, o.slots.(*typedArray)
}

// typedArrayFrom is %TypedArray%.from(source, mapfn, thisArg).
func typedArrayFrom(vm *VM, c NativeCall) Value {
	if !IsConstructor(c.This) {
		vm.throwTypeError("%s is not a constructor", vm.describeForError(c.This))
	}
	mapfn, thisArg := c.Arg(1), c.Arg(2)
	mapping := !mapfn.IsUndefined()
	if mapping && !IsCallable(mapfn) {
		vm.throwTypeError("%s is not a function", vm.describeForError(mapfn))
	}
	source := c.Arg(0)
	var vals []Value
	var arrayLike *Object
	n := int64(0)
	if m := vm.getMethod(source, symKey(symIterator)); !m.IsUndefined() {
		vm.iterate(vm.getIteratorFromMethod(source, m), func(v Value) bool {
			vals = append(vals, v)
			return true
		})
		n = int64(len(vals))
	} else {
		arrayLike = vm.toObject(source)
		n = vm.lengthOfArrayLike(arrayLike)
	}
	o, _ := vm.typedArrayCreate(c.This, "%TypedArray%.from", Number(float64(n)))
	for k := int64(0); k < n; k++ {
		var v Value
		if arrayLike != nil {
			v = vm.getIndex(arrayLike, k)
		} else {
			v = vals[k]
		}
		if mapping {
			v = vm.Call(mapfn, thisArg, v, Number(float64(k)))
		}
		vm.setProp(o, indexKey(uint32(k)), v)
	}
	return objectValue(o)
}

// typedArrayOf is %TypedArray%.of(...items).
func typedArrayOf(vm *VM, c NativeCall) Value {
	if !IsConstructor(c.This) {
		vm.throwTypeError("%s is not a constructor", vm.describeForError(c.This))
	}
	items := append([]Value(nil), c.Args...)
	o, _ := vm.typedArrayCreate(c.This, "%TypedArray%.of", Number(float64(len(items))))
	for k, v := range items {
		vm.setProp(o, indexKey(uint32(k)), v)
	}
	return objectValue(o)
}

// NewUint8Array returns a new Uint8Array holding a copy of b (embedding API).
func (vm *VM) NewUint8Array(b []byte) Value {
	return objectValue(vm.newUint8Array(b))
}

// newUint8Array makes a Uint8Array over a new buffer holding a copy of b.
func (vm *VM) newUint8Array(b []byte) *Object {
	o := vm.allocTypedArray(vm.realm.Intrinsic("Uint8Array.prototype"), elemUint8, int64(len(b)))
	copy(o.slots.(*typedArray).bytes(), b)
	return o
}

// bytesOf returns a copy of the bytes a Uint8Array, another typed array, a DataView or an
// ArrayBuffer views (embedding API); ok is false for other values.
func (vm *VM) bytesOf(v Value) (b []byte, ok bool) {
	view, ok := viewBytes(v)
	if !ok {
		return nil, false
	}
	return append([]byte{}, view...), true
}

// Uint8ArrayBytes returns a copy of the bytes of a Uint8Array (embedding API); ok is false
// for any other value, other typed arrays included.
func (vm *VM) Uint8ArrayBytes(v Value) (b []byte, ok bool) {
	o := v.asObject()
	if o == nil || o.class != ClassTypedArray || o.slots.(*typedArray).kind != elemUint8 {
		return nil, false
	}
	return append([]byte{}, o.slots.(*typedArray).bytes()...), true
}

// viewBytes returns the bytes an ArrayBuffer, typed array or DataView covers now (shared,
// not copied); ok is false for other values.
func viewBytes(v Value) ([]byte, bool) {
	o := v.asObject()
	if o == nil {
		return nil, false
	}
	switch o.class {
	case ClassArrayBuffer:
		return o.slots.(*arrayBuffer).data, true
	case ClassTypedArray:
		return o.slots.(*typedArray).bytes(), true
	case ClassDataView:
		return o.slots.(*dataView).bytes(), true
	}
	return nil, false
}

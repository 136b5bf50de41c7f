package interp

// The structuredClone global: a deep copy following the HTML structured clone algorithm for
// the types the language has. Primitives are returned as they are; arrays (length and holes
// kept), plain objects and class instances (copied as plain objects: own enumerable string
// keys, read through getters), primitive wrappers, Date, RegExp, Map, Set and errors are
// copied, and so are ArrayBuffers, typed arrays and DataViews (views of one buffer share its
// copy), and shared or cyclic references stay shared in the copy. Symbols, functions and
// objects with other internal state (Promise, WeakMap, iterators, URL, ...) throw a
// DataCloneError. ArrayBuffers in the transfer option are moved into the copy and detached.

func init() {
	registerBuiltin("structuredClone", 50, func(r *Realm) {
		r.defineGlobal("structuredClone", objectValue(r.newFunction("structuredClone", "structuredClone", 0, globalStructuredClone)))
	})
}

// maxCloneDepth bounds the nesting of a structured clone (deeper input throws a RangeError).
const maxCloneDepth = 10000

// cloner is the state of one structuredClone call: the memory of copies made so far.
type cloner struct {
	vm    *VM
	memo  map[*Object]*Object
	depth int
}

// globalStructuredClone is structuredClone(value, options).
func globalStructuredClone(vm *VM, c NativeCall) Value {
	if len(c.Args) == 0 {
		vm.throwTypeError("The value argument must be specified")
	}
	cl := &cloner{vm: vm, memo: map[*Object]*Object{}}
	transferred := cl.transferList(c.Arg(1))
	v := cl.clone(c.Arg(0))
	for _, b := range transferred {
		b.detach()
	}
	return v
}

// transferList reads the transfer option as node 20 does: options and its transfer list may be
// null or undefined; a transfer list that is an object without an iterator is empty; each of
// its values must be an ArrayBuffer, listed once. Each buffer's copy takes over its bytes (the
// memo maps the buffer to it), and the buffers returned are detached once the clone is made,
// so that a clone that fails leaves them as they were.
func (cl *cloner) transferList(opts Value) []*arrayBuffer {
	vm := cl.vm
	if opts.IsNullish() {
		return nil
	}
	if opts.kind != KindObject {
		vm.throwTypeError("The options argument must be either an object or undefined")
	}
	list := vm.getProp(opts.obj(), strKey("transfer"))
	if list.IsNullish() {
		return nil
	}
	if list.kind != KindObject {
		vm.throwTypeError("Optional transferList argument must be an iterable")
	}
	if m := vm.getProp(list.obj(), symKey(symIterator)); m.kind != KindObject || !m.obj().isCallable() {
		return nil
	}
	var out []*arrayBuffer
	for _, item := range vm.iterableToList(list) {
		o := item.asObject()
		if o == nil || o.class != ClassArrayBuffer {
			vm.throwTypeError("Found invalid object in transferList")
		}
		if _, dup := cl.memo[o]; dup {
			vm.throw(vm.newDOMException("DataCloneError", "Transfer list contains duplicate ArrayBuffer"))
		}
		b := o.slots.(*arrayBuffer)
		nb := vm.newObject(vm.realm.Intrinsic("ArrayBuffer.prototype"), ClassArrayBuffer)
		nb.slots = &arrayBuffer{data: b.data, max: b.max, detached: b.detached}
		cl.memo[o] = nb
		out = append(out, b)
	}
	return out
}

// fail throws the DataCloneError for v.
func (cl *cloner) fail(v Value) {
	desc := v.String()
	if v.kind == KindObject {
		desc = cl.vm.describeReceiver(v)
		if v.obj().isCallable() && v.obj().class != ClassProxy {
			desc = cl.vm.describeObject(v) // V8 prints a function's source text
		}
		if proxiedArray(v.obj()) {
			desc = "[object Array]" // V8 names a proxy by its target's kind
		}
	}
	cl.vm.throw(cl.vm.newDOMException("DataCloneError", desc+" could not be cloned."))
}

// clone copies one value.
func (cl *cloner) clone(v Value) Value {
	switch v.kind {
	case KindSymbol:
		cl.fail(v)
	case KindObject:
		return objectValue(cl.cloneObject(v.obj()))
	}
	return v
}

// cloneObject copies an object, reusing the copy of an object seen before.
func (cl *cloner) cloneObject(o *Object) *Object {
	if c, ok := cl.memo[o]; ok {
		return c
	}
	vm := cl.vm
	cl.depth++
	defer func() { cl.depth-- }()
	if cl.depth > maxCloneDepth {
		vm.throwRangeError("Maximum call stack size exceeded")
	}
	if o.isCallable() {
		cl.fail(objectValue(o))
	}
	var out *Object
	switch o.class {
	case ClassArray:
		out = vm.newArray(nil)
		out.length = o.length
		cl.memo[o] = out
		cl.copyProps(o, out)
		return out
	case ClassObject, ClassArguments:
		if o.slots != nil {
			cl.fail(objectValue(o))
		}
		out = vm.newPlainObject()
		cl.memo[o] = out
		cl.copyProps(o, out)
		return out
	case ClassBoolean, ClassNumber, ClassString, ClassBigInt:
		out = vm.toObject(o.slots.(Value))
	case ClassDate:
		out = vm.newDate(o.slots.(*dateData).t)
	case ClassRegExp:
		rs, ok := o.slots.(*regexpSlots)
		if !ok {
			cl.fail(objectValue(o))
		}
		ctor := vm.realm.Intrinsic("RegExp")
		out = vm.construct(objectValue(ctor), ctor, stringValue(rs.source), asciiValue(rs.flags)).obj()
	case ClassError:
		out = cl.cloneError(o)
		return out
	case ClassMap, ClassSet:
		src := o.slots.(*collSlot).data
		data := newCollection(src.isMap)
		proto := "Set.prototype"
		if src.isMap {
			proto = "Map.prototype"
		}
		out = vm.newObject(vm.realm.Intrinsic(proto), o.class)
		out.slots = &collSlot{data: data}
		cl.memo[o] = out
		// copy a snapshot of the entries first: cloning may run getters that change o
		var keys, vals []Value
		for i, k := range src.keys {
			if k.kind == kindHole {
				continue
			}
			keys = append(keys, k)
			if src.isMap {
				vals = append(vals, src.vals[i])
			}
		}
		for i, k := range keys {
			ck := cl.clone(k)
			cv := undefinedValue
			if src.isMap {
				cv = cl.clone(vals[i])
			}
			data.set(vm, ck, cv)
		}
		return out
	case ClassArrayBuffer:
		b := o.slots.(*arrayBuffer)
		if b.detached {
			vm.throw(vm.newDOMException("DataCloneError", "An ArrayBuffer is detached and could not be cloned."))
		}
		out = vm.newArrayBuffer(vm.realm.Intrinsic("ArrayBuffer.prototype"), int64(len(b.data)), int64(b.max))
		copy(out.slots.(*arrayBuffer).data, b.data)
	case ClassTypedArray:
		t := o.slots.(*typedArray)
		if _, ok := t.length(); !ok {
			vm.throw(vm.newDOMException("DataCloneError", "An ArrayBuffer is detached and could not be cloned."))
		}
		buf := cl.cloneObject(t.buffer) // views of one buffer share its copy
		out = vm.newObject(vm.realm.Intrinsic(t.elem().name+".prototype"), ClassTypedArray)
		out.slots = &typedArray{buffer: buf, kind: t.kind, offset: t.offset, fixed: t.fixed}
	case ClassDataView:
		v := o.slots.(*dataView)
		if _, ok := v.byteLength(); !ok {
			vm.throw(vm.newDOMException("DataCloneError", "An ArrayBuffer is detached and could not be cloned."))
		}
		buf := cl.cloneObject(v.buffer)
		out = vm.newObject(vm.realm.Intrinsic("DataView.prototype"), ClassDataView)
		out.slots = &dataView{buffer: buf, offset: v.offset, fixed: v.fixed}
	default:
		cl.fail(objectValue(o))
	}
	cl.memo[o] = out
	return out
}

// copyProps copies the own enumerable string-keyed properties of src onto dst (values read
// with [[Get]], so getters run).
func (cl *cloner) copyProps(src, dst *Object) {
	vm := cl.vm
	for _, k := range vm.ownPropertyKeys(src) {
		if k.isSymbol() {
			continue
		}
		p, ok := vm.getOwnProperty(src, k)
		if !ok || !p.Enumerable {
			continue
		}
		v := cl.clone(vm.getProp(src, k))
		vm.createDataProperty(dst, k, v)
	}
}

// serializableErrors are the error names structuredClone keeps; others become "Error".
var serializableErrors = map[string]bool{"Error": true, "EvalError": true, "RangeError": true,
	"ReferenceError": true, "SyntaxError": true, "TypeError": true, "URIError": true}

// cloneError copies an error: its name (one of the standard ones), message, stack and cause.
func (cl *cloner) cloneError(o *Object) *Object {
	vm := cl.vm
	name := "Error"
	if n := vm.getProp(o, keyName); n.kind == KindString && serializableErrors[n.str().String()] {
		name = n.str().String()
	}
	out := vm.newObject(vm.realm.Intrinsic(name+".prototype"), ClassError)
	out.slots = &errorData{}
	cl.memo[o] = out
	// V8 reads the message first but gives the copy its stack first, as its errors have it
	msg, hasMsg := vm.getOwnProperty(o, keyMessage)
	var msgText Value
	if hasMsg && msg.HasValue {
		msgText = stringValue(vm.toString(msg.Value))
	}
	if s := vm.getProp(o, keyStack); s.kind == KindString {
		out.props.add(keyStack, Property{value: s, flags: propHidden})
	}
	if hasMsg && msg.HasValue {
		out.props.add(keyMessage, Property{value: msgText, flags: propHidden})
	}
	if d, ok := vm.getOwnProperty(o, keyCause); ok && d.HasValue {
		out.props.add(keyCause, Property{value: cl.clone(d.Value), flags: propHidden})
	}
	return out
}

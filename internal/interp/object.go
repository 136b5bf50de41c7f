package interp

import (
	"math"
	"slices"
)

// Object is a JavaScript object. Ordinary objects keep their own properties in an ordered
// propertyMap. Arrays additionally keep a dense element vector (elems) and their length; a
// String wrapper exposes its code units as read-only index properties. Everything else that
// makes an object special (a function's code, a Map's entries, a Date's time value, a
// primitive wrapper's value) lives in slots, a value of a type implementing internalSlots.
//
// Objects never hold Go closures: natives are named, closures are (program, function index,
// environment) data, so the whole heap can be encoded into a snapshot.
type Object struct {
	proto  *Object
	props  propertyMap
	elems  []Value // Array: elements [0, len(elems)); a hole means "look in props"
	slots  any     // internal slots; see internalSlots
	length uint32  // Array: the length property value (may exceed len(elems))
	class  Class
	flags  objFlags
	iid    uint16 // intrinsic id in the realm's table; 0 for objects the program creates
}

// Class tells what kind of object this is: its exotic behaviour and its internal slots.
// Built-in helpers add classes at the end of the list for their own objects.
type Class uint8

// Object classes.
const (
	ClassObject          Class = iota // ordinary object
	ClassArray                        // Array exotic object
	ClassFunction                     // any callable: native, closure, bound, class constructor
	ClassError                        // has [[ErrorData]]
	ClassBoolean                      // Boolean wrapper: slots is a Value (the boolean)
	ClassNumber                       // Number wrapper: slots is a Value (the number)
	ClassString                       // String wrapper exotic: slots is a Value (the string)
	ClassSymbol                       // Symbol wrapper: slots is a Value (the symbol)
	ClassArguments                    // arguments object (unmapped, strict)
	ClassDate                         // Date
	ClassRegExp                       // RegExp
	ClassMap                          // Map
	ClassSet                          // Set
	ClassWeakMap                      // WeakMap
	ClassWeakSet                      // WeakSet
	ClassPromise                      // Promise
	ClassIterator                     // built-in iterators and generator objects (slots say which)
	ClassURL                          // URL
	ClassURLSearchParams              // URLSearchParams
	ClassOther                        // any other object with internal slots
	ClassProxy                        // Proxy exotic object: slots is a *proxySlots (builtin_proxy.go)
	ClassArrayBuffer                  // ArrayBuffer: slots is an *arrayBuffer
	ClassTypedArray                   // integer-indexed exotic object: slots is a *typedArray
	ClassDataView                     // DataView: slots is a *dataView
	ClassBigInt                       // BigInt wrapper: slots is a Value (the BigInt)
)

var classNames = [...]string{
	ClassObject: "Object", ClassArray: "Array", ClassFunction: "Function", ClassError: "Error",
	ClassBoolean: "Boolean", ClassNumber: "Number", ClassString: "String", ClassSymbol: "Symbol",
	ClassArguments: "Arguments", ClassDate: "Date", ClassRegExp: "RegExp", ClassMap: "Map",
	ClassSet: "Set", ClassWeakMap: "WeakMap", ClassWeakSet: "WeakSet", ClassPromise: "Promise",
	ClassIterator: "Iterator", ClassURL: "URL", ClassURLSearchParams: "URLSearchParams",
	ClassOther: "Object", ClassProxy: "Proxy", ClassArrayBuffer: "ArrayBuffer", ClassTypedArray: "TypedArray",
	ClassDataView: "DataView", ClassBigInt: "BigInt",
}

// String returns the class name ("Array").
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Object"
}

// objFlags are object-level bits.
type objFlags uint8

const (
	objExtensible     objFlags = 1 << iota // [[Extensible]]
	objCallable                            // has [[Call]]
	objConstructor                         // has [[Construct]]
	objLengthReadOnly                      // Array: length is not writable
	objPlaceholders                        // a built-in that may hold placeholders (realm_lazy.go)

	// objProgramFlags are the flags a program can observe and snapshots write.
	objProgramFlags = objExtensible | objCallable | objConstructor | objLengthReadOnly
)

func (o *Object) className() string {
	if o.class == ClassProxy {
		return "Object" // messages name a proxy as V8 does, like a plain object
	}
	return o.class.String()
}

// programFlags returns o's flags but the interpreter's own marks.
func (o *Object) programFlags() objFlags { return o.flags & objProgramFlags }

// isCallable reports whether o has [[Call]].
func (o *Object) isCallable() bool { return o.flags&objCallable != 0 }

// isConstructor reports whether o has [[Construct]].
func (o *Object) isConstructor() bool { return o.flags&objConstructor != 0 }

// extensible reports [[Extensible]].
func (o *Object) extensible() bool { return o.flags&objExtensible != 0 }

// getOwn returns the own property for key ([[GetOwnProperty]]), including the virtual
// properties of arrays (elements, length) and String wrappers (indices, length).
func (o *Object) getOwn(key PropertyKey) (Property, bool) {
	switch o.class {
	case ClassArray:
		if idx, ok := key.arrayIndex(); ok {
			if int64(idx) < int64(len(o.elems)) && !o.elems[idx].isHole() {
				return Property{value: o.elems[idx], flags: propDefault}, true
			}
		} else if key == keyLength {
			f := propFlags(0)
			if o.flags&objLengthReadOnly == 0 {
				f = propWritable
			}
			return Property{value: Number(float64(o.length)), flags: f}, true
		}
	case ClassString:
		s := o.slots.(Value).str()
		if idx, ok := key.arrayIndex(); ok && int64(idx) < int64(s.Len()) {
			return Property{value: stringValue(s.substring(int(idx), int(idx)+1)), flags: propEnumerable}, true
		}
		if key == keyLength {
			return Property{value: intValue(s.Len())}, true
		}
	case ClassTypedArray:
		if idx, ok := canonicalNumericKey(key); ok {
			return typedArrayOwn(o, idx)
		}
	}
	if p := o.props.peek(key); p != nil {
		q := *p
		q.value = o.dataValue(q.value) // a placeholder (realm_lazy.go) is never seen
		return q, true
	}
	return Property{}, false
}

// hasOwn reports whether o has an own property key.
func (o *Object) hasOwn(key PropertyKey) bool {
	_, ok := o.getOwn(key)
	return ok
}

// ownKeys returns the own property keys in ECMAScript order ([[OwnPropertyKeys]]): array
// indices ascending, then other strings in insertion order, then symbols in insertion order.
func (o *Object) ownKeys() []PropertyKey {
	var ints []uint32
	switch o.class {
	case ClassArray:
		for i, v := range o.elems {
			if !v.isHole() {
				ints = append(ints, uint32(i))
			}
		}
	case ClassString:
		n := o.slots.(Value).str().Len()
		for i := 0; i < n; i++ {
			ints = append(ints, uint32(i))
		}
	case ClassTypedArray:
		n, _ := o.slots.(*typedArray).length()
		for i := 0; i < n; i++ {
			ints = append(ints, uint32(i))
		}
	}
	nInts := len(ints)
	for _, k := range o.props.keys {
		if idx, ok := k.arrayIndex(); ok {
			ints = append(ints, idx)
		}
	}
	if len(ints) > nInts {
		slices.Sort(ints)
	}
	keys := make([]PropertyKey, 0, len(ints)+o.props.len()+1)
	for _, i := range ints {
		keys = append(keys, indexKey(i))
	}
	if o.class == ClassArray || o.class == ClassString {
		keys = append(keys, keyLength)
	}
	for _, k := range o.props.keys {
		if k.sym == nil {
			if _, ok := k.arrayIndex(); !ok {
				keys = append(keys, k)
			}
		}
	}
	for _, k := range o.props.keys {
		if k.sym != nil {
			keys = append(keys, k)
		}
	}
	return keys
}

// setOwnData writes the value of an existing writable own data property or creates a default
// data property; it is the fast path of [[Set]] when the caller knows that no setter or
// read-only property is in the way. It returns false when the write is refused.
func (o *Object) setOwnData(key PropertyKey, v Value) bool {
	if o.class == ClassArray {
		if idx, ok := key.arrayIndex(); ok {
			return o.setElement(idx, v)
		}
	}
	if p := o.props.get(key); p != nil {
		if p.isAccessor() || !p.writable() {
			return false
		}
		p.value = v
		return true
	}
	if !o.extensible() {
		return false
	}
	o.props.add(key, Property{value: v, flags: propDefault})
	return true
}

// maxDenseGap is how far past the end of an array's dense storage a write may land and still
// grow the storage (elements); writes further out go to the property map (sparse).
const maxDenseGap = 1024

// maxDenseLength is the cap on an array's dense storage (elements), as docs/language.md states.
const maxDenseLength = 10_000_000

// setElement writes element idx of an array as a default data property (growing length),
// honouring non-writable length and non-extensible arrays. It returns false when refused.
func (o *Object) setElement(idx uint32, v Value) bool {
	n := uint32(len(o.elems))
	if idx < n {
		if !o.elems[idx].isHole() {
			o.elems[idx] = v
			return true
		}
		if p := o.props.get(indexKey(idx)); p != nil {
			if p.isAccessor() || !p.writable() {
				return false
			}
			p.value = v
			return true
		}
	}
	if idx >= o.length && o.flags&objLengthReadOnly != 0 {
		return false
	}
	if !o.extensible() {
		return false
	}
	if idx < n {
		o.elems[idx] = v
	} else if idx-n <= maxDenseGap && idx < maxDenseLength {
		for len(o.elems) < int(idx) {
			o.elems = append(o.elems, holeValue)
		}
		o.elems = append(o.elems, v)
	} else {
		o.props.add(indexKey(idx), Property{value: v, flags: propDefault})
	}
	if idx >= o.length {
		o.length = idx + 1
	}
	return true
}

// setArrayLength applies ArraySetLength for a new length value already validated as a uint32:
// elements at or above newLen are deleted, from the end, stopping at a non-configurable one.
// It returns false when some element could not be deleted (length then stays above it).
func (o *Object) setArrayLength(newLen uint32) bool {
	if newLen >= o.length {
		o.length = newLen
		return true
	}
	ok := true
	// sparse elements in props (deleted from the highest down)
	var sparse []uint32
	for _, k := range o.props.keys {
		if idx, isIdx := k.arrayIndex(); isIdx && idx >= newLen {
			sparse = append(sparse, idx)
		}
	}
	slices.Sort(sparse)
	for i := len(sparse) - 1; i >= 0; i-- {
		k := indexKey(sparse[i])
		if p := o.props.get(k); p != nil && !p.configurable() {
			newLen = sparse[i] + 1
			ok = false
			break
		}
		o.props.remove(k)
	}
	if int64(newLen) < int64(len(o.elems)) {
		clear(o.elems[newLen:])
		o.elems = o.elems[:newLen]
	}
	o.length = newLen
	return ok
}

// keyLength and other frequently used keys.
var (
	keyLength       = strKey("length")
	keyPrototype    = strKey("prototype")
	keyConstructor  = strKey("constructor")
	keyName         = strKey("name")
	keyMessage      = strKey("message")
	keyCause        = strKey("cause")
	keyStack        = strKey("stack")
	keyValue        = strKey("value")
	keyDone         = strKey("done")
	keyNext         = strKey("next")
	keyToString     = strKey("toString")
	keyValueOf      = strKey("valueOf")
	keyGet          = strKey("get")
	keySet          = strKey("set")
	keyWritable     = strKey("writable")
	keyEnumerable   = strKey("enumerable")
	keyConfigurable = strKey("configurable")
	keyReturn       = strKey("return")
	keyThen         = strKey("then")
	keyErrors       = strKey("errors")
)

// defineOwn is ValidateAndApplyPropertyDescriptor on o's own property key
// ([[DefineOwnProperty]] for ordinary objects, with the array and String exotic rules).
// It never calls into JavaScript; it returns false when the definition is refused.
func (o *Object) defineOwn(key PropertyKey, d PropertyDescriptor) bool {
	o.resolveKey(key) // a placeholder (realm_lazy.go) is written back before a change
	switch o.class {
	case ClassArray:
		if key == keyLength {
			return o.defineArrayLength(d)
		}
		if idx, ok := key.arrayIndex(); ok {
			if idx >= o.length && o.flags&objLengthReadOnly != 0 {
				return false
			}
			// plain data definitions of elements stay in dense storage
			if int64(idx) < int64(len(o.elems)) && !o.elems[idx].isHole() {
				if d.isAccessor() || (d.HasWritable && !d.Writable) || (d.HasEnumerable && !d.Enumerable) || (d.HasConfigurable && !d.Configurable) {
					// move the element to the property map, then apply there
					v := o.elems[idx]
					o.elems[idx] = holeValue
					o.props.add(key, Property{value: v, flags: propDefault})
				} else {
					if d.HasValue {
						o.elems[idx] = d.Value
					}
					return true
				}
			} else if o.props.get(key) == nil {
				if !o.extensible() {
					return false
				}
				if !d.isAccessor() && d.Writable && d.Enumerable && d.Configurable && d.HasWritable && d.HasEnumerable && d.HasConfigurable {
					v := d.Value
					return o.setElement(idx, v)
				}
			}
			if !o.applyDescriptor(key, d) {
				return false
			}
			if idx >= o.length {
				o.length = idx + 1
			}
			return true
		}
	case ClassString:
		if p, ok := o.getOwn(key); ok && (key == keyLength || o.props.get(key) == nil) {
			return isCompatibleDescriptor(false, d, &p)
		}
	case ClassTypedArray:
		if idx, ok := canonicalNumericKey(key); ok {
			return typedArrayDefineOwn(o, idx, d)
		}
	}
	return o.applyDescriptor(key, d)
}

// applyDescriptor is ValidateAndApplyPropertyDescriptor against the property map.
func (o *Object) applyDescriptor(key PropertyKey, d PropertyDescriptor) bool {
	cur := o.props.get(key)
	if cur == nil {
		if !o.extensible() {
			return false
		}
		var p Property
		if d.isAccessor() {
			p = accessorProperty(d.Get.asObject(), d.Set.asObject(), 0)
		} else {
			p.value = d.Value
			if d.Writable {
				p.flags |= propWritable
			}
		}
		if d.Enumerable {
			p.flags |= propEnumerable
		}
		if d.Configurable {
			p.flags |= propConfigurable
		}
		o.props.add(key, p)
		return true
	}
	if !isCompatibleDescriptor(o.extensible(), d, cur) {
		return false
	}
	// apply
	if d.isAccessor() && !cur.isAccessor() {
		*cur = accessorProperty(nil, nil, cur.flags&^propWritable)
	} else if d.isData() && cur.isAccessor() {
		*cur = Property{flags: cur.flags &^ propAccessor}
	}
	if d.HasValue {
		cur.value = d.Value
	}
	if d.HasGet || d.HasSet {
		get, set := cur.getter(), cur.setter()
		if d.HasGet {
			get = d.Get.asObject()
		}
		if d.HasSet {
			set = d.Set.asObject()
		}
		cur.setAccessors(get, set)
	}
	setFlag := func(has, val bool, f propFlags) {
		if has {
			if val {
				cur.flags |= f
			} else {
				cur.flags &^= f
			}
		}
	}
	setFlag(d.HasWritable, d.Writable, propWritable)
	setFlag(d.HasEnumerable, d.Enumerable, propEnumerable)
	setFlag(d.HasConfigurable, d.Configurable, propConfigurable)
	return true
}

// isCompatibleDescriptor is the validation half of ValidateAndApplyPropertyDescriptor for an
// existing property cur.
func isCompatibleDescriptor(_ bool, d PropertyDescriptor, cur *Property) bool {
	if cur.configurable() {
		return true
	}
	if d.HasConfigurable && d.Configurable {
		return false
	}
	if d.HasEnumerable && d.Enumerable != cur.enumerable() {
		return false
	}
	if !d.isAccessor() && !d.isData() {
		return true // generic descriptor
	}
	if d.isAccessor() != cur.isAccessor() {
		return false
	}
	if cur.isAccessor() {
		if d.HasGet && d.Get.asObject() != cur.getter() {
			return false
		}
		if d.HasSet && d.Set.asObject() != cur.setter() {
			return false
		}
		return true
	}
	if !cur.writable() {
		if d.HasWritable && d.Writable {
			return false
		}
		if d.HasValue && !SameValue(d.Value, cur.value) {
			return false
		}
	}
	return true
}

// defineArrayLength applies a descriptor to an array's length (ArraySetLength); the value, if
// any, must already be converted to a valid uint32 number by the caller.
func (o *Object) defineArrayLength(d PropertyDescriptor) bool {
	if d.isAccessor() || (d.HasConfigurable && d.Configurable) || (d.HasEnumerable && d.Enumerable) {
		return false
	}
	readOnly := o.flags&objLengthReadOnly != 0
	if d.HasValue {
		n := d.Value.num
		newLen := uint32(n)
		if readOnly && newLen != o.length {
			return false
		}
		if readOnly && d.HasWritable && d.Writable {
			return false
		}
		ok := o.setArrayLength(newLen)
		if d.HasWritable && !d.Writable {
			o.flags |= objLengthReadOnly
		}
		return ok
	}
	if d.HasWritable {
		if d.Writable && readOnly {
			return false
		}
		if !d.Writable {
			o.flags |= objLengthReadOnly
		}
	}
	return true
}

// deleteOwn removes an own property ([[Delete]]); false when it is non-configurable.
func (o *Object) deleteOwn(key PropertyKey) bool {
	switch o.class {
	case ClassArray:
		if key == keyLength {
			return false
		}
		if idx, ok := key.arrayIndex(); ok && int64(idx) < int64(len(o.elems)) && !o.elems[idx].isHole() {
			o.elems[idx] = holeValue
			if int(idx) == len(o.elems)-1 {
				o.elems = o.elems[:idx]
			}
			return true
		}
	case ClassString:
		if p, ok := o.getOwn(key); ok && !p.configurable() && o.props.get(key) == nil {
			return false
		}
	case ClassTypedArray:
		if idx, ok := canonicalNumericKey(key); ok {
			return !o.slots.(*typedArray).validIndex(idx)
		}
	}
	o.resolveAll() // a snapshot lists every property of a built-in with one deleted
	p := o.props.get(key)
	if p == nil {
		return true
	}
	if !p.configurable() {
		return false
	}
	o.props.remove(key)
	return true
}

// preventExtensions clears [[Extensible]].
func (o *Object) preventExtensions() { o.flags &^= objExtensible }

// setIntegrity implements SetIntegrityLevel (sealed, or frozen when freeze is true). Array
// elements move to the property map so that they can carry their own attributes.
func (o *Object) setIntegrity(freeze bool) {
	o.resolveAll() // a snapshot writes every property whose attributes change
	o.preventExtensions()
	if o.class == ClassArray {
		for i, v := range o.elems {
			if !v.isHole() {
				o.props.add(indexKey(uint32(i)), Property{value: v, flags: propDefault})
			}
		}
		o.elems = nil
		if freeze {
			o.flags |= objLengthReadOnly
		}
	}
	for i := range o.props.props {
		p := o.props.at(i)
		p.flags &^= propConfigurable
		if freeze && !p.isAccessor() {
			p.flags &^= propWritable
		}
	}
}

// testIntegrity implements TestIntegrityLevel (without listing the keys).
func (o *Object) testIntegrity(frozen bool) bool {
	if o.extensible() {
		return false
	}
	switch o.class {
	case ClassArray:
		for _, v := range o.elems {
			if !v.isHole() {
				return false // dense elements are writable and configurable
			}
		}
		if frozen && o.flags&objLengthReadOnly == 0 {
			return false
		}
	case ClassString:
		// indices are read-only and non-configurable; length too
	case ClassTypedArray:
		if n, _ := o.slots.(*typedArray).length(); n > 0 {
			return false // elements are writable and configurable
		}
	}
	for i := range o.props.props {
		p := &o.props.props[i]
		if p.configurable() {
			return false
		}
		if frozen && !p.isAccessor() && p.writable() {
			return false
		}
	}
	return true
}

// setPrototype is OrdinarySetPrototypeOf: false when o is not extensible or a cycle would form.
func (o *Object) setPrototype(p *Object) bool {
	if p == o.proto {
		return true
	}
	if !o.extensible() {
		return false
	}
	for q := p; q != nil; q = q.proto {
		if q == o {
			return false
		}
	}
	o.proto = p
	return true
}

// validArrayLength reports whether f is a valid array length (a uint32 integer).
func validArrayLength(f float64) bool {
	return f >= 0 && f <= math.MaxUint32 && f == math.Trunc(f)
}

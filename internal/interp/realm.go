package interp

import (
	"fmt"
	"hash/maphash"
	"maps"
	"reflect"
	"sort"
	"strconv"
	"sync"
)

// How to add a built-in
//
// Every global of the language is installed by one setup function registered in the builtins
// table below. A file builtin_<global>.go does three things:
//
//  1. an init function registers the global: registerBuiltin("Boolean", 20, setupBoolean);
//     setups run in ascending order, then by name (core prototypes such as Object.prototype,
//     Function.prototype, Array.prototype, Error.prototype and %IteratorPrototype% already
//     exist as empty objects on the Realm before any setup runs, so order rarely matters);
//  2. the setup function builds the constructor and prototype with the Realm helpers:
//     r.newConstructor(name, length, fn, proto) for a constructor (it links
//     constructor.prototype and prototype.constructor), r.method(holder, "name", length, fn)
//     for each method, r.getter(holder, key, fn) / r.accessor(holder, key, get, set) for
//     accessors, r.symbolMethod for [Symbol.xxx] methods, r.value(holder, key, v, flags) for
//     data properties, and r.defineGlobal(name, v) for the global binding;
//  3. natives have the signature NativeFunc: func(vm *VM, c NativeCall) Value. They read
//     arguments with c.Arg(i), convert with vm.toString/vm.toNumber/..., throw with
//     vm.throwTypeError(...) (which panics with *Exception and unwinds to the VM), and call
//     back into JavaScript with vm.Call(fn, this, args...). They must not keep c.Args.
//
// Every native function object gets a stable name made from where it is installed:
// "Boolean", "Boolean.prototype.toString", "get Map.prototype.size",
// "Array.prototype[Symbol.iterator]". Snapshots refer to built-in objects by these names, so
// never rename an installed built-in. Objects that are not reachable by a property path but
// are intrinsics (%ArrayIteratorPrototype%, ...) are named with r.addIntrinsic(name, obj).
// Native functions created at run time (promise resolving functions, ...) are declared at
// package level with registerNative(name, fn) and instantiated with
// vm.newNativeFunction(native, name, length); their internal state lives in the function
// object's slots, never in a Go closure. See builtin_boolean.go for a small complete example.
//
// Internal state: an object's internal slots (Object.slots) hold a primitive Value
// (wrappers), a *nativeFunction, or a type implementing slotCodec (registered with
// registerSlotType in an init function) so that snapshots can carry it and the memory walk
// can measure it. Setups run once per process: later realms are clones of the first one, so
// a built-in object that keeps state in its slots (Math's random generator, console's
// counters) must hold either plain data (a pointer to a struct of numbers, booleans and
// strings, copied automatically) or a type implementing slotCloner; such an intrinsic's slot
// is written into every snapshot. TestRealmCloneIsolation fails when a built-in breaks this.
// Code that lists keys should use vm.ownPropertyKeys (it charges the heap budget and refuses
// absurd sizes) rather than Object.ownKeys.
//
// Built-in objects are created lazily in realms cloned from the template (realm_lazy.go): a
// data property of a built-in may hold a placeholder until it is read. Read built-ins'
// properties with getOwn, vm.getProp and the like; code that reads one straight from the
// property map (props.peek) must pass the value through o.dataValue, and code that changes
// its attributes through defineOwn.

// NativeFunc is the Go implementation of a built-in function. It returns the result; it
// throws by panicking with *Exception (vm.throw, vm.throwTypeError, ...).
type NativeFunc func(vm *VM, c NativeCall) Value

// NativeCall carries the arguments of one call of a native function.
type NativeCall struct {
	This      Value   // the this value (undefined for plain calls)
	Args      []Value // the arguments; borrowed from the VM: do not keep
	NewTarget *Object // new.target when called as a constructor, nil for [[Call]]
	Callee    *Object // the function object being called (its slots hold any state)
}

// Arg returns argument i, or undefined when absent.
func (c *NativeCall) Arg(i int) Value {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return undefinedValue
}

// nativeFunction is the internal slot data of a native function object.
type nativeFunction struct {
	name string // stable name, unique in the process (registry key / intrinsic name)
	fn   NativeFunc
	data any // per-instance state of run-time natives (encoded by the snapshot codec)
}

// builtinDef is one entry of the builtins table.
type builtinDef struct {
	name  string
	order int
	setup func(r *Realm)
}

var (
	builtinsMu sync.Mutex
	builtins   []builtinDef
	natives    = map[string]*nativeFunction{}
)

// registerBuiltin adds a global's setup function to the builtins table. order sorts setups
// (lower first; 0-9 core, 10-49 language built-ins, 50+ host-facing globals); call it from
// an init function.
func registerBuiltin(name string, order int, setup func(r *Realm)) {
	builtinsMu.Lock()
	defer builtinsMu.Unlock()
	builtins = append(builtins, builtinDef{name: name, order: order, setup: setup})
	sort.SliceStable(builtins, func(i, j int) bool {
		if builtins[i].order != builtins[j].order {
			return builtins[i].order < builtins[j].order
		}
		return builtins[i].name < builtins[j].name
	})
}

// registerNative declares a native function created at run time (not installed on a
// built-in object) under a stable name, so that snapshots can restore it; call it in a
// package-level var declaration.
func registerNative(name string, fn NativeFunc) *nativeFunction {
	builtinsMu.Lock()
	defer builtinsMu.Unlock()
	if _, dup := natives[name]; dup {
		panic("interp: duplicate native " + name)
	}
	n := &nativeFunction{name: name, fn: fn}
	natives[name] = n
	return n
}

// newNativeByName instantiates the run-time native registered under name (see
// registerNative) as a function object with the given name and length property. Natives that
// create each other can use it to avoid package initialization cycles: register them from an
// init function and refer to them by name.
func (vm *VM) newNativeByName(name, display string, length int) *Object {
	n := lookupNative(name)
	if n == nil {
		panic("interp: no native registered as " + name)
	}
	return vm.newNativeFunction(n, display, length)
}

// lookupNative finds a run-time native by its stable name.
func lookupNative(name string) *nativeFunction {
	builtinsMu.Lock()
	defer builtinsMu.Unlock()
	return natives[name]
}

// Realm holds the intrinsic objects of one VM: the core prototypes as fields, and every named
// intrinsic in a table indexed by the object's intrinsic id (Object.iid), with the names
// shared by all realms of the process.
//
// Realms are cloned: the first realm of the process (the template) is built by running every
// registered setup; every other realm copies the template's objects into one slab with their
// references remapped, which is much cheaper than re-running the setups. The template is
// never run and never changes; it is also the pristine reference that snapshots diff
// intrinsics against. Clones share the template's property keys, hash indexes and
// reference-free properties copy-on-write (realm_share.go): write a property only through a
// pointer from propertyMap.get or at, never through &o.props.props[i]. Clones made by New
// create most intrinsics on first use (realm_lazy.go); objs.at(iid) is nil until then.
type Realm struct {
	vm     *VM
	Global *Object

	ObjectPrototype   *Object
	FunctionPrototype *Object
	ArrayPrototype    *Object

	// In a realm cloned by New, the fields below are nil until first use: read them through
	// errorPrototype, iteratorPrototype, arrayIteratorPrototype and arrayConstructor.
	ErrorPrototype         *Object
	IteratorPrototype      *Object // %IteratorPrototype%, named "Iterator.prototype"
	AsyncIteratorPrototype *Object // %AsyncIteratorPrototype%
	ArrayIteratorPrototype *Object // %ArrayIteratorPrototype%
	ObjectConstructor      *Object
	ArrayConstructor       *Object

	objs           intrinsicObjs      // intrinsics by iid; id 0 is nil
	primIDs        [3]uint16          // iids of the primitiveProto names, 0 until looked up
	names          *intrinsicTable    // names by iid; shared once the realm is complete
	symbolRegistry map[string]*Symbol // Symbol.for, by key (WTF-8)

	// template only (see freeze): the frozen storage that clones share, by iid, the number
	// of properties that clones copy, and what lazy clones need (nil: clones copy everything).
	shared      []sharedProps
	copiedProps int
	plan        *lazyPlan

	// lazy clones only (realm_lazy.go): the template (nil for a realm with every intrinsic
	// created)
	tmpl *Realm
}

// intrinsicTable names intrinsics by id. It is written while the template realm is set up
// and only read afterwards.
type intrinsicTable struct {
	names []string          // primary name by iid; names[0] is ""
	index map[string]uint16 // every name (aliases too) to its iid, while setups run

	// once complete (see complete): every name sorted, its iid, and a hash table
	// (hash_index.go) of positions in sorted, which the collector need not scan
	sorted    []string
	sortedIDs []uint16
	lookup    []uint64
}

// intrinsicNameSeed is the seed of the hashes of intrinsic names, random per process.
var intrinsicNameSeed = maphash.MakeSeed()

// find returns the iid of the intrinsic named name.
func (t *intrinsicTable) find(name string) (uint16, bool) {
	if t.index != nil {
		id, ok := t.index[name]
		return id, ok
	}
	h := maphash.String(intrinsicNameSeed, name)
	for i := hashHome(t.lookup, h); ; i = hashNext(t.lookup, i) {
		var w uint64
		if i, w = hashSeek(t.lookup, i, h); w == 0 {
			return 0, false
		}
		if p := hashPos(w); t.sorted[p] == name {
			return t.sortedIDs[p], true
		}
	}
}

// complete ends the setups: the names are sorted and the map gives way to the hash table.
func (t *intrinsicTable) complete() {
	t.sorted = make([]string, 0, len(t.index))
	for n := range t.index {
		t.sorted = append(t.sorted, n)
	}
	sort.Strings(t.sorted)
	t.sortedIDs = make([]uint16, len(t.sorted))
	t.lookup = make([]uint64, hashSlotsFor(len(t.sorted)))
	for i, n := range t.sorted {
		t.sortedIDs[i] = t.index[n]
		hashPlace(t.lookup, hashSlot(maphash.String(intrinsicNameSeed, n), i))
	}
	t.index = nil
}

// maxIntrinsics is the number of intrinsic ids available (Object.iid is a uint16).
const maxIntrinsics = 1<<16 - 1

// templateRealm builds the process's template realm once.
var templateRealm = sync.OnceValue(func() *Realm {
	vm := &VM{}
	r := buildRealm(vm)
	r.freeze()
	r.plan = newLazyPlan(r)
	return r
})

// referenceRealm is the pristine realm that intrinsic diffs compare against: the template.
func referenceRealm() *Realm { return templateRealm() }

// newRealm gives vm its realm: a clone of the template (or, if some built-in object cannot
// be cloned, a realm built by running the setups).
func newRealm(vm *VM) *Realm {
	t := templateRealm()
	if t.plan != nil {
		r := t.cloneLazy()
		vm.realm = r
		return r
	}
	if r := t.clone(vm); r != nil {
		vm.realm = r
		return r
	}
	return buildRealm(vm)
}

// buildRealm creates the intrinsics by running every registered setup.
func buildRealm(vm *VM) *Realm {
	r := &Realm{vm: vm, objs: makeIntrinsicObjs(1, 512),
		names:          &intrinsicTable{names: []string{""}, index: map[string]uint16{}},
		symbolRegistry: map[string]*Symbol{}}
	vm.realm = r
	r.ObjectPrototype = r.namedObject("Object.prototype", nil)
	r.FunctionPrototype = r.namedObject("Function.prototype", r.ObjectPrototype)
	r.FunctionPrototype.class = ClassFunction
	r.FunctionPrototype.flags |= objCallable
	r.FunctionPrototype.slots = functionPrototypeNative
	r.ArrayPrototype = r.namedObject("Array.prototype", r.ObjectPrototype)
	r.ArrayPrototype.class = ClassArray
	r.ErrorPrototype = r.namedObject("Error.prototype", r.ObjectPrototype)
	r.IteratorPrototype = r.namedObject("Iterator.prototype", r.ObjectPrototype)
	r.AsyncIteratorPrototype = r.namedObject("%AsyncIteratorPrototype%", r.ObjectPrototype)
	r.ArrayIteratorPrototype = r.namedObject("%ArrayIteratorPrototype%", r.IteratorPrototype)
	r.Global = r.namedObject("globalThis", r.ObjectPrototype)
	r.value(r.Global, strKey("globalThis"), objectValue(r.Global), propHidden)
	builtinsMu.Lock()
	defs := append([]builtinDef(nil), builtins...)
	builtinsMu.Unlock()
	for _, d := range defs {
		d.setup(r)
	}
	r.nameReachable()
	r.names.complete()
	return r
}

// functionPrototypeNative is the behaviour of Function.prototype: callable, returns undefined.
var functionPrototypeNative = &nativeFunction{name: "Function.prototype", fn: func(*VM, NativeCall) Value { return undefinedValue }}

// slotCloner is implemented by internal slot types that built-in objects hold, so that realm
// cloning can copy them; remap translates template objects to the clone's.
type slotCloner interface {
	cloneSlot(remap func(*Object) *Object) any
}

// cloneSymbolRegistry returns a copy of the template's Symbol.for registry for a clone.
func (t *Realm) cloneSymbolRegistry() map[string]*Symbol {
	if len(t.symbolRegistry) == 0 {
		return map[string]*Symbol{}
	}
	return maps.Clone(t.symbolRegistry)
}

// clone copies the template realm's objects for vm. It returns nil when some object holds a
// reference or slot it cannot copy (the caller then builds the realm from the setups).
//
// Property keys (with their hash indexes) and the properties of objects that refer to no
// object are not copied: the clone shares them with the template through the frozen store
// (copy-on-write, see propertyMap), so only the objects and the properties that refer to
// other objects are.
func (t *Realm) clone(vm *VM) *Realm {
	n := t.objs.len()
	if len(t.shared) != n {
		return nil // not a frozen template
	}
	slab := make([]Object, n)
	r := &Realm{vm: vm, names: t.names, objs: makeIntrinsicObjs(n, n), symbolRegistry: t.cloneSymbolRegistry()}
	for i := 1; i < n; i++ {
		r.objs.set(i, &slab[i])
	}
	ok := true
	remap := func(o *Object) *Object {
		if o == nil {
			return nil
		}
		if o.iid == 0 || int(o.iid) >= n || t.objs.at(int(o.iid)) != o {
			ok = false
			return nil
		}
		return r.objs.at(int(o.iid))
	}
	props := make([]Property, t.copiedProps)
	for i := 1; i < n && ok; i++ {
		if !t.copyIntrinsic(i, r.objs.at(i), &props, remap) {
			return nil
		}
	}
	if !ok {
		return nil
	}
	r.Global = remap(t.Global)
	r.ObjectPrototype = remap(t.ObjectPrototype)
	r.FunctionPrototype = remap(t.FunctionPrototype)
	r.ArrayPrototype = remap(t.ArrayPrototype)
	r.ErrorPrototype = remap(t.ErrorPrototype)
	r.IteratorPrototype = remap(t.IteratorPrototype)
	r.AsyncIteratorPrototype = remap(t.AsyncIteratorPrototype)
	r.ArrayIteratorPrototype = remap(t.ArrayIteratorPrototype)
	r.ObjectConstructor = remap(t.ObjectConstructor)
	r.ArrayConstructor = remap(t.ArrayConstructor)
	if !ok {
		return nil
	}
	return r
}

// copyIntrinsic copies the template's intrinsic iid into dst, its references translated by
// remap; the properties that clones do not share are cut from *props. It reports false when
// some slot cannot be copied.
func (t *Realm) copyIntrinsic(iid int, dst *Object, props *[]Property, remap func(*Object) *Object) bool {
	src, sh := t.objs.at(iid), &t.shared[iid]
	dst.proto = remap(src.proto)
	dst.class, dst.flags, dst.length, dst.iid = src.class, src.flags, src.length, src.iid
	dst.props.keys, dst.props.index = sh.keys, sh.index
	if sh.props != nil || len(sh.keys) == 0 {
		dst.props.props = sh.props
	} else {
		k := len(sh.keys)
		dst.props.props = (*props)[:k:k]
		*props = (*props)[k:]
		for j := range src.props.props {
			p := &src.props.props[j]
			q := &dst.props.props[j]
			q.flags = p.flags
			switch p.value.kind {
			case KindObject:
				q.value = objectValue(remap(p.value.obj()))
			case kindAccessor:
				q.setAccessors(remap(p.getter()), remap(p.setter()))
			default:
				q.value = p.value
			}
		}
	}
	if len(src.elems) > 0 {
		dst.elems = make([]Value, len(src.elems))
		for j, v := range src.elems {
			if v.kind == KindObject {
				v = objectValue(remap(v.obj()))
			}
			dst.elems[j] = v
		}
	}
	switch s := src.slots.(type) {
	case nil:
	case Value:
		if s.kind == KindObject {
			s = objectValue(remap(s.obj()))
		}
		dst.slots = s
	case *nativeFunction:
		if s.data != nil {
			return false
		}
		dst.slots = s
	case slotCloner:
		dst.slots = s.cloneSlot(remap)
	default:
		c, copied := copyPlainSlot(s)
		if !copied {
			return false
		}
		dst.slots = c
	}
	return true
}

// copyPlainSlot copies a slot that is a pointer to a struct of plain data (numbers, booleans,
// strings; no pointers, slices, maps or interfaces), such as a random generator's state.
func copyPlainSlot(s any) (any, bool) {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	t := v.Elem().Type()
	for i := 0; i < t.NumField(); i++ {
		switch t.Field(i).Type.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.String:
		default:
			return nil, false
		}
	}
	c := reflect.New(t)
	c.Elem().Set(v.Elem())
	return c.Interface(), true
}

// nameReachable names every object reachable from the intrinsics that setups left unnamed,
// by its first property path in breadth-first, ownKeys order ("Math",
// "get Map.prototype.size"), so that snapshots can refer to every built-in object.
func (r *Realm) nameReachable() {
	queue := []*Object{r.Global}
	for _, name := range r.sortedNamesNow() {
		queue = append(queue, r.Intrinsic(name))
	}
	seen := map[*Object]bool{}
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		if seen[o] {
			continue
		}
		seen[o] = true
		base := r.nameOf(o)
		visit := func(child *Object, name string) {
			if child == nil || seen[child] {
				return
			}
			if r.nameOf(child) == "" {
				r.addIntrinsic(name, child)
			}
			queue = append(queue, child)
		}
		visit(o.proto, base+".[[Prototype]]")
		for i, k := range o.props.keys {
			p := &o.props.props[i]
			member := r.memberName(o, k)
			if p.isAccessor() {
				visit(p.getter(), "get "+member)
				visit(p.setter(), "set "+member)
				continue
			}
			visit(p.value.asObject(), member)
		}
		for i, v := range o.elems {
			visit(v.asObject(), base+"["+strconv.Itoa(i)+"]")
		}
		if v, isValue := o.slots.(Value); isValue {
			visit(v.asObject(), base+".[[Slot]]")
		}
	}
}

// sortedNamesNow lists the names registered so far, sorted.
func (r *Realm) sortedNamesNow() []string {
	out := make([]string, 0, len(r.names.index))
	for n := range r.names.index {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// namedObject creates an ordinary intrinsic object and names it.
func (r *Realm) namedObject(name string, proto *Object) *Object {
	o := r.vm.newObject(proto, ClassObject)
	r.addIntrinsic(name, o)
	return o
}

// addIntrinsic names an intrinsic object for snapshots; an object may get several names
// (the first is its primary name). Names must be unique. Only setups call it.
func (r *Realm) addIntrinsic(name string, o *Object) {
	if _, dup := r.names.find(name); dup {
		panic("interp: duplicate intrinsic " + name)
	}
	if o.iid == 0 {
		if r.objs.len() > maxIntrinsics {
			panic("interp: too many intrinsics")
		}
		o.iid = uint16(r.objs.add(o))
		r.names.names = append(r.names.names, name)
	}
	r.names.index[name] = o.iid
}

// Intrinsic returns the intrinsic object with the given name ("Map.prototype",
// "%ArrayIteratorPrototype%"), or nil.
func (r *Realm) Intrinsic(name string) *Object {
	if id, ok := r.names.find(name); ok {
		if o := r.objs.at(int(id)); o != nil {
			return o
		}
		return r.materialize(id)
	}
	return nil
}

// The prototypes of primitive values that primitiveProto finds.
const (
	protoString = iota
	protoNumber
	protoBoolean
)

var primitiveProtoNames = [...]string{protoString: "String.prototype", protoNumber: "Number.prototype",
	protoBoolean: "Boolean.prototype"}

// primitiveProto returns String.prototype, Number.prototype or Boolean.prototype (k is
// protoString, protoNumber or protoBoolean), as Intrinsic does, looking its name up once.
func (r *Realm) primitiveProto(k int) *Object {
	id := r.primIDs[k]
	if id == 0 {
		id, _ = r.names.find(primitiveProtoNames[k])
		r.primIDs[k] = id
	}
	if o := r.objs.at(int(id)); o != nil {
		return o
	}
	return r.materialize(id)
}

// nameOf returns the primary intrinsic name of o, or "" when o is not an intrinsic of r.
func (r *Realm) nameOf(o *Object) string {
	if o == nil || o.iid == 0 || int(o.iid) >= r.objs.len() || r.objs.at(int(o.iid)) != o {
		return ""
	}
	return r.names.names[o.iid]
}

// isIntrinsic reports whether o is one of r's intrinsics.
func (r *Realm) isIntrinsic(o *Object) bool {
	return o.iid != 0 && int(o.iid) < r.objs.len() && r.objs.at(int(o.iid)) == o
}

// memberName builds the stable name of a member of holder: "Map.prototype.get",
// "Array.prototype[Symbol.iterator]".
func (r *Realm) memberName(holder *Object, key PropertyKey) string {
	base := r.nameOf(holder)
	if base == "" {
		panic(fmt.Sprintf("interp: built-in member %s installed on an unnamed object", key))
	}
	if key.sym != nil {
		return base + "[" + key.sym.description.String() + "]"
	}
	if base == "globalThis" {
		return key.name
	}
	return base + "." + key.name
}

// newFunction creates a native function object named name (its "name" property) with the
// given length and stable name stable, and records it as an intrinsic.
func (r *Realm) newFunction(stable, name string, length int, fn NativeFunc) *Object {
	f := r.vm.newNativeFunction(&nativeFunction{name: stable, fn: fn}, name, length)
	r.addIntrinsic(stable, f)
	return f
}

// method installs a built-in method (writable, configurable, not enumerable) on holder.
func (r *Realm) method(holder *Object, name string, length int, fn NativeFunc) *Object {
	key := strKey(name)
	f := r.newFunction(r.memberName(holder, key), name, length, fn)
	holder.props.add(key, Property{value: objectValue(f), flags: propHidden})
	return f
}

// symbolMethod installs a built-in method under a well-known symbol key; its name property
// is "[Symbol.xxx]".
func (r *Realm) symbolMethod(holder *Object, sym *Symbol, length int, fn NativeFunc, flags propFlags) *Object {
	key := symKey(sym)
	f := r.newFunction(r.memberName(holder, key), "["+sym.description.String()+"]", length, fn)
	holder.props.add(key, Property{value: objectValue(f), flags: flags})
	return f
}

// getter installs a built-in accessor with only a getter (configurable, not enumerable).
func (r *Realm) getter(holder *Object, key PropertyKey, fn NativeFunc) *Object {
	fname := key.name
	if key.sym != nil {
		fname = "[" + key.sym.description.String() + "]"
	}
	f := r.newFunction("get "+r.memberName(holder, key), "get "+fname, 0, fn)
	holder.props.add(key, accessorProperty(f, nil, propConfigurable))
	return f
}

// accessor installs a built-in accessor with a getter and a setter (configurable, not
// enumerable); their names are "get <key>" and "set <key>".
func (r *Realm) accessor(holder *Object, key PropertyKey, get, set NativeFunc) {
	fname := key.name
	if key.sym != nil {
		fname = "[" + key.sym.description.String() + "]"
	}
	member := r.memberName(holder, key)
	g := r.newFunction("get "+member, "get "+fname, 0, get)
	s := r.newFunction("set "+member, "set "+fname, 1, set)
	holder.props.add(key, accessorProperty(g, s, propConfigurable))
}

// value installs a data property on a built-in object.
func (r *Realm) value(holder *Object, key PropertyKey, v Value, flags propFlags) {
	if p := holder.props.get(key); p != nil {
		*p = Property{value: v, flags: flags}
		return
	}
	holder.props.add(key, Property{value: v, flags: flags})
}

// newConstructor creates a built-in constructor named name with the given length and links
// it with proto (constructor.prototype non-writable, proto.constructor hidden). proto is
// named "<name>.prototype" unless it already has a name.
func (r *Realm) newConstructor(name string, length int, fn NativeFunc, proto *Object) *Object {
	c := r.newFunction(name, name, length, fn)
	c.flags |= objConstructor
	if proto != nil {
		if r.nameOf(proto) == "" {
			r.addIntrinsic(name+".prototype", proto)
		}
		c.props.add(keyPrototype, Property{value: objectValue(proto)})
		r.value(proto, keyConstructor, objectValue(c), propHidden)
	}
	return c
}

// defineGlobal installs a global binding (writable, configurable, not enumerable).
func (r *Realm) defineGlobal(name string, v Value) {
	r.value(r.Global, strKey(name), v, propHidden)
}

// initRuntime creates the realm. The VM constructor calls it once.
func (vm *VM) initRuntime() {
	vm.realm = newRealm(vm)
}

// Global returns the global object (globalThis).
func (vm *VM) Global() Value { return objectValue(vm.realm.Global) }

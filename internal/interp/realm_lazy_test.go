package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireClosed checks the invariant of lazy realms: every created intrinsic refers only to
// created intrinsics of r or to a program's objects (never to a template object), except
// that the data properties of a marked holder may hold placeholders (template objects).
func requireClosed(t *testing.T, r *Realm) {
	t.Helper()
	tr := templateRealm()
	for iid := 1; iid < r.objs.len(); iid++ {
		o := r.objs.at(iid)
		if o == nil {
			continue
		}
		refs := []*Object{o.proto}
		for i := range o.props.props {
			p := &o.props.props[i]
			refs = append(refs, p.getter(), p.setter())
			if v := p.value.asObject(); v != nil && o.lazyMarked() && r.isPlaceholder(v) {
				require.Same(t, o.lazyRealm(), r)
				require.True(t, tr.plan.holder[iid], "%s holds a placeholder", r.names.names[iid])
				continue
			}
			refs = append(refs, p.value.asObject())
		}
		for _, v := range o.elems {
			refs = append(refs, v.asObject())
		}
		if v, ok := o.slots.(Value); ok {
			refs = append(refs, v.asObject())
		}
		for _, ref := range refs {
			if ref == nil || ref.iid == 0 {
				continue // a program's object
			}
			require.True(t, r.isIntrinsic(ref), "%s refers to %s of another realm", r.names.names[iid], r.names.names[ref.iid])
		}
	}
}

// reachesTemplate reports the name of a template object reachable from v through the
// prototypes, properties and elements of a program's objects, or "" (r's intrinsics may hold
// placeholders: requireClosed checks them).
func reachesTemplate(r *Realm, v Value) string {
	tr := templateRealm()
	seen := map[*Object]bool{}
	var visit func(o *Object) string
	visit = func(o *Object) string {
		if o == nil || seen[o] {
			return ""
		}
		seen[o] = true
		if tr.isIntrinsic(o) {
			return tr.nameOf(o)
		}
		if r.isIntrinsic(o) {
			return ""
		}
		next := []*Object{o.proto}
		for i := range o.props.props {
			p := &o.props.props[i]
			next = append(next, p.value.asObject(), p.getter(), p.setter())
		}
		for _, e := range o.elems {
			next = append(next, e.asObject())
		}
		for _, n := range next {
			if name := visit(n); name != "" {
				return name
			}
		}
		return ""
	}
	return visit(v.asObject())
}

func TestLazyRealmCreatesOnlyTheEagerSet(t *testing.T) {
	t.Parallel()
	tr := templateRealm()
	require.NotNil(t, tr.plan, "the template must support lazy clones")
	vm := New(Config{})
	r := vm.realm
	require.Equal(t, len(tr.plan.eager), r.createdCount())
	require.Less(t, r.createdCount(), r.objs.len()/3)
	for _, o := range []*Object{r.ObjectPrototype, r.FunctionPrototype, r.ArrayPrototype, r.Global} {
		require.True(t, r.isIntrinsic(o))
	}
	require.Nil(t, r.ErrorPrototype, "created on first use")
	require.Nil(t, r.IteratorPrototype, "created on first use")
	for _, get := range []func() *Object{r.errorPrototype, r.iteratorPrototype, r.arrayIteratorPrototype, r.arrayConstructor} {
		o := get()
		require.True(t, r.isIntrinsic(o))
		require.Same(t, o, get())
	}
	require.Same(t, r.ErrorPrototype, r.Intrinsic("Error.prototype"))
	require.Same(t, r.ArrayConstructor, r.Intrinsic("Array"))
	requireClosed(t, r)
	r = New(Config{}).realm
	requireClosed(t, r)
	require.Nil(t, r.objs.at(int(tr.Intrinsic("Math").iid)))
	math := r.Intrinsic("Math")
	require.True(t, r.isIntrinsic(math))
	require.Nil(t, r.objs.at(int(tr.Intrinsic("Math.max").iid)), "a method is created when it is read")
	max := lookupDataProperty(math, strKey("max"))
	require.Same(t, r.objs.at(int(tr.Intrinsic("Math.max").iid)), max.obj())
	require.Same(t, max.obj(), lookupDataProperty(math, strKey("max")).obj())
	requireClosed(t, r)
	r.materializeAll()
	require.Equal(t, r.objs.len()-1, r.createdCount())
	for iid := 1; iid < r.objs.len(); iid++ {
		o := r.objs.at(iid)
		require.False(t, o.lazyMarked(), r.nameOf(o))
	}
	requireClosed(t, r)
}

// TestLazyIntrinsicsMatchTheTemplate creates every intrinsic by name, in a fresh realm each
// time, and compares its shape with the template's.
func TestLazyIntrinsicsMatchTheTemplate(t *testing.T) {
	t.Parallel()
	tr := templateRealm()
	for iid := 1; iid < tr.objs.len(); iid++ {
		name := tr.names.names[iid]
		r := New(Config{}).realm
		o := r.Intrinsic(name)
		require.NotNil(t, o, name)
		require.Equal(t, name, r.nameOf(o))
		src := tr.objs.at(iid)
		require.Equal(t, src.class, o.class, name)
		require.Equal(t, src.flags, o.programFlags(), name)
		require.Equal(t, src.props.keys, o.props.keys, name)
		require.Equal(t, len(src.elems), len(o.elems), name)
		same := func(a, b *Object) bool {
			if a == nil || b == nil {
				return a == nil && b == nil
			}
			if o.lazyMarked() && r.isPlaceholder(a) {
				return a == b
			}
			return r.isIntrinsic(a) && a.iid == b.iid
		}
		require.True(t, same(o.proto, src.proto), name)
		for i := range src.props.props {
			p, q := &o.props.props[i], &src.props.props[i]
			require.Equal(t, q.flags, p.flags, name)
			require.True(t, same(p.getter(), q.getter()) && same(p.setter(), q.setter()), name)
			switch q.value.kind {
			case KindObject:
				require.True(t, same(p.value.asObject(), q.value.obj()), "%s.%s", name, src.props.keys[i])
			case kindAccessor:
				require.Equal(t, kindAccessor, p.value.kind, "%s.%s", name, src.props.keys[i])
			default:
				require.True(t, SameValue(q.value, p.value), "%s.%s", name, src.props.keys[i])
			}
		}
		requireClosed(t, r)
	}
}

// TestLazyGlobalPaths reads the global object in every way a program can; each must see
// created intrinsics, never a placeholder, and give what a realm with every intrinsic
// created gives.
func TestLazyGlobalPaths(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src string }{
		{"identifier", `[Math, JSON, Map, Promise]`},
		{"typeof", `[typeof Math, typeof Nope, typeof JSON.parse]`},
		{"member", `[globalThis.Math, globalThis['JSON'], this === undefined]`},
		{"keys", `Object.getOwnPropertyNames(globalThis).concat(Object.keys(globalThis))`},
		{"values", `Object.getOwnPropertyNames(globalThis).map(k => globalThis[k])`},
		{"descriptors", `Object.values(Object.getOwnPropertyDescriptors(globalThis)).map(d => d.value)`},
		{"descriptor", `Object.getOwnPropertyDescriptor(globalThis, 'Math').value`},
		{"entries", `Object.entries(globalThis)`},
		{"assign", `Object.assign({}, globalThis)`},
		{"spread", `({...globalThis})`},
		{"for in", `const ks = []; for (const k in globalThis) ks.push(k); ks`},
		{"in", `['Math' in globalThis, 'Nope' in globalThis, Object.hasOwn(globalThis, 'Set')]`},
		{"json", `JSON.stringify(globalThis)`},
		{"define flags", `Object.defineProperty(globalThis, 'Math', {enumerable: true}); Object.keys(globalThis).map(k => globalThis[k])`},
		{"define value", `Object.defineProperty(globalThis, 'JSON', {value: 1}); [JSON, Math]`},
		{"delete", `delete globalThis.Math; [typeof Math, globalThis.JSON, Object.getOwnPropertyNames(globalThis).length]`},
		{"assign binding", `globalThis.Map = 5; [Map, globalThis.Set]`},
		{"freeze", `Object.freeze(globalThis); [Object.isFrozen(globalThis), Math]`},
		{"seal", `Object.seal(globalThis); [Object.isSealed(globalThis), Object.getOwnPropertyDescriptor(globalThis, 'Date').value]`},
		{"prototype chain", `const o = Object.create(globalThis); [o.Math, o.Promise, 'Set' in o]`},
		{"structured clone", `try { structuredClone(globalThis) } catch (e) { e.name }`},
		{"regexp literal", `/a/.test('a')`},
		{"console", `console.log(globalThis); [console, Symbol.iterator]`},
		{"methods", `[Math.max(1, 2), 'abc'.toUpperCase(), new Map([[1, 2]]).size, [1, 2].map(x => x * 2)]`},
		{"holder members", `[Math.max, Math['min'], String.prototype.trim, 'x'.at, Object.getOwnPropertyDescriptor(Math, 'abs').value]`},
		{"holder values", `Object.getOwnPropertyNames(Math).map(k => Math[k]).concat(Object.getOwnPropertyNames(String.prototype).map(k => String.prototype[k]))`},
		{"holder entries", `[Object.values(Object), Object.entries(Object.getOwnPropertyDescriptors(JSON)), {...Math}, Object.assign({}, Promise)]`},
		{"holder define", `Object.defineProperty(Math, 'max', {enumerable: true}); Object.keys(Math).map(k => Math[k])`},
		{"holder delete", `delete Math.abs; Object.getOwnPropertyNames(Math).map(k => Math[k])`},
		{"holder freeze", `Object.freeze(JSON); [Object.isFrozen(JSON), JSON.parse, Object.getOwnPropertyDescriptor(JSON, 'stringify').value]`},
		{"holder prototype", `Object.setPrototypeOf(Math, null); [Math.max, Object.getPrototypeOf(Math), Math.hasOwnProperty]`},
		{"constructors", `[Map.prototype, new Map() instanceof Map, Map.prototype.constructor === Map, Promise.resolve, Array.from, Object.keys]`},
		{"regexp", `['a-b'.split(/-/), /x/.exec('x'), 'abc'.replace(/b/, 'B'), 'aXbX'.replaceAll('X', '-'), [...'a1b2'.matchAll(/\d/g)].length]`},
		{"functions", `[Function.prototype.call, (function () {}).bind, Symbol.iterator in Array.prototype, Object.prototype.toString.call([])]`},
		{"iterators", `[[1, 2].values().map(x => x * 2).toArray(), new Set([1]).values().next(), Iterator.from([3]).toArray()]`},
		{"errors", `[new TypeError('x').toString(), Error.prototype.toString, Object.getPrototypeOf(RangeError) === Error]`},
		{"array prototype", `[Array.prototype.map, [].push, [1, 2].at(-1), Object.getOwnPropertyNames(Array.prototype).map(k => Array.prototype[k]), Array.prototype[Symbol.unscopables]]`},
		{"array iteration", `const a = [...[1, 2]]; for (const x of [3]) a.push(x); [a, Array.prototype[Symbol.iterator] === Array.prototype.values, [].values().next, Object.getPrototypeOf([].values()).next]`},
		{"array arguments", `const v = Array.prototype.values; Array.prototype[Symbol.iterator] = function () {}; const a = (function () { return arguments[Symbol.iterator] === v })(); delete Array.prototype[Symbol.iterator]; [a, (function () { return [...arguments] })(1, 2), (function () { return arguments[Symbol.iterator] === v })()]`},
		{"array prototype changes", `Array.prototype.push(7); Object.defineProperty(Array.prototype, 'map', {enumerable: true}); delete Array.prototype.filter; [Array.prototype.length, [][0], Object.keys(Array.prototype), [1].map(x => x + 1), [].filter]`},
		{"array prototype freeze", `Object.freeze(Array.prototype); [Object.isFrozen(Array.prototype), Array.prototype.concat, [1].concat([2])]`},
		{"array prototype proto", `Object.setPrototypeOf(Array.prototype, null); [[].map, [].hasOwnProperty, Array.prototype.slice]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			run := func(full bool) (*VM, string) {
				vm := New(Config{})
				if full {
					vm.realm.materializeAll()
				}
				require.NoError(t, vm.Start(p))
				st, err := vm.Run(context.Background(), RunOptions{})
				require.NoError(t, err)
				require.Equal(t, StatusDone, st)
				v, thrown := vm.Result()
				if thrown {
					name, msg, _, _ := vm.DescribeError(v)
					t.Fatalf("%s: %s", name, msg)
				}
				require.Empty(t, reachesTemplate(vm.realm, v), "the result reaches a template object")
				out := vm.ToGoString(vm.Call(vm.getProp(vm.realm.Intrinsic("JSON"), strKey("stringify")),
					undefinedValue, vm.newArrayValue([]Value{v, vm.String(describeIntrinsics(vm, v))})))
				return vm, out
			}
			lazy, got := run(false)
			_, want := run(true)
			require.Equal(t, want, got)
			requireClosed(t, lazy.realm)
		})
	}
}

// describeIntrinsics names the intrinsics among v and its elements and properties.
func describeIntrinsics(vm *VM, v Value) string {
	o := v.asObject()
	if o == nil {
		return ""
	}
	out := vm.realm.nameOf(o)
	for _, e := range o.elems {
		out += "," + vm.realm.nameOf(e.asObject())
	}
	for i := range o.props.props {
		out += "," + vm.realm.nameOf(o.dataValue(o.props.props[i].value).asObject())
	}
	return out
}

// lazyHostRun runs src with a host function later() until it waits on it; full creates
// every intrinsic before the program starts.
func lazyHostRun(t *testing.T, src string, full bool) *VM {
	t.Helper()
	vm := New(Config{Host: &testHost{}})
	if full {
		vm.realm.materializeAll()
	}
	return waitingVMIn(t, vm, src)
}

// TestLazySnapshotsIdentical snapshots the same program state from a realm that created
// only what the program touched and from one that created everything: the bytes are the
// same, and so is the measured heap size. Restoring gives a realm that is lazy again.
func TestLazySnapshotsIdentical(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"nothing touched", `await later(); 1`, "1"},
		{"intrinsics referenced", `const m = new Map([[1, 2]]); const up = String.prototype.toUpperCase, s = new Set([Math]);
await later(); [m.get(1), up.call('a'), s.has(Math), typeof JSON.parse].join()`, "2,A,true,function"},
		{"binding replaced", `globalThis.Math = {max: () => 7}; await later(); Math.max(1, 2)`, "7"},
		{"binding added", `globalThis.extra = [Promise, Symbol]; await later(); extra[1] === Symbol`, "true"},
		{"binding deleted", `delete globalThis.Map; await later(); typeof Map + typeof Set`, "undefinedfunction"},
		{"binding redefined", `Object.defineProperty(globalThis, 'Set', {enumerable: true}); await later(); Object.keys(globalThis).includes('Set')`, "true"},
		{"built-in changed", `Array.prototype.last = function () { return this[this.length - 1] }; Date.prototype.x = 1;
await later(); [1, 2].last() + new Date(0).x`, "3"},
		{"random state", `Math.random(); await later(); typeof Math.random()`, "number"},
		{"console state", `console.count('a'); await later(); 1`, "1"},
		{"frozen global", `Object.freeze(globalThis); await later(); Object.isFrozen(globalThis)`, "true"},
		{"methods referenced", `const f = Math.max, t = String.prototype.trim, k = Object.keys; await later(); [f(1, 5), t.call(' a '), k({x: 1})].join()`, "5,a,x"},
		{"holders changed", `Math.extra = 1; delete JSON.parse; Object.defineProperty(String.prototype, 'trim', {enumerable: true});
Object.freeze(Promise.prototype); await later(); [Math.extra, typeof JSON.parse, Object.keys(String.prototype).join(), Object.isFrozen(Promise.prototype)].join()`, "1,undefined,trim,true"},
		{"holder prototype", `Object.setPrototypeOf(JSON, null); Object.setPrototypeOf(Math.max, null); await later(); [Object.getPrototypeOf(JSON), typeof JSON.stringify, Object.getPrototypeOf(Math.max)].join()`, ",function,"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lazy, full := lazyHostRun(t, tt.src, false), lazyHostRun(t, tt.src, true)
			require.Less(t, lazy.realm.createdCount(), full.realm.createdCount())
			require.Equal(t, full.liveHeapSize(nil), lazy.liveHeapSize(nil))
			a, err := lazy.Snapshot()
			require.NoError(t, err)
			b, err := full.Snapshot()
			require.NoError(t, err)
			require.Equal(t, string(b), string(a))
			h := &testHost{}
			restored, err := Restore(a, Config{Host: h})
			require.NoError(t, err)
			require.Less(t, restored.realm.createdCount(), restored.realm.objs.len()-1, "a restored realm stays lazy")
			requireClosed(t, restored.realm)
			again, err := restored.Snapshot()
			require.NoError(t, err)
			require.Equal(t, string(a), string(again))
			id := restored.pendingHostPromises()[0]
			require.NoError(t, restored.SettleHostPromise(id, true, Undefined()))
			st, err := restored.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, thrown := restored.Result()
			require.False(t, thrown, restored.ToGoString(v))
			require.Equal(t, tt.want, restored.ToGoString(v))
			requireClosed(t, restored.realm)
		})
	}
}

// TestLazyRealmIsolation changes built-ins created lazily in one realm; another realm, and
// the template, see them pristine.
func TestLazyRealmIsolation(t *testing.T) {
	t.Parallel()
	a, b := New(Config{}), New(Config{})
	mapProto := a.realm.Intrinsic("Map.prototype")
	a.createDataProperty(mapProto, strKey("extra"), Number(1))
	a.deletePropertyOrThrow(mapProto, strKey("get"))
	a.deletePropertyOrThrow(a.realm.Global, strKey("JSON"))
	require.False(t, a.realm.Intrinsic("Map.prototype").hasOwn(strKey("get")))
	require.True(t, b.realm.Intrinsic("Map.prototype").hasOwn(strKey("get")))
	require.False(t, b.realm.Intrinsic("Map.prototype").hasOwn(strKey("extra")))
	require.True(t, b.realm.Global.hasOwn(strKey("JSON")))
	require.True(t, templateRealm().Intrinsic("Map.prototype").hasOwn(strKey("get")))
	require.True(t, templateRealm().Global.hasOwn(strKey("JSON")))
	require.NotSame(t, a.realm.Intrinsic("Map"), b.realm.Intrinsic("Map"))
	require.Same(t, a.realm.Intrinsic("Map"), lookupDataProperty(a.realm.Intrinsic("Map.prototype"), keyConstructor).obj())
	requireClosed(t, a.realm)
	requireClosed(t, b.realm)
}

// TestLazyReadsKeepPropertiesShared checks that reading built-ins' methods, and shadowing
// them on a program's objects, leave the built-ins' property slices shared with the template.
func TestLazyReadsKeepPropertiesShared(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	require.Equal(t, "2,[1],b,function,1", evalIn(t, vm, `const o = Object.create(JSON); o.stringify = 1; o.parse = 2; o.hasOwnProperty('x');
[Math.max(1, 2), JSON.stringify([1]), 'ab'.at(1), typeof Object.keys, o.stringify].join()`))
	tr := templateRealm()
	for _, name := range []string{"Math", "JSON", "String.prototype", "Object", "globalThis"} {
		o := vm.realm.Intrinsic(name)
		require.True(t, o.lazyMarked(), name)
		require.False(t, tr.plan.copy[o.iid], name)
		require.True(t, sameSlice(tr.Intrinsic(name).props.props, o.props.props), "%s copied its properties", name)
	}
	requireClosed(t, vm.realm)
}

// TestDecoderKeepsLazyMarks feeds the intrinsic-diff reader elements and lengths for a
// built-in that is not an array: it refuses them, so the length field that marks a lazy
// realm's holders (and locates their realm) only ever holds what the realm put there.
func TestDecoderKeepsLazyMarks(t *testing.T) {
	t.Parallel()
	for _, data := range []string{`{"len":3}`, `{"el":[1,2]}`} {
		t.Run(data, func(t *testing.T) {
			t.Parallel()
			vm := New(Config{})
			math := vm.realm.Intrinsic("Math")
			require.True(t, math.lazyMarked())
			mark := math.length
			d := &heapDecoder{vm: vm}
			r := &jsonReader{data: []byte(data)}
			d.readIntrinsicDiff(r, math)
			require.Error(t, r.err)
			require.Equal(t, mark, math.length)
			require.Same(t, vm.realm, math.lazyRealm())
		})
	}
}

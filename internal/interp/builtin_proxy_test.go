package interp

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProxy checks traps, forwarding without traps, and the operations of the language and
// the built-ins that must go through a proxy, against node's results for the same programs.
func TestProxy(t *testing.T) {
	t.Parallel()
	runProgramCases(t, []jsCase{
		{"get trap", `const p = new Proxy({a: 1}, {get: (t, k, r) => k === 'b' ? r === p : t[k]}); [p.a, p.b, p['a'], p[0]].join()`, "1,true,1,"},
		{"forwarding", `const t = {a: 1}; const p = new Proxy(t, {}); p.b = 2; delete p.a; [t.b, 'a' in t, 'b' in p, Object.keys(p)].join()`, "2,false,true,b"},
		{"set trap receiver", `const log = []; const p = new Proxy({}, {set(t, k, v, r) { log.push(k, v, r === p); t[k] = v * 2; return true }}); p.x = 3; [log, p.x].join()`, "x,3,true,6"},
		{"inherited get and set", `const proto = new Proxy({}, {get: (t, k, r) => k === 'hi' ? 'trapped' : undefined, set(t, k, v, r) { return Reflect.set(t, k, v, r) }}); const o = Object.create(proto); o.z = 5; [o.hi, o.z, Object.keys(o), 'hi' in o].join()`, "trapped,5,z,false"},
		{"has trap", `const p = new Proxy({}, {has: (t, k) => k.startsWith('y')}); ['yes' in p, 'no' in p].join()`, "true,false"},
		{"deleteProperty trap", `const log = []; const p = new Proxy({a: 1}, {deleteProperty(t, k) { log.push(k); return delete t[k] }}); delete p.a; [log, Object.keys(p).length].join()`, "a,0"},
		{"ownKeys and descriptors", `const p = new Proxy({}, {ownKeys: () => ['b', 'a', Symbol.iterator], getOwnPropertyDescriptor: (t, k) => ({value: String(k), enumerable: k !== 'a', configurable: true})}); [Object.keys(p), Object.getOwnPropertyNames(p), Object.getOwnPropertySymbols(p).length, JSON.stringify(Object.entries(p))].join('|')`, `b|b,a|1|[["b",null]]`},
		{"defineProperty trap", `const log = []; const p = new Proxy({}, {defineProperty(t, k, d) { log.push(k, JSON.stringify(d)); return Reflect.defineProperty(t, k, d) }}); Object.defineProperty(p, 'x', {value: 1, enumerable: true}); p.y = 2; log.join(' ')`, `x {"value":1,"enumerable":true} y {"value":2,"writable":true,"enumerable":true,"configurable":true}`},
		{"prototype traps", `const p = new Proxy({}, {getPrototypeOf: () => Array.prototype, setPrototypeOf: () => false}); [p instanceof Array, Array.prototype.isPrototypeOf(p), Object.getPrototypeOf(p) === Array.prototype, Reflect.setPrototypeOf(p, null)].join()`, "true,true,true,false"},
		{"extensibility traps", `const t = {}; const p = new Proxy(t, {preventExtensions(t) { Object.preventExtensions(t); return true }, isExtensible: t => Reflect.isExtensible(t)}); [Object.isExtensible(p), Reflect.preventExtensions(p), Object.isExtensible(p), Object.isExtensible(t)].join()`, "true,true,false,false"},
		{"freeze through proxy", `const t = {a: 1, get g() { return 1 }}; const p = new Proxy(t, {}); Object.freeze(p); [Object.isFrozen(p), Object.isFrozen(t), Object.isSealed(p)].join()`, "true,true,true"},
		{"apply trap", `const f = new Proxy(function (a, b) { return a + b }, {apply: (t, th, args) => t(...args) * 10}); [f(1, 2), f.call(null, 2, 3), f.apply(null, [3, 4]), f.bind(null, 1)(1), Reflect.apply(f, null, [1, 1])].join()`, "30,50,70,20,20"},
		{"construct trap", `const C = new Proxy(class { constructor(x) { this.x = x } }, {construct: (t, args, nt) => ({made: args[0], nt: nt === C})}); JSON.stringify([new C(5), Reflect.construct(C, [6])])`, `[{"made":5,"nt":true},{"made":6,"nt":true}]`},
		{"construct forwarding", `class A { constructor() { this.k = new.target.name } } const P = new Proxy(A, {}); const o = new P(); [o.k, o instanceof A, o instanceof P].join()`, "A,true,true"},
		{"typeof and isArray", `[typeof new Proxy({}, {}), typeof new Proxy(() => 1, {}), Array.isArray(new Proxy([], {})), Array.isArray(new Proxy(new Proxy([], {}), {})), Object.prototype.toString.call(new Proxy([], {})), Object.prototype.toString.call(new Proxy(() => 1, {}))].join()`, "object,function,true,true,[object Array],[object Function]"},
		{"json", `JSON.stringify({o: new Proxy({a: 1, b: [2]}, {}), a: new Proxy([1, {x: 2}], {})})`, `{"o":{"a":1,"b":[2]},"a":[1,{"x":2}]}`},
		{"spread rest for-in", `const p = new Proxy({a: 1, b: 2}, {}); const {a, ...rest} = p; const ks = []; for (const k in p) ks.push(k); JSON.stringify([{...p}, rest, ks, [...new Proxy([5, 6], {})], Object.assign({}, p)])`, `[{"a":1,"b":2},{"b":2},["a","b"],[5,6],{"a":1,"b":2}]`},
		{"trap order", `const log = []; const q = new Proxy({x: 1}, {get(t, k, r) { log.push('get ' + String(k)); return Reflect.get(t, k, r) }, has(t, k) { log.push('has ' + String(k)); return k in t }, ownKeys(t) { log.push('ownKeys'); return Reflect.ownKeys(t) }, getOwnPropertyDescriptor(t, k) { log.push('gopd ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k) }}); JSON.stringify(q); 'x' in q; Object.keys(q); for (const k in q) {} ({...q}); log.join(', ')`, "get toJSON, ownKeys, gopd x, get x, has x, ownKeys, gopd x, ownKeys, gopd x, ownKeys, gopd x, get x"},
		{"array methods", `const p = new Proxy([3, 1, 2], {}); [p.length, p.map(x => x * 2), Array.prototype.slice.call(p, 1), [0].concat(p), p.includes(2)].join('|')`, "3|6,2,4|1,2|0,3,1,2|true"},
		{"revocable", `const {proxy, revoke} = Proxy.revocable({a: 1}, {}); const before = proxy.a; revoke(); revoke(); let m; try { proxy.a } catch (e) { m = e.message } [before, m, typeof proxy].join('|')`, "1|Cannot perform 'get' on a proxy that has been revoked|object"},
		{"statics", `[Proxy.name, Proxy.length, Object.getOwnPropertyNames(Proxy), Proxy.revocable.length, 'prototype' in Proxy, Object.keys(Proxy.revocable({}, {}))].join('|')`, "Proxy|2|length,name,revocable|2|false|proxy,revoke"},
		{"flat looks through proxies", `const calls = []; const p = new Proxy([1, [2]], {get(t, k, r) { calls.push(String(k)); return Reflect.get(t, k, r) }}); JSON.stringify([[0, p].flat(2), calls])`, `[[0,1,2],["length","0","1"]]`},
		{"construct with a proxy revoked on the way", `const h = Proxy.revocable(function () {}, {get() { h.revoke() }}); let n; try { new h.proxy() } catch (e) { n = e.name } n`, "TypeError"},
		{"Object.prototype is an immutable prototype", `const r = []; try { Object.setPrototypeOf(Object.prototype, {}) } catch (e) { r.push(e.message) } r.push(Reflect.setPrototypeOf(Object.prototype, null), Reflect.setPrototypeOf(Object.prototype, {})); r.join()`, "Immutable prototype object 'Object.prototype' cannot have their prototype set,true,false"},
		{"private fields on proxies", `class Base { constructor(o) { return o } } class S extends Base { #x = 1; static has(o) { return #x in o } } const p = new Proxy({}, {}); new S(p); S.has(p)`, "true"},
	})
}

// TestProxyErrors checks the TypeErrors of revoked proxies and of every invariant check
// against V8's messages.
func TestProxyErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"trap not callable", `new Proxy({}, {get: 1}).x`, "TypeError: '1' returned for property 'get' of object '#<Object>' is not a function"},
		{"ownKeys non key", `Reflect.ownKeys(new Proxy({}, {ownKeys() { return [1] }}))`, "TypeError: 1 is not a valid property name"},
		{"ownKeys non object", `Reflect.ownKeys(new Proxy({}, {ownKeys() { return 1 }}))`, "TypeError: CreateListFromArrayLike called on non-object"},
		{"revoked apply", `const r = Proxy.revocable(function () {}, {}); r.revoke(); r.proxy()`, "TypeError: Cannot perform 'apply' on a proxy that has been revoked"},
		{"revoked construct", `const r = Proxy.revocable(function () {}, {}); r.revoke(); new r.proxy()`, "TypeError: Cannot perform 'construct' on a proxy that has been revoked"},
		{"revoked isArray", `const r = Proxy.revocable([], {}); r.revoke(); Array.isArray(r.proxy)`, "TypeError: Cannot perform 'IsArray' on a proxy that has been revoked"},
		{"revoked toString", `const r = Proxy.revocable({}, {}); r.revoke(); Object.prototype.toString.call(r.proxy)`, "TypeError: Cannot perform 'Object.prototype.toString' on a proxy that has been revoked"},
		{"revoked keys", `const r = Proxy.revocable({}, {}); r.revoke(); Object.keys(r.proxy)`, "TypeError: Cannot perform 'ownKeys' on a proxy that has been revoked"},
		{"non-object target", `new Proxy(1, {})`, "TypeError: Cannot create proxy with a non-object as target or handler"},
		{"call without new", `Proxy({}, {})`, "TypeError: Constructor Proxy requires 'new'"},
		{"set falsish", `const p = new Proxy({}, {set() { return false }}); p.x = 1`, "TypeError: 'set' on proxy: trap returned falsish for property 'x'"},
		{"delete falsish", `const p = new Proxy({}, {deleteProperty() { return false }}); delete p.x`, "TypeError: 'deleteProperty' on proxy: trap returned falsish for property 'x'"},
		{"define falsish", `Object.defineProperty(new Proxy({}, {defineProperty() { return false }}), 'x', {value: 1})`, "TypeError: 'defineProperty' on proxy: trap returned falsish for property 'x'"},
		{"preventExtensions falsish", `Object.preventExtensions(new Proxy({}, {preventExtensions() { return false }}))`, "TypeError: 'preventExtensions' on proxy: trap returned falsish"},
		{"construct non-object", `const p = new Proxy(function () {}, {construct() { return 1 }}); new p`, "TypeError: 'construct' on proxy: trap returned non-object ('1')"},
		{"get frozen data", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); new Proxy(t, {get() { return 2 }}).x`, "TypeError: 'get' on proxy: property 'x' is a read-only and non-configurable data property on the proxy target but the proxy did not return its actual value (expected '1' but got '2')"},
		{"get accessor without getter", `const t = {}; Object.defineProperty(t, 'x', {set() {}}); new Proxy(t, {get() { return 1 }}).x`, "TypeError: 'get' on proxy: property 'x' is a non-configurable accessor property on the proxy target and does not have a getter function, but the trap did not return 'undefined' (got '1')"},
		{"ownKeys missing", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); Object.keys(new Proxy(t, {ownKeys() { return [] }}))`, "TypeError: 'ownKeys' on proxy: trap result did not include 'x'"},
		{"ownKeys duplicates", `Object.keys(new Proxy({}, {ownKeys() { return ['a', 'a'] }}))`, "TypeError: 'ownKeys' on proxy: trap returned duplicate entries"},
		{"ownKeys extra", `const t = {}; Object.preventExtensions(t); Object.keys(new Proxy(t, {ownKeys() { return ['a'] }}))`, "TypeError: 'ownKeys' on proxy: trap returned extra keys but proxy target is non-extensible"},
		{"isExtensible", `const t = {}; Object.preventExtensions(t); Object.isExtensible(new Proxy(t, {isExtensible() { return true }}))`, "TypeError: 'isExtensible' on proxy: trap result does not reflect extensibility of proxy target (which is 'false')"},
		{"preventExtensions truish", `Object.preventExtensions(new Proxy({}, {preventExtensions() { return true }}))`, "TypeError: 'preventExtensions' on proxy: trap returned truish but the proxy target is extensible"},
		{"getPrototypeOf invalid", `Object.getPrototypeOf(new Proxy({}, {getPrototypeOf() { return 1 }}))`, "TypeError: 'getPrototypeOf' on proxy: trap returned neither object nor null"},
		{"getPrototypeOf non-extensible", `const t = {}; Object.preventExtensions(t); Object.getPrototypeOf(new Proxy(t, {getPrototypeOf() { return null }}))`, "TypeError: 'getPrototypeOf' on proxy: proxy target is non-extensible but the trap did not return its actual prototype"},
		{"setPrototypeOf non-extensible", `const t = {}; Object.preventExtensions(t); Object.setPrototypeOf(new Proxy(t, {setPrototypeOf() { return true }}), null)`, "TypeError: 'setPrototypeOf' on proxy: trap returned truish for setting a new prototype on the non-extensible proxy target"},
		{"gopd invalid", `Object.getOwnPropertyDescriptor(new Proxy({}, {getOwnPropertyDescriptor() { return 1 }}), 'x')`, "TypeError: 'getOwnPropertyDescriptor' on proxy: trap returned neither object nor undefined for property 'x'"},
		{"gopd non-configurable", `Object.getOwnPropertyDescriptor(new Proxy({}, {getOwnPropertyDescriptor() { return {configurable: false} }}), 'x')`, "TypeError: 'getOwnPropertyDescriptor' on proxy: trap reported non-configurability for property 'x' which is either non-existent or configurable in the proxy target"},
		{"gopd undefined for fixed", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); Object.getOwnPropertyDescriptor(new Proxy(t, {getOwnPropertyDescriptor() {}}), 'x')`, "TypeError: 'getOwnPropertyDescriptor' on proxy: trap returned undefined for property 'x' which is non-configurable in the proxy target"},
		{"gopd undefined non-extensible", `const t = {x: 1}; Object.preventExtensions(t); Object.getOwnPropertyDescriptor(new Proxy(t, {getOwnPropertyDescriptor() {}}), 'x')`, "TypeError: 'getOwnPropertyDescriptor' on proxy: trap returned undefined for property 'x' which exists in the non-extensible proxy target"},
		{"gopd incompatible", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); Object.getOwnPropertyDescriptor(new Proxy(t, {getOwnPropertyDescriptor() { return {value: 2, configurable: false} }}), 'x')`, "TypeError: 'getOwnPropertyDescriptor' on proxy: trap returned descriptor for property 'x' that is incompatible with the existing property in the proxy target"},
		{"define non-configurable", `Object.defineProperty(new Proxy({}, {defineProperty() { return true }}), 'x', {value: 1, configurable: false})`, "TypeError: 'defineProperty' on proxy: trap returned truish for defining non-configurable property 'x' which is either non-existent or configurable in the proxy target"},
		{"define non-extensible", `const t = {}; Object.preventExtensions(t); Object.defineProperty(new Proxy(t, {defineProperty() { return true }}), 'x', {value: 1})`, "TypeError: 'defineProperty' on proxy: trap returned truish for adding property 'x'  to the non-extensible proxy target"},
		{"define incompatible", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); Object.defineProperty(new Proxy(t, {defineProperty() { return true }}), 'x', {value: 2})`, "TypeError: 'defineProperty' on proxy: trap returned truish for adding property 'x'  that is incompatible with the existing property in the proxy target"},
		{"define non-writable", `const t = {}; Object.defineProperty(t, 'x', {value: 1, writable: true}); Object.defineProperty(new Proxy(t, {defineProperty() { return true }}), 'x', {value: 1, writable: false, configurable: false})`, "TypeError: 'defineProperty' on proxy: trap returned truish for defining non-configurable property 'x' which cannot be non-writable, unless there exists a corresponding non-configurable, non-writable own property of the target object."},
		{"has non-configurable", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); 'x' in new Proxy(t, {has() { return false }})`, "TypeError: 'has' on proxy: trap returned falsish for property 'x' which exists in the proxy target as non-configurable"},
		{"has non-extensible", `const t = {x: 1}; Object.preventExtensions(t); 'x' in new Proxy(t, {has() { return false }})`, "TypeError: 'has' on proxy: trap returned falsish for property 'x' but the proxy target is not extensible"},
		{"delete non-configurable", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); delete new Proxy(t, {deleteProperty() { return true }}).x`, "TypeError: 'deleteProperty' on proxy: trap returned truish for property 'x' which is non-configurable in the proxy target"},
		{"delete non-extensible", `const t = {x: 1}; Object.preventExtensions(t); delete new Proxy(t, {deleteProperty() { return true }}).x`, "TypeError: 'deleteProperty' on proxy: trap returned truish for property 'x' but the proxy target is non-extensible"},
		{"set frozen data", `const t = {}; Object.defineProperty(t, 'x', {value: 1}); new Proxy(t, {set() { return true }}).x = 2`, "TypeError: 'set' on proxy: trap returned truish for property 'x' which exists in the proxy target as a non-configurable and non-writable data property with a different value"},
		{"set accessor without setter", `const t = {}; Object.defineProperty(t, 'x', {get() {}}); new Proxy(t, {set() { return true }}).x = 2`, "TypeError: 'set' on proxy: trap returned truish for property 'x' which exists in the proxy target as a non-configurable and non-writable accessor property without a setter"},
		{"not callable", `new Proxy({}, {})()`, "TypeError: (intermediate value) is not a function"},
		{"structuredClone of an object proxy", `structuredClone({a: new Proxy({}, {})})`, "DataCloneError: #<Object> could not be cloned."},
		{"structuredClone of an array proxy", `structuredClone(new Proxy([1], {}))`, "DataCloneError: [object Array] could not be cloned."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tt.src)
			require.True(t, thrown, got)
			require.Equal(t, tt.want, got)
		})
	}
}

// TestProxyInspect checks that console.log shows a proxy as node does: as its target.
func TestProxyInspect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"object", `new Proxy({a: 1, b: [1, 2]}, {get: () => 5})`, "{ a: 1, b: [ 1, 2 ] }"},
		{"array", `new Proxy([1, 2, 3], {})`, "[ 1, 2, 3 ]"},
		{"function", `new Proxy(function foo() {}, {})`, "[Function: foo]"},
		{"map", `new Proxy(new Map([[1, 2]]), {})`, "Map(1) { 1 => 2 }"},
		{"revoked", `(() => { const r = Proxy.revocable({}, {}); r.revoke(); return [r.proxy] })()`, "[ <Revoked Proxy> ]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			st, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, thrown := vm.Result()
			require.False(t, thrown)
			require.Equal(t, tt.want, vm.consoleFormat([]Value{v}))
		})
	}
}

// TestProxySnapshots runs programs holding proxies (live, revoked, callable, with a revoke
// function still to call) restoring from a snapshot every few instructions, in both formats.
func TestProxySnapshots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"live proxy", `const log = []; const p = new Proxy({a: 1}, {get(t, k) { log.push(k); return t[k] }}); let s = 0; for (let i = 0; i < 20; i++) s += p.a; [s, log.length].join()`, "20,20"},
		{"revoke after restore", `const r = Proxy.revocable({a: 1}, {}); let s = 0; for (let i = 0; i < 20; i++) s += r.proxy.a; r.revoke(); let m; try { r.proxy.a } catch (e) { m = e.message } [s, m].join('|')`, "20|Cannot perform 'get' on a proxy that has been revoked"},
		{"revoked before", `const r = Proxy.revocable(() => 1, {}); r.revoke(); let n = 0; for (let i = 0; i < 20; i++) n += i; let m; try { r.proxy() } catch (e) { m = e.message } [n, typeof r.proxy, m].join('|')`, "190|function|Cannot perform 'apply' on a proxy that has been revoked"},
		{"callable", `const f = new Proxy((a, b) => a + b, {apply: (t, th, args) => t(...args) + 1}); let s = 0; for (let i = 0; i < 20; i++) s += f(i, 1); s`, "230"},
	}
	for _, tt := range tests {
		for _, format1 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/format1=%v", tt.name, format1), func(t *testing.T) {
				t.Parallel()
				got, thrown, snaps := runWithSnapshotsIn(t, tt.src, 7, format1)
				require.False(t, thrown, got)
				require.Equal(t, tt.want, got)
				require.Positive(t, snaps)
			})
		}
	}
}

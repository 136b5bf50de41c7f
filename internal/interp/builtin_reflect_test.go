package interp

import "testing"

// TestReflect checks every Reflect function, its errors and the receivers of get and set
// against node's results for the same program.
func TestReflect(t *testing.T) {
	t.Parallel()
	got, thrown := runProgram(t, reflectProgram)
	if thrown || got != reflectWant {
		t.Fatalf("got %s\nwant %s", got, reflectWant)
	}
}

const reflectProgram = `const r = [];
try { Reflect.get(1, "a") } catch (e) { r.push(e.message) }
try { Reflect.apply(1) } catch (e) { r.push(e.message) }
try { Reflect.construct(() => 1, []) } catch (e) { r.push(e.message) }
try { Reflect.construct(function(){}, [], () => 1) } catch (e) { r.push(e.message) }
try { Reflect.setPrototypeOf({}, 1) } catch (e) { r.push(e.message) }
try { Reflect.ownKeys(null) } catch (e) { r.push(e.message) }
try { Reflect.defineProperty(1, "x", {}) } catch (e) { r.push(e.message) }
const o = {a: 1, get g() { return this.a }, [Symbol.for("s")]: 2};
Object.defineProperty(o, "fixed", {value: 3});
class A { constructor(x) { this.x = x; this.nt = new.target === B } }
class B extends A {}
const frozen = Object.freeze({k: 1});
r.push(Reflect.get(o, "g", {a: 42}), Reflect.has(o, "a"), Reflect.has(o, "toString"),
  Reflect.ownKeys(o).map(String), Reflect.set(o, "a", 5), o.a, Reflect.set(frozen, "k", 2), frozen.k,
  Reflect.deleteProperty(o, "fixed"), Reflect.deleteProperty(o, "a"), "a" in o,
  Reflect.defineProperty(frozen, "z", {value: 1}), Reflect.defineProperty(o, "n", {value: 1, enumerable: true}),
  JSON.stringify(Reflect.getOwnPropertyDescriptor(o, "n")), Reflect.getPrototypeOf([]) === Array.prototype,
  Reflect.isExtensible(frozen), Reflect.preventExtensions({}), Reflect.setPrototypeOf(frozen, null),
  Reflect.apply(Math.max, null, [1, 3, 2]), Reflect.construct(A, [7]).x, Reflect.construct(A, [7], B).nt,
  Reflect.construct(Date, [0]) instanceof Date, String(Reflect), Object.getOwnPropertyNames(Reflect).join());
const tgt = {}; const recv = {}; Reflect.set({set v(x) { this.w = x }}, "v", 9, recv); r.push(recv.w);
JSON.stringify(r)
`

const reflectWant = `["Reflect.get called on non-object","Function.prototype.apply was called on 1, which is a number and not a function","() => 1 is not a constructor","() => 1 is not a constructor","Object prototype may only be an Object or null: 1","Reflect.ownKeys called on non-object","Reflect.defineProperty called on non-object",42,true,true,["a","g","fixed","Symbol(s)"],true,5,false,1,false,true,false,false,true,"{\"value\":1,\"writable\":false,\"enumerable\":true,\"configurable\":false}",true,false,true,false,3,7,true,true,"[object Reflect]","defineProperty,deleteProperty,apply,construct,get,getOwnPropertyDescriptor,getPrototypeOf,has,isExtensible,ownKeys,preventExtensions,set,setPrototypeOf",9]`

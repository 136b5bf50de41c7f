package interp

import "testing"

// TestPropertyHints runs one read and one write site over objects that have the key at other
// positions, not at all, on their prototype, as an accessor, frozen, and after a delete, so
// that every hint the sites keep is wrong for some of them (results from node).
func TestPropertyHints(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{{"mixed_objects", `function get(o) { return o.x }
function set(o, v) { o.x = v; return o.x }
const a = {x: 1, y: 2}, b = {y: 3, x: 4}, c = {y: 5}, d = Object.create({x: 6}), e = {y: 0, get x() { return 7 }}, f = Object.freeze({x: 8})
const g = {y: 0, set x(v) { this.log = v }}
const r = [get(a), get(b), get(c), get(d), get(e), get(f), get(a), get(b)]
r.push(set(a, 10), set(b, 11), set(g, 12), g.log, set(c, 13), set(d, 14), Object.getPrototypeOf(d).x)
try { set(f, 15) } catch (err) { r.push(err.name) }
delete a.x
r.push(get(a), set(a, 16), get(a), Object.keys(a).join(''))
r.join()`, "1,4,,6,7,8,1,4,10,11,,12,13,14,6,TypeError,,16,16,yx"},
		{"inherited", `function m(o) { return o.m }
class A { m() { return 'A' } n() {} }
class B { k() {} m() { return 'B' } }
const a = new A(), b = new B(), p = {q: 1, m: 'p'}, c = Object.create(p), n = Object.create(null)
const r = [m(a)(), m(b)(), m(a)(), m(c), m(n), m({})]
a.m = () => 'own'
r.push(m(a)(), m(new A())())
A.prototype.m = () => 'replaced'
r.push(m(new A())())
delete A.prototype.m
r.push(m(new A()), m(b)())
Object.defineProperty(B.prototype, 'm', {get() { return () => 'getter:' + (this === b) }})
r.push(m(b)(), m(Object.create(b))())
p.m = 'p2'
r.push(m(c), m(Object.create(c)), m([]) === Array.prototype.m, m('str'), m(Object.create(new B()))())
const len = o => o.length
r.push(len([1, 2]), len('abc'), len({length: 5}), len(Object.create([1])), len(function (x, y) {}), len(new String('ab')))
r.join()`, "A,B,A,p,,,own,A,replaced,,B,getter:true,getter:false,p2,p2,true,,getter:false,2,3,5,1,2,2"},
		{"functions", `function get(o) { return o.s }
class C { static s = 'static' }
class D extends C {}
function F() {}
F.s = 'prop'
const bound = F.bind(null)
const r = [get(C), get(D), get(F), get(bound), get(Math.max), get(C), get(F)]
Function.prototype.s = 'inherited'
r.push(get(bound), get(Math.max), get(() => 1), get(F))
Object.defineProperty(C, 's', {get() { return 'getter' }})
r.push(get(C), get(D))
delete F.s
r.push(get(F))
delete Function.prototype.s
r.push(get(F), get(bound))
r.join()`, "static,static,prop,,,static,prop,inherited,inherited,inherited,prop,getter,getter,inherited,,"}})
}

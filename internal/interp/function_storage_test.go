package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConstructedObjectStorage checks that an object made by a constructor starts with room
// for as many properties as the constructor's previous object had when it returned, and that
// the objects keep their own properties in order whatever the room they start with.
func TestConstructedObjectStorage(t *testing.T) {
	t.Parallel()
	src := `
function P(n) { for (var i = 0; i < n; i++) this['k' + i] = i; }
var a = new P(3);
a.extra1 = 1; a.extra2 = 2; a.extra3 = 3; a.extra4 = 4; a.extra5 = 5; a.extra6 = 6;
var b = new P(2);
var c = new P(20);
var d = new P(1);
globalThis.objs = [a, b, c, d];
[Object.keys(a).join(), Object.keys(b).join(), Object.keys(c).length, Object.keys(d).join(),
 c.k19, b.k1, d.k1, a.extra6].join('|')`
	vm := New(Config{})
	got := evalIn(t, vm, src)
	require.Equal(t, "k0,k1,k2,extra1,extra2,extra3,extra4,extra5,extra6|k0,k1|20|k0|19|1||6", got)
	objs := vm.getProp(vm.realm.Global, strKey("objs")).obj().elems
	// d starts with room for the 20 properties c had when P returned
	require.GreaterOrEqual(t, cap(objs[3].obj().props.keys), 20)
}

// TestFunctionPrototypeStorage checks a function's prototype object, which starts with room
// for its constructor property only, as methods are added to it.
func TestFunctionPrototypeStorage(t *testing.T) {
	t.Parallel()
	require.Equal(t, "constructor,a,b,c,d,e,f,g,h,i,j|true|10", evalJS(t, `
function C() {}
var names = 'abcdefghij'.split('');
names.forEach(function (n, i) { C.prototype[n] = function () { return i + 1; }; });
[Object.getOwnPropertyNames(C.prototype).join(), C.prototype.constructor === C, new C().j()].join('|')`))
}

// TestExactStorageGrows checks the objects made with room for exactly their properties (a
// function's, an iterator result's, a regular expression literal's) as more are added.
func TestExactStorageGrows(t *testing.T) {
	t.Parallel()
	require.Equal(t, "length,name,a,b,c|value,done,x,y,z|lastIndex,p,q|length,name,prototype,m|3", evalJS(t, `
var f = () => 1; f.a = 1; f.b = 2; f.c = 3;
var r = [1][Symbol.iterator]().next(); r.x = 1; r.y = 2; r.z = 3;
var re = /a/g; re.p = 1; re.q = 2;
function g() {} g.m = 1;
[Object.getOwnPropertyNames(f).join(), Object.keys(r).join(), Object.getOwnPropertyNames(re).join(),
 Object.getOwnPropertyNames(g).join(), f.c].join('|')`))
	vm := New(Config{})
	evalIn(t, vm, `globalThis.h = x => x; globalThis.k = function () {}`)
	require.Equal(t, 2, cap(vm.getProp(vm.realm.Global, strKey("h")).obj().props.keys))
	require.Equal(t, 1, cap(vm.getProp(vm.getProp(vm.realm.Global, strKey("k")).obj(), keyPrototype).obj().props.keys))
}

// TestConstructorSizeHintIsTakenAtReturn checks that the room a constructor's next object
// starts with is the count of properties its previous object had when the constructor
// returned (the hint is a number, so it keeps no object alive); properties added later do
// not change it.
func TestConstructorSizeHintIsTakenAtReturn(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	got := evalIn(t, vm, `
function P() { for (var i = 0; i < 8; i++) this['k' + i] = i; }
globalThis.P = P;
var p = new P();
for (var i = 0; i < 30; i++) p['late' + i] = i;
Object.keys(p).length`)
	require.Equal(t, "38", got)
	cl := vm.getProp(vm.realm.Global, strKey("P")).obj().slots.(*closureSlots)
	require.EqualValues(t, 8, cl.newSize)
}

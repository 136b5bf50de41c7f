package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConstructedObjectStorage checks that an object made by a constructor starts with room
// for as many properties as the constructor's previous object has, and that the objects keep
// their own properties in order whatever the room they start with.
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
	// b starts with room for a's 9 properties, d for c's 20
	require.GreaterOrEqual(t, cap(objs[1].obj().props.keys), 9)
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
